"""An event's deal set: the deals every table plays, chosen once with the OS's secure source
and stored as the cards themselves, so that each table replays the same cards in the same
seats with the same dealer (docs/events.md, "The deals").

Only the engine contract is used (``games.rules.base.GameModule``): ``deal`` shuffles, and a
stored deal starts at a table as a hand record does (``games.rules.records.start_hand``), so
nothing here knows one game from another.  The cards are stored rather than a seed: a seed
would replay only as long as the engine shuffles the same way and Python's generator draws the
same numbers, and an event's deals must read the same in its travellers years later.

The stored form, ``whistclub-deals/1``::

    {"format": "whistclub-deals/1", "game": "<the game's id>", "rules": {},
     "deals": [{"dealer": 0, "hands": [[...], [...], [...], [...]], "kitty": [...]}, ...]}

each deal a hand record without its actions (docs/hand-records.md), deal ``i`` dealt by seat
``i mod SEATS``.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.rules import GAME_MODULES, game_module
from games.rules.base import GameModule, HandState
from games.rules.errors import WhistError
from games.rules.records import HAND_FORMAT, make_automatic_actions, start_hand

DEALS_FORMAT = "whistclub-deals/1"
DEALS_KEYS = {"format", "game", "rules", "deals"}
DEAL_KEYS = {"dealer", "hands", "kitty"}


class DealSetError(ValueError):
    """A stored deal set that cannot be played: the message says which deal and why."""


@dataclass(frozen=True)
class StoredDeal:
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    kitty: tuple[str, ...] | None = None


@dataclass(frozen=True)
class DealSet:
    """The deals of an event, in order, for one game and its house rules (``rules``: the
    overrides a hand record stores)."""

    game: str
    rules: Mapping[str, Any]
    deals: tuple[StoredDeal, ...]

    def __len__(self) -> int:
        return len(self.deals)


def choose_deals(game: str, count: int, *, rules: Mapping[str, Any] | None = None,
                 rng: random.Random | None = None) -> DealSet:
    """``count`` new deals of ``game``, shuffled by its engine with the OS's secure source
    (``rng`` only for tests and benches), deal ``i`` dealt by seat ``i mod SEATS``."""
    module = game_module(game)
    hand_rules = module.Rules.from_overrides(rules or {})
    source = rng if rng is not None else secrets.SystemRandom()
    deals = []
    for index in range(count):
        dealer = index % module.SEATS
        dealt = module.deal(hand_rules, dealer, source)
        deals.append(StoredDeal(dealer, tuple(tuple(hand) for hand in dealt.hands),
                                None if dealt.kitty is None else tuple(dealt.kitty)))
    return DealSet(game, hand_rules.overrides(), tuple(deals))


def to_document(deal_set: DealSet) -> dict[str, Any]:
    """The JSON-ready ``whistclub-deals/1`` document of a deal set."""
    return {"format": DEALS_FORMAT, "game": deal_set.game, "rules": dict(deal_set.rules),
            "deals": [_deal_document(deal) for deal in deal_set.deals]}


def from_document(document: Any) -> DealSet:
    """A stored deal set, every deal checked by the engine (:class:`DealSetError` otherwise)."""
    if not isinstance(document, Mapping) or document.get("format") != DEALS_FORMAT:
        raise DealSetError(f"not a {DEALS_FORMAT} document")
    unknown = set(document) - DEALS_KEYS
    if unknown:
        raise DealSetError(f"unknown key(s): {', '.join(sorted(unknown))}")
    deals = document.get("deals")
    if not isinstance(deals, list):
        raise DealSetError("deals must be a list")
    game, rules = document.get("game"), document.get("rules", {})
    if game not in GAME_MODULES:
        raise DealSetError(f"unknown game {game!r}")
    module = game_module(game)
    try:
        overrides = module.Rules.from_overrides(rules).overrides()
    except WhistError as exc:
        raise DealSetError(f"rules: {exc}") from None
    stored = []
    for index, entry in enumerate(deals):
        if not isinstance(entry, Mapping) or set(entry) - DEAL_KEYS:
            raise DealSetError(f"deal {index}: an object of {', '.join(sorted(DEAL_KEYS))}")
        try:
            _module, state, _actions = start_hand(
                {"format": HAND_FORMAT, "game": game, "rules": rules, **entry})
        except WhistError as exc:
            raise DealSetError(f"deal {index}: {exc}") from None
        stored.append(_stored(state))
    for index, deal in enumerate(stored):
        if deal.dealer != index % module.SEATS:
            raise DealSetError(f"deal {index}: dealt by seat {deal.dealer}, not by seat "
                               f"{index % module.SEATS}")
    return DealSet(game, overrides, tuple(stored))


def deal_record(deal_set: DealSet, index: int) -> dict[str, Any]:
    """Deal ``index`` as a ``whistclub-hand/1`` record with no action yet."""
    deal = deal_set.deals[index]
    return {"format": HAND_FORMAT, "game": deal_set.game, "rules": dict(deal_set.rules),
            **_deal_document(deal), "actions": []}


def start_deal(deal_set: DealSet, index: int) -> tuple[HandState, dict[str, Any]]:
    """Deal ``index`` begun at a table: the engine's hand, and its record with what nobody
    chooses already done (Belgian Whist's trou round), as ``games.dealing`` begins a hand."""
    record = deal_record(deal_set, index)
    _module, state, _actions = start_hand(record)
    return state, make_automatic_actions(state, record)


def is_partnership(game: str) -> bool:
    """Whether partners share a result (the engine counts fewer sides than seats)."""
    module = game_module(game)
    return module.CHAIN.sides < module.SEATS


def direction_of(game: str, seat: int) -> int:
    """The direction a seat's result is compared in, across the tables of a deal: its side
    when partners share one (the engines' sides are seat mod sides: Bid Whist's team 0 is seats
    0 and 2), else the seat itself."""
    return seat % game_module(game).CHAIN.sides


def results_of(state: HandState) -> list[float]:
    """A finished hand's numbers per direction, as its engine counts them (what
    ``events.scoring.score_deal`` takes for one table)."""
    module: GameModule = game_module(state.game)
    values = state.result()[module.CHAIN.counted]
    return [float(value) for value in values]


def _deal_document(deal: StoredDeal) -> dict[str, Any]:
    document: dict[str, Any] = {"dealer": deal.dealer,
                                "hands": [list(hand) for hand in deal.hands]}
    if deal.kitty is not None:
        document["kitty"] = list(deal.kitty)
    return document


def _stored(state: HandState) -> StoredDeal:
    hands: Sequence[Sequence[str]] = state.dealt_hands
    kitty = state.dealt_kitty
    return StoredDeal(state.dealer, tuple(tuple(hand) for hand in hands),
                      None if kitty is None else tuple(kitty))
