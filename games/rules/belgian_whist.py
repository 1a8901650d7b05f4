"""Belgian Whist -- whist à la couleur / kleurenwiezen, the "free whist" rules.

docs/rules/belgian_whist.md holds the action grammar, a full example record and every ruling
made where those rules are silent.  In short:

Phases (``phase``):
  ``"trou"``      every player in turn from the dealer's left announces ``trou`` (exactly three
                  aces, compulsory) or ``passe_trou``; a trou ends this round at once.
  ``"auction"``   the bidding (``pass``, ``premier``, ``propose S``, ``emballer S``, ``raise N S``,
                  ``maintain``, ``solo N S``, ``abondance N S``, ``petit_chelem S|NT``,
                  ``grand_chelem S|NT``, ``petite_misere``, ``piccolo``, ``grande_misere``,
                  ``misere_etalee``).  While a trou stands, ``pass`` is "passe la grande".
  ``"trump"``     after a trou, the holder of the fourth ace names trumps (``trump S``).
  ``"discard"``   petite misère: each player in turn discards one card face down (``discard C``).
  ``"play"``      ``play C``; stops as soon as no further card can change any declarer's points.
  ``"complete"``

The auction keeps one status per seat.  The floor always passes clockwise to the next seat that
must speak: one that has not spoken yet, a ``premier`` player, a proposer waiting for a partner,
or the holder of a contract (for a pair: its emballeur) that is no longer the highest.  When no
seat must speak the auction is over; the highest contract is played by every seat holding it
(several players may play the same misère or piccolo, each settled on their own).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from . import cards
from .base import Chain, Deal, HandState, HandView
from .cards import ALL_CARDS, CARD_INDEX, CARD_RANK, SUIT_MASK, SUIT_NAMES, SUITS, cards_of
from .cards import CARD_BIT as _CARD_BIT
from .errors import N_, DealError, IllegalAction, RulesError, WhistError
from .house_rules import BaseRules, rule

GAME = "belgian_whist"
SEATS = 4  # the engine contract: how many seats a table of this game has

TROU, AUCTION, TRUMP, DISCARD, PLAY, COMPLETE = (
    "trou", "auction", "trump", "discard", "play", "complete")

# -- contracts and their order -------------------------------------------------------------------

EMBALLAGE = "emballage"
SOLO = "solo"
ABONDANCE = "abondance"
PETIT_CHELEM = "petit_chelem"
GRAND_CHELEM = "grand_chelem"
PETITE_MISERE = "petite_misere"
GRANDE_MISERE = "grande_misere"
MISERE_ETALEE = "misere_etalee"
PICCOLO = "piccolo"
TROU_CONTRACT = "trou"

CONTRACTS = (EMBALLAGE, SOLO, ABONDANCE, PETIT_CHELEM, GRAND_CHELEM, PETITE_MISERE, PICCOLO,
             GRANDE_MISERE, MISERE_ETALEE, TROU_CONTRACT)
# Contracts with no trumps where each declarer plays (and is settled) alone; several players
# may hold the same one.
MISERES = (PETITE_MISERE, PICCOLO, GRANDE_MISERE, MISERE_ETALEE)
LEVELS = {EMBALLAGE: range(8, 14), SOLO: range(6, 9), ABONDANCE: range(9, 12)}

# Low -> high, as on the free whist points table (docs/rules/belgian_whist.md).
CONTRACT_ORDER = (
    (EMBALLAGE, 8), (EMBALLAGE, 9), (SOLO, 6), (EMBALLAGE, 10), (SOLO, 7), (EMBALLAGE, 11),
    (PETITE_MISERE, None), (EMBALLAGE, 12), (SOLO, 8), (PICCOLO, None), (EMBALLAGE, 13),
    (ABONDANCE, 9), (TROU_CONTRACT, None), (GRANDE_MISERE, None), (ABONDANCE, 10),
    (ABONDANCE, 11), (MISERE_ETALEE, None), (PETIT_CHELEM, None), (GRAND_CHELEM, None),
)
_ORDER_INDEX = {entry: i for i, entry in enumerate(CONTRACT_ORDER)}
# Equal contracts are broken by suit: hearts > diamonds > clubs > spades.
SUIT_TIE = {"S": 0, "C": 1, "D": 2, "H": 3}


def contract_rank(kind: str, level: int | None = None, suit: str | None = None) -> int:
    """A number that orders contracts as the auction does (higher beats lower).

    Misères, piccolo and trou have no suit; the chelems rank by kind alone (their trump choice,
    which may be no trump, does not break ties).
    """
    tie = SUIT_TIE[suit] if suit is not None and kind in LEVELS else 0
    return _ORDER_INDEX[(kind, level if kind in LEVELS else None)] * 4 + tie


TROU_RANK = contract_rank(TROU_CONTRACT)
_MISERE_RANK = {kind: contract_rank(kind) for kind in MISERES}
_E13_RANK = {suit: contract_rank(EMBALLAGE, 13, suit) for suit in SUITS}
_SOLO_RANK = {(n, s): contract_rank(SOLO, n, s) for n in LEVELS[SOLO] for s in SUITS}
_ABONDANCE_RANK = {(n, s): contract_rank(ABONDANCE, n, s) for n in LEVELS[ABONDANCE] for s in SUITS}
_EMBALLAGE_RANK = {(n, s): contract_rank(EMBALLAGE, n, s) for n in LEVELS[EMBALLAGE] for s in SUITS}
_CHELEM_RANK = {PETIT_CHELEM: contract_rank(PETIT_CHELEM), GRAND_CHELEM: contract_rank(GRAND_CHELEM)}
CHELEM_TRUMPS = ("C", "D", "H", "NT", "S")
_RAISE_ACTION = {key: f"raise {key[0]} {key[1]}" for key in _EMBALLAGE_RANK}
_MISERE_ACTIONS = tuple((rank, kind) for kind, rank in _MISERE_RANK.items())
_SOLO_ACTIONS = tuple((rank, level, f"solo {level} {suit}")
                      for (level, suit), rank in _SOLO_RANK.items())
_FIRST_CALL_ACTIONS = tuple(
    [(rank, f"abondance {level} {suit}") for (level, suit), rank in _ABONDANCE_RANK.items()]
    + [(rank, f"{kind} {trump}") for kind, rank in _CHELEM_RANK.items() for trump in CHELEM_TRUMPS])


def describe_contract(kind: str, level: int | None = None, suit: str | None = None) -> str:
    """Plain English, e.g. "emballage 10 clubs", "petit chelem no trump", "grande misère"."""
    words = {PETITE_MISERE: "petite misère", GRANDE_MISERE: "grande misère",
             MISERE_ETALEE: "misère étalée", PETIT_CHELEM: "petit chelem",
             GRAND_CHELEM: "grand chelem"}
    text = words.get(kind, kind)
    if level is not None:
        text += f" {level}"
    if kind in (PETIT_CHELEM, GRAND_CHELEM):
        text += " " + (SUIT_NAMES[suit] if suit else "no trump")
    elif suit is not None:
        text += " " + SUIT_NAMES[suit]
    return text


# -- house rules: the points table --------------------------------------------------------------

DEFAULT_POINTS_TABLE: dict[str, Any] = {
    # Emballage: made, by tricks taken (3t - 16; all 13 -> 30); failed, by the bid (3b - 16)
    # plus per_missing_trick for each trick short of the bid.
    "emballage": {
        "made": {"8": 8, "9": 11, "10": 14, "11": 17, "12": 20, "13": 30},
        "failed": {"8": 8, "9": 11, "10": 14, "11": 17, "12": 20, "13": 23},
        "per_missing_trick": 3,
    },
    # Solo: the base of the bid, plus per_extra_trick for each trick over the bid counted up to
    # extra_tricks_until tricks; failed: the base plus per_missing_trick per missing trick.
    "solo": {"base": {"6": 4, "7": 5, "8": 7}, "per_extra_trick": 1, "extra_tricks_until": 8,
             "per_missing_trick": 1},
    # Abondance: extra tricks score the higher level (up to 11); failed: the bid's value.
    "abondance": {"9": 10, "10": 15, "11": 20},
    "petit_chelem": 30,
    "grand_chelem": 60,
    "trou": {"made": 16, "all_tricks": 30, "failed": 16},
    "petite_misere": 6,
    "piccolo": 8,
    "grande_misere": 12,
    "misere_etalee": 24,
}
MAX_POINTS = 10_000  # far above any real table; keeps every score an ordinary number
_WHOLE_NUMBER_ENTRIES: dict[tuple[str, ...], tuple[int, int]] = {("solo", "extra_tricks_until"): (6, 13)}


def _table_error(path: str, expected: str, value: object) -> RulesError:
    return RulesError(N_("house rule points_table: %(path)s is %(value)r, expected %(expected)s"),
                      path=path, value=value, expected=expected)


def _normalize_table(value: object, default: Mapping[str, Any], path: str) -> dict[str, Any]:
    """``value`` (partial is fine) merged over ``default``; keys become strings, as in JSON."""
    if not isinstance(value, Mapping):
        raise _table_error(path or "the table", "an object of contract names and points", value)
    out = {key: (dict(sub) if isinstance(sub, Mapping) else sub) for key, sub in default.items()}
    for raw_key, item in value.items():
        key = str(raw_key) if isinstance(raw_key, (str, int)) and not isinstance(raw_key, bool) \
            else None
        where = f"{path}.{raw_key}" if path else str(raw_key)
        if key is None or key not in default:
            raise RulesError(N_("house rule points_table: unknown entry %(path)s (known here: "
                                "%(known)s)"), path=where, known=", ".join(default))
        if isinstance(default[key], Mapping):
            out[key] = _normalize_table(item, default[key], where)
            continue
        if isinstance(item, bool) or not isinstance(item, (int, float)) \
                or not 0 <= item <= MAX_POINTS or not math.isfinite(item):
            raise _table_error(where, f"a number from 0 to {MAX_POINTS}", item)
        bounds = _WHOLE_NUMBER_ENTRIES.get(tuple(where.split(".")))
        if bounds and (not isinstance(item, int) or not bounds[0] <= item <= bounds[1]):
            raise _table_error(where, f"a whole number from {bounds[0]} to {bounds[1]}", item)
        out[key] = item
    return out


@dataclass(frozen=True)
class Rules(BaseRules):
    GAME: ClassVar[str] = GAME

    points_table: dict[str, Any] = rule(
        DEFAULT_POINTS_TABLE,
        "The points each opponent pays per contract (a lone declarer wins or pays three times "
        "that); a league may replace any entry.",
        label=N_("Points table"),
        entry_labels={
            "emballage.made": N_("made, by the tricks taken"),
            "emballage.failed": N_("failed, by the tricks bid"),
            "emballage.per_missing_trick": N_("failed, for each trick short"),
            "solo.base": N_("by the tricks bid"),
            "solo.per_extra_trick": N_("for each trick over"),
            "solo.extra_tricks_until": N_("tricks over count up to"),
            "solo.per_missing_trick": N_("failed, for each trick short"),
            "abondance": N_("by the tricks bid (tricks over score the higher level)"),
            "trou.made": N_("made"), "trou.all_tricks": N_("all 13 tricks"),
            "trou.failed": N_("failed"),
        },
        kind=dict,
    )

    def __post_init__(self) -> None:
        # Normalised once here so equal tables compare equal whatever their key types.
        object.__setattr__(self, "points_table",
                           _normalize_table(self.points_table, DEFAULT_POINTS_TABLE, ""))

    def __hash__(self) -> int:  # the table is a dict; hash its JSON form
        return hash(json.dumps(self.points_table, sort_keys=True))


# -- scoring: the one place it lives ------------------------------------------------------------


def contract_made(kind: str, level: int | None, tricks: int) -> bool:
    if kind in (EMBALLAGE, SOLO, ABONDANCE):
        return tricks >= level  # type: ignore[operator]
    if kind == TROU_CONTRACT:
        return tricks >= 9
    if kind == PETIT_CHELEM:
        return tricks >= 12
    if kind == GRAND_CHELEM:
        return tricks == 13
    if kind == PICCOLO:
        return tricks == 1
    return tricks == 0  # the misères


def contract_value(rules: Rules, kind: str, level: int | None, tricks: int) -> int | float:
    """What each opponent pays a declarer (negative: what the declarer pays each opponent)."""
    table = rules.points_table
    made = contract_made(kind, level, tricks)
    value: int | float  # the table's numbers (checked by Rules)
    if kind == EMBALLAGE:
        assert level is not None  # contract_made refused a levelled contract without one
        entry = table[EMBALLAGE]
        if made:
            value = entry["made"][str(tricks)]
        else:
            value = -(entry["failed"][str(level)] + entry["per_missing_trick"] * (level - tricks))
    elif kind == SOLO:
        assert level is not None
        entry = table[SOLO]
        base = entry["base"][str(level)]
        if made:
            extra = max(0, min(tricks, entry["extra_tricks_until"]) - level)
            value = base + entry["per_extra_trick"] * extra
        else:
            value = -(base + entry["per_missing_trick"] * (level - tricks))
    elif kind == ABONDANCE:
        entry = table[ABONDANCE]
        value = entry[str(min(tricks, 11))] if made else -entry[str(level)]
    elif kind == TROU_CONTRACT:
        entry = table[TROU_CONTRACT]
        if not made:
            value = -entry["failed"]
        else:
            value = entry["all_tricks"] if tricks == 13 else entry["made"]
    else:
        value = table[kind] if made else -table[kind]
    return value


# The ordinary contracts, made, that an event's difference cap is worked out from (docs/events.md,
# "The cap of each game"): (contract, level, declarers, each seat's tricks).
CAP_CONTRACTS: tuple[tuple[str, int | None, list[int], list[int]], ...] = (
    (ABONDANCE, 9, [0], [9, 1, 1, 2]), (SOLO, 8, [0], [8, 2, 2, 1]),
    (PICCOLO, None, [0], [1, 4, 4, 4]), (PETITE_MISERE, None, [0], [0, 4, 4, 4]),
    (EMBALLAGE, 12, [0, 2], [6, 1, 6, 0]))


def difference_cap(rules: Rules) -> float:
    """The most one deal moves a player's difference score in an event played under ``rules``:
    the largest ordinary contract made (an abondance of 9, a solo of 8, a piccolo or a petite
    misère alone, an emballage of 12) as an event compares it, the declarer's points minus the
    others' average, from the rules' own points table.  40 with the usual table (an abondance
    of 9: 10 from each opponent); a club's table of bigger or smaller numbers gives its own,
    so that the bigger contracts still count as the largest ordinary one.  At least 1."""
    largest = 0.0
    for contract, level, declarers, tricks in CAP_CONTRACTS:
        points = score_hand(rules, contract, declarers, tricks, level=level)["points"]
        largest = max(largest, points[0] - sum(points[1:]) / (SEATS - 1))
    return max(1.0, largest)


def _check_score_input(contract: object, declarers: object, tricks: object,
                       level: object) -> None:
    if contract not in CONTRACTS:
        raise WhistError(N_("unknown contract %(contract)r (known: %(known)s)"),
                         contract=contract, known=", ".join(CONTRACTS))
    if contract in LEVELS:
        if isinstance(level, bool) or level not in LEVELS[contract]:
            levels = LEVELS[contract]
            raise WhistError(N_("%(contract)s needs a level from %(low)s to %(high)s, not "
                                "%(level)r"), contract=contract, low=levels[0],
                             high=levels[-1], level=level)
    elif level is not None:
        raise WhistError(N_("%(contract)s has no level"), contract=contract)
    if (not isinstance(declarers, (list, tuple)) or not declarers
            or any(isinstance(s, bool) or s not in (0, 1, 2, 3) for s in declarers)
            or len(set(declarers)) != len(declarers)):
        raise WhistError(N_("declarers must be a list of different seats 0 to 3, not "
                            "%(declarers)r"), declarers=declarers)
    together = contract in (EMBALLAGE, TROU_CONTRACT)
    if together and len(declarers) != 2:
        raise WhistError(N_("%(contract)s is played by two declarers"), contract=contract)
    if contract not in MISERES and not together and len(declarers) != 1:
        raise WhistError(N_("%(contract)s is played by one declarer"), contract=contract)
    if (not isinstance(tricks, (list, tuple)) or len(tricks) != 4
            or any(isinstance(t, bool) or not isinstance(t, int) or t < 0 for t in tricks)):
        raise WhistError(N_("tricks must be four whole numbers (tricks taken by each seat), not "
                            "%(tricks)r"), tricks=tricks)
    most = 12 if contract == PETITE_MISERE else 13
    if sum(tricks) > most:
        raise WhistError(N_("%(contract)s has only %(most)s tricks, not %(total)s"),
                         contract=contract, most=most, total=sum(tricks))


def score_hand(rules: Rules, contract: str, declarers: list[int], tricks: list[int],
               level: int | None = None) -> dict[str, Any]:
    """Points of one played contract, from plain facts (a paper score sheet's line will do).

    ``contract`` is one of :data:`CONTRACTS`, ``level`` the bid tricks of an emballage, solo or
    abondance, ``declarers`` the seats playing it (two for emballage and trou, one for solo,
    abondance and chelem, one or more for the misères and piccolo, each settled on their own),
    ``tricks`` the tricks taken by each seat (a pair's tricks are the sum of its two seats).

    Returns ``{"points": [p0, p1, p2, p3], "contracts": [{"contract", "level", "declarers",
    "tricks", "made", "value"}, ...]}``: one entry per settlement (one per misère player), where
    ``value`` is what each opponent paid (negative: received).  A lone declarer wins or pays three
    times ``value``; in two against two each player wins or pays it once.  Always zero-sum.
    """
    _check_score_input(contract, declarers, tricks, level)
    points: list[int | float] = [0, 0, 0, 0]
    groups = [tuple(declarers)] if contract in (EMBALLAGE, TROU_CONTRACT) else \
        [(seat,) for seat in declarers]
    settlements = []
    for group in groups:
        taken = sum(tricks[seat] for seat in group)
        value = contract_value(rules, contract, level, taken)
        # Zero-sum: each opponent pays ``value`` to the side, shared by its members.
        share = value * 3 if len(group) == 1 else value
        for seat in range(4):
            points[seat] += share if seat in group else -value
        settlements.append({"contract": contract, "level": level, "declarers": list(group),
                            "tricks": taken, "made": contract_made(contract, level, taken),
                            "value": value})
    return {"points": points, "contracts": settlements}


def _value_curve(rules: Rules, kind: str, level: int | None) -> tuple[int | float, ...]:
    """contract_value for 0..13 tricks, cached on the rules (the play loop asks every trick)."""
    cache: dict[tuple[str, int | None], tuple[int | float, ...]] = rules.__dict__.setdefault(
        "_curve_cache", {})
    key = (kind, level)
    curve = cache.get(key)
    if curve is None:
        curve = cache[key] = tuple(contract_value(rules, kind, level, t) for t in range(14))
    return curve


# -- the deal ----------------------------------------------------------------------------------

_DECK = list(cards.STANDARD_DECK)
_DECK_SET = frozenset(cards.STANDARD_DECK)
_ACE_MASK = sum(1 << CARD_INDEX["A" + s] for s in SUITS)


def deal(rules: Rules, dealer: int, rng: random.Random) -> Deal:
    """13 cards each.  Dealt 4-5-4 at the table; a uniform shuffle gives the same hands."""
    deck = _DECK[:]
    rng.shuffle(deck)
    return Deal(hands=[deck[0:13], deck[13:26], deck[26:39], deck[39:52]])


def new_hand(rules: Rules, dealer: int, hands: list[list[str]], kitty: object = None
             ) -> BelgianHand:
    if not isinstance(rules, Rules):
        raise DealError(N_("these are not Belgian Whist house rules"))
    if isinstance(dealer, bool) or dealer not in (0, 1, 2, 3):
        raise DealError(N_("the dealer must be seat 0, 1, 2 or 3, not %(dealer)r"), dealer=dealer)
    if kitty:
        raise DealError(N_("Belgian Whist has no kitty"))
    if not isinstance(hands, (list, tuple)) or len(hands) != 4:
        raise DealError(N_("a deal is four hands of 13 cards"))
    if all(isinstance(h, (list, tuple)) and len(h) == 13 for h in hands):
        try:
            cards = set(hands[0]).union(hands[1], hands[2], hands[3])
        except TypeError:  # an unhashable "card": the slow path names it
            cards = set()
        if len(cards) == 52 and cards <= _DECK_SET:  # the usual case, checked in one go
            masks = [sum(map(_CARD_BIT.__getitem__, h)) for h in hands]
            return BelgianHand(rules, dealer, [list(h) for h in hands], masks)
    masks = []
    seen: dict[str, int] = {}
    for seat, hand in enumerate(hands):
        if not isinstance(hand, (list, tuple)) or len(hand) != 13:
            raise DealError(N_("seat %(seat)s must hold 13 cards, not %(count)s"), seat=seat,
                            count=len(hand) if isinstance(hand, (list, tuple)) else hand)
        mask = 0
        for card in hand:
            if not isinstance(card, str) or card not in CARD_INDEX:
                raise DealError(N_("seat %(seat)s: %(card)r is not a card"), seat=seat, card=card)
            if card in ("BJ", "LJ"):
                raise DealError(N_("seat %(seat)s: Belgian Whist is played without jokers"),
                                seat=seat)
            if card in seen:
                raise DealError(N_("%(card)s is dealt twice (seats %(first)s and %(second)s)"),
                                card=card, first=seen[card], second=seat)
            seen[card] = seat
            mask |= 1 << CARD_INDEX[card]
        masks.append(mask)
    return BelgianHand(rules, dealer, [list(h) for h in hands], masks)


# -- the hand ----------------------------------------------------------------------------------

# seat statuses in the auction
FRESH, PREMIER, PROPOSER, MAINTAINED, EMBALLE, EMBALLEUR, HOLDER, PASSED = range(8)
STATUS_NAMES = ("to_speak", "premier", "proposing", "maintained", "emballe", "emballeur",
                "bidding", "passed")

_NEXT = (1, 2, 3, 0)
_PLAY_ACTION = tuple("play " + c for c in ALL_CARDS)
_DISCARD_ACTION = tuple("discard " + c for c in ALL_CARDS)
_PLAY_INDEX = {a: i for i, a in enumerate(_PLAY_ACTION)}
_DISCARD_INDEX = {a: i for i, a in enumerate(_DISCARD_ACTION)}
_SUIT_OF_INDEX = tuple(SUIT_MASK[s] if s else 0 for s in cards.CARD_SUIT)
_TRUMP_ACTIONS = ["trump C", "trump D", "trump H", "trump S"]


class BelgianHand(HandState):
    """One Belgian Whist hand from the trou round to the last card (see the module docstring).

    ``apply(action, seat=None)``: when ``seat`` is given it must be ``to_act``.
    ``legal_actions()`` returns a cached list: read it, do not change it.
    """

    game: ClassVar[str] = GAME

    __slots__ = (
        "rules", "dealer", "dealt_hands", "dealt_kitty", "phase", "to_act", "history",
        "_hands", "_legal", "_legal_mask", "_auction_len",
        # auction
        "_status", "_maintained", "_proposal", "_bid_rank", "_bid_kind", "_bid_level",
        "_bid_suit", "_partner", "_trou_seat", "_trou_alive", "_main_actions", "_misere_seen",
        # contract
        "contract", "level", "trump", "declarers", "redeal", "_groups",
        # play
        "_trump_mask", "leader", "_trick", "_led", "tricks_won", "_done", "_n_tricks",
        "_discards", "_exposed", "_result",
    )
    rules: Rules

    def __init__(self, rules: Rules, dealer: int, dealt: list[list[str]], masks: list[int]):
        self.rules = rules
        self.dealer = dealer
        self.dealt_hands = dealt
        self.dealt_kitty = None
        self.phase = TROU
        self.to_act: int | None = _NEXT[dealer]
        self.history: list[tuple[int, str]] = []
        self._hands = masks
        self._legal: list[str] | None = None
        self._legal_mask = 0
        self._auction_len = 0
        self._status = [FRESH] * 4
        self._maintained = [False] * 4
        self._proposal: list[str | None] = [None] * 4
        self._bid_rank = [-1] * 4
        self._bid_kind: list[str | None] = [None] * 4
        self._bid_level: list[int | None] = [None] * 4
        self._bid_suit: list[str | None] = [None] * 4
        self._partner: list[int | None] = [None] * 4
        self._trou_seat: int | None = None
        self._trou_alive = False
        self._main_actions = 0
        self._misere_seen = False
        self.contract: str | None = None
        self.level: int | None = None
        self.trump: str | None = None
        self.declarers: tuple[int, ...] = ()
        self.redeal = False
        self._groups: list[tuple[tuple[int, ...], tuple[int | float, ...]]] = []
        self._trump_mask = 0
        self.leader: int | None = None
        self._trick: list[int] = []  # card indices; the i-th was played by (leader + i) % 4
        self._led = 0
        self.tricks_won = [0, 0, 0, 0]
        self._done: list[tuple[int, list[int], int]] = []  # (leader, card indices, winner)
        self._n_tricks = 13
        self._discards: list[int | None] = [None] * 4
        self._exposed = False
        self._result: dict[str, Any] | None = None

    def copy(self) -> BelgianHand:
        new = BelgianHand.__new__(BelgianHand)
        for name in BelgianHand.__slots__:
            setattr(new, name, getattr(self, name))
        for name in ("history", "_hands", "_status", "_maintained", "_proposal", "_bid_rank",
                     "_bid_kind", "_bid_level", "_bid_suit", "_partner", "_trick", "tricks_won",
                     "_done", "_discards"):
            setattr(new, name, getattr(self, name)[:])
        return new

    # -- the hot path ---------------------------------------------------------------------------

    def automatic_action(self) -> str | None:
        """The trou round is no choice: three aces must announce it, anyone else passes."""
        return self.legal_actions()[0] if self.phase == "trou" else None

    def legal_actions(self) -> list[str]:
        legal = self._legal
        if legal is None:
            phase = self.phase
            if phase == PLAY:
                legal = cards.names_of(self._legal_mask, _PLAY_ACTION)
            elif phase == AUCTION:
                legal = self._auction_legal()
            elif phase == TROU:
                aces = (self._hands[self.to_act] & _ACE_MASK).bit_count()  # type: ignore[index]
                legal = ["trou"] if aces == 3 else ["passe_trou"]
            elif phase == DISCARD:
                held = self._hands[self.to_act]  # type: ignore[index]
                legal = cards.names_of(held, _DISCARD_ACTION)
            elif phase == TRUMP:
                legal = list(_TRUMP_ACTIONS)
            else:
                legal = []
            self._legal = legal
        return legal

    def apply(self, action: str, seat: int | None = None) -> None:
        to_act = self.to_act
        if seat is not None and seat != to_act:
            if to_act is None:
                raise IllegalAction(seat, action, N_("the hand is complete"))
            raise IllegalAction(seat, action, N_("it is seat %(to_act)s's turn, not seat "
                                                 "%(seat)s's"), to_act=to_act, seat=seat)
        if self.phase == PLAY and type(action) is str:
            index = _PLAY_INDEX.get(action)
            if index is not None and self._legal_mask >> index & 1:
                self._play(to_act, index, action)  # type: ignore[arg-type]  # a seat in the play
                return
        if type(action) is not str:
            raise IllegalAction(to_act, action, N_("an action must be a text such as 'pass' or "
                                                   "'play AS', not %(kind)s"),
                                kind=type(action).__name__)
        if self.phase == COMPLETE:
            raise IllegalAction(to_act, action, N_("the hand is complete"))
        assert to_act is not None  # only a complete hand has no seat to act
        legal = self.legal_actions()
        if action not in legal:
            raise self._refusal(action)
        self.history.append((to_act, action))
        self._legal = None
        phase = self.phase
        if phase == AUCTION:
            self._apply_auction(to_act, action)
        elif phase == TROU:
            self._apply_trou(to_act, action)
        elif phase == DISCARD:
            self._apply_discard(to_act, action)
        else:  # TRUMP
            self.trump = action[-1]
            self._start_play(to_act)

    def _play(self, seat: int, index: int, action: str) -> None:
        self.history.append((seat, action))
        self._legal = None
        hands = self._hands
        hands[seat] ^= 1 << index
        trick = self._trick
        trick.append(index)
        if len(trick) == 1:
            self._led = _SUIT_OF_INDEX[index]
            if len(self._done) == 1 and self.contract == MISERE_ETALEE:
                self._exposed = True  # laid open after the lead of the second trick
        elif len(trick) == 4:
            self._close_trick()
            return
        seat = _NEXT[seat]
        self.to_act = seat
        hand = hands[seat]
        follow = hand & self._led
        self._legal_mask = follow if follow else hand

    def _close_trick(self) -> None:
        trick = self._trick
        leader: int = self.leader  # type: ignore[assignment]  # set when the play starts
        trump = self._trump_mask
        best = trick[0]
        best_pos = 0
        for pos in (1, 2, 3):
            card = trick[pos]
            mask = _SUIT_OF_INDEX[card]
            if mask == _SUIT_OF_INDEX[best]:
                if CARD_RANK[card] > CARD_RANK[best]:
                    best, best_pos = card, pos
            elif mask == trump:
                best, best_pos = card, pos
        winner = (leader + best_pos) & 3
        self.tricks_won[winner] += 1
        self._done.append((leader, trick, winner))
        self._trick = []
        remaining = self._n_tricks - len(self._done)
        if remaining == 0 or self._points_settled(remaining):
            self._finish()
            return
        self.leader = self.to_act = winner
        self._legal_mask = self._hands[winner]

    def _points_settled(self, remaining: int) -> bool:
        """True when no further trick can change any declarer's points ("verdicts known")."""
        won = self.tricks_won
        for seats, curve in self._groups:
            taken = 0
            for seat in seats:
                taken += won[seat]
            first = curve[taken]
            for value in curve[taken + 1:taken + remaining + 1]:
                if value != first:
                    return False
        return True

    # -- trou round, discards ---------------------------------------------------------------------

    def _apply_trou(self, seat: int, action: str) -> None:
        if action == "trou":
            self._trou_seat = seat
            self._trou_alive = True
            self.phase = AUCTION
            self.to_act = _NEXT[seat]  # the over-trou round: "passe la grande" or higher
        elif seat == self.dealer:
            self.phase = AUCTION
            self.to_act = _NEXT[seat]
        else:
            self.to_act = _NEXT[seat]

    def _apply_discard(self, seat: int, action: str) -> None:
        index = _DISCARD_INDEX[action]
        self._discards[seat] = index
        self._hands[seat] ^= 1 << index
        if seat == self.dealer:
            self._start_play(_NEXT[self.dealer])
        else:
            self.to_act = _NEXT[seat]

    # -- the auction ------------------------------------------------------------------------------

    def _highest(self) -> int:
        high = TROU_RANK if self._trou_alive else -1
        status, ranks = self._status, self._bid_rank
        for seat in range(4):
            if (status[seat] == HOLDER or status[seat] == EMBALLEUR) and ranks[seat] > high:
                high = ranks[seat]
        return high

    def _misere_announced(self) -> bool:
        """Whether a misère or piccolo has been announced in this auction (seed: "aucune misère
        ou piccolo n'est encore annoncé"), even if it has since been outbid."""
        return self._misere_seen

    def _emballer_threshold(self, seat: int) -> int:
        """``seat`` can be emballed in a suit whose tie rank is above this number.

        Anyone who has not spoken or said premier may emballer any suit; a proposer still
        waiting only a suit higher than their own.  Cards are not looked at: that would tell
        ``seat`` what the others hold.
        """
        lowest = 4
        status = self._status
        for other in range(4):
            if other == seat:
                continue
            st = status[other]
            if st == FRESH or st == PREMIER:
                return -1
            if st == PROPOSER:
                tie = SUIT_TIE[self._proposal[other]]  # type: ignore[index]  # a proposer's suit
                if tie < lowest:
                    lowest = tie
        return lowest

    def _emballable(self, seat: int, suit: str) -> bool:
        return SUIT_TIE[suit] > self._emballer_threshold(seat)

    def _occupied_suits(self, exclude: tuple[int | None, ...]) -> set[str | None]:
        """Suits already proposed by someone, or played by another emballage pair."""
        taken: set[str | None] = set()
        for seat in range(4):
            if seat in exclude:
                continue
            status = self._status[seat]
            if status == PROPOSER or status == MAINTAINED or status == EMBALLE:
                taken.add(self._proposal[seat])
            elif status == EMBALLEUR:
                taken.add(self._bid_suit[seat])
        return taken

    def _occupied(self, suit: str, exclude: tuple[int, ...]) -> bool:
        return suit in self._occupied_suits(exclude)

    def _solo_direct(self, seat: int) -> bool:
        """Solo may be announced by a proposer, a player already bidding, after a misère, or by
        anyone nobody can still emballer."""
        status = self._status[seat]
        if status == PROPOSER or status == HOLDER or self._misere_announced():
            return True
        threshold = self._emballer_threshold(seat)
        taken = self._occupied_suits((seat,))
        return not any(SUIT_TIE[suit] > threshold for suit in SUITS if suit not in taken)

    def _emballer_options(self, seat: int, high: int) -> list[str]:
        out = []
        own = self._proposal[seat] if self._status[seat] == PROPOSER else None
        hand = self._hands[seat]
        for other in range(4):
            if other == seat or self._status[other] not in (PROPOSER, MAINTAINED):
                continue
            suit = self._proposal[other]
            assert suit is not None  # a proposer's, maintained or not
            if not hand & SUIT_MASK[suit] or _E13_RANK[suit] <= high:
                continue
            if own is not None and SUIT_TIE[suit] <= SUIT_TIE[own]:
                continue
            out.append("emballer " + suit)
        return out

    def _auction_legal(self) -> list[str]:
        seat = self.to_act
        assert seat is not None  # the auction is not over
        status = self._status[seat]
        high = self._highest()
        out = ["pass"]
        if status == PREMIER:
            out += self._emballer_options(seat, high)
        elif status == EMBALLEUR:
            taken = self._occupied_suits((seat, self._partner[seat]))
            for level in range(self._bid_level[seat] + 1, 14):  # type: ignore[operator]
                for suit in SUITS:
                    if _EMBALLAGE_RANK[(level, suit)] > high and suit not in taken:
                        out.append(_RAISE_ACTION[(level, suit)])
        else:  # FRESH, PROPOSER or HOLDER
            out += [kind for rank, kind in _MISERE_ACTIONS if rank >= high]  # equal: joining
            if self._solo_direct(seat):
                if self._bid_kind[seat] == SOLO:
                    own = self._bid_level[seat]
                    out += [a for rank, level, a in _SOLO_ACTIONS
                            if rank > high and level > own]  # type: ignore[operator]
                else:
                    out += [a for rank, _level, a in _SOLO_ACTIONS if rank > high]
            if status == FRESH:
                # Abondance and chelem: first round only, i.e. on a player's first call.
                out += [a for rank, a in _FIRST_CALL_ACTIONS if rank > high]
                if self._main_actions == 0 and self._trou_seat is None:
                    out.append("premier")
                if not self._misere_announced():
                    taken = self._occupied_suits(())
                    threshold = self._emballer_threshold(seat)
                    for suit in SUITS:
                        if (_E13_RANK[suit] > high and suit not in taken
                                and SUIT_TIE[suit] > threshold):
                            out.append("propose " + suit)
                out += self._emballer_options(seat, high)
            elif status == PROPOSER:
                out += self._emballer_options(seat, high)
                if self._emballable(seat, self._proposal[seat]):  # type: ignore[arg-type]
                    out.append("maintain")
        out.sort()
        return out

    def _set_bid(self, seat: int, kind: str | None, level: int | None, suit: str | None,
                 rank: int) -> None:
        self._bid_kind[seat] = kind
        self._bid_level[seat] = level
        self._bid_suit[seat] = suit
        self._bid_rank[seat] = rank

    def _apply_auction(self, seat: int, action: str) -> None:
        self._main_actions += 1
        status = self._status
        words = action.split()
        word = words[0]
        if word == "pass":
            if status[seat] == FRESH and seat == self._trou_seat and self._trou_alive:
                # Everyone passed la grande: the trou stands and will be played.
                self._trou_alive = False
                status[seat] = HOLDER
                self._set_bid(seat, TROU_CONTRACT, None, None, TROU_RANK)
            else:
                if status[seat] == EMBALLEUR:  # the pair falls apart; the proposer waits again
                    proposer = self._partner[seat]
                    assert proposer is not None  # an emballeur's
                    status[proposer] = MAINTAINED if self._maintained[proposer] else PROPOSER
                    self._set_bid(proposer, None, None, None, -1)
                    self._partner[proposer] = None
                    self._partner[seat] = None
                status[seat] = PASSED
                self._proposal[seat] = None
                self._set_bid(seat, None, None, None, -1)
        elif word == "premier":
            status[seat] = PREMIER
        elif word == "propose":
            status[seat] = PROPOSER
            self._proposal[seat] = words[1]
        elif word == "maintain":
            status[seat] = MAINTAINED
            self._maintained[seat] = True
        elif word == "emballer":
            suit = words[1]
            proposer = next(s for s in range(4) if s != seat and self._proposal[s] == suit
                            and status[s] in (PROPOSER, MAINTAINED))
            rank = _EMBALLAGE_RANK[(8, suit)]
            status[seat], status[proposer] = EMBALLEUR, EMBALLE
            self._proposal[seat] = None
            self._set_bid(seat, EMBALLAGE, 8, suit, rank)
            self._set_bid(proposer, EMBALLAGE, 8, suit, rank)
            self._partner[seat], self._partner[proposer] = proposer, seat
        elif word == "raise":
            level, suit = int(words[1]), words[2]
            rank = _EMBALLAGE_RANK[(level, suit)]
            self._set_bid(seat, EMBALLAGE, level, suit, rank)
            self._set_bid(self._partner[seat], EMBALLAGE, level, suit,  # type: ignore[arg-type]
                          rank)
        else:  # a contract announced alone
            if word in MISERES:
                kind, level, suit, rank = word, None, None, _MISERE_RANK[word]
                self._misere_seen = True
            elif word in _CHELEM_RANK:
                kind, level, rank = word, None, _CHELEM_RANK[word]
                suit = None if words[1] == "NT" else words[1]
            else:
                kind, level, suit = word, int(words[1]), words[2]
                rank = (_SOLO_RANK if kind == SOLO else _ABONDANCE_RANK)[(level, suit)]
            status[seat] = HOLDER
            self._proposal[seat] = None
            self._set_bid(seat, kind, level, suit, rank)
            if rank > TROU_RANK:
                self._trou_alive = False
        self._pass_the_floor(seat)

    def _pass_the_floor(self, seat: int) -> None:
        high = self._highest()
        status, ranks = self._status, self._bid_rank
        for step in (1, 2, 3, 4):
            other = (seat + step) & 3
            st = status[other]
            if st == FRESH or st == PREMIER or st == PROPOSER or (
                    (st == HOLDER or st == EMBALLEUR) and ranks[other] < high):
                self.to_act = other
                return
        self._end_auction(high)

    def _end_auction(self, high: int) -> None:
        self._auction_len = len(self.history)
        if high < 0:
            self.redeal = True
            self._finish()
            return
        holders = [s for s in range(4)
                   if self._status[s] in (HOLDER, EMBALLEUR, EMBALLE) and self._bid_rank[s] == high]
        first = holders[0]
        kind = self._bid_kind[first]
        assert kind is not None  # a holder's bid
        self.contract = kind
        self.level = self._bid_level[first]
        if kind == TROU_CONTRACT:
            fourth_ace = next(s for s in range(4) if s != first and self._hands[s] & _ACE_MASK)
            self.declarers = (first, fourth_ace)
            self._groups = [(self.declarers, _value_curve(self.rules, kind, None))]
            self.phase = TRUMP
            self.to_act = fourth_ace
            return
        self.declarers = tuple(holders)
        curve = _value_curve(self.rules, kind, self.level)
        if kind == EMBALLAGE:
            self._groups = [(self.declarers, curve)]
        else:
            self._groups = [((s,), curve) for s in holders]
        if kind not in MISERES:
            self.trump = self._bid_suit[first]
        if kind == PETITE_MISERE:
            self._n_tricks = 12
            self.phase = DISCARD
            self.to_act = _NEXT[self.dealer]
        elif kind in (ABONDANCE, PETIT_CHELEM, GRAND_CHELEM):
            self._start_play(first)
        else:
            self._start_play(_NEXT[self.dealer])

    def _start_play(self, leader: int) -> None:
        self.phase = PLAY
        self._trump_mask = SUIT_MASK[self.trump] if self.trump else 0
        self.leader = self.to_act = leader
        self._legal_mask = self._hands[leader]

    def _finish(self) -> None:
        self.phase = COMPLETE
        self.to_act = None
        self._legal = []
        self._legal_mask = 0

    # -- refusals ---------------------------------------------------------------------------------

    def _refusal(self, action: str) -> IllegalAction:
        seat = self.to_act
        reason = self._reason(seat, action)  # type: ignore[arg-type]  # the hand is not over
        if reason is None:
            return IllegalAction(seat, action, N_("%(action)r is not possible now; the choices "
                                                  "are: %(legal)s"),
                                 action=action, legal=", ".join(self.legal_actions()))
        template, params = reason
        return IllegalAction(seat, action, template, **params)

    def _reason(self, seat: int, action: str) -> tuple[str, dict[str, Any]] | None:
        words = action.split()
        word = words[0] if words else ""
        phase = self.phase
        wanted = {"play": PLAY, "discard": DISCARD, "trump": TRUMP, "trou": TROU,
                  "passe_trou": TROU}.get(word, AUCTION)
        if wanted != phase:
            return (N_("%(action)r does not fit the %(phase)s phase; the choices are: "
                       "%(legal)s"), {"action": action, "phase": phase,
                                      "legal": ", ".join(self.legal_actions())})
        if phase == TROU:
            if self.legal_actions() == ["trou"]:
                return N_("you hold exactly three aces: you must announce trou"), {}
            return N_("trou needs exactly three aces (four is not a trou): announce "
                      "passe_trou"), {}
        if phase in (PLAY, DISCARD):
            card = words[1] if len(words) == 2 else None
            if card is None or card not in CARD_INDEX or card in ("BJ", "LJ"):
                return N_("%(card)r is not a card such as AS, TD or 2C"), {
                    "card": " ".join(words[1:])}
            if not self._hands[seat] >> CARD_INDEX[card] & 1:
                return N_("seat %(seat)s does not hold %(card)s"), {"seat": seat, "card": card}
            return N_("seat %(seat)s must follow %(suit)s"), {
                "seat": seat, "suit": SUIT_NAMES[ALL_CARDS[self._trick[0]][1]]}
        if phase == TRUMP:
            return N_("name trumps with one of: trump S, trump H, trump D, trump C"), {}
        return self._auction_reason(seat, words)

    def _auction_reason(self, seat: int, words: list[str]) -> tuple[str, dict[str, Any]] | None:
        status = self._status[seat]
        word = words[0] if words else ""
        high = self._highest()
        if status == PREMIER and word != "emballer":
            return N_("after premier you may only emballer a proposed suit or pass"), {}
        if status == EMBALLEUR and word != "raise":
            return N_("an emballeur may only raise the emballage or pass"), {}
        suit = words[-1] if len(words) >= 2 else None
        if word == "raise":
            if status != EMBALLEUR:
                return N_("only the emballeur of a pair raises an emballage"), {}
            return N_("a raise must add tricks, beat the highest contract and not take a suit "
                      "someone else proposed"), {}
        if word == "premier":
            return N_("only the first player may wait (premier), and only on the opening call "
                      "of the auction"), {}
        if word == "maintain":
            if status != PROPOSER:
                return N_("only a player whose proposed suit waits for a partner may "
                          "maintain"), {}
            return N_("nobody can still emballer you, so you cannot maintain"), {}
        if word == "propose":
            if status != FRESH:
                return N_("a suit can only be proposed on a player's first call"), {}
            if self._misere_announced():
                return N_("no suit can be proposed once a misère or piccolo is announced"), {}
            if suit in SUIT_TIE and self._occupied(suit, ()):
                return N_("%(suit)s is already proposed"), {"suit": SUIT_NAMES[suit]}
            if suit in SUIT_TIE and not self._emballable(seat, suit):
                return N_("nobody can still emballer you, so you cannot propose a suit"), {}
        if word == "emballer" and suit in SUIT_TIE:
            if status not in (FRESH, PREMIER, PROPOSER):
                return N_("you can no longer emballer"), {}
            if not any(self._proposal[s] == suit and self._status[s] in (PROPOSER, MAINTAINED)
                       for s in range(4) if s != seat):
                return N_("no one is waiting for a partner in %(suit)s"), {
                    "suit": SUIT_NAMES[suit]}
            if not self._hands[seat] & SUIT_MASK[suit]:
                return N_("to emballer %(suit)s you must hold at least one %(suit)s card"), {
                    "suit": SUIT_NAMES[suit]}
            if status == PROPOSER:
                return N_("a proposer may only emballer a suit higher than their own"), {}
        if word in (ABONDANCE, PETIT_CHELEM, GRAND_CHELEM) and status != FRESH:
            return N_("abondance and chelem can only be announced in the first round"), {}
        if word == SOLO and status == FRESH and not self._solo_direct(seat):
            return N_("a solo can only be announced directly when nobody can still emballer "
                      "you"), {}
        if word == SOLO and self._bid_kind[seat] == SOLO and len(words) == 3 and \
                words[1].isdigit() and int(words[1]) <= self._bid_level[seat]:  # type: ignore[operator]
            return N_("to change your solo you must raise it"), {}
        if high >= 0 and word in (SOLO, ABONDANCE, PETIT_CHELEM, GRAND_CHELEM, "propose",
                                  "emballer") + MISERES:
            return N_("%(action)r does not beat the highest contract, %(highest)s"), {
                "action": " ".join(words), "highest": self._describe_rank(high)}
        return None

    def _describe_rank(self, rank: int) -> str:
        if self._trou_alive and rank == TROU_RANK:
            return "trou"
        for seat in range(4):
            if self._bid_rank[seat] == rank:
                return describe_contract(self._bid_kind[seat],  # type: ignore[arg-type]
                                         self._bid_level[seat],
                                         self._bid_suit[seat])
        return "?"

    # -- results and views ------------------------------------------------------------------------

    def result(self) -> dict[str, Any]:
        if self.phase != COMPLETE:
            return {"complete": False, "phase": self.phase, "to_act": self.to_act,
                    "legal": list(self.legal_actions())}
        if self._result is None:
            if self.redeal:
                self._result = {"complete": True, "redeal": True, "points": [0, 0, 0, 0]}
            else:
                scored = score_hand(self.rules, self.contract,  # type: ignore[arg-type]
                                    list(self.declarers),
                                    self.tricks_won, self.level)
                self._result = {
                    "complete": True, "redeal": False, "contract": self.contract,
                    "level": self.level, "trump": self.trump, "declarers": list(self.declarers),
                    "tricks": list(self.tricks_won), "tricks_played": len(self._done),
                    "contracts": scored["contracts"], "points": scored["points"],
                }
        return _copy_result(self._result)

    def _contract_view(self) -> dict[str, Any] | None:
        if self.contract is None:
            return None
        return {"contract": self.contract, "level": self.level, "trump": self.trump,
                "declarers": list(self.declarers),
                "together": self.contract in (EMBALLAGE, TROU_CONTRACT),
                "name": describe_contract(self.contract, self.level, self.trump)}

    def _standing(self) -> list[dict[str, Any]]:
        out = []
        for seat in range(4):
            kind = self._bid_kind[seat]
            bid = None
            if kind == TROU_CONTRACT or (self._trou_alive and seat == self._trou_seat):
                bid = "trou"
            elif kind is not None:
                bid = describe_contract(kind, self._bid_level[seat], self._bid_suit[seat])
            out.append({"seat": seat, "status": STATUS_NAMES[self._status[seat]],
                        "proposal": self._proposal[seat], "bid": bid,
                        "partner": self._partner[seat]})
        return out

    def view(self, seat: int | None) -> HandView:
        if seat is not None and (isinstance(seat, bool) or seat not in (0, 1, 2, 3)):
            raise WhistError(N_("a view is for seat 0, 1, 2 or 3, or None for a spectator"))
        in_auction = self.phase in (TROU, AUCTION)
        auction_len = len(self.history) if in_auction else self._auction_len
        if self.phase == TRUMP:
            auction_len = len(self.history)
        elif self.phase in (DISCARD, PLAY, COMPLETE) and self.contract == TROU_CONTRACT:
            auction_len = self._auction_len + 1  # the trump call is public
        trick_leader = self.leader if self.phase == PLAY else None
        out: HandView = {
            "game": GAME, "seat": seat, "dealer": self.dealer, "phase": self.phase,
            "to_act": self.to_act,
            "hand_sizes": [h.bit_count() for h in self._hands],
            "auction": [{"seat": s, "action": a} for s, a in self.history[:auction_len]],
            "standing": self._standing() if in_auction else None,
            "contract": self._contract_view(),
            "trump": self.trump,
            "leader": trick_leader,
            "trick": [{"seat": (trick_leader + i) & 3, "card": ALL_CARDS[c]}
                      for i, c in enumerate(self._trick)] if trick_leader is not None else [],
            "tricks": [{"leader": lead, "winner": winner,
                        "cards": [{"seat": (lead + i) & 3, "card": ALL_CARDS[c]}
                                  for i, c in enumerate(cards)]}
                       for lead, cards, winner in self._done],
            "tricks_won": list(self.tricks_won),
            "exposed": [{"seat": s, "cards": cards.sort_for_display(cards_of(self._hands[s]))}
                        for s in self.declarers] if self._exposed else [],
        }
        if seat is not None:
            out["hand"] = cards.sort_for_display(cards_of(self._hands[seat]))
            discard = self._discards[seat]
            if discard is not None:
                out["discard"] = ALL_CARDS[discard]
        if seat is not None and seat == self.to_act:
            out["legal"] = list(self.legal_actions())
        if self.phase == COMPLETE:
            out["result"] = self.result()
            out["deal"] = [list(h) for h in self.dealt_hands]
        return out


def _copy_result(result: dict[str, Any]) -> dict[str, Any]:
    out = dict(result)
    for key in ("points", "tricks", "declarers"):
        if key in out:
            out[key] = list(out[key])
    if "contracts" in out:
        out["contracts"] = [{**c, "declarers": list(c["declarers"])} for c in out["contracts"]]
    return out


# -- sessions ----------------------------------------------------------------------------------


class Session(Chain):
    """An evening at one table: running zero-sum balances and the dealer.

    All four pass: the same dealer deals again (a redeal is added like any hand but does not
    count towards ``deals``); otherwise the deal passes clockwise.  The session is complete once
    ``deals`` played hands (not redeals) have been added; without ``deals`` it runs until the
    players stop.
    """

    rules: Rules
    hand_type: ClassVar[type[HandState]] = BelgianHand
    seats: ClassVar[int] = SEATS
    sides: ClassVar[int] = SEATS
    counted: ClassVar[str] = "points"
    missing: ClassVar[str] = N_("a hand's result needs the points of all four seats")
    wrong_hand: ClassVar[str] = N_("only a Belgian Whist hand can be added to a Belgian Whist "
                                   "session")

    def __init__(self, rules: Rules | None = None, first_dealer: int = 0,
                 deals: int | None = None):
        if rules is None:
            rules = Rules()
        if not isinstance(rules, Rules):
            raise RulesError(N_("these are not Belgian Whist house rules"))
        if isinstance(first_dealer, bool) or first_dealer not in (0, 1, 2, 3):
            raise WhistError(N_("the first dealer must be seat 0, 1, 2 or 3, not %(seat)r"),
                             seat=first_dealer)
        if deals is not None and (type(deals) is not int or deals < 1):
            raise WhistError(N_("the number of deals must be a whole number of at least 1, "
                                "not %(deals)r"), deals=deals)
        super().__init__(rules, first_dealer)
        self.deals = deals
        self.played = 0
        self._balances: list[int | float] = [0, 0, 0, 0]

    @property
    def balances(self) -> list[int | float]:
        return list(self._balances)

    @property
    def complete(self) -> bool:
        return self.deals is not None and self.played >= self.deals

    def _count(self, result: dict[str, Any], values: list[Any]) -> None:
        for seat, value in enumerate(values):
            self._balances[seat] += value
        if not result.get("redeal"):
            self.played += 1

    def _dealer_after(self, dealer: int, result: dict[str, Any]) -> int:
        return dealer if result.get("redeal") else _NEXT[dealer]  # all passed: the same deals

    def _totals(self) -> dict[str, Any]:
        return {"balances": self.balances}

    def _outcome(self) -> dict[str, Any]:
        best = max(self._balances)
        return {"deals_played": self.played, "next_dealer": self.next_dealer,
                "leader": [seat for seat in range(4) if self._balances[seat] == best]}


CHAIN = Session  # the engine contract's name for it (games.rules.base.GameModule)
