"""A computer's pending move is kept in the database (``Table.computer_turn``), exactly where a
computer has the turn, and found again by whoever looks: a process starting, a socket
connecting, the presence sweep (once the table has not moved since its previous look)."""

import pytest

from games import computer_players, presence, tables
from games.models import Table
from games.play import play_for_computer
from games.snapshots import current_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def scheduled(monkeypatch):
    """Computer players never act by themselves: the tables they were asked to play."""
    asked = []
    monkeypatch.setattr(computer_players, "schedule_computer_players",
                        lambda table_id, own_thread=False: asked.append(table_id))
    return asked


def table_with_one_person(django_user_model):
    ana = django_user_model.objects.create_user("ana", None, "pw-long-enough")
    table = tables.create_table(ana, "solo_whist", {})
    tables.take_seat(table.pk, ana, 0)
    tables.fill_seats(table.pk, ana, "easy")
    return Table.objects.get(pk=table.pk), ana


def test_the_turn_of_a_computer_is_written_with_the_move_that_gave_it(
        django_user_model, scheduled):
    table, ana = table_with_one_person(django_user_model)
    assert table.computer_turn  # dealt: seat 1, a computer, calls first
    state = current_state(table)
    while state.to_act != 0:  # the computers' calls, made by the test
        play_for_computer(table.pk, state.to_act, state.legal_actions()[0], table.version)
        table = Table.objects.get(pk=table.pk)
        state = current_state(table)
    assert not table.computer_turn  # Ana's turn: nothing pending
    tables.play(table.pk, ana, state.legal_actions()[0], table.version)
    table = Table.objects.get(pk=table.pk)
    assert table.computer_turn  # seat 1 again: the move a restart must not lose


def test_the_computers_loop_clears_the_mark_when_a_person_is_to_act(
        django_user_model, settings, django_capture_on_commit_callbacks):
    settings.COMPUTER_DELAY_SECONDS = 0
    settings.COMPUTER_WORKERS = 0
    with django_capture_on_commit_callbacks(execute=True):
        table, _ = table_with_one_person(django_user_model)  # the computers play at once
    table = Table.objects.get(pk=table.pk)
    assert current_state(table).to_act == 0 and not table.computer_turn
    Table.objects.filter(pk=table.pk).update(computer_turn=True)  # a stale mark
    computer_players.run_computer_players(table.pk, 0)
    assert not Table.objects.get(pk=table.pk).computer_turn


def test_a_table_waiting_for_a_computer_is_resumed_at_start_and_on_connect(
        django_user_model, scheduled):
    table, _ = table_with_one_person(django_user_model)
    scheduled.clear()
    assert computer_players.resume_stalled() == [table.pk]
    assert computer_players.resume_stalled(table.pk) == [table.pk]
    assert scheduled == [table.pk, table.pk]
    Table.objects.filter(pk=table.pk).update(computer_turn=False)
    assert computer_players.resume_stalled() == []


def test_the_sweep_resumes_only_a_table_that_has_not_moved_since_its_last_look(
        django_user_model, scheduled, settings):
    settings.PRESENCE_HEARTBEAT_SECONDS = 10
    table, _ = table_with_one_person(django_user_model)
    scheduled.clear()
    presence.heartbeat_once()
    assert scheduled == []  # maybe a computer pausing before its move: leave it
    presence.heartbeat_once()
    assert scheduled == [table.pk]  # still there a heartbeat later: stranded
    scheduled.clear()
    Table.objects.filter(pk=table.pk).update(version=table.version + 1)  # it moved meanwhile
    presence.heartbeat_once()
    assert scheduled == []


def test_an_away_seats_takeover_lost_with_its_timer_is_made_by_the_next_look(
        django_user_model, scheduled, settings):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Seat

    ana = django_user_model.objects.create_user("ana", None, "pw-long-enough")
    bob = django_user_model.objects.create_user("bob", None, "pw-long-enough")
    table = tables.create_table(ana, "solo_whist", {})
    tables.take_seat(table.pk, ana, 0)
    tables.take_seat(table.pk, bob, 1)
    tables.fill_seats(table.pk, ana, "easy")
    table = Table.objects.get(pk=table.pk)
    assert current_state(table).to_act == 1  # Bob's call first
    Table.objects.filter(pk=table.pk).update(computer_turn=False)
    # Bob left long ago; the timer of his takeover died with its process.
    Seat.objects.filter(table=table, position=1).update(
        away_since=timezone.now() - timedelta(seconds=table.grace_seconds + 5))
    scheduled.clear()
    assert (table.pk, 1) in presence.look_at_away_seats()
    assert scheduled == [table.pk]
    assert Table.objects.get(pk=table.pk).computer_turn


def test_the_seat_of_a_deleted_account_is_a_computers_turn_a_restart_finds(
        django_user_model, scheduled):
    ana = django_user_model.objects.create_user("ana", None, "pw-long-enough")
    bob = django_user_model.objects.create_user("bob", None, "pw-long-enough")
    table = tables.create_table(ana, "solo_whist", {})
    tables.take_seat(table.pk, ana, 0)
    tables.take_seat(table.pk, bob, 1)
    tables.fill_seats(table.pk, ana, "easy")
    assert current_state(Table.objects.get(pk=table.pk)).to_act == 1  # Bob's call
    Table.objects.filter(pk=table.pk).update(computer_turn=False)  # a person to act
    bob.delete()
    assert Table.objects.get(pk=table.pk).computer_turn  # now a computer's, in the database
