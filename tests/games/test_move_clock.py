"""A time for each move: a table option (none at a private table, a minute at a public one
unless its creator chose), a countdown on the plate of the person to act, and, once it runs
out, a computer player makes that one move for them -- from the deadline kept in the
database, so a restart loses no overdue move."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games import computer_players, presence, tables
from games.models import Seat, Table, computer_plays
from games.snapshots import current_state
from tests.games.test_table_management import logged_in

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_players_act_at_once")]


def computers_stop_acting(monkeypatch) -> list[int]:
    """From now on computer players never act by themselves: the tables they were asked to
    play."""
    asked: list[int] = []
    monkeypatch.setattr(computer_players, "schedule_computer_players",
                        lambda table_id, own_thread=False: asked.append(table_id))
    return asked


def anas_turn(people, django_capture_on_commit_callbacks, **options) -> Table:
    """Ana and three computer players at Solo Whist, the computers' calls made: Ana to act."""
    with django_capture_on_commit_callbacks(execute=True):
        table = tables.create_table(people["ana"], "solo_whist", {}, **options)
        tables.take_seat(table.pk, people["ana"], 0)
        tables.fill_seats(table.pk, people["ana"], "easy")
    table = Table.objects.get(pk=table.pk)
    assert current_state(table).to_act == 0 and not table.computer_turn
    return table


def test_a_public_table_gives_a_minute_a_move_and_a_private_one_no_limit(people, client):
    assert tables.create_table(people["ana"], "solo_whist", {}).move_seconds == 60
    assert tables.create_table(people["ana"], "solo_whist", {}, is_private=True
                               ).move_seconds == 0
    assert tables.play_now(people["ana"], "solo_whist").move_seconds == 0
    ana = logged_in(people["ana"])
    form = ana.get("/tables/new/solo_whist/").content.decode()
    assert "Time for each move" in form and "60 seconds at a public one" in form
    usual = {"trick_pause_ms": "0", "rule_stake_multiplier": "1"}
    ana.post("/tables/new/solo_whist/", {"is_private": "on", "move_seconds": "30", **usual})
    assert Table.objects.order_by("-pk")[0].move_seconds == 30
    ana.post("/tables/new/solo_whist/", {"move_seconds": "", **usual})
    assert Table.objects.order_by("-pk")[0].move_seconds == 60


def test_the_person_to_act_and_everyone_watching_see_the_countdown(
        people, django_capture_on_commit_callbacks):
    table = anas_turn(people, django_capture_on_commit_callbacks)
    state = logged_in(people["ana"]).get(
        f"/tables/{table.pk}/state/?format=json").json()["state"]
    assert state["move_seconds"] == 60 and 55 <= state["move_in"] <= 60
    assert state["move_deadline"] == table.move_deadline.isoformat()
    mine = logged_in(people["ana"]).get(f"/tables/{table.pk}/state/").content.decode()
    assert "s left, then a computer plays this move for you." in mine
    assert f'data-countdown-to="{table.move_deadline.isoformat()}"' in mine
    watching = logged_in(people["olga"]).get(f"/tables/{table.pk}/state/").content.decode()
    assert "s left to play." in watching and "for you" not in watching


def test_a_private_table_shows_no_clock(people, django_capture_on_commit_callbacks):
    table = anas_turn(people, django_capture_on_commit_callbacks, is_private=True)
    assert table.move_deadline is None
    page = logged_in(people["ana"]).get(f"/tables/{table.pk}/state/").content.decode()
    assert "a computer plays this move" not in page


def test_an_overdue_move_is_made_by_a_computer_and_the_next_one_is_the_persons(
        people, django_capture_on_commit_callbacks, monkeypatch):
    table = anas_turn(people, django_capture_on_commit_callbacks)
    scheduled = computers_stop_acting(monkeypatch)
    calls_before = len(table.current["actions"])
    # Not yet: nothing happens before the deadline.
    assert presence.look_at_overdue_moves(table.move_deadline - timedelta(seconds=1)) == []
    # The deadline passed while no process was watching it (a restart): the next look at
    # start, or the heartbeat's, hands the move to a computer, with the mark a restart finds.
    assert presence.look_at_overdue_moves(table.move_deadline + timedelta(seconds=1)) == [
        table.pk]
    assert scheduled == [table.pk]
    assert Table.objects.get(pk=table.pk).computer_turn
    Table.objects.filter(pk=table.pk).update(
        move_deadline=timezone.now() - timedelta(seconds=1))
    computer_players.run_computer_players(table.pk, 0)
    table = Table.objects.get(pk=table.pk)
    made = table.current["actions"][calls_before:] if table.current["actions"] else []
    assert made and made[0]["seat"] == 0 or table.hands.exists(), "nobody moved for Ana"
    # Ana keeps her seat; her next move is hers, with a new minute.
    seat = Seat.objects.get(table=table, position=0)
    assert seat.user == people["ana"]
    assert current_state(table).to_act == 0 and not table.computer_turn
    assert table.move_deadline > timezone.now() + timedelta(seconds=50)
    assert not computer_plays(seat, table.grace_seconds, move_deadline=table.move_deadline)


def test_a_turn_that_begins_asks_to_be_looked_at_when_it_runs_out(
        people, django_capture_on_commit_callbacks, monkeypatch):
    watched = []
    monkeypatch.setattr(presence, "watch_move",
                        lambda table_id, deadline, now=None: watched.append((table_id, deadline)))
    table = anas_turn(people, django_capture_on_commit_callbacks)
    scheduled = computers_stop_acting(monkeypatch)
    assert (table.pk, table.move_deadline) in watched
    # The look at the deadline itself (the timer's) makes the move a computer's.
    assert not presence.check_move(table.pk, table.move_deadline - timedelta(seconds=1))
    assert presence.check_move(table.pk, table.move_deadline)
    assert Table.objects.get(pk=table.pk).computer_turn and scheduled == [table.pk]


def test_a_table_whose_time_is_up_has_every_turn_end_by_then_and_computers_finish_it(
        people, django_capture_on_commit_callbacks, monkeypatch):
    """``Table.time_up_at`` (an event's round clock): the turn in play ends by then at the
    latest; after it, a person's move is refused and the computer players play every seat to
    the table's end, without their pause."""
    from games.models import next_move_deadline
    from games.versions import TableError

    now = timezone.now()
    soon = now + timedelta(seconds=20)
    assert next_move_deadline(60, True, now, time_up_at=soon) == soon
    assert next_move_deadline(0, True, now, time_up_at=soon) == soon
    assert next_move_deadline(10, True, now, time_up_at=soon) == now + timedelta(seconds=10)
    assert next_move_deadline(60, False, now, time_up_at=soon) is None

    table = anas_turn(people, django_capture_on_commit_callbacks)
    scheduled = computers_stop_acting(monkeypatch)
    Table.objects.filter(pk=table.pk).update(time_up_at=now, move_deadline=now,
                                             deals_limit=1)
    table = Table.objects.get(pk=table.pk)
    action = current_state(table).legal_actions()[0]
    with pytest.raises(TableError, match="Time is up at this table"):
        tables.play(table.pk, people["ana"], action, table.version)
    assert presence.look_at_overdue_moves() == [table.pk] and scheduled == [table.pk]
    began = time.monotonic()
    computer_players.run_computer_players(table.pk, 1.0)  # no pause once the time is up
    assert time.monotonic() - began < 20  # some fifty moves: not a second each
    table = Table.objects.get(pk=table.pk)
    assert table.status == Table.Status.FINISHED and table.hands.count() >= 1
