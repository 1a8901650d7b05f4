"""The computer player runner: decisions in a worker process, a hard time limit, the easy
fallback."""

from __future__ import annotations

import logging
import os
import random
import time

import pytest

from games import computer_runner
from games.rules import bid_whist, solo_whist


def _slow(view, level):  # runs in the worker: importable by module path
    time.sleep(30)
    return "pass"


def _crash(view, level):
    os._exit(3)


def _echo_rules(view, level):
    return "rules=" + repr(view.get("rules"))


def a_view(seed=1):
    rules = solo_whist.Rules()
    deal = solo_whist.deal(rules, 0, random.Random(seed))
    state = solo_whist.new_hand(rules, 0, deal.hands)
    return state, state.view(state.to_act)


@pytest.fixture
def pool(settings):
    settings.COMPUTER_WORKERS = 1
    settings.COMPUTER_TIME_LIMIT_SECONDS = 20
    yield settings
    computer_runner.shutdown()


def test_it_decides_in_process_without_workers(settings):
    settings.COMPUTER_WORKERS = 0
    state, view = a_view()
    assert computer_runner.decide(view, "strong") in state.legal_actions()


def test_it_decides_in_a_worker_process(pool):
    state, view = a_view()
    assert computer_runner.decide(view, "strong") in state.legal_actions()
    # the pool stays up for the next decision
    assert computer_runner._pool is not None
    assert computer_runner.decide(view, "normal") in state.legal_actions()


def test_it_passes_the_house_rules_to_the_worker(pool, monkeypatch):
    monkeypatch.setattr(computer_runner, "_target", _echo_rules)
    _state, view = a_view()
    assert computer_runner.decide(view, "strong", rules={"overtricks": True}) == \
        "rules={'overtricks': True}"


def test_a_decision_past_the_time_limit_falls_back_to_easy(pool, monkeypatch, caplog):
    pool.COMPUTER_TIME_LIMIT_SECONDS = 1.0
    monkeypatch.setattr(computer_runner, "_target", _slow)
    state, view = a_view()
    computer_runner.decide(view, "easy")  # start the pool once (worker start-up is not the test)
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="games.computer_runner"):
        action = computer_runner.decide(view, "strong")
    assert time.monotonic() - started < 5
    assert action in state.legal_actions()
    assert "longer than" in caplog.text
    assert computer_runner._pool is None  # thrown away, its worker killed


def test_a_crashed_worker_falls_back_to_easy(pool, monkeypatch, caplog):
    monkeypatch.setattr(computer_runner, "_target", _crash)
    state, view = a_view()
    with caplog.at_level(logging.ERROR, logger="games.computer_runner"):
        action = computer_runner.decide(view, "strong")
    assert action in state.legal_actions()
    assert "computer player worker failed" in caplog.text
    monkeypatch.setattr(computer_runner, "_target", computer_runner.choose_action)
    assert computer_runner.decide(view, "strong") in state.legal_actions()  # a fresh pool


def test_the_fallback_handles_bid_whist_discards(settings):
    settings.COMPUTER_WORKERS = 0
    rules = bid_whist.Rules()
    deal = bid_whist.deal(rules, 0, random.Random(3))
    state = bid_whist.new_hand(rules, 0, deal.hands, deal.kitty)
    for action in ("bid 4 uptown", "pass", "pass", "pass"):
        state.apply(action)
    action = computer_runner.fallback(state.view(state.to_act))
    state.apply(action)
    assert state.phase == "declare"


PARENT = """
import os, random, sys, time
import django
django.setup()
from games import computer_runner
from games.rules import solo_whist
rules = solo_whist.Rules()
state = solo_whist.new_hand(rules, 0, solo_whist.deal(rules, 0, random.Random(1)).hands)
computer_runner.decide_here(state.view(state.to_act), "strong")  # the computer players' pool
computer_runner.submit(os.getpid).result(timeout=60)  # the reviews' pool
print("ready", flush=True)
time.sleep(600)
"""


@pytest.mark.slow  # processes of its own
def test_the_workers_end_when_their_parent_is_killed():
    """A SIGKILLed daphne once left its computer players' and reviews' workers running
    (84-150 MB each): they now go with it within seconds."""
    import signal
    import subprocess
    import sys

    import psutil

    from tests.live_servers import ROOT

    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPUTER_", "REVIEW_"))}
    env.update(DJANGO_SETTINGS_MODULE="whistclub.settings", COMPUTER_WORKERS="1",
               REVIEW_WORKERS="1", COMPUTER_TIME_LIMIT_SECONDS="20")
    parent = subprocess.Popen([sys.executable, "-c", PARENT], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, text=True)
    left_behind = []

    def alive(process):
        try:
            return process.status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return False

    try:
        assert parent.stdout.readline().strip() == "ready"
        left_behind = psutil.Process(parent.pid).children(recursive=True)
        assert len(left_behind) >= 2, left_behind  # a worker of each pool, at least
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 5
        while any(alive(p) for p in left_behind) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [p for p in left_behind if alive(p)]
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait(10)
        for process in left_behind:  # none, unless the test failed
            if alive(process):
                process.kill()
