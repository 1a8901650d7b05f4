"""The events' pages: the list, creating one (refusals in plain words), an event's page with
Register / Withdraw / Start now, each person's own table once formed, the standings and the
travellers of finished rounds."""

from datetime import timedelta

import pytest
from django import forms
from django.utils import timezone

from events import running
from events.forms import EventForm
from events.models import Event
from tests.events.conftest import new_event, play_round

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_players_wait")]



def rule_data(game):
    """The game's house rules as the form offers them (the usual ones), as a browser posts."""
    form = EventForm(game)
    data = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if not name.startswith("rule_") or value is None:
            continue
        if isinstance(field, forms.BooleanField):
            if value:
                data[name] = "on"
        else:
            data[name] = value
    return data


def form_data(game="bid_whist", **changes):
    start = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    return {"name": "Friday pairs", "starts_at": start, "rounds": "3", "deals_per_round": "4",
            "visibility": "public", "computer_level": "normal", "move_seconds": "60",
            "late_deals": "computers", "format": "swiss", **rule_data(game), **changes}


def test_a_signed_in_person_creates_an_event_and_it_is_listed(client, make_people):
    (org,) = make_people("org")
    client.force_login(org)
    response = client.post("/events/new/bid_whist/", form_data())
    event = Event.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/events/{event.pk}/"
    assert (event.organiser, event.game, event.rounds, event.deals_per_round) == (
        org, "bid_whist", 3, 4)
    page = client.get("/events/").content.decode()
    assert "Friday pairs" in page
    # The clock left empty: 6 minutes a deal; the time for a move and the late deals chosen.
    assert (event.round_minutes, event.move_seconds, event.late_deals) == (24, 60, "computers")
    client.post("/events/new/bid_whist/", form_data(round_minutes="30", move_seconds="120",
                                                    late_deals="average_minus"))
    chosen = Event.objects.latest("pk")
    assert (chosen.round_minutes, chosen.move_seconds, chosen.late_deals) == (
        30, 120, Event.LateDeals.AVERAGE_MINUS)


def test_a_visitor_is_asked_to_log_in_to_create(client):
    response = client.get("/events/new/bid_whist/")
    assert response.status_code == 302 and "/login/" in response["Location"]


@pytest.mark.parametrize(("changes", "words"), [
    ({"starts_at": "2020-01-01T10:00"}, "The start is in the past: choose a later time."),
    ({"rounds": "0"}, "An event has at least one round."),
    ({"rounds": "40"}, "An event has at most 12 rounds."),
    ({"deals_per_round": "0"}, "A round has at least one deal."),
    ({"rounds": "10", "deals_per_round": "8"}, "That is too many deals: 10 rounds of 8 deals"),
    ({"name": ""}, "Give the event a name."),
    ({"starts_at": "soon"}, "Give the start as a date and a time."),
    ({"round_minutes": "7"},
     "That is too short: a round of 4 deals needs at least 8 minutes (2 a deal)."),
    ({"round_minutes": "121"}, "A round lasts at most 120 minutes."),
    ({"round_minutes": "ten"}, "The minutes per round are a whole number."),
    ({"move_seconds": "45"}, "Choose one of the times offered for a move."),
    ({"late_deals": "never"}, "Choose what becomes of the deals not finished in time."),
])
def test_the_form_refuses_in_plain_words(client, make_people, changes, words):
    (org,) = make_people("org")
    client.force_login(org)
    response = client.post("/events/new/solo_whist/", form_data("solo_whist", **changes))
    assert response.status_code == 200
    assert words in response.content.decode()
    assert not Event.objects.exists()


def test_register_withdraw_and_start_from_the_event_page(client, make_people):
    org, ana = make_people("org", "ana")
    event = new_event(org)
    client.force_login(ana)
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "The tables are formed at the start." in page and "Start now" not in page
    client.post(f"/events/{event.pk}/register/")
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "You are registered." in page and "Withdraw" in page
    assert client.post(f"/events/{event.pk}/start/").status_code == 302
    assert Event.objects.get().status == Event.Status.REGISTRATION  # not the organiser's
    client.post(f"/events/{event.pk}/withdraw/")
    assert running.registered(event) == []
    client.post(f"/events/{event.pk}/register/")
    client.force_login(org)
    assert "Start now" in client.get(f"/events/{event.pk}/").content.decode()
    client.post(f"/events/{event.pk}/start/")
    event.refresh_from_db()
    assert event.status == Event.Status.PLAYING
    client.force_login(ana)
    page = client.get(f"/events/{event.pk}/").content.decode()
    table = event.event_rounds.get().tables.get().table
    assert f'href="/tables/{table.pk}/"' in page and "Go to your table" in page
    # The event gives its table's seats: the table invites nobody to them.
    at_table = client.get(f"/tables/{table.pk}/").content.decode()
    assert "Invite link" not in at_table and table.invite_token not in at_table


def test_the_standings_and_travellers_once_a_round_is_over(client, make_people):
    org, *players = make_people("org", "a1", "a2", "a3", "a4", "a5")
    event = new_event(org, rounds=2, deals_per_round=1)
    for person in players:
        running.register(event, person)
    running.start(event, org)
    before = client.get(f"/events/{event.pk}/deals/1/").content.decode()
    assert "This deal's results are shown when every table has played it." in before
    assert "No round is over yet" in client.get(f"/events/{event.pk}/standings/").content.decode()
    play_round(event, 1)
    page = client.get(f"/events/{event.pk}/deals/1/").content.decode()
    assert "Table 1" in page and "Table 2" in page and "Replay this table" in page
    table = event.event_rounds.get(number=1).tables.first().table
    assert client.get(f"/tables/{table.pk}/hands/1/").status_code == 200
    standings = client.get(f"/events/{event.pk}/standings/").content.decode()
    for person in players:
        assert person.username in standings
    assert client.get(f"/events/{event.pk}/deals/3/").status_code == 404


@pytest.mark.parametrize(("language", "words"), [
    ("fr", "Les tables sont formées au début."), ("nl", "De tafels worden bij het begin"),
    ("pt", "As mesas são formadas no início.")])
def test_the_event_page_speaks_the_readers_language(client, make_people, language, words):
    (org,) = make_people("org")
    event = new_event(org)
    page = client.get(f"/events/{event.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert words in page


def round_one_played(client, make_people, players: int):
    """An event of two rounds of one deal, its first round over; ``client`` its organiser."""
    org, *people = make_people("org", *[f"a{n}" for n in range(players)])
    event = new_event(org, rounds=2, deals_per_round=1)
    for person in people:
        running.register(event, person)
    running.start(event, org)
    play_round(event, 1)
    client.force_login(org)
    return event


def test_a_traveller_and_the_standings_read_the_same_few_queries_at_any_number_of_tables(
        client, make_people, django_assert_max_num_queries):
    """A field of 100 tables must not cost a query per table or per player (bench/events.py
    --site): 3 tables here, the same reads as 100."""
    event = round_one_played(client, make_people, 12)
    for url, most in ((f"/events/{event.pk}/deals/1/", 10),
                      (f"/events/{event.pk}/standings/", 12)):
        client.get(url)
        with django_assert_max_num_queries(most):
            assert client.get(url).status_code == 200


def main_of(page: str) -> str:
    """What the page says (a form's token in the header changes at each answer)."""
    return page.split("<main", 1)[1].split("</main>", 1)[0]


def test_a_finished_rounds_pages_are_kept_and_the_next_round_shows_at_once(
        client, make_people):
    """Everyone opens the same traveller and standings when a round ends: they are counted
    once and kept, and the next round's end shows in the standings at once."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    event = round_one_played(client, make_people, 8)
    url = f"/events/{event.pk}/deals/1/"
    with CaptureQueriesContext(connection) as first:
        page = client.get(url).content.decode()
    with CaptureQueriesContext(connection) as again:
        assert main_of(client.get(url).content.decode()) == main_of(page)
    assert len(again) < len(first) - 2
    standings = f"/events/{event.pk}/standings/"
    after_one = client.get(standings).content.decode()
    assert "After 1 round." in after_one
    assert main_of(client.get(standings).content.decode()) == main_of(after_one)  # kept
    play_round(event, 2)  # the next round, formed when the first ended
    after_two = client.get(standings).content.decode()
    assert "After 2 rounds." in after_two
    # kept per language: the French reader reads French
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Revoir le jeu de cette table" in french and "Revoir" not in page


def test_an_arena_is_created_with_its_length_and_refused_in_plain_words(client, make_people):
    (org,) = make_people("org")
    client.force_login(org)
    form = client.get("/events/new/bid_whist/").content.decode()
    assert "Length of the arena (minutes)" in form and "Swiss rounds" in form
    response = client.post("/events/new/bid_whist/", form_data(
        format="arena", arena_minutes="45", deals_per_round="2", rounds="", round_minutes=""))
    event = Event.objects.get()
    assert response.status_code == 302
    assert (event.format, event.arena_minutes, event.deals_per_round, event.rounds) == (
        Event.Format.ARENA, 45, 2, 1)
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "Arena of 45 minutes, 2 deals a table" in page and "60 seconds a move" in page


@pytest.mark.parametrize(("changes", "words"), [
    ({}, "Say how long the arena lasts, in minutes."),
    ({"arena_minutes": "5"}, "An arena lasts at least 10 minutes."),
    ({"arena_minutes": "200"}, "An arena lasts at most 180 minutes."),
    ({"arena_minutes": "an hour"}, "The length of the arena is a whole number of minutes."),
    ({"arena_minutes": "12", "deals_per_round": "8"},
     "That is too short for one table: 8 deals need at least 16 minutes (2 a deal)."),
    ({"arena_minutes": "30", "deals_per_round": "0"}, "A round has at least one deal."),
    ({"format": "marathon"}, "Choose Swiss rounds or an arena."),
])
def test_the_arena_form_refuses_in_plain_words(client, make_people, changes, words):
    (org,) = make_people("org")
    client.force_login(org)
    response = client.post("/events/new/belgian_whist/", form_data(
        "belgian_whist", **{"format": "arena", **changes}))
    assert response.status_code == 200
    assert words in response.content.decode()
    assert not Event.objects.exists()


def test_a_swiss_event_still_needs_its_rounds(client, make_people):
    (org,) = make_people("org")
    client.force_login(org)
    response = client.post("/events/new/bid_whist/", form_data(rounds=""))
    assert "Say how many rounds the event has." in response.content.decode()


def new_arena_with(make_people, count, **fields):
    org, *people = make_people("org", *[f"a{n}" for n in range(count)])
    event = new_event(org, **{"format": Event.Format.ARENA, "rounds": 1,
                              "deals_per_round": 2, "arena_minutes": 30, **fields})
    for person in people:
        running.register(event, person)
    running.start(event, org)
    event.refresh_from_db()
    return event, people


def test_the_arena_page_shows_your_table_then_your_wait_and_the_time_left(client,
                                                                          make_people):
    import random

    from events.models import EventTable
    from games import followups
    from games.models import Table
    from tests.playing import play_table

    event, people = new_arena_with(make_people, 5)
    full, alone = EventTable.objects.filter(round__event=event).order_by("number")
    waiting_one = alone.table.seats.get(user__isnull=False).user
    client.force_login(waiting_one)
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "Go to your table (table 2)" in page and f'href="/tables/{alone.table_id}/"' in page
    assert 'Time left in the arena: <span class="clock" data-seconds-left="1' in page
    assert ">29:5" in page or ">30:00<" in page
    play_table(alone.table, random.Random(1))
    followups.process_due()
    # The finished table sends its people back to the event (no rematch of an event's table).
    finished = client.get(f"/tables/{alone.table_id}/").content.decode()
    assert f'<a class="button" href="/events/{event.pk}/">Back to the event</a>' in finished
    assert "Play again</button>" not in finished
    assert client.post(f"/tables/{alone.table_id}/rematch/").status_code in (302, 400)
    assert not Table.objects.filter(created_by=waiting_one).exists()
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "You are waiting for a table." in page and "Go to your table" not in page
    assert "This page looks again in" in page
    assert "Standings so far" in page and "The deals you have played" in page
    assert f"/events/{event.pk}/deals/1/" in page and f"/events/{event.pk}/deals/3/" not in page
    standings = client.get(f"/events/{event.pk}/standings/").content.decode()
    assert "So far: each person" in standings
    ranked = standings.split("<tbody")[1]
    assert waiting_one.username in ranked  # who has played, live
    assert not any(person.username in ranked for person in people
                   if person != waiting_one)  # the others have played nothing yet
    french = client.get(f"/events/{event.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Vous attendez une table." in french


@pytest.mark.parametrize(("people", "computers"), [(4, False), (6, True)])
def test_the_standings_mention_computer_players_only_when_some_played(
        client, make_people, people, computers):
    """Six players make two tables, the second filled by computer players: the standings say
    those seats are compared but not ranked.  Four make one table of people: no such word."""
    event = round_one_played(client, make_people, people)
    standings = client.get(f"/events/{event.pk}/standings/").content.decode()
    assert "a0" in standings
    assert ("Computer players are compared" in standings) is computers
