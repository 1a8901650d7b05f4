"""Builders of the events' Django-side tests (the pure modules' tests need none)."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from events.models import Event
from games import followups
from tests.playing import play_table


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
