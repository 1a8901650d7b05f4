"""Builders of the events' Django-side tests (the pure modules' tests need none)."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from events.models import Event
from games import followups, tables
from games.models import Table


@pytest.fixture
def make_people(django_user_model):
    def make(*names):
        return [django_user_model.objects.create_user(name, f"{name}@example.org",
                                                      "pw-long-enough") for name in names]
    return make


def new_event(organiser, game="bid_whist", **fields):
    values = {"name": "Sunday duplicate", "organiser": organiser, "game": game, "rounds": 2,
              "deals_per_round": 2, "starts_at": timezone.now() + timedelta(hours=2),
              **fields}
    return Event.objects.create(**values)


def play_table(table, rng, hands=None):
    """Every seat of ``table`` plays random legal actions (a person's through their seat, a
    computer player's through its own) until the table finishes, or ``hands`` hands more."""
    table.refresh_from_db()
    stop = None if hands is None else table.hands.count() + hands
    seats = {seat.position: seat for seat in table.seats.all()}
    for _ in range(5000):
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED or (stop is not None
                                                     and table.hands.count() >= stop):
            return
        state = tables.current_state(table)
        seat = seats[state.to_act]
        action = state.random_action(rng)
        if seat.user_id is not None and not seat.computer_level:
            tables.play(table.pk, seat.user, action, table.version)
        else:
            tables.play_for_computer(table.pk, seat.position, action, table.version)
    raise AssertionError("the table never finished")


def play_round(event, number, seed=1):
    """Every table of round ``number`` plays its deals, then the follow-ups run (the table's
    end heard by events)."""
    rng = random.Random(seed)
    for event_table in event.event_rounds.get(number=number).tables.all():
        play_table(event_table.table, rng)
    followups.process_due()


@pytest.fixture
def computer_players_wait(monkeypatch):
    """Computer players never act by themselves: the tests play their turns."""
    from games import computer_players
    monkeypatch.setattr(computer_players, "schedule_computer_players",
                        lambda table_id, own_thread=False: None)


@pytest.fixture(autouse=True)
def no_timer_outlives_its_test():
    """An event's tables have a time for each move: its timers end with the test."""
    yield
    import sys
    presence = sys.modules.get("games.presence")
    if presence is not None:
        presence.cancel_all_checks()
