"""A person's own page: hands played per game, contracts declared and made, their rating and
what it still waits for, the hands that count in no rating, their recent tables."""

import random
from types import SimpleNamespace

import pytest
from django.core.management import call_command

from games import dealing, tables, words
from games.models import Seat, Table
from ratings.models import Rating

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery"


@pytest.fixture
def ana(django_user_model, client):
    user = django_user_model.objects.create_user("ana", "ana@example.org", PASSWORD)
    client.force_login(user)
    return user


def play_hands(table: Table, hands: int, seed: int = 1) -> None:
    """``hands`` finished hands (a redeal included, if one comes), by random legal moves."""
    rng = random.Random(seed)
    while table.hands.count() < hands:
        table.refresh_from_db()
        state = tables.current_state(table)
        seat = Seat.objects.get(table=table, position=state.to_act)
        action = state.random_action(rng)
        if seat.user_id:
            tables.play(table.pk, seat.user, action, table.version)
        else:
            tables.play_for_computer(table.pk, seat.position, action, table.version)


def table_of(people, game="solo_whist") -> Table:
    table = tables.create_table(people[0], game, {})
    for position, person in enumerate(people):
        tables.take_seat(table.pk, person, position)
    tables.fill_seats(table.pk, people[0])
    return Table.objects.get(pk=table.pk)


def test_the_page_counts_hands_and_contracts_and_says_what_the_rating_waits_for(
        client, ana, django_user_model, monkeypatch):
    # Seeded deals as well as moves: with random deals Ana and Bob were, once, on the same side
    # of every hand, and no hand could move a rating.
    deals = random.Random(3)
    monkeypatch.setattr(dealing, "secrets", SimpleNamespace(SystemRandom=lambda: deals))
    bob = django_user_model.objects.create_user("bob", "bob@example.org", PASSWORD)
    with_bob = table_of([ana, bob])
    play_hands(with_bob, 6)
    alone = table_of([ana])
    play_hands(alone, 3, seed=2)
    call_command("rate", "--rebuild")
    expected_hands = expected_declared = expected_made = 0
    for table in (with_bob, alone):
        seat = Seat.objects.get(table=table, user=ana).position
        for hand in table.hands.all():
            if hand.result.get("redeal"):
                continue
            expected_hands += 1
            for declarers, made in words.of("solo_whist").declared(hand.result):
                expected_declared += seat in declarers
                expected_made += made and seat in declarers
    page = client.get("/accounts/games/").content.decode()
    row = page[page.index("Solo Whist</a></th>"):]
    row = row[:row.index("</tr>")]
    assert f"<td>{expected_hands}</td><td>{expected_declared}</td>" in row
    if expected_declared:
        assert f"<td>{expected_made} (" in row
    assert " ± " in row  # her rating, from the hands with Bob
    counted = Rating.objects.get(scope="site", game="solo_whist", player=f"u:{ana.pk}").online
    assert 0 < counted <= 6
    assert f"provisional: on the site's list after 20 hands at online tables against other people ({counted} so far)" in page
    not_counted = expected_hands - counted
    assert f"{not_counted} hands count in no rating: only hands against another person" in page
    assert f'href="/tables/{alone.pk}/"' in page and f'href="/tables/{with_bob.pk}/"' in page


def test_hands_with_computer_players_only_say_so_instead_of_a_silent_blank(client, ana):
    play_hands(table_of([ana], "belgian_whist"), 2)
    call_command("rate", "--rebuild")
    page = client.get("/accounts/games/").content.decode()
    assert "Belgian Whist" in page
    assert "not rated yet: hands at tables with other people count." in page
    assert "count in no rating" in page


def test_nothing_played_yet_points_to_a_game(client, ana):
    page = client.get("/accounts/games/").content.decode()
    assert "You have not finished a hand at an online table yet." in page


def test_the_name_in_the_header_leads_to_the_page(client, ana):
    assert 'href="/accounts/games/"' in client.get("/").content.decode()
    assert client.get("/accounts/games/").status_code == 200


def test_a_guest_is_told_guests_are_not_rated(client):
    client.post("/tables/play/solo_whist/", REMOTE_ADDR="203.0.113.8")
    page = client.get("/accounts/games/").content.decode()
    assert "Guests are not rated." in page
    profile = client.get("/accounts/profile/").content.decode()
    assert "a guest" in profile and "guest-" not in profile
    assert "Change your password" not in profile
