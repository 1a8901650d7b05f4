"""Hidden cards stay hidden through the table talk and at a guest's table, and bad input to
either gets words, never a server error (tests/games/test_hidden_information.py does the
table's own messages, hand by hand in every game).

- a chat line, pushed or kept (the history a socket gets as it opens, the page's panel),
  carries a person's words and never a card of the hand in play;
- a spectator's line, whatever it says of the hands, never reaches a player during a hand;
- a guest who tapped "Play now" is sent their own seat's cards only, over the socket (JSON and
  HTML) and on the page, move after move.
"""

from __future__ import annotations

import json
import re

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from games import chat, tables
from games.models import ChatLine, Table
from games.rules.cards import ALL_CARDS
from games.rules.records import replay_hand
from tests.games import test_chat
from tests.games.test_chat import begin_the_hand, table_of
from tests.games.test_consumers import connect
from tests.games.test_hidden_information import DATA_CARD, cards_in_json

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("computer_players_act_at_once", "fresh_limits")]
CARDS = set(ALL_CARDS)
people = test_chat.people  # the chat tests' fixture: Ana, Bob, Wendy and Walt


def dealt_to(table: Table, seat: int) -> list[str]:
    return list(Table.objects.get(pk=table.pk).current["hands"][seat])


def words_of_cards(html: str) -> set[str]:
    """Every card an HTML text names: its faces and any code standing as a word."""
    return set(DATA_CARD.findall(html)) | {c for c in CARDS if re.search(rf"\b{c}\b", html)}


def chat_part(page: str) -> str:
    return page.split('class="chat-panel"', 1)[1].split("</section>", 1)[0]


# -- the table talk ----------------------------------------------------------------------------


async def test_a_chat_line_and_the_chat_history_carry_no_card(people, computer_players_wait):
    table = await database_sync_to_async(table_of)(people)
    table = await database_sync_to_async(begin_the_hand)(table)
    anas = set(await database_sync_to_async(dealt_to)(table, 0))
    await database_sync_to_async(chat.say)(table.pk, people["ana"], phrase="good_luck")
    # Bob opens his sockets: the state, then the lines he may read
    bob_json, _ = await connect(table.pk, people["bob"])
    bob_html, _ = await connect(table.pk, people["bob"], json_mode=False)
    state = await bob_json.receive_json_from()
    assert state["type"] == "state" and not cards_in_json(state) & anas
    history = await bob_json.receive_json_from()
    assert history["type"] == "chat" and [line["text"] for line in history["lines"]] \
        == ["Good luck"]
    assert cards_in_json(history) == set()
    await bob_html.receive_from()  # the table
    history_html = await bob_html.receive_from()
    assert "Good luck" in history_html and words_of_cards(history_html) == set()
    # a line pushed as it is said
    ana, _ = await connect(table.pk, people["ana"])
    await ana.receive_json_from()
    await ana.receive_json_from()
    await ana.send_json_to({"type": "say", "phrase": "well_played"})
    pushed = await bob_json.receive_json_from()
    assert pushed["type"] == "chat" and cards_in_json(pushed) == set()
    assert set(pushed["lines"][0]) == {"id", "audience", "author_id", "author", "seat",
                                       "phrase", "text", "at", "kind"}
    pushed_html = await bob_html.receive_from()
    assert "Well played" in pushed_html and words_of_cards(pushed_html) == set()
    for socket in (bob_json, bob_html, ana):
        await socket.disconnect()
    page = await database_sync_to_async(page_of)(table, people["bob"])
    assert "Well played" in chat_part(page) and words_of_cards(chat_part(page)) == set()


async def test_a_spectators_words_on_the_hands_never_reach_a_player_during_a_hand(
        people, computer_players_wait):
    table = await database_sync_to_async(table_of)(people)
    table = await database_sync_to_async(begin_the_hand)(table)
    anas = await database_sync_to_async(dealt_to)(table, 0)
    tip = "Bob, Ana holds " + " ".join(anas[:5])  # a spectator who looked over her shoulder
    players = {}
    for name in ("ana", "bob"):
        for json_mode in (True, False):
            socket, _ = await connect(table.pk, people[name], json_mode=json_mode)
            await (socket.receive_json_from() if json_mode else socket.receive_from())
            players[name, json_mode] = socket
    wendy, _ = await connect(table.pk, people["wendy"])
    await wendy.receive_json_from()
    await wendy.send_json_to({"type": "say", "text": tip})
    said = await wendy.receive_json_from()
    assert said["type"] == "chat" and said["lines"][0]["text"] == tip  # the spectators read it
    for socket in players.values():
        assert await socket.receive_nothing(timeout=0.3)
    for socket in (*players.values(), wendy):
        await socket.disconnect()
    for name in ("ana", "bob"):  # nor on the page, reloaded
        page = await database_sync_to_async(page_of)(table, people[name])
        assert "Ana holds" not in page
    # nor a socket opened later, in its history
    bob, _ = await connect(table.pk, people["bob"])
    await bob.receive_json_from()
    assert await bob.receive_nothing(timeout=0.3)  # no line he may read: no history at all
    await bob.disconnect()
    assert await ChatLine.objects.filter(audience="spectators").acount() == 1


def page_of(table, user) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/tables/{table.pk}/").content.decode()


# -- a guest's table ---------------------------------------------------------------------------


def guest_at_play_now(game="bid_whist"):
    """A visitor taps "Play now": their client, their guest account, their table."""
    client = Client()
    response = client.post(f"/tables/play/{game}/", REMOTE_ADDR="198.51.100.23")
    guest = get_user_model().objects.get(pk=client.session["_auth_user_id"])
    assert guest.profile.is_guest
    table = Table.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
    return client, guest, table


def allowed_to(table: Table, seat: int) -> set[str]:
    """What ``seat`` may see now, from the record alone: its own cards, the cards played, and
    the kitty once it declared (or all of the hand, once it is over)."""
    record = table.current
    state = replay_hand(record)
    if state.phase == "done":
        return set(CARDS)
    allowed = set(record["hands"][seat])
    allowed |= {a["action"].split()[1] for a in record["actions"]
                if a["action"].startswith("play ")}
    contract = state.view(None).get("contract")
    if record.get("kitty") and (record.get("rules", {}).get("kitty_shown") or (
            contract and contract.get("declarer") == seat)):
        allowed |= set(record["kitty"])
    return allowed


def one_move(table: Table, guest) -> None:
    state = tables.current_state(table)
    seat = table.seats.get(position=state.to_act)
    legal = state.legal_actions()
    if seat.user_id == guest.pk:
        tables.play(table.pk, guest, legal[-1] if legal[0].startswith("pass") else legal[0],
                    table.version)
    else:
        tables.play_for_computer(table.pk, state.to_act, legal[0], table.version)


async def test_a_guest_is_sent_only_their_own_seats_cards_move_after_move(computer_players_wait):
    client, guest, table = await database_sync_to_async(guest_at_play_now)()
    assert await database_sync_to_async(lambda: table.seats.get(position=0).user_id)() \
        == guest.pk
    for move in range(14):  # the auction, the kitty, and the first tricks
        table = await database_sync_to_async(Table.objects.get)(pk=table.pk)
        allowed = await database_sync_to_async(allowed_to)(table, 0)
        assert set(table.current["hands"][0]) <= allowed < CARDS
        json_socket, connected = await connect(table.pk, guest)
        assert connected
        state = await json_socket.receive_json_from()
        assert state["state"]["seat"] == 0
        leaked = cards_in_json(state) - allowed
        assert not leaked, f"JSON to the guest after {move} moves leaks {leaked}"
        html_socket, _ = await connect(table.pk, guest, json_mode=False)
        fragment = await html_socket.receive_from()
        leaked = words_of_cards(fragment) - allowed
        assert not leaked, f"HTML to the guest after {move} moves leaks {leaked}"
        page = await database_sync_to_async(client.get)(f"/tables/{table.pk}/")
        leaked = words_of_cards(page.content.decode()) - allowed
        assert not leaked, f"the guest's page after {move} moves leaks {leaked}"
        await json_socket.disconnect()
        await html_socket.disconnect()
        await database_sync_to_async(one_move)(table, guest)


# -- bad input gets words ----------------------------------------------------------------------


@pytest.mark.parametrize("message", [
    {"type": "say"},
    {"type": "say", "text": None},
    {"type": "say", "phrase": {"id": "thanks"}},
    {"type": "say", "phrase": ["thanks"]},
    {"type": "say", "phrase": None, "text": {"words": "hi"}},
    {"type": "say", "text": "x" * 300},
    {"type": "say", "text": "\u202e\u0000\x07"},
    {"type": "say", "phrase": "thanks", "text": "hi"},
    {"type": "say", "phrase": "../../etc/passwd"},
])
async def test_bad_input_to_the_chat_gets_words_and_the_socket_stays(people, computer_players_wait, message):
    table = await database_sync_to_async(table_of)(people, full=False)
    for json_mode in (True, False):
        ana, connected = await connect(table.pk, people["ana"], json_mode=json_mode)
        assert connected
        await ana.receive_from()  # the table
        while not await ana.receive_nothing(timeout=0.2):
            await ana.receive_from()  # the lines said before
        await ana.send_json_to(message)
        reply = await ana.receive_from()
        if json_mode:
            error = json.loads(reply)
            assert error["type"] == "error" and len(error["message"]) > 10
        else:
            assert 'id="chat-error"' in reply
            assert re.search(r'role="alert"[^>]*>\s*\w[^<]{10,}', reply)
        await ana.send_json_to({"type": "say", "phrase": "thanks"})  # still talking
        said = await ana.receive_from()
        assert "Thanks" in said
        await ana.disconnect()
    kept = await database_sync_to_async(
        lambda: set(ChatLine.objects.values_list("phrase", flat=True)))()
    assert kept == {"thanks"}


@pytest.mark.parametrize("game", ["poker", "bid_whist%00", "x" * 500, "bid-whist", "ΒΙΔ"])
def test_bad_input_to_a_guests_start_gets_a_page_in_words(game):
    client = Client()
    response = client.post(f"/tables/play/{game}/", REMOTE_ADDR="198.51.100.24")
    assert response.status_code == 404
    assert "_auth_user_id" not in client.session  # no guest started for nothing
    assert client.get(f"/tables/play/{game}/").status_code in (404, 405)


def test_too_many_guests_from_one_network_are_told_in_words(settings):
    settings.GUESTS_PER_ADDRESS_PER_HOUR = 1
    Client().post("/tables/play/bid_whist/", REMOTE_ADDR="198.51.100.25")
    response = Client().post("/tables/play/bid_whist/", REMOTE_ADDR="198.51.100.25", follow=True)
    assert response.status_code == 200
    assert "Too many guests were started from your network" in response.content.decode()


@pytest.mark.parametrize("form, words", [
    ({"username": "", "email": ""}, "This field is required."),
    ({"username": "a b/c", "email": "nina@example.org", "password1": "correct-horse-99",
      "password2": "correct-horse-99"}, "Enter a valid username"),
    ({"username": "nina", "email": "not an address", "password1": "correct-horse-99",
      "password2": "correct-horse-99"}, "Enter a valid email address."),
    ({"username": "nina", "email": "nina@example.org", "password1": "correct-horse-99",
      "password2": "other-horse-99"}, "didn"),
    ({"username": "n" * 400, "email": "nina@example.org", "password1": "correct-horse-99",
      "password2": "correct-horse-99"}, "at most 150 characters"),
])
def test_a_guest_signing_up_with_bad_input_is_told_in_words(form, words):
    client, guest, _table = guest_at_play_now("solo_whist")
    response = client.post("/accounts/signup/", form)
    assert response.status_code == 200
    assert words in response.content.decode()
    guest.refresh_from_db()
    assert guest.profile.is_guest and guest.username.startswith("guest-")
