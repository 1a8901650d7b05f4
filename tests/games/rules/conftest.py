"""Fixtures of the engine and computer-player tests, and the position set they share."""

import json
from pathlib import Path

import pytest

from bench import levels

# The tests play the levels the benches compare against too (earlier settings, candidates)
levels.register()

# Positions where a club player would agree on the right card or call (test_computer_positions.py)
POSITIONS = json.loads(Path(__file__).with_name("computer_positions.json").read_text("utf-8"))


def position_record(name: str) -> dict:
    """The partial hand record of a position of ``computer_positions.json``."""
    return next(p["record"] for p in POSITIONS if p["name"] == name)


def measured_file(tmp_path: Path, monkeypatch, thresholds: dict,
                  provenance: dict | None = None) -> Path:
    """A file of measured figures (tuned_calls.json's layout) holding ``thresholds`` by game,
    which the computer players read instead of the shipped one for the test."""
    from games.rules.computer import bidding

    saved = tmp_path / "tuned_calls.json"
    saved.write_text(json.dumps({"version": bidding.TUNED_VERSION, "thresholds": thresholds,
                                 "provenance": provenance or {}}))
    monkeypatch.setattr(bidding, "TUNED_FILE", saved)
    monkeypatch.setattr(bidding, "_tuned", {})
    return saved


def first_bid_whist_opening(level: str) -> dict:
    """The view of the first seat to call in the first of 200 seeded Bid Whist deals whose
    hand ``level`` opens (does not pass)."""
    import random

    from games.rules import bid_whist
    from games.rules.computer import choose_action

    rules = bid_whist.Rules()
    for seed in range(200):
        deal = bid_whist.deal(rules, 3, random.Random(seed))
        state = bid_whist.new_hand(rules, 3, deal.hands, deal.kitty)
        view = state.view(state.to_act)
        if choose_action(view, level, random.Random(1)) != "pass":
            return view
    raise AssertionError(f"{level} opened none of 200 deals")


def first_solo_state(predicate):
    """The first seeded Solo hand whose first seat to act holds a hand ``predicate`` accepts
    (given that seat's view)."""
    import random

    from games.rules import solo_whist

    rules = solo_whist.Rules()
    for seed in range(2000):
        deal = solo_whist.deal(rules, 3, random.Random(seed))
        state = solo_whist.new_hand(rules, 3, deal.hands, deal.kitty)
        if predicate(state.view(state.to_act)):
            return state
    raise AssertionError("no such hand in 2,000 deals")


def first_solo_view(predicate) -> dict:
    state = first_solo_state(predicate)
    return state.view(state.to_act)


@pytest.fixture
def no_thinking_deadline(monkeypatch):
    """The search stops on the clock once it has a few samples: on a busy machine two equal
    views could then be searched on different numbers of deals.  Without the deadline a
    decision depends on the view and the random numbers alone, which is what is tested."""
    from dataclasses import replace

    from games.rules.computer import cutthroat_bid_whist, review, search

    monkeypatch.setattr(cutthroat_bid_whist, "BUDGET", float("inf"))  # its own search's clock
    monkeypatch.setattr(search, "SEARCH_LEVELS", {
        name: replace(level, budget=float("inf")) for name, level in search.SEARCH_LEVELS.items()})
    monkeypatch.setattr(review, "VALUES", replace(review.VALUES, budget=float("inf")))
