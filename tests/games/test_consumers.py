"""The live table over WebSockets, JSON protocol and htmx fragments."""

import json
import random
import re

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games import tables
from games.models import Table
from games.routing import websocket_urlpatterns
from games.snapshots import table_view
from whistclub.asgi import application as full_application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("computer_players_act_at_once")]
router = URLRouter(websocket_urlpatterns)


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("pat", "pat@example.org", "pw-long-enough")


def make_computer_table(user, game="bid_whist", private=False):
    table = tables.create_table(user, game, {}, is_private=private)
    tables.take_seat(table.pk, user, 0)
    for position in (1, 2, 3):
        tables.add_computer_player(table.pk, user, position)
    return Table.objects.get(pk=table.pk)


async def connect(table_id, user, json_mode=True, session=None):
    path = f"/ws/tables/{table_id}/" + ("?format=json" if json_mode else "")
    communicator = WebsocketCommunicator(router, path)
    communicator.scope["user"] = user
    communicator.scope["session"] = session or {}
    connected, _code = await communicator.connect()
    return communicator, connected


async def test_a_player_gets_a_snapshot_of_their_own_view_on_connect(player):
    table = await database_sync_to_async(make_computer_table)(player)
    communicator, connected = await connect(table.pk, player)
    assert connected
    message = await communicator.receive_json_from()
    assert message["type"] == "state"
    assert message["version"] == message["state"]["version"] >= 1
    assert message["state"]["seat"] == 0
    assert len(message["state"]["hand"]["hand"]) == 12
    await communicator.disconnect()


async def test_a_player_plays_a_legal_action_over_json(player):
    table = await database_sync_to_async(make_computer_table)(player)
    communicator, _ = await connect(table.pk, player)
    state = (await communicator.receive_json_from())["state"]
    legal = state["hand"]["legal"]
    await communicator.send_json_to({"type": "action", "action": legal[0],
                                     "version": state["version"]})
    reply = await communicator.receive_json_from()
    assert reply["type"] == "state"
    assert reply["version"] > state["version"]
    await communicator.disconnect()


@pytest.mark.parametrize("payload, expected", [
    ("not json at all", "not valid JSON"),
    ("[1, 2]", "expected a JSON object"),
    ('{"type": "dance"}', "unknown message type"),
    ('{"type": "action", "action": "play ZZ", "version": 1}', None),
    ('{"type": "action", "action": 42, "version": 1}', "not an action"),
    ('{"type": "action", "action": "pass"}', "which version"),
    ("x" * 5000, "short JSON"),
    ('{"type": "action", "action": "pass", "version": "\u00b2"}', "which version"),
    ('{"type": "action", "action": "pass", "version": "1\u0663"}', "which version"),
    ('{"type": "action", "action": "pass", "version": 1e999}', "which version"),
    ("[" * 2000, "not valid JSON"),
])
async def test_bad_messages_get_an_error_and_change_nothing(player, payload, expected):
    table = await database_sync_to_async(make_computer_table)(player)
    communicator, _ = await connect(table.pk, player)
    before = await communicator.receive_json_from()
    await communicator.send_to(text_data=payload)
    reply = await communicator.receive_json_from()
    assert reply["type"] == "error"
    if expected:
        assert expected in reply["message"]
    after = await database_sync_to_async(Table.objects.get)(pk=table.pk)
    assert after.version == before["version"]
    await communicator.disconnect()


async def test_a_stale_version_is_refused_with_the_current_version(player):
    table = await database_sync_to_async(make_computer_table)(player)
    communicator, _ = await connect(table.pk, player)
    state = (await communicator.receive_json_from())["state"]
    await communicator.send_json_to({"type": "action", "action": state["hand"]["legal"][0],
                                     "version": state["version"] - 1})
    reply = await communicator.receive_json_from()
    assert reply == {"type": "error", "version": state["version"],
                     "message": reply["message"]}
    assert "moved on" in reply["message"]
    await communicator.disconnect()


async def test_a_spectator_sees_no_hand_and_cannot_act(player, django_user_model):
    table = await database_sync_to_async(make_computer_table)(player)
    watcher = await database_sync_to_async(django_user_model.objects.create_user)(
        "wendy", "w@example.org", "pw-long-enough")
    communicator, connected = await connect(table.pk, watcher)
    assert connected
    state = (await communicator.receive_json_from())["state"]
    assert state["seat"] is None
    assert "hand" not in state["hand"] and "legal" not in state["hand"]
    await communicator.send_json_to({"type": "action", "action": "pass",
                                     "version": state["version"]})
    reply = await communicator.receive_json_from()
    assert reply["type"] == "error" and "not playing" in reply["message"]
    await communicator.disconnect()


async def test_a_private_table_refuses_a_stranger_and_admits_an_invitee(player, django_user_model):
    table = await database_sync_to_async(make_computer_table)(player, "solo_whist", True)
    stranger = await database_sync_to_async(django_user_model.objects.create_user)(
        "sid", "s@example.org", "pw-long-enough")
    communicator, connected = await connect(table.pk, stranger)
    assert not connected
    communicator, connected = await connect(table.pk, stranger,
                                            session={"table_invites": [[table.pk, table.invite_token]]})
    assert connected
    await communicator.disconnect()


async def test_every_socket_of_the_table_hears_about_an_action(player, django_user_model):
    table = await database_sync_to_async(make_computer_table)(player)
    watcher = await database_sync_to_async(django_user_model.objects.create_user)(
        "wendy", "w@example.org", "pw-long-enough")
    me, _ = await connect(table.pk, player)
    them, _ = await connect(table.pk, watcher)
    state = (await me.receive_json_from())["state"]
    await them.receive_json_from()
    await me.send_json_to({"type": "action", "action": state["hand"]["legal"][0],
                           "version": state["version"]})
    update = await them.receive_json_from(timeout=5)
    assert update["type"] == "state" and update["version"] > state["version"]
    await me.disconnect()
    await them.disconnect()


async def test_htmx_clients_get_html_fragments_with_face_up_cards_only_their_own(player):
    table = await database_sync_to_async(make_computer_table)(player)
    communicator, _ = await connect(table.pk, player, json_mode=False)
    html = await communicator.receive_from()
    assert 'id="table-state"' in html and 'hx-swap-oob="true"' in html
    current = (await database_sync_to_async(Table.objects.get)(pk=table.pk)).current
    for seat, hand in enumerate(current["hands"]):
        for card in hand:
            if seat == 0:
                assert f'data-card="{card}"' in html
            else:
                assert card not in html
    for card in current.get("kitty", []):
        assert f'data-card="{card}"' not in html
    await communicator.disconnect()


async def test_sockets_from_another_origin_are_refused(player):
    table = await database_sync_to_async(make_computer_table)(player)
    communicator = WebsocketCommunicator(full_application, f"/ws/tables/{table.pk}/",
                                         headers=[(b"origin", b"http://evil.example"),
                                                  (b"host", b"127.0.0.1")])
    connected, _ = await communicator.connect()
    assert not connected


async def test_a_json_client_can_play_a_whole_hand(player):
    table = await database_sync_to_async(make_computer_table)(player, "solo_whist")
    communicator, _ = await connect(table.pk, player)
    rng = random.Random(5)
    message = await communicator.receive_json_from()
    for _ in range(200):
        state = message["state"]
        if state["hands_played"] >= 1:
            break
        legal = state["hand"].get("legal")
        if legal and state["hand"]["to_act"] == 0:
            await communicator.send_json_to({"type": "action", "action": rng.choice(legal),
                                             "version": state["version"]})
        message = await communicator.receive_json_from(timeout=5)
        while message["type"] != "state":
            message = await communicator.receive_json_from(timeout=5)
    assert message["state"]["hands_played"] >= 1
    assert message["state"]["last_hand"]["result"]["complete"] is True
    await communicator.disconnect()


def test_group_messages_carry_no_card():
    sent = []

    class Layer:
        async def group_send(self, group, message):
            sent.append(message)

    from unittest import mock
    with mock.patch("games.broadcasting.get_channel_layer", return_value=Layer()):
        tables.broadcast(1, 7)
    assert sent[0] == {"type": "table.changed", "version": 7}
    assert json.dumps(sent)  # serialisable: it travels through Redis


async def test_refusals_reach_a_french_player_in_french(player):
    def french_table():
        player.profile.language = "fr"
        player.profile.save()
        return make_computer_table(player, "bid_whist")

    table = await database_sync_to_async(french_table)()
    communicator, _ = await connect(table.pk, player)
    state = (await communicator.receive_json_from())["state"]
    await communicator.send_json_to({"type": "action", "action": "bid 9 uptown",
                                     "version": state["version"]})
    reply = await communicator.receive_json_from()
    assert reply["type"] == "error"
    # a sentence, as a person writes one: a capital and a full stop
    assert reply["message"].startswith("Une enchère s’écrit"), reply["message"]
    assert reply["message"].endswith("."), reply["message"]
    await communicator.send_to(text_data="{")
    reply = await communicator.receive_json_from()
    assert "JSON" in reply["message"] and "refusé" in reply["message"], reply["message"]
    await communicator.disconnect()


async def test_a_refusal_stays_on_the_page_until_the_next_move_is_taken(player):
    table = await database_sync_to_async(make_computer_table)(player, "bid_whist")
    browser, _ = await connect(table.pk, player, json_mode=False)
    first = await browser.receive_from(timeout=5)
    version = int(re.search(r'data-version="(\d+)"', first).group(1))
    await browser.send_json_to({"type": "action", "action": "bid 9 uptown",
                                "version": version})
    refused = await browser.receive_from(timeout=5)
    shown = re.search(r'<div id="table-error"[^>]*>([^<]*)</div>', refused).group(1)
    assert shown.startswith("A bid is &#x27;bid N uptown&#x27;") and shown.endswith("."), shown
    state = await database_sync_to_async(
        lambda: table_view(Table.objects.get(pk=table.pk), 0))()
    await browser.send_json_to({"type": "action", "action": state["hand"]["legal"][0],
                                "version": state["version"]})
    replies = []
    while not any('class="table-state' in r or 'id="table-state"' in r for r in replies):
        replies.append(await browser.receive_from(timeout=5))
    cleared = [r for r in replies if 'id="table-error"' in r]
    assert cleared and re.search(r'<div id="table-error"[^>]*></div>', cleared[0]), replies
    await browser.disconnect()


async def test_the_lobby_updates_itself_when_a_table_opens(player):
    communicator = WebsocketCommunicator(router, "/ws/lobby/")
    communicator.scope["user"] = player
    connected, _ = await communicator.connect()
    assert connected
    table = await database_sync_to_async(tables.create_table)(player, "belgian_whist", {})
    html = await communicator.receive_from(timeout=5)
    assert 'id="lobby-list"' in html and 'hx-swap-oob="true"' in html
    assert f'/tables/{table.pk}/' in html and "Belgian Whist" in html
    await communicator.disconnect()


async def test_the_last_hands_result_is_sent_when_it_changed_not_with_every_card(player):
    """Half of a fragment was the last hand's result, sent again at every card; it now goes
    with the first message of a socket and when a hand ends, and stays as the player left it."""
    table = await database_sync_to_async(make_computer_table)(player, "solo_whist")
    watcher, _ = await connect(table.pk, player, json_mode=False)  # the browser's socket
    driver, _ = await connect(table.pk, player)                    # plays for the same seat
    rng = random.Random(7)
    fragments, watched_version = [], 0

    async def watcher_reaches(version):
        """The browser's socket sends the newest version it can: versions that came while it
        was busy go as one fragment.  Waiting for it before each of the player's actions gives
        every action a fragment of its own."""
        nonlocal watched_version
        while watched_version < version:
            fragments.append(await watcher.receive_from(timeout=5))
            watched_version = int(re.search(r'data-version="(\d+)"', fragments[-1]).group(1))

    message = await driver.receive_json_from()
    ended, actions_since = False, 0
    for _ in range(400):
        state = message["state"]
        ended = ended or state["hands_played"] >= 1
        if ended and actions_since >= 3:
            break
        hand = state["hand"] or {}
        if hand.get("legal") and hand.get("to_act") == 0:
            await watcher_reaches(state["version"])
            await driver.send_json_to({"type": "action", "action": rng.choice(hand["legal"]),
                                       "version": state["version"]})
            actions_since += ended
        message = await driver.receive_json_from(timeout=5)
        while message["type"] != "state":
            message = await driver.receive_json_from(timeout=5)
    assert ended, "no hand finished"
    while not await watcher.receive_nothing(timeout=1):  # (a timed-out receive ends the app)
        fragments.append(await watcher.receive_from())
    with_result = [f for f in fragments if 'id="table-result"' in f]
    shown = [int(m.group(1)) if (m := re.search(r'data-hand="(\d+)"', f)) else None
             for f in with_result]
    # the first message (no hand finished yet: an empty place), then once per finished hand
    # (a deal that everyone passed is a hand too, and may end within the few cards waited for)
    assert shown[0] is None and shown[1:] == list(range(1, len(shown))), shown
    # every other fragment, the cards of the next hand among them, comes without it
    assert len(fragments) - len(with_result) >= 3
    assert sum("result-panel" in f for f in fragments) == len(shown) - 1
    # a socket opened now gets the whole table, the result with it
    late, _ = await connect(table.pk, player, json_mode=False)
    assert f'data-hand="{shown[-1]}"' in await late.receive_from(timeout=5)
    for communicator in (watcher, driver, late):
        await communicator.disconnect()
