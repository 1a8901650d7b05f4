"""Fixtures of the Django-side game tests (the pure engine tests below rules/ need none)."""

import sys

import pytest


@pytest.fixture
def computer_players_act_at_once(settings):
    settings.COMPUTER_DELAY_SECONDS = 0
    settings.COMPUTER_WORKERS = 0  # decide in this process (the runner's own tests cover the pool)


@pytest.fixture
def fresh_limits():
    """Every person's sockets and message allowances forgotten before and after the test."""
    from games import limits
    limits.reset()
    yield
    limits.reset()


@pytest.fixture
def computer_players_wait(monkeypatch):
    """Computer players never act by themselves: the test plays their turns when it wants."""
    from games import computer_players
    monkeypatch.setattr(computer_players, "schedule_computer_players", lambda table_id, own_thread=False: None)


@pytest.fixture(autouse=True)
def no_grace_timer_or_computer_player_outlives_its_test():
    yield
    presence = sys.modules.get("games.presence")  # only if a test used the Django side
    if presence is not None:
        presence.cancel_all_checks()
    computer_players = sys.modules.get("games.computer_players")
    if computer_players is not None:  # their moves must not land in the next test's database
        computer_players.stop_own_threads()


@pytest.fixture
def people(django_user_model):
    """Ana, Bob and Olga, each with an account (a module may have its own people)."""
    def make(name):
        return django_user_model.objects.create_user(name, f"{name}@example.org",
                                                     "pw-long-enough")
    return {name: make(name) for name in ("ana", "bob", "olga")}
