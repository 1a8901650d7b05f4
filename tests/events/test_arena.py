"""Running an arena (docs/events.md, "Arena"): everyone seated at the start, computer players
in the seats left; a table that finishes has its people seated again at once with those
waiting, at a new table playing the next deals none of them has played; nobody at two tables;
the same signal twice opens nothing more; after a restart the periodic command seats whoever
waits; no table starts once too little time is left; the arena ends once its time is up and
its last table has finished; each deal scored over every table that has played it."""

import random
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db.models import F
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from events import arena, results, running
from events.models import Event, EventRound, EventTable
from games import followups, signals
from games.models import Hand, Table
from tests.events.conftest import new_event, play_table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_players_wait")]


def new_arena(organiser, **fields):
    return new_event(organiser, **{"format": Event.Format.ARENA, "rounds": 1,
                                   "deals_per_round": 2, "arena_minutes": 60, **fields})


def started_arena(make_people, count, prefix="p", **fields) -> Event:
    org, *players = make_people(f"{prefix}org", *(f"{prefix}{n}" for n in range(count)))
    event = new_arena(org, **fields)
    for person in players:
        running.register(event, person)
    running.start(event, org)
    event.refresh_from_db()
    return event


def arena_tables(event):
    return list(EventTable.objects.filter(round__event=event).select_related("table")
                .order_by("number"))


def people_at(event_table):
    return {seat.user.username for seat in event_table.table.seats.all() if seat.user_id}


def in_play(event):
    return [each for each in arena_tables(event) if each.table.status != Table.Status.FINISHED]


def assert_nobody_at_two_tables(event):
    seated = [name for each in in_play(event) for name in people_at(each)]
    assert len(seated) == len(set(seated)), seated


def assert_nobody_plays_a_deal_twice(event):
    blocks: dict[str, list[int]] = {}
    for each in arena_tables(event):
        for name in people_at(each):
            blocks.setdefault(name, []).append(each.first_deal)
    for name, firsts in blocks.items():
        assert len(firsts) == len(set(firsts)), (name, firsts)


def finish(event_table, seed=1):
    play_table(event_table.table, random.Random(seed))
    followups.process_due()  # the table's end, heard by events


def test_the_start_seats_everyone_computers_fill_and_each_table_has_its_own_clock(
        make_people):
    event = started_arena(make_people, 5)
    (the_round,) = event.event_rounds.all()
    assert the_round.ends_at - the_round.started_at == timedelta(minutes=60)
    first, second = arena_tables(event)
    assert len(people_at(first) | people_at(second)) == 5  # five people, three computers
    for each in (first, second):
        assert each.first_deal == 0
        assert each.table.preset_deals == event.deals["deals"][0:2]
        # Its own clock: the usual pace for its deals (6 minutes a deal), not the arena's.
        assert each.table.time_up_at == the_round.started_at + timedelta(minutes=12)
        assert each.table.is_private
    assert sum(bool(s.computer_level) for each in (first, second)
               for s in each.table.seats.all()) == 3


def test_a_table_that_finishes_is_seated_again_with_those_waiting(make_people):
    event = started_arena(make_people, 5)
    full, with_computers = arena_tables(event)
    (alone,) = people_at(with_computers)
    finish(with_computers)
    # One person waits while the other table plays: nobody else is free yet.
    assert len(arena_tables(event)) == 2
    page_client_sees_waiting = arena.current_table(event, with_computers.table.seats.filter(
        user__isnull=False).get().user_id)
    assert page_client_sees_waiting is None

    finish(full, seed=2)
    # The four from the full table and the one waiting: a table of four at once, the one
    # waiting among them (the latest arrivals wait), playing the next deals.
    tables_now = arena_tables(event)
    assert len(tables_now) == 3
    new = tables_now[2]
    assert alone in people_at(new) and len(people_at(new)) == 4
    assert new.first_deal == 2 and new.table.preset_deals == event.deals["deals"][2:4]
    assert_nobody_at_two_tables(event)
    # The fifth waits for a minute at most, then computer players fill the seats.
    assert arena.step(event.pk) == []
    opened = arena.step(event.pk, now=timezone.now() + arena.MAX_WAIT + timedelta(seconds=1))
    assert len(opened) == 1
    assert len(people_at(arena_tables(event)[3])) == 1
    assert_nobody_at_two_tables(event)
    assert_nobody_plays_a_deal_twice(event)


def test_the_same_signal_twice_opens_nothing_more(make_people):
    event = started_arena(make_people, 8)
    first, _second = arena_tables(event)
    finish(first)
    assert len(arena_tables(event)) == 3
    for _ in range(2):
        signals.table_finished.send(sender=Table, table=first.table)
        running.advance(event.pk)
    assert len(arena_tables(event)) == 3
    assert_nobody_at_two_tables(event)


def test_after_a_restart_the_periodic_command_seats_whoever_waits(make_people):
    event = started_arena(make_people, 4)
    (only,) = arena_tables(event)
    play_table(only.table, random.Random(3))
    followups.FollowUp.objects.all().delete()  # the process died before the table's end was told
    assert len(arena_tables(event)) == 1
    call_command("start_events")
    assert len(arena_tables(event)) == 2  # nobody else plays: a table at once
    assert people_at(arena_tables(event)[1]) == people_at(only)


def move_the_end(event, to):
    EventRound.objects.filter(event=event).update(ends_at=to)
    Table.objects.filter(event_table__round__event=event).update(time_up_at=to)


def test_no_table_starts_with_too_little_time_left_and_the_arena_then_ends(make_people):
    event = started_arena(make_people, 4)
    (only,) = arena_tables(event)
    # Two deals need four minutes: with three left, the people wait for the end.
    move_the_end(event, timezone.now() + timedelta(minutes=3))
    finish(only)
    assert len(arena_tables(event)) == 1
    event.refresh_from_db()
    assert event.status == Event.Status.PLAYING
    # The time is up: no table starts, and with none in play the arena is over.
    move_the_end(event, timezone.now() - timedelta(seconds=1))
    assert arena.step(event.pk) == []
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert not Table.objects.filter(event_table__round__event=event, is_private=True).exists()
    assert len(arena_tables(event)) == 1


def test_at_the_end_computers_finish_the_tables_in_play_and_the_arena_ends(make_people,
                                                                           settings):
    settings.COMPUTER_DELAY_SECONDS = 0
    settings.COMPUTER_WORKERS = 0
    event = started_arena(make_people, 8)
    first, second = arena_tables(event)
    finish(first)
    assert len(arena_tables(event)) == 3
    # Time is up a while ago, and no serving process looked: the periodic command finishes
    # the tables still playing and ends the arena; nothing new is opened.
    move_the_end(event, timezone.now() - timedelta(minutes=2))
    Table.objects.filter(event_table__round__event=event).update(
        move_deadline=F("time_up_at"))
    call_command("start_events")
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert len(arena_tables(event)) == 3 and in_play(event) == []


def test_with_average_minus_a_deal_finished_after_the_end_is_not_compared(make_people,
                                                                          settings):
    settings.COMPUTER_DELAY_SECONDS = 0
    settings.COMPUTER_WORKERS = 0
    event = started_arena(make_people, 8, late_deals=Event.LateDeals.AVERAGE_MINUS)
    on_time, late = arena_tables(event)
    finish(on_time)
    play_table(late.table, random.Random(4), hands=1)  # deal 1 in time, deal 2 not
    # Time passes: the hands played so far were finished before the end.
    Hand.objects.filter(table__event_table__round__event=event).update(
        finished_at=F("finished_at") - timedelta(minutes=5))
    move_the_end(event, timezone.now() - timedelta(minutes=2))
    Table.objects.filter(event_table__round__event=event).update(
        move_deadline=F("time_up_at"))
    call_command("start_events")  # computer players finish it, after the time
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    first = {row.event_table.pk: row for row in results.arena_deal_results(event, 0)}
    assert [row.late for row in first.values()] == [False, False]
    second = {row.event_table.pk: row for row in results.arena_deal_results(event, 1)}
    assert second[on_time.pk].late is False and second[late.pk].late is True
    # 40% of the top of a field of two tables, whatever the computers made; the table in
    # time is compared with nobody (50%).
    assert {(s.percent, s.top) for s in second[late.pk].scores} == {(40.0, 2)}
    assert {s.percent for s in second[on_time.pk].scores} == {50.0}


def test_a_deal_is_scored_over_every_table_that_played_it_so_far(make_people):
    event = started_arena(make_people, 12)
    one, two, three = arena_tables(event)
    finish(one)
    rows = results.arena_deal_results(event, 0)
    assert [row.event_table.pk for row in rows] == [one.pk]
    assert rows[0].scores[0].percent == 50.0  # a field of one table
    finish(two, seed=2)
    rows = results.arena_deal_results(event, 0)
    assert {row.event_table.pk for row in rows} == {one.pk, two.pk}
    for direction in range(2):
        assert sum(row.scores[direction].matchpoints for row in rows) == 2
    # Live standings: the eight who played two deals each, the four still playing not yet.
    standings = results.standings(event)
    assert len(standings) == 8 and all(row.deals == 2 for row in standings)
    assert three.pk not in {row.event_table.pk for row in results.arena_deal_results(event, 1)}


def test_the_deal_set_grows_when_a_table_needs_more(make_people):
    event = started_arena(make_people, 4, arena_minutes=10)  # one block and one more
    held = len(event.deals["deals"])
    assert held == 4
    first = event.deals["deals"][:]
    for seed in range(3):
        (table,) = in_play(event)
        finish(table, seed=seed)
        event.refresh_from_db()
    assert [each.first_deal for each in arena_tables(event)] == [0, 2, 4, 6]
    assert len(event.deals["deals"]) > held and event.deals["deals"][:held] == first
    assert [deal["dealer"] for deal in event.deals["deals"]] == [
        n % 4 for n in range(len(event.deals["deals"]))]


@hypothesis_settings(max_examples=6, deadline=None,
                     suppress_health_check=[HealthCheck.function_scoped_fixture,
                                            HealthCheck.too_slow])
@given(count=st.integers(min_value=1, max_value=9),
       order=st.lists(st.integers(min_value=0, max_value=50), min_size=1, max_size=8),
       waits=st.lists(st.booleans(), min_size=8, max_size=8))
def test_over_any_order_of_finishing_nobody_sits_twice_nor_plays_a_deal_twice(
        make_people, count, order, waits):
    prefix = f"h{Event.objects.count()}x"
    event = started_arena(make_people, count, prefix=prefix)
    now = timezone.now()
    for step, pick in enumerate(order):
        playing = in_play(event)
        if not playing:
            break
        table = playing[pick % len(playing)]
        # The table ends (its deals need not be played for who sits where).
        Table.objects.filter(pk=table.table_id).update(status=Table.Status.FINISHED)
        if waits[step]:
            now += arena.MAX_WAIT
        arena.step(event.pk, now=now)
        arena.step(event.pk, now=now)  # twice: the signal may come again
        assert_nobody_at_two_tables(event)
        assert_nobody_plays_a_deal_twice(event)
        # Everyone registered is at a table or waiting, never lost.
        seated = {name for each in in_play(event) for name in people_at(each)}
        assert seated <= {f"{prefix}{n}" for n in range(count)}


def test_the_same_four_seated_again_and_again_each_hold_every_seat_once(make_people):
    """Solo Whist, whose direction is a seat: four people, nobody else, seated together four
    times; each time each takes a seat they have not held yet (as a Swiss round's tables
    even out the directions), so nobody holds the same cards' seat at every table."""
    event = started_arena(make_people, 4, game="solo_whist")
    for seed in range(3):
        (table,) = in_play(event)
        finish(table, seed=seed)
    held: dict[str, list[int]] = {}
    for each in arena_tables(event):
        for seat in each.table.seats.all():
            if seat.user_id:
                held.setdefault(seat.user.username, []).append(seat.position)
    assert len(arena_tables(event)) == 4
    assert all(sorted(seats) == [0, 1, 2, 3] for seats in held.values()), held
