"""What each serving process's follow-up worker does every so often (``games.followups.every``):
each registered function on time, a failing one not stopping the others."""

import logging

import pytest

from games import followups


@pytest.fixture
def registered(monkeypatch):
    monkeypatch.setattr(followups, "_periodic", {})
    return followups._periodic


def test_each_function_runs_at_once_then_every_its_seconds(registered):
    calls = []
    followups.every(20, "often", lambda: calls.append("often"))
    followups.every(60, "rarely", lambda: calls.append("rarely"))
    next_runs: dict[str, float] = {}
    assert followups.run_periodic(next_runs, now=100.0) == 20  # both ran; the next in 20 s
    assert calls == ["often", "rarely"]
    assert followups.run_periodic(next_runs, now=110.0) == 10  # nothing due yet
    assert calls == ["often", "rarely"]
    followups.run_periodic(next_runs, now=120.0)
    followups.run_periodic(next_runs, now=140.0)
    assert calls == ["often", "rarely", "often", "often"]
    assert followups.run_periodic(next_runs, now=160.0) == 20  # "often" and "rarely" again
    assert calls.count("rarely") == 2


def test_registering_twice_under_one_name_runs_it_once(registered):
    calls = []
    for _ in range(2):
        followups.every(20, "look", lambda: calls.append(1))
    followups.run_periodic({}, now=0.0)
    assert calls == [1]


def test_a_failing_function_is_logged_and_the_others_still_run(registered, caplog):
    calls = []

    def broken():
        raise RuntimeError("the database is gone for a moment")

    followups.every(20, "broken", broken)
    followups.every(20, "fine", lambda: calls.append(1))
    next_runs: dict[str, float] = {}
    with caplog.at_level(logging.ERROR, logger="games.followups"):
        followups.run_periodic(next_runs, now=0.0)
    assert calls == [1]
    assert "broken failed" in caplog.text
    followups.run_periodic(next_runs, now=20.0)  # tried again at its next time
    assert calls == [1, 1]


def test_with_nothing_registered_the_worker_waits_only_for_follow_ups(registered):
    assert followups.run_periodic({}, now=0.0) == float("inf")
