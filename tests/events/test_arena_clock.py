"""An arena table's own clock (docs/events.md, "Arena", "Time"): a table formed early has the
usual time for its deals, not the whole arena; one formed near the end is up at the arena's
end; no table is formed when its deals no longer fit, so no table plays past the arena's end.
A table whose own clock is up is ended as a Swiss round's tables are by theirs (the computer
players finish its deals, the event's choice for late deals holds) and its people are seated
again while the arena runs.  The event's page says the time left at the person's table."""

import random
import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db.models import F
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from events import arena, results
from events.models import LEAST_MINUTES_PER_DEAL, MINUTES_PER_DEAL, Event, EventRound
from games.models import Hand, Table
from tests.events.test_arena import arena_tables, finish, in_play, people_at, started_arena

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_players_wait")]


def the_round(event) -> EventRound:
    return event.event_rounds.get(number=1)


def test_a_table_formed_early_has_its_own_clock_not_the_arenas(make_people):
    event = started_arena(make_people, 4)  # 60 minutes, 2 deals a table
    (table,) = arena_tables(event)
    started = the_round(event).started_at
    # The usual pace for its two deals (6 minutes a deal): 12 minutes, not the arena's 60.
    assert table.table.time_up_at == started + timedelta(minutes=2 * MINUTES_PER_DEAL)
    assert table.table.time_up_at < the_round(event).ends_at


def test_a_table_formed_near_the_end_is_up_at_the_arenas_end(make_people):
    event = started_arena(make_people, 4)
    (first,) = arena_tables(event)
    ends = timezone.now() + timedelta(minutes=7)  # two deals fit (4 minutes), not 12
    EventRound.objects.filter(event=event).update(ends_at=ends)
    finish(first)
    second = arena_tables(event)[1]
    assert second.table.time_up_at == ends
    assert people_at(second) == people_at(first)


def test_a_table_whose_own_clock_is_up_is_finished_and_its_people_seated_again(
        make_people, settings):
    settings.COMPUTER_DELAY_SECONDS = 0
    settings.COMPUTER_WORKERS = 0
    event = started_arena(make_people, 8, late_deals=Event.LateDeals.AVERAGE_MINUS)
    on_time, slow = arena_tables(event)
    finish(on_time)
    assert len(arena_tables(event)) == 3  # its four seated again at once
    play_table(slow.table, hands=1)  # deal 1 in time; deal 2 not
    # The slow table's own clock was up two minutes ago; the arena runs on (48 minutes
    # left), and no serving process looked: the periodic command finishes its deals.
    Hand.objects.filter(table=slow.table).update(
        finished_at=F("finished_at") - timedelta(minutes=5))
    past = timezone.now() - timedelta(minutes=2)
    Table.objects.filter(pk=slow.table_id).update(time_up_at=past, move_deadline=past)
    call_command("start_events")
    slow.table.refresh_from_db()
    assert slow.table.status == Table.Status.FINISHED
    event.refresh_from_db()
    assert event.status == Event.Status.PLAYING
    # Its people are seated again, at a new table of the next deals none of them played.
    again = [each for each in in_play(event) if people_at(each) == people_at(slow)]
    assert len(again) == 1 and again[0].first_deal == 2
    # Average minus: its second deal, finished after its own time, is not compared.
    second = {row.event_table.pk: row for row in results.arena_deal_results(event, 1)}
    assert second[slow.pk].late is True and second[on_time.pk].late is False
    assert {(s.percent, s.top) for s in second[slow.pk].scores} == {(40.0, 2)}
    first = {row.event_table.pk: row for row in results.arena_deal_results(event, 0)}
    assert not any(row.late for row in first.values())


def play_table(table, hands):
    from tests.playing import play_table as play

    play(table, random.Random(5), hands=hands)


def seconds_left(page: str, words: str) -> int:
    found = re.search(re.escape(words) + r'<span class="clock" data-seconds-left="(\d+)"', page)
    assert found, words
    return int(found.group(1))


def test_the_event_page_says_the_time_left_at_your_table(client, make_people):
    event = started_arena(make_people, 4)
    (table,) = arena_tables(event)
    person = table.table.seats.filter(user__isnull=False).first().user
    client.force_login(person)
    page = client.get(f"/events/{event.pk}/").content.decode()
    # 12 minutes at the table (720 seconds, less the test's own), 60 in the arena.
    assert 660 < seconds_left(page, "Time left at your table: ") <= 720
    assert 3540 < seconds_left(page, "Time left in the arena: ") <= 3600
    assert "12 minutes a table (the arena's end at the latest), 60 seconds a move" in page
    french = client.get(f"/events/{event.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Temps restant à votre table\u00a0: <span" in french
    # The table's own page counts down the same clock.
    at_table = client.get(f"/tables/{table.table_id}/").content.decode()
    assert 660 < seconds_left(at_table, "Time left: ") <= 720
    Table.objects.filter(pk=table.table_id).update(
        time_up_at=timezone.now() - timedelta(seconds=1))
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "Your table's time is up: computer players are finishing its deals." in page
    assert "Time left at your table" not in page


@pytest.mark.parametrize(("minutes_left", "deals_count", "formed"), [
    (60, 2, True), (4, 2, True), (3, 2, False), (16, 8, True), (15, 8, False)])
def test_a_table_is_formed_only_when_its_deals_fit(minutes_left, deals_count, formed):
    now = timezone.now()
    up = arena.table_time_up(now, now + timedelta(minutes=minutes_left), deals_count,
                             deals_count * MINUTES_PER_DEAL)
    assert (up is not None) == formed


@given(left=st.integers(min_value=-600, max_value=180 * 60),
       deals_count=st.integers(min_value=1, max_value=8),
       minutes=st.integers(min_value=1, max_value=120))
def test_no_table_clock_runs_past_the_arenas_end(left, deals_count, minutes):
    now = timezone.now()
    ends = now + timedelta(seconds=left)
    up = arena.table_time_up(now, ends, deals_count, minutes)
    if left < deals_count * LEAST_MINUTES_PER_DEAL * 60:
        assert up is None  # its deals do not fit: no table
        return
    assert up is not None
    assert now < up <= ends  # never past the arena's end
    assert up <= now + timedelta(minutes=minutes)  # never past its own clock
    # Its own clock, or all that is left of the arena: never cut shorter than that.
    assert up == now + timedelta(minutes=minutes) or up == ends


@pytest.mark.slow
@hypothesis_settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                           HealthCheck.too_slow])
@given(count=st.integers(min_value=1, max_value=9),
       length=st.integers(min_value=10, max_value=40),
       deals_count=st.integers(min_value=1, max_value=4),
       steps=st.lists(st.tuples(st.integers(min_value=0, max_value=50),
                                st.integers(min_value=0, max_value=15 * 60)),
                      min_size=1, max_size=10))
def test_over_any_arena_no_table_plays_past_its_end(make_people, count, length, deals_count,
                                                    steps):
    """Tables end in any order, at any time: every table formed has a clock up by the arena's
    end at the latest, within its own clock, with at least the time its deals need; once they
    no longer fit, no table is formed."""
    prefix = f"c{Event.objects.count()}x"
    event = started_arena(make_people, count, prefix=prefix, arena_minutes=length,
                          deals_per_round=deals_count)
    ends = the_round(event).ends_at
    own = timedelta(minutes=arena.table_minutes(event))
    least = timedelta(minutes=deals_count * LEAST_MINUTES_PER_DEAL)
    now = the_round(event).started_at
    formed_at = {each.pk: now for each in arena_tables(event)}
    for pick, seconds in steps:
        playing = in_play(event)
        if playing:
            table = playing[pick % len(playing)]
            Table.objects.filter(pk=table.table_id).update(status=Table.Status.FINISHED)
        now += timedelta(seconds=seconds)
        arena.step(event.pk, now=now)
        for each in arena_tables(event):
            formed_at.setdefault(each.pk, now)
    for each in arena_tables(event):
        up, formed = each.table.time_up_at, formed_at[each.pk]
        assert up <= ends, "a table plays past the arena's end"
        assert up <= formed + own
        assert up - formed >= least and formed < ends
