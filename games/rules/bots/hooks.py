"""Which module holds a game's computer-player hooks: ``games/rules/bots/<game>.py``.

A module of a game played by the shared computer players (four players: :mod:`.simple`,
:mod:`.search`, :mod:`.knowledge`) gives ``CALLS`` (the normal and strong levels' decisions by
phase, each ``hook(view, rules, calls="hand")``: ``calls`` names the thresholds, ``bidding.thresholds``),
``THRESHOLDS`` (the hand-set thresholds its calls are made from, measured ones overlaid),
``HABIT_UNIT``, ``declaring``, ``partner_of``, ``easy_call``, ``deck``, ``play_spec``,
``read_hidden`` and the ``rebuild_*`` / ``order_dealt`` steps (see
:mod:`games.rules.bots.bid_whist`); optionally ``auction_known`` (cards whose place everyone
knows before the play: Solo's turn-up) and ``defence_draws_trumps(view)`` (the contract is
one against which the defenders lead trumps: Solo's abundances).  A game whose play the shared
computer players cannot handle gives ``choose_action(view, level, rng)`` instead, and decides
everything itself (:mod:`games.rules.bots.cutthroat_bid_whist`).  No other computer-player
module names a game.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from games.rules import GAME_MODULES


def of(game: str) -> ModuleType:
    """The computer players' module of ``game`` (KeyError for a game no engine plays)."""
    if game not in GAME_MODULES:
        raise KeyError(game)
    return importlib.import_module(f"{__package__}.{game}")
