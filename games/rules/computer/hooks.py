"""Which module holds a game's computer-player hooks: ``games/rules/computer/<game>.py``, and what
it gives (:class:`ComputerPlayers`; a game played by the shared computer players,
:class:`SharedComputerPlayers`), with the defaults most games take.

A module of a game played by the shared computer players (four players: :mod:`.simple`,
:mod:`.search`, :mod:`.knowledge`) gives ``CALLS`` (the normal and strong levels' decisions by
phase, each ``hook(view, rules, calls="hand")``: ``calls`` names the thresholds, ``bidding.thresholds``),
``THRESHOLDS`` (the hand-set thresholds its calls are made from, measured ones overlaid),
``HABIT_UNIT``, ``declaring``, ``partner_of``, ``easy_call``, ``deck``, ``play_spec``,
``read_hidden`` and the ``rebuild_*`` / ``order_dealt`` steps (see
:mod:`games.rules.computer.bid_whist`) and ``defence_draws_trumps(view)`` (the contract is one
against which the defenders lead trumps: Solo's abundances).  A game whose play the shared
computer players cannot handle gives ``choose_action(view, level, rng)`` instead, and decides
everything itself (:mod:`games.rules.computer.cutthroat_bid_whist`, which gives
``play_spec``, ``read_hidden`` and ``deck`` as well: the blunder count reads its hands
through :mod:`.knowledge`).  Every game gives
``THRESHOLDS``, ``DOUBLE_DUMMY`` and what a review's sampled deals need: ``auction_known``
(cards whose place everyone knows before the play: Solo's turn-up) and ``order_dealt``.  The defaults below are what a module re-exports
(``from .hooks import auction_known as auction_known``) where it has nothing of its own to
say.  No other computer-player module names a game.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any, Protocol, cast, runtime_checkable

from games.rules import GAME_MODULES
from games.rules.base import HandView
from games.rules.cards import STANDARD_MASK

from .kernel import PlaySpec


@runtime_checkable
class ComputerPlayers(Protocol):
    """What every game's computer-player module gives."""

    GAME: str
    # A finished hand's review gives the contract's double-dummy result (review.py).
    DOUBLE_DUMMY: bool
    # The game's own whole decision, or None: the shared computer players decide.
    choose_action: Callable[[HandView, str, random.Random], str] | None
    # The hand-set thresholds of its calls, measured ones overlaid (``bidding.thresholds``).
    THRESHOLDS: dict[str, Any]

    # A review's sampled deals (review.py, every game): the cards whose place everyone knows
    # before the play (Solo's turn-up), and the sampled hands put in the order they were dealt.
    def auction_known(self, view: HandView) -> dict[int, list[str]]: ...

    def order_dealt(self, view: HandView, cards: list[list[str]]) -> None: ...


@runtime_checkable
class SharedComputerPlayers(ComputerPlayers, Protocol):
    """A game played by the shared computer players: what they need to know of it."""

    CALLS: dict[str, Callable[..., str]]
    HABIT_UNIT: float

    def declaring(self, view: HandView, seat: int) -> bool: ...

    def partner_of(self, view: HandView, seat: int) -> int | None: ...

    def easy_call(self, view: HandView, cards: list[str], legal: list[str]) -> str: ...

    def deck(self, rules: Any) -> int: ...

    def play_spec(self, view: HandView, rules: Any) -> PlaySpec: ...

    # ``hidden``: a ``knowledge.Hidden`` (which imports this module: named, not imported).
    def read_hidden(self, view: HandView, rules: Any, hidden: Any) -> None: ...

    def rebuild_deal(self, view: HandView, rules: Any, dealt: list[int], pile_of: dict[Any, Any],
                     actions: list[tuple[int, str]]) -> list[str] | None: ...

    def rebuild_before_play(self, state: Any, view: HandView,
                            pile_of: dict[Any, Any]) -> None: ...

    def defence_draws_trumps(self, view: HandView) -> bool: ...


# -- the defaults ------------------------------------------------------------------------------

DOUBLE_DUMMY = False  # a review gives no double-dummy result
choose_action: Callable[[HandView, str, random.Random], str] | None = None  # the shared players


def auction_known(view: HandView) -> dict[int, list[str]]:
    """No card's place is known to everyone before the play."""
    return {}


def order_dealt(view: HandView, cards: list[list[str]]) -> None:
    """Nothing: the order in which the cards were dealt does not matter."""


def defence_draws_trumps(view: HandView) -> bool:
    """The defenders lead trumps against no contract of the game."""
    return False


def deck(rules: Any) -> int:
    """The 52 cards, without jokers, whatever the house rules."""
    return STANDARD_MASK


def partner_of(view: HandView, seat: int) -> int | None:
    """The other player of a declaring pair the contract names (declarer and partner)."""
    contract = view.get("contract") or {}
    pair = [contract.get(k) for k in ("declarer", "partner") if contract.get(k) is not None]
    if seat in pair and len(pair) == 2:
        return pair[1] if pair[0] == seat else pair[0]
    return None


def of(game: str) -> ComputerPlayers:
    """The computer players' module of ``game`` (KeyError for a game no engine plays)."""
    if game not in GAME_MODULES:
        raise KeyError(game)
    return cast(ComputerPlayers, importlib.import_module(f"{__package__}.{game}"))


def shared(game: str) -> SharedComputerPlayers:
    """The module of ``game``, a game the shared computer players play (no ``choose_action``
    of its own)."""
    return cast(SharedComputerPlayers, of(game))
