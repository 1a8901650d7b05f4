"""Pure-Python rules engines for the three games.  No Django import anywhere below here."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, cast

from .base import GameModule

if TYPE_CHECKING:  # mypy checks each engine module against the contract
    from . import belgian_whist, bid_whist, cutthroat_bid_whist, solo_whist

    _CONTRACT: tuple[GameModule, ...] = (bid_whist, solo_whist, belgian_whist,
                                         cutthroat_bid_whist)

GAME_MODULES = {
    "bid_whist": "games.rules.bid_whist",
    "solo_whist": "games.rules.solo_whist",
    "belgian_whist": "games.rules.belgian_whist",
    "cutthroat_bid_whist": "games.rules.cutthroat_bid_whist",
}


def game_module(name: str) -> GameModule:
    """The engine module of a game, by its hand-record name (raises KeyError if unknown)."""
    return cast(GameModule, importlib.import_module(GAME_MODULES[name]))


# The variants clubs play (docs/rules/: Bid Whist's kitty shapes, Cutthroat, Solo without
# Prop and Cop), each a game and the house rules that make it: measured one by one by
# bench/engine.py, proven end to end by tests/games/test_variants.py (deal, replay, online with
# computer players, paper entry).
NAMED_VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("bid_whist", {"kitty": "4_no_jokers"}),
    ("bid_whist", {"kitty": "5_one_joker"}),
    ("bid_whist", {"kitty": "none"}),
    ("cutthroat_bid_whist", {}),
    ("solo_whist", {"prop_and_cop": False}),
)
