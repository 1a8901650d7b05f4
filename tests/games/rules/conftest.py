"""Fixtures of the engine and computer-player tests."""

import pytest


@pytest.fixture
def no_thinking_deadline(monkeypatch):
    """The search stops on the clock once it has a few samples: on a busy machine two equal
    views could then be searched on different numbers of deals.  Without the deadline a
    decision depends on the view and the random numbers alone, which is what is tested."""
    from dataclasses import replace

    from games.rules.bots import search

    monkeypatch.setattr(search, "SEARCH_LEVELS", {
        name: replace(level, budget=float("inf")) for name, level in search.SEARCH_LEVELS.items()})
