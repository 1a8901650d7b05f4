"""A player who drops off keeps the seat for a grace period, then a computer plays for them
until they come back; the others see a countdown."""

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games import presence, tables
from games.models import Presence, Seat, Table, computer_plays
from tests.games.test_consumers import connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("computer_players_act_at_once")]


@pytest.fixture(autouse=True)
def quick_away(settings):
    settings.PRESENCE_AWAY_AFTER_SECONDS = 0.2
    settings.PRESENCE_HEARTBEAT_SECONDS = 0  # the sweep is called by the tests that want it


async def until(predicate, seconds=5.0):
    for _ in range(int(seconds / 0.05)):
        if await database_sync_to_async(predicate)():
            return True
        await asyncio.sleep(0.05)
    return False


@pytest.fixture
def two_players(django_user_model):
    ana = django_user_model.objects.create_user("ana", "ana@example.org", "pw-long-enough")
    bob = django_user_model.objects.create_user("bob", "bob@example.org", "pw-long-enough")
    return ana, bob


def table_for(ana, bob, grace=60, game="bid_whist"):
    # No time for a move: these tests are about dropping off (a move's clock has timers too).
    table = tables.create_table(ana, game, {}, grace_seconds=grace, move_seconds=0)
    tables.take_seat(table.pk, ana, 0)
    tables.take_seat(table.pk, bob, 1)
    tables.add_computer_player(table.pk, ana, 2)
    tables.add_computer_player(table.pk, ana, 3)
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
    assert bob_seat["away"] is True and bob_seat["computer_playing"] is False
    assert 40 <= bob_seat["takeover_in"] <= 45
    html_socket, _ = await connect(table.pk, ana, json_mode=False)
    html = await html_socket.receive_from()
    assert "a computer plays for bob in" in html and "data-countdown-to=" in html
    await html_socket.disconnect()
    await ana_socket.disconnect()


async def test_coming_back_clears_the_countdown(two_players):
    ana, bob = two_players
    table = await database_sync_to_async(table_for)(ana, bob)
    bob_socket, _ = await connect(table.pk, bob)
    await bob_socket.disconnect()
    assert await until(lambda: Seat.objects.get(table=table, position=1).away_since)
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
    await asyncio.sleep(0.5)
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
    assert not computer_plays(seat, seat.table.grace_seconds)
    await bob_socket.disconnect()


def test_computers_taking_over_play_beside_the_presence_check_not_inside_it(two_players,
                                                                            monkeypatch):
    """Without a delay between computer moves (tests, or a site set so), the computer players
    who take over an abandoned seat still play on a thread of their own: the check runs on a
    server's one database thread, and a whole match played there held up every socket of the
    process (a player's page stood still)."""
    import threading

    from games import computer_players

    ana, bob = two_players
    table = table_for(ana, bob, grace=1, game="solo_whist")
    while tables.current_state(table).to_act == 0:  # Ana plays up to Bob's turn
        tables.play(table.pk, ana, tables.current_state(table).legal_actions()[0], table.version)
        table.refresh_from_db()
    long_ago = timezone.now() - timedelta(hours=1)
    Seat.objects.filter(table=table, position=1).update(away_since=long_ago, seen_at=long_ago)
    played_on, real_run_computer_players = [], computer_players.run_computer_players
    finished = threading.Event()

    def watched_run_computer_players(*args, **kwargs):
        played_on.append(threading.current_thread())
        try:
            return real_run_computer_players(*args, **kwargs)
        finally:
            finished.set()

    monkeypatch.setattr(computer_players, "run_computer_players", watched_run_computer_players)
    presence.check_seat(table.pk, 1)
    assert finished.wait(30), "the computer players never woke"
    assert played_on and played_on[0] is not threading.current_thread()
    table.refresh_from_db()
    assert any(a["seat"] == 1 for a in table.current["actions"]) or table.hands.exists()


@pytest.mark.slow  # waits out the presence timers
async def test_reloading_the_page_makes_no_version_and_leaves_at_most_one_timer(two_players,
                                                                              settings):
    """500 close/open cycles: no new table version, one pending check at most, the seat never
    away; then a real departure is still noticed."""
    import threading

    # A reload is a close and an open within this; 0.2 s was missed on a machine loaded by
    # other work (a cycle then took longer, the seat went away and came back: two versions).
    settings.PRESENCE_AWAY_AFTER_SECONDS = 1.0

    ana, bob = two_players
    table = await database_sync_to_async(table_for)(ana, bob)
    threads_before = threading.active_count()
    for _ in range(500):
        socket, _ = await connect(table.pk, bob)
        await socket.receive_json_from()
        await socket.disconnect()
        assert presence.pending_checks() <= 1
    after = await database_sync_to_async(Table.objects.get)(pk=table.pk)
    assert after.version == table.version
    assert threading.active_count() <= threads_before + 3
    assert await until(lambda: Seat.objects.get(table=table, position=1).away_since)
    assert (await database_sync_to_async(Table.objects.get)(pk=table.pk)).version \
        == table.version + 1
    assert presence.pending_checks() == 1  # the takeover at the end of the grace period
    socket, _ = await connect(table.pk, bob)  # back: the takeover is cancelled
    await socket.receive_json_from()
    assert presence.pending_checks() == 0
    await socket.disconnect()


def test_a_dead_process_sockets_count_as_gone_once_their_lease_runs_out(two_players, settings):
    """A process killed mid-hand leaves presence rows nobody renews: the sweep of any other
    process marks the seat away from the last renewal, and a computer plays after the grace."""
    ana, bob = two_players
    table = table_for(ana, bob, grace=10, game="solo_whist")
    seat = Seat.objects.get(table=table, position=1)
    start = timezone.now()
    Presence.objects.create(seat=seat, channel_name="dead-process!1", seen_at=start,
                            process="deadbeef")
    Seat.objects.filter(pk=seat.pk).update(seen_at=start)
    lease = settings.PRESENCE_LEASE_SECONDS
    later = start + timedelta(seconds=lease + 1)
    # Ana's socket is open in this live process, its lease renewed: only Bob is gone (were
    # Ana gone too, computers would take her seat on a thread of their own, racing this test).
    Presence.objects.create(seat=Seat.objects.get(table=table, position=0),
                            channel_name="alive!0", seen_at=later, process=presence.PROCESS_ID)
    assert presence.sweep(start + timedelta(seconds=lease - 1)) == []
    assert presence.sweep(later) == [(table.pk, 1)]
    seat.refresh_from_db()
    assert seat.away_since == start
    assert not Presence.objects.filter(seat=seat).exists()
    assert computer_plays(seat, table.grace_seconds, start + timedelta(seconds=10))


def test_a_seat_taken_over_http_that_never_opens_a_socket_goes_away(two_players, settings):
    ana, bob = two_players
    table = table_for(ana, bob)
    now = timezone.now() + timedelta(seconds=settings.PRESENCE_LEASE_SECONDS + 1)
    gone = presence.sweep(now)
    assert sorted(gone) == [(table.pk, 0), (table.pk, 1)]
    assert all(s.away_since for s in Seat.objects.filter(table=table, computer_level=""))


def test_the_heartbeat_keeps_this_process_sockets_present(two_players, settings):
    ana, bob = two_players
    table = table_for(ana, bob)
    seat = Seat.objects.get(table=table, position=1)
    Presence.objects.create(seat=seat, channel_name="here!1", process=presence.PROCESS_ID,
                            seen_at=timezone.now() - timedelta(hours=1))
    Seat.objects.filter(table=table).update(seen_at=timezone.now() - timedelta(hours=1))
    assert presence.renew_leases() == 1
    later = timezone.now() + timedelta(seconds=settings.PRESENCE_LEASE_SECONDS / 2)
    assert (table.pk, 1) not in presence.sweep(later)


async def test_a_socket_open_while_its_person_leaves_or_takes_a_seat_follows_them(two_players):
    """Leaving a seat with a socket open leaves no presence behind on it (which would keep
    the next occupant 'present' for ever); sitting down with a socket open makes it present."""
    ana, bob = two_players
    table = await database_sync_to_async(tables.create_table)(ana, "solo_whist", {})
    await database_sync_to_async(tables.take_seat)(table.pk, bob, 0)
    socket, _ = await connect(table.pk, bob)
    await socket.receive_json_from()
    assert await until(lambda: Presence.objects.filter(seat__table=table, seat__position=0).exists())
    await database_sync_to_async(tables.leave_seat)(table.pk, bob)
    state = (await socket.receive_json_from(timeout=5))["state"]
    assert state["seat"] is None
    assert await until(lambda: not Presence.objects.filter(seat__table=table).exists())
    await database_sync_to_async(tables.take_seat)(table.pk, bob, 2)
    state = (await socket.receive_json_from(timeout=5))["state"]
    assert state["seat"] == 2
    assert await until(
        lambda: Presence.objects.filter(seat__table=table, seat__position=2).exists())
    await socket.disconnect()
    assert await until(lambda: not Presence.objects.filter(seat__table=table).exists())
