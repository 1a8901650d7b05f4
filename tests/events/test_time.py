"""Time in an event: a round clock (each table's ``time_up_at``, shown on the event's page and
at the table, counted by the server), the deals a table has not finished when it is up --
finished by computer players, or scored average minus, as the event chose -- and the next round
formed without waiting for the slow table; a time for each move, the event's own.  The end of a
round is found again from the database: the presence sweep, a process's catch-up at its start,
the periodic command."""

import random
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db.models import F
from django.utils import timezone

from events import deals, results, running
from events.models import Event, EventRound
from games import computer_players, followups, presence, snapshots, tables
from games.models import Hand, Seat, Table
from games.versions import TableError
from tests.events.conftest import new_event, play_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def scheduled(monkeypatch, settings):
    """Computer players act only when the test runs them: the tables they were asked to play
    (as a thread of a serving process would be started for each)."""
    settings.COMPUTER_DELAY_SECONDS = 0
    settings.COMPUTER_WORKERS = 0  # they decide in this process
    asked: list[int] = []
    monkeypatch.setattr(computer_players, "schedule_computer_players",
                        lambda table_id, own_thread=False: asked.append(table_id))
    return asked


def started(make_people, count=8, **fields) -> Event:
    org, *players = make_people("org", *[f"p{n}" for n in range(count)])
    event = new_event(org, **fields)
    for person in players:
        running.register(event, person)
    running.start(event, org)
    event.refresh_from_db()
    return event


def time_passes(event_round: EventRound, by: timedelta) -> None:
    """``by`` passes for the round: every time it keeps -- its start and end, each table's
    end and turn's end, each finished hand's time -- moved that much into the past.  Nothing
    held in memory survives, as after a restart: no timer, no cached version of a table."""
    EventRound.objects.filter(pk=event_round.pk).update(started_at=F("started_at") - by,
                                                       ends_at=F("ends_at") - by)
    Table.objects.filter(event_table__round=event_round).update(
        time_up_at=F("time_up_at") - by, move_deadline=F("move_deadline") - by)
    Hand.objects.filter(table__event_table__round=event_round).update(
        finished_at=F("finished_at") - by)
    event_round.refresh_from_db()
    presence.cancel_all_checks()
    snapshots.forget_snapshots()


def the_time_is_up(event_round: EventRound, ago=timedelta(seconds=1)) -> None:
    """The round's clock runs out, ``ago`` before now."""
    event_round.refresh_from_db()
    time_passes(event_round, event_round.ends_at - timezone.now() + ago)


def a_person_to_act(table: Table):
    """The seat of a person whose turn it is, after the computers' turns before it."""
    for _ in range(200):
        table.refresh_from_db()
        state = tables.current_state(table)
        seat = Seat.objects.get(table=table, position=state.to_act)
        if seat.user_id is not None:
            return seat, state
        tables.play_for_computer(table.pk, seat.position, state.legal_actions()[0],
                                 table.version)
    raise AssertionError("no person's turn came")


def test_a_round_has_a_clock_every_table_keeps_and_the_events_time_for_each_move(
        make_people, scheduled):
    event = started(make_people, rounds=2, deals_per_round=2, round_minutes=12,
                    move_seconds=30)
    first = event.event_rounds.get(number=1)
    assert first.ends_at == first.started_at + timedelta(minutes=12)
    for event_table in first.tables.all():
        table = event_table.table
        assert table.time_up_at == first.ends_at and table.move_seconds == 30
        # the turn in play has its 30 seconds, and ends before the round at the latest
        assert timedelta(seconds=25) < table.move_deadline - timezone.now() <= timedelta(
            seconds=30)
    # An event created before there was a clock gives it from its deals: 6 minutes each.
    assert new_event(event.organiser, deals_per_round=3).round_minutes_or_usual == 18


def test_a_move_whose_time_runs_out_is_made_by_a_computer_and_the_next_is_the_persons(
        make_people, scheduled):
    event = started(make_people, count=1, rounds=1, deals_per_round=1, move_seconds=30)
    table = event.event_rounds.get().tables.get().table
    seat, state = a_person_to_act(table)
    table.refresh_from_db()
    scheduled.clear()
    assert presence.look_at_overdue_moves(table.move_deadline - timedelta(seconds=1)) == []
    assert presence.look_at_overdue_moves(table.move_deadline + timedelta(seconds=1)) == [
        table.pk]
    assert scheduled == [table.pk]
    Table.objects.filter(pk=table.pk).update(move_deadline=timezone.now())
    before = len(table.current["actions"])
    computer_players.run_computer_players(table.pk, 0)
    table.refresh_from_db()
    assert table.current["actions"][before]["seat"] == seat.position  # made for them
    assert Seat.objects.get(pk=seat.pk).user_id == seat.user_id  # they keep their seat
    # Their next turn is theirs, with the event's 30 seconds again.
    seat, state = a_person_to_act(table)
    table.refresh_from_db()
    assert timedelta(seconds=25) < table.move_deadline - timezone.now() <= timedelta(seconds=30)


def test_when_the_time_is_up_computers_finish_the_slow_table_and_the_next_round_begins(
        make_people, scheduled):
    event = started(make_people, rounds=2, deals_per_round=2)
    first = event.event_rounds.get(number=1)
    fast, slow = (each.table for each in first.tables.all())
    rng = random.Random(3)
    play_table(fast, rng)
    play_table(slow, rng, hands=1)  # one deal of two
    first.refresh_from_db()
    assert first.finished_at is None  # the round waits for the slow table ...
    seat, state = a_person_to_act(slow)

    the_time_is_up(first)  # ... until its time is up
    slow.refresh_from_db()
    with pytest.raises(TableError, match="Time is up at this table: computer players finish "
                                         "its deals."):
        tables.play(slow.pk, seat.user, state.legal_actions()[0], slow.version)
    # Nothing of the slow table's deal leaves before it is played everywhere.
    assert results.standings(event) == []
    # No timer survived: what a process does as it starts (and its heartbeat's sweep) finds
    # the time up and gives the table to the computers.
    scheduled.clear()
    presence.look_at_overdue_moves()
    computer_players.resume_stalled()
    assert set(scheduled) == {slow.pk}
    computer_players.run_computer_players(slow.pk, 0)
    followups.process_due()
    slow.refresh_from_db()
    assert slow.status == Table.Status.FINISHED and slow.hands.count() == 2
    first.refresh_from_db()
    assert first.finished_at is not None
    second = event.event_rounds.get(number=2)
    assert second.ends_at > timezone.now() + timedelta(minutes=11)
    # Computer play counts: every person has both deals of round 1.
    assert sorted(row.deals for row in results.standings(event)) == [2] * 8


def test_the_periodic_command_finishes_a_late_round_nobody_looked_at(make_people, scheduled):
    event = started(make_people, rounds=2, deals_per_round=1)
    first = event.event_rounds.get(number=1)
    fast, slow = (each.table for each in first.tables.all())
    play_table(fast, random.Random(4))
    the_time_is_up(first, ago=timedelta(seconds=30))
    call_command("start_events")  # within a minute, the serving processes' own work
    assert Table.objects.get(pk=slow.pk).status == Table.Status.PLAYING
    the_time_is_up(first, ago=timedelta(minutes=2))  # no serving process looked
    call_command("start_events")
    assert Table.objects.get(pk=slow.pk).status == Table.Status.FINISHED
    first.refresh_from_db()
    assert first.finished_at is not None and event.event_rounds.filter(number=2).exists()


def test_average_minus_scores_the_late_tables_deals_40_percent_out_of_the_field(
        make_people, scheduled, client):
    event = started(make_people, count=12, rounds=1, deals_per_round=2,
                    late_deals=Event.LateDeals.AVERAGE_MINUS)
    first = event.event_rounds.get(number=1)
    one, two, late = (each.table for each in first.tables.all())
    rng = random.Random(5)
    play_table(one, rng)
    play_table(two, rng)
    play_table(late, rng, hands=1)
    the_time_is_up(first)
    presence.look_at_overdue_moves()
    computer_players.run_computer_players(late.pk, 0)  # played out, not counted
    followups.process_due()
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED

    first.refresh_from_db()
    on_time = results.deal_results(event, first, 0)
    assert [row.late for row in on_time] == [False, False, False]
    rows = results.deal_results(event, first, 1)
    assert [row.late for row in rows] == [False, False, True]
    for direction in range(2):  # the two tables in time are each other's field ...
        assert sum(row.scores[direction].matchpoints for row in rows[:2]) == 2
    # ... and the late table has 40% of the top of a field of three, whatever it made.
    assert {(s.percent, s.matchpoints, s.top) for s in rows[2].scores} == {(40.0, 1.6, 4)}
    page = client.get(f"/events/{event.pk}/deals/2/").content.decode()
    assert ("Not finished when the round&#x27;s time was up: everyone at this table scores "
            "average minus (40%).") in page
    assert "average minus</td>" in page
    late_people = {s.user_id for s in late.seats.all() if s.user_id}
    first_deal = {row.event_table.table_id: row for row in on_time}[late.pk]
    for row in results.standings(event):
        if row.user.pk in late_people:
            seat = late.seats.get(user=row.user)
            mine = first_deal.scores[deals.direction_of(event.game, seat.position)]
            assert row.percent == pytest.approx(100 * (mine.matchpoints + 1.6) / (4 + 4))


def test_the_event_and_table_pages_show_the_time_left_counted_by_the_server(
        make_people, scheduled, client):
    event = started(make_people, count=4, rounds=2, deals_per_round=2, round_minutes=12,
                    move_seconds=30)
    first = event.event_rounds.get(number=1)
    table = first.tables.get().table
    to_act = tables.current_state(table).to_act  # four people: a person's turn
    client.force_login(table.seats.get(position=to_act).user)
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "12 minutes a round, 30 seconds a move" in page
    assert "Time left in the round: <span class=\"clock\" data-seconds-left=\"7" in page
    at_table = client.get(f"/tables/{table.pk}/").content.decode()
    assert "Time left: <span class=\"clock\" data-seconds-left=\"7" in at_table
    assert "s left, then a computer plays this move for you." in at_table
    # Seven minutes later, a reload says what the server's clock says: 5 minutes left.
    time_passes(first, timedelta(minutes=7))
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert 'data-seconds-left="299">4:59</span>' in page or \
        'data-seconds-left="300">5:00</span>' in page
    the_time_is_up(first)
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "Time is up: computer players are finishing the deals left." in page
    assert "data-seconds-left" not in page
    at_table = client.get(f"/tables/{table.pk}/state/").content.decode()
    assert "Time is up: computer players finish the deals." in at_table
    assert "a computer plays this move for you" not in at_table  # every move is, now


def test_the_table_page_of_a_french_reader_says_the_time_in_french(make_people, scheduled,
                                                                   client):
    event = started(make_people, count=4, rounds=1, deals_per_round=1)
    table = event.event_rounds.get().tables.get().table
    client.force_login(table.seats.filter(user__isnull=False).first().user)
    page = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Temps restant\u00a0: <span" in page
    page = client.get(f"/events/{event.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Temps restant dans la manche\u00a0: <span" in page
