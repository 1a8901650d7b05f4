"""A player who drops off keeps the seat for a grace period, then a computer plays for them
until they come back; the others see a countdown."""

import asyncio

import pytest
from channels.db import database_sync_to_async

from games import tables
from games.models import Seat, Table
from tests.games.test_consumers import connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("bots_act_at_once")]


@pytest.fixture
def two_players(django_user_model):
    ana = django_user_model.objects.create_user("ana", "ana@example.org", "pw-long-enough")
    bob = django_user_model.objects.create_user("bob", "bob@example.org", "pw-long-enough")
    return ana, bob


def table_for(ana, bob, grace=60, game="bid_whist"):
    table = tables.create_table(ana, game, {}, grace_seconds=grace)
    tables.take_seat(table.pk, ana, 0)
    tables.take_seat(table.pk, bob, 1)
    tables.add_bot(table.pk, ana, 2)
    tables.add_bot(table.pk, ana, 3)
    return Table.objects.get(pk=table.pk)


async def test_others_see_a_countdown_when_a_player_drops_off(two_players):
    ana, bob = two_players
    table = await database_sync_to_async(table_for)(ana, bob, grace=45)
    ana_socket, _ = await connect(table.pk, ana)
    bob_socket, _ = await connect(table.pk, bob)
    await ana_socket.receive_json_from()
    await bob_socket.receive_json_from()
    await bob_socket.disconnect()
    update = await ana_socket.receive_json_from(timeout=5)
    bob_seat = update["state"]["players"][1]
    assert bob_seat["away"] is True and bob_seat["bot_playing"] is False
    assert 40 <= bob_seat["takeover_in"] <= 45
    html_socket, _ = await connect(table.pk, ana, json_mode=False)
    html = await html_socket.receive_from()
    assert "a computer player takes over in" in html and "data-countdown-to=" in html
    await html_socket.disconnect()
    await ana_socket.disconnect()


async def test_coming_back_clears_the_countdown(two_players):
    ana, bob = two_players
    table = await database_sync_to_async(table_for)(ana, bob)
    bob_socket, _ = await connect(table.pk, bob)
    await bob_socket.disconnect()
    seat = await database_sync_to_async(Seat.objects.get)(table=table, position=1)
    assert seat.away_since is not None
    bob_socket, _ = await connect(table.pk, bob)
    state = (await bob_socket.receive_json_from())["state"]
    assert state["players"][1]["away"] is False
    await bob_socket.disconnect()


async def test_a_second_tab_keeps_the_player_present(two_players):
    ana, bob = two_players
    table = await database_sync_to_async(table_for)(ana, bob)
    tab_one, _ = await connect(table.pk, bob)
    tab_two, _ = await connect(table.pk, bob)
    await tab_one.disconnect()
    seat = await database_sync_to_async(Seat.objects.get)(table=table, position=1)
    assert seat.away_since is None
    await tab_two.disconnect()


async def test_after_the_grace_period_a_computer_plays_and_the_player_gets_the_seat_back(
        two_players):
    ana, bob = two_players
    table = await database_sync_to_async(table_for)(ana, bob, grace=1, game="solo_whist")
    await database_sync_to_async(Table.objects.filter(pk=table.pk).update)(grace_seconds=1)
    bob_socket, _ = await connect(table.pk, bob)
    await bob_socket.receive_json_from()
    await bob_socket.disconnect()

    def bob_has_played():
        table.refresh_from_db()
        actions = (table.current or {}).get("actions", [])
        return any(a["seat"] == 1 for a in actions) or table.hands.exists()

    def to_act():
        table.refresh_from_db()
        return tables.current_state(table).to_act

    # Ana (seat 0) plays whenever it is her turn; Bob's turns must be played for him.
    for _ in range(100):
        if await database_sync_to_async(bob_has_played)():
            break
        if await database_sync_to_async(to_act)() == 0:
            state = await database_sync_to_async(tables.current_state)(table)
            await database_sync_to_async(tables.play)(table.pk, ana, state.legal_actions()[0],
                                                      table.version)
        await asyncio.sleep(0.1)
    assert await database_sync_to_async(bob_has_played)(), "nobody played for the absent player"
    # Bob comes back: his seat is his again at once.
    bob_socket, _ = await connect(table.pk, bob)
    state = (await bob_socket.receive_json_from())["state"]
    assert state["players"][1]["away"] is False
    seat = await database_sync_to_async(Seat.objects.select_related("table").get)(
        table=table, position=1)
    assert not seat.played_by_bot()
    await bob_socket.disconnect()
