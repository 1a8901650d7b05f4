"""The table pages over plain HTTP (what a browser without JavaScript gets)."""

import json
import random
import re

import pytest
from django.test import Client

from games import registry, tables
from games.models import Hand, Table
from games.rules.records import replay_hand
from tests.playing import play_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("computer_players_act_at_once")]


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("pat", "pat@example.org", "pw-long-enough")


@pytest.fixture
def outsider(django_user_model):
    return django_user_model.objects.create_user("olga", "olga@example.org", "pw-long-enough")


def test_the_lobby_lists_open_tables_with_free_seats(client, player):
    tables.create_table(player, "solo_whist", {"overtricks": True})
    page = client.get("/tables/").content.decode()
    assert "Solo Whist" in page and "4 free seats" in page
    # the house rules in words, never as data
    assert "overtricks=True" not in page
    assert "Tricks over and under the goal are paid: yes" in page


def test_the_lobby_hides_private_tables(client, player):
    tables.create_table(player, "solo_whist", {}, is_private=True)
    assert "Solo Whist</strong>" not in client.get("/tables/").content.decode()


def test_the_create_form_shows_every_house_rule_with_its_default(client, player):
    client.force_login(player)
    page = client.get("/tables/new/bid_whist/").content.decode()
    for name in ("kitty_shown", "min_bid", "downtown_beats_uptown", "all_pass", "downtown_ace",
                 "downtown_side_suits", "defenders_score_books", "notrump_double", "boston",
                 "game_target"):
        assert f'name="rule_{name}"' in page
    assert "Default: 3." in page


def test_creating_a_table_seats_its_creator(client, player):
    client.force_login(player)
    response = client.post("/tables/new/bid_whist/", {
        "rule_min_bid": 4, "rule_all_pass": "redeal", "rule_downtown_ace": "high",
        "rule_kitty": "6_two_jokers", "rule_downtown_side_suits": "reversed", "rule_boston": "wins_game",
        "rule_game_target": 7, "rule_notrump_double": "on"})
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.pk}/"
    assert table.rules == {"min_bid": 4}
    assert table.seats.get(position=0).user == player


def test_a_bad_rule_value_is_refused_and_no_table_is_made(client, player):
    client.force_login(player)
    response = client.post("/tables/new/bid_whist/", {
        "rule_min_bid": 12, "rule_all_pass": "redeal", "rule_downtown_ace": "high",
        "rule_kitty": "6_two_jokers", "rule_downtown_side_suits": "reversed", "rule_boston": "wins_game",
        "rule_game_target": 7})
    assert response.status_code == 200
    assert "Ensure this value is less than or equal to 7" in response.content.decode()
    assert not Table.objects.exists()


def test_creating_a_table_requires_login(client):
    assert client.get("/tables/new/bid_whist/")["Location"].startswith("/accounts/login/")


def test_a_person_fills_seats_with_computer_players_and_plays_by_posting_forms(client, player):
    client.force_login(player)
    table = tables.create_table(player, "bid_whist", {})
    client.post(f"/tables/{table.pk}/sit/0/")
    for position in (1, 2, 3):
        client.post(f"/tables/{table.pk}/computer/{position}/", {"level": "easy"})
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    for _ in range(400):
        table.refresh_from_db()
        if table.hands.exists():
            break
        page = client.get(f"/tables/{table.pk}/").content.decode()
        state = tables.current_state(table)
        if state.phase == "discard":
            cards = sorted(state.view(0)["hand"])[:6]
            client.post(f"/tables/{table.pk}/act/", {"type": "discard", "cards": cards,
                                                     "version": table.version})
            continue
        match = re.search(r'name="action" value="([^"]+)"><input type="hidden" name="version" '
                          r'value="(\d+)"', page)
        assert match, "the page offers the person a legal action"
        client.post(f"/tables/{table.pk}/act/", {"action": match.group(1),
                                                 "version": match.group(2)})
    hand = Hand.objects.get(table=table)
    assert replay_hand(hand.record).result() == hand.result


def test_calls_and_cards_posted_from_the_page_pass_the_csrf_check(player):
    """Without script, the forms of the page are posted as they are: each call and each card
    carries the page's CSRF field, and a site that checks it takes the action; without the
    field it is refused."""
    table = tables.create_table(player, "solo_whist", {})
    tables.take_seat(table.pk, player, 0)
    for position in (1, 2, 3):
        tables.add_computer_player(table.pk, player, position, "easy")
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    act = f"/tables/{table.pk}/act/"
    posted = set()
    for _ in range(100):
        table.refresh_from_db()
        page = browser.get(f"/tables/{table.pk}/").content.decode()
        forms = re.findall(r'<form method="post" action="' + act + r'"([^>]*)>(.*?)</form>',
                           page, re.S)
        card = next((body for attrs, body in forms if "card-form" in attrs), None)
        # A pass first; once a call has gone, a solo where there is one, so the play begins
        # (easy players passed round after round behind a person who always passed: once,
        # 100 deals thrown in). A declaration may offer no pass: then any call.
        calls = [body for attrs, body in forms if 'name="action"' in body]
        wanted = ('value="solo"', 'value="pass"') if posted else ('value="pass"',)
        call = next((body for value in wanted for body in calls if value in body),
                    calls[0] if calls else None)
        body = card or call
        if body is None:
            continue
        fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', body))
        assert fields.get("csrfmiddlewaretoken"), "every form of the page carries the field"
        without = {k: v for k, v in fields.items() if k != "csrfmiddlewaretoken"}
        assert browser.post(act, without).status_code == 403
        before = table.version
        browser.post(act, fields)
        table.refresh_from_db()
        assert table.version > before
        posted.add("card" if card else "call")
        if card:
            break
    assert posted == {"call", "card"}


def test_the_table_page_shows_only_the_viewers_cards(client, player):
    client.force_login(player)
    table = tables.create_table(player, "solo_whist", {})
    tables.take_seat(table.pk, player, 0)
    for position in (1, 2, 3):
        tables.add_computer_player(table.pk, player, position)
    table.refresh_from_db()
    page = client.get(f"/tables/{table.pk}/").content.decode()
    shown = set(re.findall(r'data-card="(\w\w)"', page))
    own = set(table.current["hands"][0])
    turn_up = table.current["hands"][table.current["dealer"]][-1]
    assert own <= shown
    assert shown - own <= {turn_up} | {a["action"][5:] for a in table.current["actions"]
                                       if a["action"].startswith("play ")}


def test_an_outsider_gets_404_for_a_private_table_until_invited(client, player, outsider):
    table = tables.create_table(player, "bid_whist", {}, is_private=True)
    client.force_login(outsider)
    assert client.get(f"/tables/{table.pk}/").status_code == 404
    response = client.get(f"/tables/{table.pk}/invite/{table.invite_token}/")
    assert response.status_code == 302
    assert client.get(f"/tables/{table.pk}/").status_code == 200


def test_a_wrong_invite_token_finds_nothing(client, player):
    table = tables.create_table(player, "bid_whist", {}, is_private=True)
    response = client.get(f"/tables/{table.pk}/invite/not-the-token/")
    assert response.status_code == 404
    assert "This invite link no longer works" in response.content.decode()
    missing = client.get("/tables/9999/invite/not-the-token/")
    assert missing.status_code == 404 and "This invite link no longer works" in missing.content.decode()


def test_renewing_the_invite_link_revokes_the_old_one(client, player, outsider):
    table = tables.create_table(player, "bid_whist", {}, is_private=True)
    old_link = f"/tables/{table.pk}/invite/{table.invite_token}/"
    client.force_login(outsider)
    client.get(old_link)
    assert client.get(f"/tables/{table.pk}/").status_code == 200  # invited
    assert client.post(f"/tables/{table.pk}/invite/renew/").status_code == 302
    assert Table.objects.get(pk=table.pk).invite_token == table.invite_token  # not theirs
    owner = Client()
    owner.force_login(player)
    page = owner.get(f"/tables/{table.pk}/").content.decode()
    assert "Replace the invite link" in page
    response = owner.post(f"/tables/{table.pk}/invite/renew/", follow=True)
    assert "the old one no longer works" in response.content.decode()
    renewed = Table.objects.get(pk=table.pk)
    assert renewed.invite_token != table.invite_token
    assert client.get(f"/tables/{table.pk}/").status_code == 404  # the old invite is gone
    assert "no longer works" in client.get(old_link).content.decode()
    client.get(f"/tables/{table.pk}/invite/{renewed.invite_token}/")
    assert client.get(f"/tables/{table.pk}/").status_code == 200


@pytest.mark.slow  # every step of whole hands
def test_finished_hands_can_be_replayed_and_downloaded(client, player, computer_players_wait):
    table = tables.create_table(player, "solo_whist", {})
    for position in range(4):
        tables.add_computer_player(table.pk, player, position)
    # One hand played, not a thousand computer moves: the page needs one finished hand.
    play_table(table, random.Random(2), hands=1)
    hand = Hand.objects.filter(table=table).order_by("number").first()
    page = client.get(f"/tables/{table.pk}/hands/{hand.number}/").content.decode()
    for cards in hand.record["hands"]:
        for card in cards:
            assert f'data-card="{card}"' in page
    download = client.get(f"/tables/{table.pk}/hands/{hand.number}.json")
    assert download["Content-Disposition"].startswith("attachment;")
    assert json.loads(download.content) == hand.record


def test_the_creator_closes_the_table_and_nothing_is_lost(client, player, outsider):
    table = tables.create_table(player, "solo_whist", {})
    tables.take_seat(table.pk, player, 0)
    for position in (1, 2, 3):
        tables.add_computer_player(table.pk, player, position)
    client.force_login(outsider)
    client.post(f"/tables/{table.pk}/close/")
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    client.force_login(player)
    assert "Close the table" in client.get(f"/tables/{table.pk}/").content.decode()
    client.post(f"/tables/{table.pk}/close/")
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert table.current is not None  # the unfinished hand stays stored
    assert "Close the table" not in client.get(f"/tables/{table.pk}/").content.decode()
    # Out of the tables in play and of those to join; among the creator's older tables.
    lobby = client.get("/tables/").content.decode()
    in_play, older = lobby.split('class="older-tables', 1) if 'class="older-tables' in lobby \
        else (lobby, "")
    assert f"/tables/{table.pk}/" not in in_play
    assert f"/tables/{table.pk}/" in older


def test_a_hand_laid_open_is_shown_to_the_other_seats(player):
    from html import unescape

    from django.template.loader import render_to_string

    from games.presentation import for_template

    def page_for(seat, exposed):
        view = {"seat": seat, "version": 9, "status": "playing", "table": 1, "created_by": 0,
                "hands_played": 0, "players": [{"seat": p, "name": f"P{p}"} for p in range(4)],
                "hand": {"exposed": exposed, "hand": ["2C"], "tricks": [], "trick": []}}
        # as the browser reads it: the catalogue's apostrophe is escaped in the HTML
        return unescape(render_to_string("games/partials/table_state.html",
                                         {"view": view, "ui": for_template(view)}))

    page = page_for(0, {"seat": 2, "cards": ["AS", "KS"]})  # Solo Whist's spread misère
    assert "P2's hand, laid open" in page
    assert 'data-card="AS"' in page and 'data-card="KS"' in page
    page = page_for(1, [{"seat": 3, "cards": ["QH"]}])  # Belgian Whist's misère étalée
    assert "P3's hand, laid open" in page and 'data-card="QH"' in page
    assert "laid open" not in page_for(3, [{"seat": 3, "cards": ["QH"]}])


@pytest.mark.parametrize("version", ["\u00b2", "1\u0663", "99999999999999999999999", "-1", ""])
def test_a_posted_action_with_a_malformed_version_is_refused_in_words(client, django_user_model,
                                                                      version):
    user = django_user_model.objects.create_user("vic", "v@example.org", "pw-long-enough")
    table = tables.create_table(user, "bid_whist", {})
    tables.take_seat(table.pk, user, 0)
    for position in (1, 2, 3):
        tables.add_computer_player(table.pk, user, position)
    before = Table.objects.get(pk=table.pk).version
    client.force_login(user)
    response = client.post(f"/tables/{table.pk}/act/", {"action": "pass", "version": version},
                           follow=True)
    assert response.status_code == 200
    said = [str(m) for m in response.context["messages"]]
    assert said == ["The action must say which version of the table it was made on."]
    assert Table.objects.get(pk=table.pk).version == before


@pytest.mark.parametrize("points_table", [
    "[" * 50_000,
    "10**400",
    "1" + "0" * 5000,
    "1e400",
    "1" + "0" * 400,
    "1" + "0" * 4000,
    "NaN",
    "1e300",
    "100000",
])
def test_a_monstrous_points_table_gets_a_form_error_and_no_table(client, player, points_table):
    client.force_login(player)
    response = client.post("/tables/new/belgian_whist/",
                           {"grace_seconds": 60, "rule_points_table.solo.base.6": points_table})
    assert response.status_code == 200
    page = response.content.decode()
    assert 'class="errorlist' in page
    assert not Table.objects.exists()


def test_a_refused_house_rule_reads_in_the_players_language(client, player):
    player.profile.language = "fr"
    player.profile.save()
    client.force_login(player)
    response = client.post("/tables/new/belgian_whist/",
                           {"rule_points_table.piccolo": "-1", "grace_seconds": 60})
    page = response.content.decode()
    assert "Règle maison points_table" in page and "Piccolo" in page, page[-3000:]
    assert not Table.objects.exists()


@pytest.mark.parametrize("seats, seat, expected", [
    (3, 1, [(1, "south"), (2, "west"), (0, "east")]),
    (4, 2, [(2, "south"), (3, "west"), (0, "north"), (1, "east")]),
    (5, 4, [(4, "south"), (0, "west"), (1, "north-west"), (2, "north-east"), (3, "east")]),
    (3, None, [(0, "south"), (1, "west"), (2, "east")]),
])
def test_the_page_seats_every_player_around_the_viewer(seats, seat, expected):
    """Tables of three to five: the viewer at the bottom, the others clockwise from their
    left; a watcher sees seat 0 at the bottom."""
    from games.presentation import for_template

    players = [{"seat": p, "name": f"P{p}", "computer": None, "free": False, "away": False}
               for p in range(seats)]
    hand = {"hand_sizes": [17 - p for p in range(seats)], "tricks_won": list(range(seats)),
            "dealer": 0, "to_act": 1}
    ui = for_template({"players": players, "seat": seat, "hand": hand})
    assert [(s["seat"], s["position_class"]) for s in ui["seats_in_order"]] == expected
    assert [s["hand_size"] for s in ui["seats_in_order"]] == [17 - p for p, _ in expected]


@pytest.mark.parametrize("game", [each.id for each in registry.all_games()])
def test_a_seat_past_the_games_last_is_refused_in_words_not_an_error_page(client, player, game):
    """A Cutthroat table has seats 0-2: its seat 3 (a four-seat game's seat 4) does not exist,
    and asking for it, to sit or to add a computer player, is a message, never a server error."""
    client.force_login(player)
    table = tables.create_table(player, game, {})
    missing = registry.game(game).seats
    for url in (f"/tables/{table.pk}/sit/{missing}/", f"/tables/{table.pk}/computer/{missing}/"):
        response = client.post(url, {"level": "easy"}, follow=True)
        assert response.status_code == 200
        assert "There is no such seat." in response.content.decode()
    last = missing - 1
    client.post(f"/tables/{table.pk}/computer/{last}/", {"level": "easy"})
    assert Table.objects.get(pk=table.pk).seats.get(position=last).computer_level == "easy"


@pytest.mark.parametrize("game", [each.id for each in registry.all_games()])
def test_the_hand_history_lists_each_hand_with_its_result_in_words(client, player, game):
    import random as random_module

    client.force_login(player)
    table = tables.create_table(player, game, {})
    tables.take_seat(table.pk, player, 0)
    tables.fill_seats(table.pk, player, "easy")
    rng = random_module.Random(3)
    for _ in range(3000):
        table.refresh_from_db()
        if table.hands.count() >= 2 or table.status == Table.Status.FINISHED:
            break
        tables.play(table.pk, player, tables.current_state(table).random_action(rng),
                    table.version)
    page = client.get(f"/tables/{table.pk}/hands/").content.decode()
    results = re.findall(r'<p class="hand-result">([^<]+)</p>', page)
    assert len(results) == table.hands.count() >= 2
    for sentence in results:
        assert sentence.endswith((".", "!")) and "None" not in sentence and "_" not in sentence
        assert "=" not in sentence and "{" not in sentence
