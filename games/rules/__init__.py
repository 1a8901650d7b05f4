"""Pure-Python rules engines for the three games.  No Django import anywhere below here."""

from __future__ import annotations

import importlib
from types import ModuleType

GAME_MODULES = {
    "bid_whist": "games.rules.bid_whist",
    "solo_whist": "games.rules.solo_whist",
    "belgian_whist": "games.rules.belgian_whist",
    "cutthroat_bid_whist": "games.rules.cutthroat_bid_whist",
}


def game_module(name: str) -> ModuleType:
    """The engine module of a game, by its hand-record name (raises KeyError if unknown)."""
    return importlib.import_module(GAME_MODULES[name])
