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


# The variants clubs play (docs/rules/: Bid Whist's kitty shapes, Cutthroat, Solo without
# Prop and Cop), each a game and the house rules that make it: measured one by one by
# bench/engine.py, proven end to end by tests/games/test_variants.py (deal, replay, online with
# computer players, paper entry).
NAMED_VARIANTS: tuple[tuple[str, dict], ...] = (
    ("bid_whist", {"kitty": "4_no_jokers"}),
    ("bid_whist", {"kitty": "5_one_joker"}),
    ("bid_whist", {"kitty": "none"}),
    ("cutthroat_bid_whist", {}),
    ("solo_whist", {"prop_and_cop": False}),
)
