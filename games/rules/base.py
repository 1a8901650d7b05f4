"""The engine contract shared by every game (docs/architecture.md, "The engine contract").

Each game module (one per game, listed in ``games.rules.GAME_MODULES``) is a
:class:`GameModule`: it exposes

* ``GAME`` -- its name as in hand records (the module's own name),
* ``SEATS`` -- how many players sit at its table (3 to 5; seats ``0..SEATS-1`` clockwise),
* ``Rules`` -- a frozen dataclass of house rules (a :class:`BaseRules`);
  ``Rules.from_overrides(mapping)`` refuses unknown names and bad values with
  :class:`RulesError`; ``rules.overrides()`` gives back only the non-default values (what a
  record stores),
* ``deal(rules, dealer, rng) -> Deal`` -- a shuffled deal (live play passes
  ``secrets.SystemRandom()``; tests and benchmarks pass a seeded ``random.Random``),
* ``new_hand(rules, dealer, hands, kitty=None) -> HandState`` -- validates the deal
  (:class:`DealError`) and starts the hand,
* ``CHAIN`` -- its :class:`Chain` class, which chains hands into a match (the Bid Whists) or a
  session (Solo and Belgian Whist): dealer rotation, running scores, the end.

A :class:`HandState` has ``phase``, ``to_act``, ``legal_actions()`` (sorted strings),
``apply(action, seat=None)`` (raises :class:`IllegalAction`), ``copy()``,
``random_action(rng)``, ``view(seat)`` (a :class:`HandView`), ``complete`` and ``result()``.
Actions are the short strings of the hand-record grammar.  The shape imitates OpenSpiel's
``State`` (legal actions, apply, a per-player observation) with strings for actions.

Nothing here imports Django: ``games.rules`` must run without it.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NotRequired, Protocol, Self, TypedDict

from .errors import N_, WhistError
from .house_rules import BaseRules


@dataclass
class Deal:
    hands: list[list[str]]
    kitty: list[str] | None = None


class HandView(TypedDict):
    """What ``HandState.view(seat)`` gives: the JSON sent to a player's browser (and read by the
    computer players).  The keys every game has come first; the others belong to some games or
    some moments (``legal`` only for the seat to act, ``result`` and ``deal`` once complete)."""

    game: str
    seat: int | None
    dealer: int
    phase: str
    to_act: int | None
    hand_sizes: list[int]
    auction: list[dict[str, Any]]  # {"seat": 2, "action": "bid 4 uptown"}, in order
    contract: dict[str, Any] | None  # each game's own words for it; None before it is known
    trump: str | None
    leader: int | None
    trick: list[dict[str, Any]]  # {"seat": 1, "card": "QH"}, the trick on the table
    tricks: list[dict[str, Any]]  # {"leader", "winner", "cards"} of each finished trick
    tricks_won: list[int]
    hand: NotRequired[list[str]]  # a seated player's own cards
    legal: NotRequired[list[str]]  # for the seat to act
    result: NotRequired[dict[str, Any]]  # once complete
    deal: NotRequired[list[list[str]]]  # once complete: every hand as dealt
    # Bid Whist and Cutthroat
    direction: NotRequired[str | None]
    books: NotRequired[list[int]]
    kitty: NotRequired[list[str]]
    discards: NotRequired[list[str]]
    discard_count: NotRequired[int]
    # Solo Whist
    turn_up: NotRequired[str | None]
    turn_up_suit: NotRequired[str | None]
    # Solo Whist (one declarer's cards or None) and Belgian Whist (a list of them)
    exposed: NotRequired[Any]
    # Belgian Whist
    standing: NotRequired[list[dict[str, Any]] | None]
    discard: NotRequired[str]
    # Not the engine's: the table's house-rule overrides, which a caller adds for the computer
    # players (games.rules.computer reads them; absent, the game's default rules).
    rules: NotRequired[dict[str, Any]]


class HandState(ABC):
    """One hand from the deal to the last card.  See the module docstring."""

    game: ClassVar[str]
    rules: BaseRules
    dealer: int
    phase: str  # e.g. "auction", "discard", "declare", "play", "complete"
    to_act: int | None  # None once complete
    history: list[tuple[int, str]]  # (seat, action) in order
    dealt_hands: Sequence[Sequence[str]]  # as dealt, seat by seat (what a hand record stores)
    dealt_kitty: Sequence[str] | None  # None when the game or the house rules have no kitty

    @abstractmethod
    def legal_actions(self) -> list[str]:
        """Sorted legal actions of ``to_act``; empty only once complete."""

    @abstractmethod
    def apply(self, action: str, seat: int | None = None) -> None:
        """Apply ``to_act``'s action or raise :class:`IllegalAction` leaving the state unchanged.

        ``seat``: who sends it; when given it must be ``to_act`` (the tables pass the acting
        seat, so an action out of turn is refused, not applied for someone else)."""

    @abstractmethod
    def copy(self) -> Self:
        """An independent copy: applying actions to it leaves this hand as it is (the computer
        players search on copies)."""

    def random_action(self, rng: random.Random) -> str:
        """A uniformly random legal action (engines override when the list is huge)."""
        return rng.choice(self.legal_actions())

    def automatic_action(self) -> str | None:
        """The action the tables make for ``to_act`` without asking: one the rules compel and
        the seat has no choice in (Belgian Whist's trou round: three aces announce it, everyone
        else passes).  None, the default, is a choice for the player."""
        return None

    @abstractmethod
    def view(self, seat: int | None) -> HandView:
        """Everything ``seat`` may know, nothing more; ``None`` = a spectator.  JSON-ready."""

    @property
    def complete(self) -> bool:
        return self.phase == "complete"

    @abstractmethod
    def result(self) -> dict[str, Any]:
        """The replay result: ``{"complete": true, ...}`` or the incomplete form with ``legal``."""


class Chain(ABC):
    """Hands chained at one table: a match or a session.  Written once here: the checks of
    :meth:`add_hand` and :meth:`add_result` (the chain is not over, the right seat dealt, the
    result has one number per side) and the shape of :meth:`summary`.

    Each game gives only what differs: the class attributes below, :meth:`_count` (the running
    scores and the end), :meth:`_totals` and :meth:`_outcome` (its part of the summary), and
    :meth:`_dealer_after` when the deal does not simply pass clockwise.
    """

    hand_type: ClassVar[type[HandState]]
    seats: ClassVar[int]  # the dealer moves round this many seats
    sides: ClassVar[int]  # how many numbers a result counts: teams or seats
    counted: ClassVar[str]  # the result's key holding them: "points", "units"
    counted_types: ClassVar[tuple[type, ...]] = (int, float)
    # The refusals, each in the game's own words (a match, a session).
    over: ClassVar[str] = N_("the session is over")
    wrong_dealer: ClassVar[str] = N_(
        "seat %(dealer)s dealt this hand, but seat %(expected)s is to deal")
    missing: ClassVar[str]
    wrong_hand: ClassVar[str]
    other_rules: ClassVar[str] = N_(
        "this hand was played with other house rules than the session")

    def __init__(self, rules: BaseRules, first_dealer: int = 0):
        self.rules = rules
        self.first_dealer = first_dealer
        self.next_dealer = first_dealer
        self.results: list[dict[str, Any]] = []

    @property
    @abstractmethod
    def complete(self) -> bool:
        """Over: no hand can be added."""

    def add_hand(self, hand: HandState) -> None:
        """Count a complete hand dealt by ``next_dealer``; raises WhistError otherwise."""
        if self.complete:
            raise WhistError(self.over)
        if not isinstance(hand, self.hand_type):
            raise WhistError(self.wrong_hand)
        if hand.rules != self.rules:
            raise WhistError(self.other_rules)
        if not hand.complete:
            raise WhistError(N_("the hand is not finished"))
        self.add_result(hand.dealer, hand.result())

    def add_result(self, dealer: int, result: dict[str, Any]) -> None:
        """Count a hand given by its dealer and result (``hand.result()`` as stored, or a paper
        score sheet's): a chain is rebuilt from its stored hands without playing them again."""
        if self.complete:
            raise WhistError(self.over)
        if dealer != self.next_dealer:
            raise WhistError(self.wrong_dealer, dealer=dealer, expected=self.next_dealer,
                             next=self.next_dealer)
        values = result.get(self.counted) if isinstance(result, dict) else None
        kinds = self.counted_types
        if not (isinstance(values, (list, tuple)) and len(values) == self.sides
                and all(isinstance(v, kinds) and not isinstance(v, bool) for v in values)):
            raise WhistError(self.missing)
        self._count(result, list(values))
        self.results.append(result)
        self.next_dealer = self._dealer_after(dealer, result)

    def _dealer_after(self, dealer: int, result: dict[str, Any]) -> int:
        """Who deals the next hand: the deal passes clockwise, also after a redeal."""
        return (dealer + 1) % self.seats

    @abstractmethod
    def _count(self, result: dict[str, Any], values: list[Any]) -> None:
        """Add a checked result's numbers to the running scores and settle the end; raise
        WhistError, changing nothing, for what else the game needs in a result."""

    def summary(self) -> dict[str, Any]:
        """The chain so far, JSON-ready (stored with an online table, shown beside it)."""
        return {**self._totals(), "complete": self.complete, "hands": len(self.results),
                **self._outcome()}

    @abstractmethod
    def _totals(self) -> dict[str, Any]:
        """The running scores: ``{"scores": [...]}`` or ``{"balances": [...]}``."""

    @abstractmethod
    def _outcome(self) -> dict[str, Any]:
        """Who wins or leads, and what else the game says of the chain."""


class GameModule(Protocol):
    """A game's engine module, as :func:`games.rules.game_module` gives it (mypy checks every
    module of ``GAME_MODULES`` against it: ``games/rules/__init__.py``)."""

    # Read-only (properties), as a module's names are for its callers.
    @property
    def GAME(self) -> str: ...  # noqa: N802 -- the module's constant

    @property
    def SEATS(self) -> int: ...  # noqa: N802

    @property
    def Rules(self) -> type[BaseRules]: ...  # noqa: N802 -- the module's class

    @property
    def CHAIN(self) -> type[Chain]: ...  # noqa: N802

    # ``rules`` is the module's own Rules (Any here: each module narrows it).
    def deal(self, rules: Any, dealer: int, rng: random.Random) -> Deal: ...

    def new_hand(self, rules: Any, dealer: int, hands: Any, kitty: Any = None) -> HandState: ...
