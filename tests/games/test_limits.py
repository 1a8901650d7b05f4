"""One hostile person cannot slow the site: the lobby is rendered once per change for all its
sockets and never in front of a table's action; sockets and messages are capped per person;
a socket does not outlive its session."""

from __future__ import annotations

import asyncio
import time

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client

from games import limits, lobby_feed, tables
from games.routing import websocket_urlpatterns
from tests.games.test_consumers import connect, make_computer_table

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("computer_players_act_at_once", "fresh_limits")]
router = URLRouter(websocket_urlpatterns)


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("pat", "pat@example.org", "pw-long-enough")


async def lobby_socket(user=None, address="203.0.113.5"):
    communicator = WebsocketCommunicator(router, "/ws/lobby/")
    communicator.scope["user"] = user or AnonymousUser()
    communicator.scope["client"] = (address, 5000)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def test_one_render_per_lobby_change_for_every_lobby_socket(player, settings):
    settings.LOBBY_MIN_INTERVAL_SECONDS = 0.3
    sockets = [await lobby_socket(address=f"203.0.113.{i}") for i in range(50)]
    before = lobby_feed.feed.renders
    for _ in range(10):  # ten changes in a burst
        await database_sync_to_async(tables.create_table)(player, "solo_whist", {})
    for socket in sockets:
        html = await socket.receive_from(timeout=5)
        assert 'id="lobby-list"' in html
    await asyncio.sleep(0.8)
    renders = lobby_feed.feed.renders - before
    assert 1 <= renders <= 3, renders  # not 50, not 500
    for socket in sockets:
        while not await socket.receive_nothing(timeout=0.05):
            html = await socket.receive_from()
        assert html.count("/tables/") >= 10 or "Solo Whist" in html
        await socket.disconnect()


async def test_a_slow_lobby_never_waits_in_front_of_a_table_action(player, monkeypatch,
                                                                   settings):
    settings.LOBBY_MIN_INTERVAL_SECONDS = 0
    from games import models

    real = models.lobby_tables

    def slow_lobby(user):
        time.sleep(1.5)  # a lobby of thousands of tables on a busy database
        return real(user)

    monkeypatch.setattr(models, "lobby_tables", slow_lobby)
    table = await database_sync_to_async(make_computer_table)(player)
    watcher = await lobby_socket()
    me, _ = await connect(table.pk, player)
    state = (await me.receive_json_from())["state"]
    await database_sync_to_async(tables.create_table)(player, "belgian_whist", {})
    await asyncio.sleep(0.2)  # the lobby render has started
    started = time.monotonic()
    await me.send_json_to({"type": "action", "action": state["hand"]["legal"][0],
                           "version": state["version"]})
    reply = await me.receive_json_from(timeout=5)
    answered_in = time.monotonic() - started
    assert reply["type"] == "state"
    assert answered_in < 0.7, f"the action waited {answered_in:.2f} s behind the lobby"
    assert 'id="lobby-list"' in await watcher.receive_from(timeout=5)
    await me.disconnect()
    await watcher.disconnect()


async def test_a_person_cannot_open_more_sockets_than_the_cap(player, settings):
    settings.WS_MAX_SOCKETS_PER_USER = 3
    table = await database_sync_to_async(make_computer_table)(player)
    opened = [(await connect(table.pk, player))[0] for _ in range(3)]
    for socket in opened:
        await socket.receive_json_from()
    extra, _ = await connect(table.pk, player)
    refusal = await extra.receive_json_from()
    assert refusal["type"] == "error" and "Too many open" in refusal["message"]
    assert (await extra.receive_output())["code"] == 4408
    lobby_extra = await lobby_socket(player)
    assert "Too many open" in await lobby_extra.receive_from()
    await opened[0].disconnect()  # closing one makes room again
    again, _ = await connect(table.pk, player)
    assert (await again.receive_json_from())["type"] == "state"
    for socket in [*opened[1:], again]:
        await socket.disconnect()


async def test_visitors_who_are_not_signed_in_are_capped_per_address(settings):
    settings.WS_MAX_SOCKETS_PER_ADDRESS = 2
    first = await lobby_socket(address="198.51.100.7")
    second = await lobby_socket(address="198.51.100.7")
    third = await lobby_socket(address="198.51.100.7")
    assert "Too many open" in await third.receive_from()
    elsewhere = await lobby_socket(address="198.51.100.8")
    assert await elsewhere.receive_nothing(timeout=0.1)
    for socket in (first, second, elsewhere):
        await socket.disconnect()


def test_behind_the_proxy_the_forwarded_address_counts_and_only_from_the_proxy(settings):
    import ipaddress

    settings.TRUSTED_PROXIES = [ipaddress.ip_network("127.0.0.1/32")]
    forged_then_real = [(b"x-forwarded-for", b"10.9.9.9, 192.0.2.9")]
    via_proxy = {"client": ("127.0.0.1", 1), "headers": forged_then_real}
    direct = {"client": ("192.0.2.50", 1), "headers": forged_then_real}
    assert limits.client_address(via_proxy) == "192.0.2.9"  # what nginx appended
    assert limits.client_address(direct) == "192.0.2.50"  # a forged header is ignored


async def test_many_sockets_of_one_person_share_one_message_bucket(player, settings):
    settings.WS_PERSON_BURST = 5
    settings.WS_PERSON_RATE_PER_SECOND = 0.1
    table = await database_sync_to_async(make_computer_table)(player)
    sockets = [(await connect(table.pk, player))[0] for _ in range(4)]
    for socket in sockets:
        await socket.receive_json_from()
    replies = []
    for socket in sockets:  # each socket alone is far under its own rate
        for _ in range(2):
            await socket.send_json_to({"type": "snapshot"})
            if not await socket.receive_nothing(timeout=0.3):
                replies.append(await socket.receive_json_from())
    answered = [r for r in replies if r["type"] == "state"]
    slowed = [r for r in replies if r["type"] == "error" and "slow down" in r["message"]]
    assert len(answered) == 5 and slowed, replies
    for socket in sockets:
        await socket.disconnect()


async def session_socket(table_id, user, session_key):
    communicator = WebsocketCommunicator(router, f"/ws/tables/{table_id}/?format=json")
    communicator.scope["user"] = user
    communicator.scope["session"] = SessionStore(session_key)
    connected, _ = await communicator.connect()
    assert connected
    await communicator.receive_json_from()
    return communicator


def logged_in_client(user) -> Client:
    client = Client()
    client.login(username=user.username, password="pw-long-enough")
    return client


async def test_logging_out_closes_the_sockets_of_that_session(player):
    table = await database_sync_to_async(make_computer_table)(player)
    browser = await database_sync_to_async(logged_in_client)(player)
    other = await database_sync_to_async(logged_in_client)(player)
    mine = await session_socket(table.pk, player, browser.session.session_key)
    theirs = await session_socket(table.pk, player, other.session.session_key)
    await database_sync_to_async(browser.post)("/accounts/logout/")
    closed = await mine.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4401}
    assert await theirs.receive_nothing(timeout=0.5)  # another browser stays signed in
    await theirs.disconnect()


async def test_a_password_change_closes_the_sockets_of_every_other_session(player):
    table = await database_sync_to_async(make_computer_table)(player)
    browser = await database_sync_to_async(logged_in_client)(player)
    thief = await database_sync_to_async(logged_in_client)(player)
    stolen = await session_socket(table.pk, player, thief.session.session_key)

    def change_password():
        return browser.post("/accounts/password_change/", {
            "old_password": "pw-long-enough", "new_password1": "a-new-long-passphrase",
            "new_password2": "a-new-long-passphrase"})

    response = await database_sync_to_async(change_password)()
    assert response.status_code == 302
    mine = await session_socket(table.pk, player, browser.session.session_key)
    closed = await stolen.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4401}
    assert await mine.receive_nothing(timeout=0.5)  # the browser that changed it stays in
    await mine.disconnect()


async def test_a_person_read_fresh_from_the_database_connects(player, django_user_model):
    """As through the session middleware: the profile (their language) is not loaded yet, and
    reading it must not happen on the event loop."""
    table = await database_sync_to_async(make_computer_table)(player)
    fresh = await database_sync_to_async(django_user_model.objects.get)(pk=player.pk)
    socket, connected = await connect(table.pk, fresh)
    assert connected and (await socket.receive_json_from())["type"] == "state"
    fresh = await database_sync_to_async(django_user_model.objects.get)(pk=player.pk)
    lobby = await lobby_socket(fresh)
    assert await lobby.receive_nothing(timeout=0.1)
    await socket.disconnect()
    await lobby.disconnect()


async def test_one_lobby_socket_per_process_listens_and_hands_over_when_it_closes(player,
                                                                                  settings):
    """A lobby change is one message per process, not one per lobby socket (each would cost a
    turn of the event loop), and nothing is lost when the listening socket closes."""
    from channels.layers import get_channel_layer

    from games.broadcasting import lobby_group

    settings.LOBBY_MIN_INTERVAL_SECONDS = 0
    sockets = [await lobby_socket(address=f"203.0.113.{i}") for i in range(20)]
    layer = get_channel_layer()
    members = getattr(layer, "groups", {}).get(lobby_group())
    if members is not None:  # the in-memory layer shows its groups
        assert len(members) == 1
    await sockets[0].disconnect()  # the first one listened
    await database_sync_to_async(tables.create_table)(player, "solo_whist", {})
    for socket in sockets[1:]:
        assert 'id="lobby-list"' in await socket.receive_from(timeout=5)
        await socket.disconnect()


async def test_closing_every_socket_does_not_refill_a_persons_bucket(player, settings):
    settings.WS_PERSON_BURST = 3
    settings.WS_PERSON_RATE_PER_SECOND = 0.1
    table = await database_sync_to_async(make_computer_table)(player)
    answered = slowed = 0
    for _ in range(3):  # open, spend, close: again and again
        socket, _ = await connect(table.pk, player)
        await socket.receive_json_from()
        for _ in range(3):
            await socket.send_json_to({"type": "snapshot"})
            if not await socket.receive_nothing(timeout=0.3):
                reply = await socket.receive_json_from()
                answered += reply["type"] == "state"
                slowed += reply["type"] == "error"
        await socket.disconnect()
    assert answered == 3 and slowed, (answered, slowed)


async def test_renewing_the_invite_link_closes_the_sockets_it_let_in(player, django_user_model):
    table = await database_sync_to_async(make_computer_table)(player, "solo_whist", True)
    guest = await database_sync_to_async(django_user_model.objects.create_user)(
        "gus", "g@example.org", "pw-long-enough")
    socket, connected = await connect(table.pk, guest,
                                      session={"table_invites": [[table.pk, table.invite_token]]})
    assert connected
    await socket.receive_json_from()
    mine, _ = await connect(table.pk, player)
    await mine.receive_json_from()
    await database_sync_to_async(tables.renew_invite)(table.pk, player)
    closed = await socket.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4404}
    assert await mine.receive_nothing(timeout=0.5)  # the creator stays
    await mine.disconnect()
