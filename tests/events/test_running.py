"""Running an event: registering and withdrawing before the start, the start (the deals
chosen and kept, round 1 formed by the Swiss pairing, computer players in the seats nobody
fills), every table of a round playing the same deals, the next round once every table has
finished, the standings from finished rounds only."""

import random

import pytest

from events import deals, results, running
from events.models import Event, EventTable
from games.models import Table
from tests.events.conftest import new_event, play_round, play_table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_players_wait")]



def test_people_register_and_withdraw_before_the_start_only(make_people):
    org, ana = make_people("org", "ana")
    event = new_event(org)
    running.register(event, ana)
    with pytest.raises(running.EventError, match="already registered"):
        running.register(event, ana)
    running.withdraw(event, ana)
    assert running.registered(event) == []
    with pytest.raises(running.EventError, match="not registered"):
        running.withdraw(event, ana)
    running.register(event, ana)  # again, after withdrawing
    assert running.registered(event) == [ana]
    running.start(event, org)
    with pytest.raises(running.EventError, match="started"):
        running.withdraw(event, ana)


def test_a_latecomer_to_a_swiss_event_plays_from_the_next_round_at_0_no_bye_counted(
        make_people):
    org, *players = make_people("org", "ana", "bob", "cy", "dee", "eve")
    late, too_late = make_people("late", "toolate")
    event = new_event(org, rounds=3, deals_per_round=1)
    for person in players:
        running.register(event, person)
    running.start(event, org)
    event.refresh_from_db()
    # Round 1 of 3 is being played: a newcomer may still join, from round 2.
    assert running.late_refusal(event) is None
    assert running.next_round_for_newcomers(event) == 2
    running.register(event, late)
    assert late in running.registered(event)
    first = event.event_rounds.get(number=1)
    assert not first.tables.filter(table__seats__user=late).exists()  # not in round 1
    with pytest.raises(running.EventError, match="already registered"):
        running.register(event, late)

    play_round(event, 1)
    second = event.event_rounds.get(number=2)
    # Seated in round 2, at one table; the round they missed is no bye of theirs.
    assert second.tables.filter(table__seats__user=late).count() == 1
    past = results.history(event)
    assert past.byes[late.pk] == 0 and past.score[late.pk] == 0.0
    assert late.pk not in first.sitting_out

    # Round 2 of 3: still open (they would play round 3); round 3: too late, in words.
    assert running.late_refusal(event) is None
    play_round(event, 2)
    event.refresh_from_db()
    assert event.event_rounds.get(number=3).finished_at is None
    with pytest.raises(running.EventError, match="The last round has started"):
        running.register(event, too_late)
    assert too_late not in running.registered(event)
    play_round(event, 3)
    event.refresh_from_db()
    with pytest.raises(running.EventError, match="The event is over"):
        running.register(event, too_late)
    # The latecomer is ranked by the deals they played: two of three.
    (row,) = [row for row in results.standings(event) if row.user == late]
    assert row.deals == 2


def test_only_the_organiser_starts_and_not_without_players(make_people):
    org, ana = make_people("org", "ana")
    event = new_event(org)
    with pytest.raises(running.EventError, match="Nobody is registered"):
        running.start(event, org)
    running.register(event, ana)
    with pytest.raises(running.EventError, match="Only the organiser"):
        running.start(event, ana)
    running.start(event, org)
    with pytest.raises(running.EventError, match="already started"):
        running.start(event, org)


def test_every_table_of_a_round_plays_the_same_deals_and_computers_fill_the_rest(make_people):
    org, *players = make_people("org", "ana", "bob", "cy", "dee", "eve")
    event = new_event(org, rounds=2, deals_per_round=2)
    for person in players:
        running.register(event, person)
    running.start(event, org)
    event.refresh_from_db()
    assert event.status == Event.Status.PLAYING
    stored = deals.from_document(event.deals)
    assert len(stored) == 4
    first = event.event_rounds.get(number=1)
    round_tables = [each.table for each in first.tables.all()]
    assert len(round_tables) == 2  # five people at tables of four: three computer players
    seated = [seat for table in round_tables for seat in table.seats.all()]
    assert sorted(s.user.username for s in seated if s.user_id) == sorted(
        p.username for p in players)
    assert sum(bool(s.computer_level) for s in seated) == 3
    for table in round_tables:
        assert table.is_private and table.created_by_id is None
        assert table.preset_deals == event.deals["deals"][0:2]
        assert table.current["hands"] == event.deals["deals"][0]["hands"]

    # A table that finishes first does not end the round.
    play_table(round_tables[0], random.Random(1))
    running.advance(event.pk)
    first.refresh_from_db()
    assert first.finished_at is None and event.event_rounds.count() == 1
    assert results.standings(event) == []

    play_round(event, 1)
    first.refresh_from_db()
    assert first.finished_at is not None
    assert not Table.objects.filter(event_table__round=first, is_private=True).exists()
    second = event.event_rounds.get(number=2)
    for each in second.tables.all():
        assert each.table.preset_deals == event.deals["deals"][2:4]
    standings = results.standings(event)
    assert sorted(row.user.username for row in standings) == sorted(p.username for p in players)
    assert all(row.deals == 2 for row in standings)

    play_round(event, 2)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert all(row.deals == 4 for row in results.standings(event))


def test_a_traveller_scores_every_table_of_a_deal(make_people):
    org, *players = make_people("org", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8")
    event = new_event(org, rounds=1, deals_per_round=1)
    for person in players:
        running.register(event, person)
    running.start(event, org)
    play_round(event, 1)
    event.refresh_from_db()
    rows = results.deal_results(event, event.event_rounds.get(number=1), 0)
    assert len(rows) == 2
    # Two tables: each direction beats, ties or loses to the other: 2 matchpoints in all.
    for direction in range(2):
        assert sum(row.scores[direction].matchpoints for row in rows) == 2
    assert {row.hand.record["hands"] == event.deals["deals"][0]["hands"] for row in rows} == {
        True}
    assert EventTable.objects.count() == 2


def test_the_command_starts_the_events_whose_time_has_come(make_people):
    from datetime import timedelta

    from django.core.management import call_command
    from django.utils import timezone

    org, ana = make_people("org", "ana")
    due = new_event(org, starts_at=timezone.now() - timedelta(minutes=1))
    empty = new_event(org, starts_at=timezone.now() - timedelta(minutes=1))
    later = new_event(org)
    for event in (due, later):
        running.register(event, ana)
    call_command("start_events")
    statuses = {e.pk: e.status for e in Event.objects.all()}
    assert statuses == {due.pk: Event.Status.PLAYING, empty.pk: Event.Status.REGISTRATION,
                        later.pk: Event.Status.REGISTRATION}


def test_the_serving_processes_worker_starts_the_events_whose_time_has_come(make_people):
    """No cron needed: the events app gives each serving process's follow-up worker its look
    (``games.followups.every``), which starts a due event as the command does."""
    from datetime import timedelta

    from django.utils import timezone

    from games import followups

    org, ana = make_people("org", "ana")
    due = new_event(org, starts_at=timezone.now() - timedelta(seconds=5))
    later = new_event(org)
    for event in (due, later):
        running.register(event, ana)
    followups.run_periodic({})  # what the worker does as it starts, then every few seconds
    statuses = {e.pk: e.status for e in Event.objects.all()}
    assert statuses == {due.pk: Event.Status.PLAYING, later.pk: Event.Status.REGISTRATION}


def test_a_persons_download_holds_their_events_and_deleting_them_keeps_the_event(make_people):
    from whistclub.accounts.personal_data import collect

    org, ana = make_people("org", "ana")
    event = new_event(org)
    running.register(event, ana)
    (mine,) = collect(ana)["events"]
    assert mine["name"] == "Sunday duplicate" and mine["organiser"] is False
    assert mine["registered_at"] and mine["withdrawn_at"] is None
    assert collect(org)["events"][0]["organiser"] is True
    org.delete()
    event.refresh_from_db()
    assert event.organiser is None and running.registered(event) == [ana]
