"""Bid Whist: the engine (rules and rulings in docs/rules/bid_whist.md).

Four players, team 0 = seats 0 and 2, team 1 = seats 1 and 3.  The house rule ``kitty`` sets
the deck and the deal (:data:`KITTY_SHAPES`): by default 54 cards (52 + ``BJ``/``LJ``), 12 to
each seat and a 6-card kitty; or 52 cards and a kitty of 4, 53 cards (52 + ``BJ``) and a kitty
of 5, or 52 cards, 13 each and no kitty.  One round of bidding from left of the dealer; the
highest bidder (the declarer) takes the kitty, discards as many cards (the declaring team's
first book), then names trumps (uptown/downtown bids) or the direction (notrump bids), and
leads.  A hand always has 13 books: 12 tricks and the discards, or 13 tricks without a kitty.

Phases, in order::

    "auction"  -> each seat in turn: ``pass`` or ``bid N uptown|downtown|notrump``
    "discard"  -> the declarer: ``discard C C C C C C`` (as many cards as the kitty has; any
                  order; stored sorted).  Skipped with ``kitty=none``.
    "declare"  -> the declarer: ``trump S|H|D|C`` or, for notrump, ``direction uptown|downtown``
    "play"     -> ``play C``, twelve tricks (thirteen with ``kitty=none``)
    "complete" -> nothing more (also straight after an all-pass auction with ``all_pass=redeal``)

Speed matters (computer players search with this engine): cards are bits of an int
(``cards.CARD_BIT``), the order of the cards for the hand's trump and direction is a
precomputed table, and the legal cards are cached as a mask until the next ``apply``.  Scoring lives only in :func:`score_hand`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from itertools import combinations
from typing import Any, ClassVar, NoReturn, Self

from . import cards
from .base import Chain, Deal, HandState, HandView
from .cards import ALL_CARDS, CARD_BIT, CARD_RANK, CARD_SUIT, JOKER_MASK, STANDARD_DECK, cards_of
from .errors import N_, DealError, IllegalAction, WhistError
from .house_rules import BaseRules, rule

GAME = "bid_whist"
SEATS = 4  # the engine contract: how many seats a table of this game has

MAX_BID = 7
BOOKS_PER_HAND = 13  # whatever the kitty: 12 tricks + the discards, or 13 tricks and no kitty
MODES = ("uptown", "downtown", "notrump")
DIRECTIONS = ("uptown", "downtown")

AUCTION, DISCARD, DECLARE, PLAY, COMPLETE = "auction", "discard", "declare", "play", "complete"


def team_of(seat: int) -> int:
    return seat & 1


@dataclass(frozen=True)
class KittyShape:
    """One value of the house rule ``kitty``: the deck, the cards dealt to each seat and the
    kitty (docs/rules/bid_whist.md, "Kitty shapes").  The declarer discards as many cards as
    the kitty has, so every seat plays ``hand_size`` cards: the hand has ``hand_size`` tricks."""

    name: str
    deck: tuple[str, ...]
    hand_size: int
    kitty_size: int
    deck_set: frozenset[str] = dataclass_field(init=False, repr=False, compare=False)
    deck_mask: int = dataclass_field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        assert 4 * self.hand_size + self.kitty_size == len(self.deck)
        object.__setattr__(self, "deck_set", frozenset(self.deck))
        object.__setattr__(self, "deck_mask", sum(CARD_BIT[c] for c in self.deck))

    @property
    def tricks(self) -> int:
        return self.hand_size


# The first is the default.  With one joker it is the big one (BJ): the top trump, as it is in
# the two-joker game.  Without a kitty the jokers are left out: 54 cards cannot be dealt evenly
# to four, and 52 give the 13 tricks of a hand (docs/rules/bid_whist.md).
KITTY_SHAPES: dict[str, KittyShape] = {shape.name: shape for shape in (
    KittyShape("6_two_jokers", cards.JOKER_DECK, 12, 6),
    KittyShape("4_no_jokers", STANDARD_DECK, 12, 4),
    KittyShape("5_one_joker", STANDARD_DECK + ("BJ",), 12, 5),
    KittyShape("none", STANDARD_DECK, 13, 0),
)}


# The house rules Cutthroat Bid Whist plays word for word as the four-player game, written
# once (a function each: a dataclass field belongs to one class).


def kitty_shown_rule() -> Any:
    return rule(
        False, "The kitty is turned face up for everyone to see before the auction.",
        label=N_("The kitty is shown to everyone"))


def downtown_beats_uptown_rule() -> Any:
    return rule(
        False, "At equal books a downtown bid beats an uptown bid (otherwise they are equal).",
        label=N_("Downtown beats uptown at equal books"))


def all_pass_rule(label: str) -> Any:
    """``label``: the rule's name for the table's number of players."""
    return rule(
        "redeal", "When nobody bids, a new hand may be dealt, or the dealer may be stuck with "
        "the bid.", label=label, choices=("redeal", "stuck_dealer"),
        choice_labels={"redeal": N_("the next dealer deals a new hand"),
                       "stuck_dealer": N_("the dealer may not pass and must bid")})


def downtown_ace_rule() -> Any:
    return rule(
        "high", "In a downtown hand the low cards win; the ace may stay the best card of its "
        "suit or become the worst.", label=N_("The ace downtown"), choices=("high", "low"),
        choice_labels={"high": N_("stays the best card: A 2 3 … K"),
                       "low": N_("is the worst card: 2 3 … K A")})


def downtown_side_suits_rule() -> Any:
    return rule(
        "reversed", "In a downtown hand with trumps, the side suits may run downtown too or "
        "keep the uptown order; notrump downtown always reverses every suit.",
        label=N_("Side suits downtown"), choices=("reversed", "normal"),
        choice_labels={"reversed": N_("run downtown too"), "normal": N_("keep the uptown order")})


def notrump_double_rule() -> Any:
    return rule(
        True, "Every point of a notrump hand counts double, made or set.",
        label=N_("No trump counts double"))


@dataclass(frozen=True)
class Rules(BaseRules):
    """Bid Whist house rules (docs/rules/bid_whist.md), each with its default."""

    GAME: ClassVar[str] = GAME

    kitty: str = rule(
        "6_two_jokers", "The cards in play, how many each player is dealt and how many go to "
        "the kitty the winning bidder picks up.", label=N_("The deck and the kitty"),
        choices=tuple(KITTY_SHAPES),
        choice_labels={"6_two_jokers": N_("54 cards, 2 jokers: 12 each, kitty of 6"),
                       "4_no_jokers": N_("52 cards: 12 each, kitty of 4"),
                       "5_one_joker": N_("53 cards, big joker: 12 each, kitty of 5"),
                       "none": N_("52 cards: 13 each, no kitty")})
    kitty_shown: bool = kitty_shown_rule()
    min_bid: int = rule(
        3, "The lowest bid allowed, in books over six (4 is a common variant).",
        label=N_("Lowest bid"), minimum=1, maximum=MAX_BID)
    downtown_beats_uptown: bool = downtown_beats_uptown_rule()
    all_pass: str = all_pass_rule(N_("When all four pass"))
    downtown_ace: str = downtown_ace_rule()
    downtown_side_suits: str = downtown_side_suits_rule()
    defenders_score_books: bool = rule(
        False, "The defending team also scores its books over six.",
        label=N_("The defenders score their books too"))
    notrump_double: bool = notrump_double_rule()
    boston: str = rule(
        "wins_game", "What a team gets for taking all 13 books.",
        label=N_("All 13 books (a Boston)"), choices=("wins_game", "double", "normal"),
        choice_labels={"wins_game": N_("win the match at once"), "double": N_("score twice"),
                       "normal": N_("score like any other hand")})
    game_target: int = rule(
        7, "A team reaching this score wins the match; a team falling to minus this loses it.",
        label=N_("Score to win"), minimum=1, maximum=1000)

    @property
    def shape(self) -> KittyShape:
        """The deck, the deal and the kitty of the house rule ``kitty``."""
        return KITTY_SHAPES[self.kitty]


# -- the pure scoring function -------------------------------------------------------------------


def score_hand(rules: Rules, bid: int, mode: str, declaring_team: int, declaring_books: int,
               revoke_team: int | None = None) -> dict[str, Any]:
    """Score one hand from plain facts; the only place Bid Whist scoring lives.

    ``bid`` is in books over six, ``mode`` is ``uptown``, ``downtown`` or ``notrump``,
    ``declaring_books`` counts the books the declaring team took *including the kitty book*
    (1..13; 0..13 with ``kitty=none``, where there is no kitty book).  ``revoke_team`` (paper
    play only) is the team caught revoking: three books move from it to the other team before
    scoring (never more books than it has).

    Returns ``{"books": [b0, b1], "points": [p0, p1], "boston": bool, "made": bool}``.
    """
    if isinstance(bid, bool) or not isinstance(bid, int) or not rules.min_bid <= bid <= MAX_BID:
        raise WhistError(N_("a bid is from %(low)s to %(high)s books, not %(bid)r"),
                         low=rules.min_bid, high=MAX_BID, bid=bid)
    if mode not in MODES:
        raise WhistError(N_("the mode is uptown, downtown or notrump, not %(mode)r"), mode=mode)
    if declaring_team not in (0, 1) or isinstance(declaring_team, bool):
        raise WhistError(N_("a team is 0 or 1, not %(team)r"), team=declaring_team)
    least = 1 if rules.shape.kitty_size else 0  # the discards are the declaring team's book
    if (isinstance(declaring_books, bool) or not isinstance(declaring_books, int)
            or not least <= declaring_books <= BOOKS_PER_HAND):
        if least:
            raise WhistError(N_("the declaring team's books (the kitty book included) are "
                                "from 1 to 13, not %(books)r"), books=declaring_books)
        raise WhistError(N_("without a kitty the declaring team's books are from "
                            "%(low)s to %(high)s, not %(books)r"),
                         low=least, high=BOOKS_PER_HAND, books=declaring_books)
    if revoke_team is not None and (revoke_team not in (0, 1) or isinstance(revoke_team, bool)):
        raise WhistError(N_("a team is 0 or 1, not %(team)r"), team=revoke_team)

    books = [0, 0]
    books[declaring_team] = declaring_books
    books[1 - declaring_team] = BOOKS_PER_HAND - declaring_books
    if revoke_team is not None:
        moved = min(3, books[revoke_team])
        books[revoke_team] -= moved
        books[1 - revoke_team] += moved

    factor = 2 if mode == "notrump" and rules.notrump_double else 1
    taken = books[declaring_team]
    boston = taken == BOOKS_PER_HAND
    made = taken - 6 >= bid
    points = [0, 0]
    if boston:
        points[declaring_team] = (taken - 6) * factor * (2 if rules.boston == "double" else 1)
    elif made:
        points[declaring_team] = (taken - 6) * factor
    else:
        points[declaring_team] = -bid * factor
    if rules.defenders_score_books:
        points[1 - declaring_team] = max(0, books[1 - declaring_team] - 6) * factor
    return {"books": books, "points": points, "boston": boston, "made": made}


# -- precomputed tables --------------------------------------------------------------------------

SUIT_IDS = {s: i for i, s in enumerate("SHDC")}
NO_SUIT = 4  # a joker in notrump
_TRUMP_BASE = 100  # every trump outranks every side card

def trick_so_far(led: int, best: int, best_seat: int, suit: int, strength: int,
                 seat: int) -> tuple[int, int, int]:
    """Who wins a trick so far, once ``seat`` has played a card of suit group ``suit`` and
    ``strength``: the trick's ``(led, best, best_seat)`` after the card, from theirs before it,
    ``(-1, -1, -1)`` before the first card.  A notrump joker (``NO_SUIT``) follows nothing and
    never wins; when one is led, the next real card sets the suit.  The one rule of the trick for
    the engine (``BidWhistHand._play``) and the computer players' simulations
    (``computer.kernel.play``, Cutthroat's ``Playout``): Solo and Belgian Whist are the special
    case without jokers."""
    if led < 0:
        if suit == NO_SUIT:
            return -1, -1, -1
        return suit, strength, seat
    if strength > best and (strength >= _TRUMP_BASE or suit == led):
        return led, strength, seat
    return led, best, best_seat


PLAY_ACTIONS: tuple[str, ...] = tuple("play " + card for card in ALL_CARDS)
PLAY_INDEX: dict[str, int] = {action: i for i, action in enumerate(PLAY_ACTIONS)}

# mask -> sorted "play" actions by 9-bit chunks (legal_actions): six lookups beat a loop over
# the set bits
_CHUNK_TABLES = tuple(
    tuple(tuple(PLAY_ACTIONS[k * 9 + j] for j in range(9) if v >> j & 1 and k * 9 + j < 54)
          for v in range(512))
    for k in range(6)
)


BID_ACTIONS: dict[str, tuple[int, str]] = {
    f"bid {books} {mode}": (books, mode) for books in range(1, MAX_BID + 1) for mode in MODES
}
TRUMP_ACTIONS = {f"trump {s}": s for s in "SHDC"}
DIRECTION_ACTIONS = {f"direction {d}": d for d in DIRECTIONS}


def _mode_rank(mode: str, downtown_beats_uptown: bool) -> int:
    if mode == "notrump":
        return 2
    return 1 if mode == "downtown" and downtown_beats_uptown else 0


def _bid_rank(books: int, mode: str, downtown_beats_uptown: bool) -> int:
    return books * 3 + _mode_rank(mode, downtown_beats_uptown)


# The legal calls of an auction by (game, lowest bid, downtown beats uptown, the highest bid's
# rank, the dealer stuck): BidWhistHand._auction_legal.
_AUCTION_LEGAL: dict[tuple[str, int, bool, int, bool], tuple[str, ...]] = {}


def _strength(rank_value: int, downtown: bool, downtown_ace: str) -> int:
    """Higher is better within a suit: uptown A K ... 2; downtown A 2 ... K or 2 3 ... A."""
    if not downtown:
        return rank_value
    if downtown_ace == "high":
        return 14 if rank_value == 14 else 15 - rank_value
    return 16 - rank_value


_OrderTables = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
_ORDER_TABLES: dict[tuple[str | None, str | None, str, str], _OrderTables] = {}


def _order_tables(trump: str | None, direction: str | None, downtown_ace: str, side_suits: str
                  ) -> _OrderTables:
    """(strength per card index, effective suit id per card index, follow mask per suit id).

    Trumps get ``_TRUMP_BASE`` added; jokers are the top trumps in a trump hand and belong to
    no suit (``NO_SUIT``, strength 0, never winning) in notrump.
    """
    key = (trump, direction, downtown_ace, side_suits)
    tables = _ORDER_TABLES.get(key)
    if tables is not None:
        return tables
    strength, suit_id = [], []
    for index, suit in enumerate(CARD_SUIT):
        if suit is None:
            if trump is None:
                strength.append(0)
                suit_id.append(NO_SUIT)
            else:
                strength.append(_TRUMP_BASE + CARD_RANK[index])
                suit_id.append(SUIT_IDS[trump])
            continue
        is_trump = suit == trump
        downtown = direction == "downtown" and (
            trump is None or is_trump or side_suits == "reversed")
        value = _strength(CARD_RANK[index], downtown, downtown_ace)
        strength.append(value + (_TRUMP_BASE if is_trump else 0))
        suit_id.append(SUIT_IDS[suit])
    follow = tuple(cards.SUIT_MASK[s] | (JOKER_MASK if s == trump else 0) for s in "SHDC")
    tables = _ORDER_TABLES[key] = (tuple(strength), tuple(suit_id), follow)
    return tables


def card_order(rules: Rules, trump: str | None, direction: str, suit: str) -> list[str]:
    """The cards that may be played to a lead of ``suit``, best first (for docs and tests)."""
    strength, suit_id, _ = _order_tables(trump, direction, rules.downtown_ace,
                                         rules.downtown_side_suits)
    wanted, deck = SUIT_IDS[suit], rules.shape.deck_mask
    cards = [i for i in range(len(ALL_CARDS)) if suit_id[i] == wanted and deck >> i & 1]
    return [ALL_CARDS[i] for i in sorted(cards, key=lambda i: -strength[i])]


# -- deal ----------------------------------------------------------------------------------------


def _check_dealer(dealer: object) -> int:
    if isinstance(dealer, bool) or dealer not in (0, 1, 2, 3):
        raise DealError(N_("the dealer is seat 0, 1, 2 or 3, not %(dealer)r"), dealer=dealer)
    return dealer


def deal(rules: Rules, dealer: int, rng: random.Random) -> Deal:
    """Shuffle the deck of the house rule ``kitty``: ``hand_size`` cards to each seat and the
    rest to the kitty (``None`` with ``kitty=none``)."""
    _check_dealer(dealer)
    shape = rules.shape
    cards = list(shape.deck)
    rng.shuffle(cards)
    n = shape.hand_size
    return Deal(hands=[cards[0:n], cards[n:2 * n], cards[2 * n:3 * n], cards[3 * n:4 * n]],
                kitty=cards[4 * n:] if shape.kitty_size else None)


def _diagnose_deal(shape: KittyShape, hands: Any, kitty: Any) -> None:
    """Raise a DealError saying what is wrong with a deal that failed the fast check."""
    if not isinstance(hands, (list, tuple)) or len(hands) != 4:
        count = len(hands) if isinstance(hands, (list, tuple)) else 0
        raise DealError(N_("a Bid Whist deal has 4 hands, not %(count)s"), count=count)
    if kitty is None and shape.kitty_size:
        raise DealError(N_("a Bid Whist deal needs its %(expected)s-card kitty (house rule "
                           "kitty=%(shape)s)"), expected=shape.kitty_size, shape=shape.name)
    kitty = () if kitty is None else kitty
    for seat, hand in enumerate(hands):
        if not isinstance(hand, (list, tuple)) or len(hand) != shape.hand_size:
            count = len(hand) if isinstance(hand, (list, tuple)) else 0
            raise DealError(N_("seat %(seat)s has %(count)s cards; Bid Whist deals %(expected)s "
                               "to each seat (house rule kitty=%(shape)s)"),
                            seat=seat, count=count, expected=shape.hand_size, shape=shape.name)
    if not isinstance(kitty, (list, tuple)) or len(kitty) != shape.kitty_size:
        count = len(kitty) if isinstance(kitty, (list, tuple)) else 0
        if not shape.kitty_size:
            raise DealError(N_("the kitty has %(count)s cards; with house rule kitty=none "
                               "Bid Whist deals no kitty"), count=count)
        raise DealError(N_("the kitty has %(count)s cards; Bid Whist deals a %(expected)s-card "
                           "kitty (house rule kitty=%(shape)s)"),
                        count=count, expected=shape.kitty_size, shape=shape.name)
    seen: set[str] = set()
    for card in [*hands[0], *hands[1], *hands[2], *hands[3], *kitty]:
        if not isinstance(card, str) or card not in shape.deck_set:
            raise DealError(N_("%(card)r is not a card of the %(size)s-card Bid Whist deck "
                               "(house rule kitty=%(shape)s)"),
                            card=card, size=len(shape.deck), shape=shape.name)
        if card in seen:
            raise DealError(N_("%(card)s is dealt twice"), card=card)
        seen.add(card)
    raise DealError(N_("the deal is not the %(size)s-card Bid Whist deck"),
                    size=len(shape.deck))  # pragma: no cover


def new_hand(rules: Rules, dealer: int, hands: Any, kitty: Any = None) -> BidWhistHand:
    """Start a hand from dealt cards, refusing anything but the deal of the house rule
    ``kitty`` (4 x 12 cards and a kitty of 6, 4 or 5, or 4 x 13 and no kitty: ``None`` or
    empty) that together are its deck.  The order of the cards is kept as given."""
    _check_dealer(dealer)
    shape = rules.shape
    try:
        h0, h1, h2, h3 = hands
        dealt = (tuple(h0), tuple(h1), tuple(h2), tuple(h3))
        kitty_cards = () if kitty is None else tuple(kitty)
        n = shape.hand_size
        ok = (len(h0) == len(h1) == len(h2) == len(h3) == n
              and len(kitty_cards) == shape.kitty_size
              and set(dealt[0] + dealt[1] + dealt[2] + dealt[3] + kitty_cards) == shape.deck_set)
    except (TypeError, ValueError):
        ok = False
    if not ok:
        _diagnose_deal(shape, hands, kitty)
    bit = CARD_BIT.__getitem__
    masks = [sum(map(bit, hand)) for hand in dealt]
    return BidWhistHand(rules, dealer, dealt, kitty_cards, masks, sum(map(bit, kitty_cards)))


# -- the hand ------------------------------------------------------------------------------------


class BidWhistHand(HandState):
    """One hand of Bid Whist, from the auction to the last trick (see the module docstring)."""

    game: ClassVar[str] = GAME
    # What a variant of the game (Cutthroat: three seats, each for themselves, bids in
    # tricks) sets for the auction, the result and its refusals.
    seats: ClassVar[int] = SEATS
    sides: ClassVar[int] = 2  # who scores: the two teams
    next_seat: ClassVar[tuple[int, ...]] = (1, 2, 3, 0)  # the seat to the left (clockwise)
    bid_actions: ClassVar[dict[str, tuple[int, str]]] = BID_ACTIONS
    max_bid: ClassVar[int] = MAX_BID
    not_a_seat: ClassVar[str] = N_(
        "a seat is 0, 1, 2 or 3, or none for a spectator, not %(seat)r")
    not_a_bid: ClassVar[str] = N_(
        "a bid is 'bid N uptown', 'bid N downtown' or 'bid N notrump' with N from %(low)s to "
        "%(high)s")
    bid_too_low: ClassVar[str] = N_(
        "%(bid)r does not beat the highest bid, %(high)r: bid more books, or notrump at the "
        "same number")

    __slots__ = (
        "rules", "dealer", "phase", "to_act", "history", "dealt", "kitty", "_hands", "_kitty_mask",
        "_calls", "_high_rank", "declarer", "bid", "mode", "_discards", "trump", "direction",
        "leader", "_trick", "_led", "_best", "_best_seat", "_tricks", "tricks_won", "_legal",
        "_strength", "_suit_id", "_follow", "_shape", "_last_trick", "dealt_hands", "dealt_kitty",
    )
    rules: Rules

    def __init__(self, rules: Rules, dealer: int, dealt: tuple[tuple[str, ...], ...],
                 kitty: tuple[str, ...], masks: list[int], kitty_mask: int):
        self.rules = rules
        self.dealer = dealer
        self.phase = AUCTION
        self.to_act: int | None = (dealer + 1) & 3
        self.history: list[tuple[int, str]] = []
        self.dealt = dealt
        self.kitty = kitty
        self._hands = masks
        self._kitty_mask = kitty_mask
        self._calls: list[tuple[int, str]] = []  # the public auction
        self._high_rank = -1
        self.declarer: int | None = None
        self.bid: int | None = None
        self.mode: str | None = None
        self._discards = 0
        self.trump: str | None = None
        self.direction: str | None = None
        self.leader: int | None = None
        self._trick: list[tuple[int, int]] = []  # (seat, card index) of the current trick
        self._led = -1  # suit id to follow; -1 while unset (notrump joker lead)
        self._best = -1
        self._best_seat = -1
        self._tricks: list[tuple[int, list[tuple[int, int]], int]] = []
        self.tricks_won = [0, 0, 0, 0]
        self._legal = -1  # cached legal card mask in the play, -1 = stale
        self._strength: tuple[int, ...] = ()
        self._suit_id: tuple[int, ...] = ()
        self._follow: tuple[int, ...] = ()
        self._shape = rules.shape
        self._last_trick = self._shape.tricks  # the hand ends with this trick
        self.dealt_hands = dealt  # the hands as dealt, in the order given (what a record stores)
        # None with kitty=none: a record then has no kitty
        self.dealt_kitty = kitty if self._shape.kitty_size else None

    def copy(self) -> Self:
        cls = type(self)  # a Cutthroat hand copies as one
        other = cls.__new__(cls)
        for name in BidWhistHand.__slots__:
            setattr(other, name, getattr(self, name))
        other.history = self.history.copy()
        other._hands = self._hands.copy()
        other._calls = self._calls.copy()
        other._trick = self._trick.copy()
        other._tricks = self._tricks.copy()
        other.tricks_won = self.tricks_won.copy()
        return other

    # -- legal actions ---------------------------------------------------------------------------

    def _legal_play_mask(self) -> int:
        hand = self._hands[self.to_act]  # type: ignore[index]
        if not self._trick or self._led < 0:
            return hand
        return hand & self._follow[self._led] or hand

    def _stuck(self) -> bool:
        return (self.rules.all_pass == "stuck_dealer" and self.to_act == self.dealer
                and self._high_rank < 0)

    def legal_actions(self) -> list[str]:
        phase = self.phase
        if phase == PLAY:  # the hot path of every search: inlined
            mask = self._legal
            if mask < 0:
                mask = self._legal = self._legal_play_mask()
            t0, t1, t2, t3, t4, t5 = _CHUNK_TABLES
            return [*t0[mask & 511], *t1[mask >> 9 & 511], *t2[mask >> 18 & 511],
                    *t3[mask >> 27 & 511], *t4[mask >> 36 & 511], *t5[mask >> 45]]
        if phase == AUCTION:
            return list(self._auction_legal())
        if phase == DISCARD:
            # already sorted: fixed-width card strings combined in sorted order
            cards = cards_of(self._hands[self.declarer])  # type: ignore[index]
            count = self._shape.kitty_size
            return ["discard " + " ".join(combo) for combo in combinations(cards, count)]
        if phase == DECLARE:
            return sorted(DIRECTION_ACTIONS if self.mode == "notrump" else TRUMP_ACTIONS)
        return []

    def _auction_legal(self) -> tuple[str, ...]:
        rules = self.rules
        key = (self.game, rules.min_bid, rules.downtown_beats_uptown, self._high_rank,
               self._stuck())
        legal = _AUCTION_LEGAL.get(key)
        if legal is None:
            _game, min_bid, dtbu, high_rank, stuck = key
            bids = [a for a, (number, mode) in self.bid_actions.items()
                    if number >= min_bid and _bid_rank(number, mode, dtbu) > high_rank]
            legal = _AUCTION_LEGAL[key] = tuple(sorted(bids if stuck else [*bids, "pass"]))
        return legal

    def random_action(self, rng: random.Random) -> str:
        if self.phase == PLAY:
            # rng.choice(self.legal_actions()) without building the list: the same draw
            # (randrange(n) is choice's draw), then the n-th set bit (bits are in sorted order)
            mask = self._legal
            if mask < 0:
                mask = self._legal = self._legal_play_mask()
            for _ in range(rng.randrange(mask.bit_count())):
                mask &= mask - 1
            return PLAY_ACTIONS[(mask & -mask).bit_length() - 1]
        if self.phase == DISCARD:  # a uniform choice without listing them all (18,564 of 6)
            cards = rng.sample(cards_of(self._hands[self.declarer]),  # type: ignore[index]
                               self._shape.kitty_size)
            return "discard " + " ".join(sorted(cards))
        legal = self.legal_actions()
        if not legal:
            raise IllegalAction(None, None, N_("the hand is over: no more actions"))
        return rng.choice(legal)

    # -- apply -----------------------------------------------------------------------------------

    def apply(self, action: str, seat: int | None = None) -> None:
        """Apply ``to_act``'s action.  ``seat``, when given, must be ``to_act`` (a record's or a
        client's claim of who is acting)."""
        if seat is not None and seat != self.to_act:
            self._refuse_turn(action, seat)
        if self.phase == PLAY:
            index = PLAY_INDEX.get(action) if type(action) is str else None
            if index is None:
                self._refuse(action)
            mask = self._legal
            if mask < 0:
                mask = self._legal_play_mask()
            bit = 1 << index
            if not mask & bit:
                self._refuse(action)
            self._play(index, bit)
        elif self.phase == AUCTION:
            self._apply_call(action)
        elif self.phase == DISCARD:
            self._apply_discard(action)
        elif self.phase == DECLARE:
            self._apply_declare(action)
        else:
            self._refuse(action)

    def _play(self, index: int, bit: int) -> None:
        seat: int = self.to_act  # type: ignore[assignment]
        self._hands[seat] ^= bit
        self._legal = -1
        self.history.append((seat, PLAY_ACTIONS[index]))
        trick = self._trick
        trick.append((seat, index))
        strength = self._strength[index]
        suit = self._suit_id[index]
        count = len(trick)
        self._led, self._best, self._best_seat = trick_so_far(
            self._led if count > 1 else -1, self._best, self._best_seat, suit, strength, seat)
        if count < self.seats:
            self.to_act = self.next_seat[seat]
            return
        winner = self._best_seat
        self.tricks_won[winner] += 1
        tricks = self._tricks
        tricks.append((self.leader, trick, winner))  # type: ignore[arg-type]
        self._trick = []  # a new list: finished tricks are never mutated, so copies share them
        self.leader = winner
        if len(tricks) == self._last_trick:
            self.phase = COMPLETE
            self.to_act = None
        else:
            self.to_act = winner

    def _apply_call(self, action: str) -> None:
        seat: int = self.to_act  # type: ignore[assignment]
        rules = self.rules
        if action == "pass":
            if self._stuck():
                self._refuse(action)
        else:
            parsed = self.bid_actions.get(action) if type(action) is str else None
            if parsed is None or parsed[0] < rules.min_bid:
                self._refuse(action)
            rank = _bid_rank(parsed[0], parsed[1], rules.downtown_beats_uptown)
            if rank <= self._high_rank:
                self._refuse(action)
            self._high_rank = rank
            self.declarer, self.bid, self.mode = seat, parsed[0], parsed[1]
        self._calls.append((seat, action))
        self.history.append((seat, action))
        if len(self._calls) < self.seats:  # one round: every seat calls once
            self.to_act = (seat + 1) % self.seats
        elif self.declarer is None:  # all passed: redeal
            self.phase = COMPLETE
            self.to_act = None
        elif self._shape.kitty_size:
            self._hands[self.declarer] |= self._kitty_mask
            self.phase = DISCARD
            self.to_act = self.declarer
        else:  # kitty=none: nothing to take or discard
            self.phase = DECLARE
            self.to_act = self.declarer

    def _apply_discard(self, action: str) -> None:
        discards = self._discard_mask(action)
        if discards is None:
            self._refuse(action)
        seat: int = self.to_act  # type: ignore[assignment]
        self._hands[seat] &= ~discards
        self._discards = discards
        self.history.append((seat, "discard " + " ".join(cards_of(discards))))
        self.phase = DECLARE

    def _discard_mask(self, action: object) -> int | None:
        if type(action) is not str:
            return None
        words = action.split()
        if len(words) != self._shape.kitty_size + 1 or words[0] != "discard":
            return None
        mask = 0
        for card in words[1:]:
            bit = CARD_BIT.get(card, 0)
            if not bit or mask & bit:
                return None
            mask |= bit
        if mask & ~self._hands[self.to_act]:  # type: ignore[index]
            return None
        return mask

    def _apply_declare(self, action: str) -> None:
        if self.mode == "notrump":
            direction = DIRECTION_ACTIONS.get(action) if type(action) is str else None
            if direction is None:
                self._refuse(action)
            trump = None
        else:
            trump = TRUMP_ACTIONS.get(action) if type(action) is str else None
            if trump is None:
                self._refuse(action)
            direction = self.mode
        rules = self.rules
        self._strength, self._suit_id, self._follow = _order_tables(
            trump, direction, rules.downtown_ace, rules.downtown_side_suits)
        self.trump, self.direction = trump, direction
        self.history.append((self.to_act, action))  # type: ignore[arg-type]
        self.phase = PLAY
        self.leader = self.declarer
        self._legal = -1

    # -- refusals (the slow path: say exactly what is wrong) -------------------------------------

    def _refuse_turn(self, action: object, seat: int) -> NoReturn:
        if self.phase == COMPLETE:
            raise IllegalAction(seat, action, N_("the hand is over: no more actions"))
        raise IllegalAction(seat, action, N_("it is seat %(to_act)s's turn, not seat %(seat)s's"),
                            to_act=self.to_act, seat=seat)

    def _refuse(self, action: object) -> NoReturn:
        seat = self.to_act
        if not isinstance(action, str):
            raise IllegalAction(seat, action, N_(
                "an action is a text such as 'pass', 'bid 4 uptown' or 'play AS'"))
        if self.phase == COMPLETE:
            raise IllegalAction(seat, action, N_("the hand is over: no more actions"))
        words = action.split()
        verb = words[0] if words else ""
        expected = {AUCTION: ("pass", "bid"), DISCARD: ("discard",), PLAY: ("play",),
                    DECLARE: ("trump", "direction")}[self.phase]
        if verb not in ("pass", "bid", "discard", "trump", "direction", "play"):
            if not self._shape.kitty_size:
                raise IllegalAction(seat, action, N_(
                    "%(action)r is not a Bid Whist action: pass, bid N uptown|downtown|notrump, "
                    "trump S|H|D|C, direction uptown|downtown or play C"), action=action)
            raise IllegalAction(seat, action, N_(
                "%(action)r is not a Bid Whist action: pass, bid N uptown|downtown|notrump, "
                "%(discard)s, trump S|H|D|C, direction uptown|downtown or play C"),
                action=action, discard=self._discard_pattern())
        if verb == "discard" and not self._shape.kitty_size:
            raise IllegalAction(seat, action, N_(
                "there is no kitty (house rule kitty=none): nothing is discarded"))
        if verb not in expected:
            self._refuse_phase(action)
        getattr(self, "_refuse_" + verb)(action, words)
        raise IllegalAction(seat, action, N_("%(action)r is not a legal action now"),
                            action=action)  # pragma: no cover

    def _refuse_phase(self, action: str) -> NoReturn:
        seat = self.to_act
        if self.phase == AUCTION:
            template = N_("the auction is on: seat %(seat)s must pass or bid")
        elif self.phase == DISCARD:
            raise IllegalAction(seat, action, N_(
                "seat %(seat)s must first discard %(count)s cards (%(pattern)s)"),
                seat=seat, count=self._shape.kitty_size, pattern=self._discard_pattern())
        elif self.phase == DECLARE and self.mode == "notrump":
            template = N_("seat %(seat)s must first name the direction "
                          "(direction uptown or direction downtown)")
        elif self.phase == DECLARE:
            template = N_("seat %(seat)s must first name trumps (trump S, H, D or C)")
        else:
            template = N_("the cards are being played: seat %(seat)s must play a card (play C)")
        raise IllegalAction(seat, action, template, seat=seat)

    def _discard_pattern(self) -> str:
        """The discard action's shape for this kitty, e.g. ``discard C C C C``."""
        return " ".join(["discard"] + ["C"] * self._shape.kitty_size)

    def _refuse_pass(self, action: str, words: list[str]) -> None:
        seat = self.to_act
        if action != "pass":
            raise IllegalAction(seat, action, N_("to pass, say just 'pass'"))
        raise IllegalAction(seat, action, N_(
            "all the others passed: the dealer is stuck and must bid at least %(min_bid)s"),
            min_bid=self.rules.min_bid)

    def _refuse_bid(self, action: str, words: list[str]) -> None:
        seat, rules = self.to_act, self.rules
        parsed = self.bid_actions.get(action)
        if parsed is None or parsed[0] < rules.min_bid:
            raise IllegalAction(seat, action, self.not_a_bid, low=rules.min_bid,
                                high=self.max_bid)
        high = next(a for s, a in reversed(self._calls) if a != "pass")
        raise IllegalAction(seat, action, self.bid_too_low, bid=action, high=high)

    def _refuse_discard(self, action: str, words: list[str]) -> None:
        seat = self.to_act
        cards = words[1:]
        expected = self._shape.kitty_size
        if words[0] != "discard" or len(cards) != expected:
            raise IllegalAction(seat, action, N_("discard exactly %(expected)s cards, not "
                                                 "%(count)s"), expected=expected, count=len(cards))
        seen: set[str] = set()
        for card in cards:
            if card not in CARD_BIT:
                raise IllegalAction(seat, action, N_("%(card)r is not a card"), card=card)
            if card in seen:
                raise IllegalAction(seat, action, N_("%(card)s is listed twice"), card=card)
            seen.add(card)
        for card in cards:
            if not CARD_BIT[card] & self._hands[seat]:  # type: ignore[index]
                raise IllegalAction(seat, action, N_("seat %(seat)s does not hold %(card)s"),
                                    seat=seat, card=card)

    def _refuse_trump(self, action: str, words: list[str]) -> None:
        seat = self.to_act
        if self.mode == "notrump":
            self._refuse_phase(action)
        raise IllegalAction(seat, action, N_("trumps are named 'trump S', 'trump H', 'trump D' "
                                             "or 'trump C'"))

    def _refuse_direction(self, action: str, words: list[str]) -> None:
        seat = self.to_act
        if self.mode != "notrump":
            self._refuse_phase(action)
        raise IllegalAction(seat, action, N_("the direction is 'direction uptown' or "
                                             "'direction downtown'"))

    def _refuse_play(self, action: str, words: list[str]) -> None:
        seat: int = self.to_act  # type: ignore[assignment]
        if len(words) != 2 or action not in PLAY_INDEX:
            raise IllegalAction(seat, action, N_("%(card)r is not a card: play one card, e.g. "
                                                 "'play AS'"), card=" ".join(words[1:]))
        card = words[1]
        if not CARD_BIT[card] & self._shape.deck_mask:
            raise IllegalAction(seat, action, N_(
                "%(card)s is not in the %(size)s-card deck of house rule kitty=%(shape)s"),
                card=card, size=len(self._shape.deck), shape=self._shape.name)
        if not CARD_BIT[card] & self._hands[seat]:
            raise IllegalAction(seat, action, N_("seat %(seat)s does not hold %(card)s"),
                                seat=seat, card=card)
        led = "trumps" if self.trump is not None and self._led == SUIT_IDS[self.trump] else \
            cards.SUIT_NAMES["SHDC"[self._led]]
        if card in ("BJ", "LJ"):
            raise IllegalAction(seat, action, N_(
                "in notrump a joker may be played only when void in the suit led: seat %(seat)s "
                "must follow %(suit)s"), seat=seat, suit=led)
        raise IllegalAction(seat, action, N_("seat %(seat)s must follow %(suit)s"),
                            seat=seat, suit=led)

    # -- views and result ------------------------------------------------------------------------

    def books(self) -> list[int]:
        """Books per team so far: tricks won, plus the discards for the declaring team."""
        won = self.tricks_won
        books = [won[0] + won[2], won[1] + won[3]]
        if self._discards:
            books[team_of(self.declarer)] += 1  # type: ignore[arg-type]
        return books

    def view(self, seat: int | None) -> HandView:
        if seat is not None and (isinstance(seat, bool) or seat not in range(self.seats)):
            raise WhistError(self.not_a_seat, seat=seat)
        complete = self.phase == COMPLETE
        contract = None
        if self.declarer is not None and self.phase != AUCTION:
            contract = {"declarer": self.declarer, "bid": self.bid, "mode": self.mode}
        out: HandView = {
            "game": self.game, "seat": seat, "dealer": self.dealer, "phase": self.phase,
            "to_act": self.to_act,
            "hand_sizes": [h.bit_count() for h in self._hands],
            "auction": [{"seat": s, "action": a} for s, a in self._calls],
            "contract": contract,
            "trump": self.trump,
            "direction": self.direction,
            "leader": self.leader,
            "trick": [{"seat": s, "card": ALL_CARDS[i]} for s, i in self._trick],
            "tricks": [{"leader": lead, "winner": winner,
                        "cards": [{"seat": s, "card": ALL_CARDS[i]} for s, i in cards]}
                       for lead, cards, winner in self._tricks],
            "tricks_won": list(self.tricks_won),
            "books": self.books(),
        }
        if seat is not None:
            out["hand"] = cards.sort_for_display(cards_of(self._hands[seat]))
        declarer_sees = seat is not None and seat == self.declarer and self.phase != AUCTION
        if self.kitty and (self.rules.kitty_shown or declarer_sees or complete):
            out["kitty"] = list(self.kitty)  # never with kitty=none: there is none
        if self._discards and (declarer_sees or complete):
            out["discards"] = cards_of(self._discards)
        if seat is not None and seat == self.to_act:
            if self.phase == DISCARD:
                # up to 18,564 legal discards: say how many cards to choose, not list them
                out["discard_count"] = self._shape.kitty_size
            else:
                out["legal"] = self.legal_actions()
        if complete:
            out["result"] = self.result()
            out["deal"] = [list(hand) for hand in self.dealt]
        return out

    def result(self) -> dict[str, Any]:
        if self.phase == DISCARD:  # as in the view: the count, not thousands of discards
            return {"complete": False, "phase": self.phase, "to_act": self.to_act,
                    "discard_count": self._shape.kitty_size}
        if self.phase != COMPLETE:
            return {"complete": False, "phase": self.phase, "to_act": self.to_act,
                    "legal": self.legal_actions()}
        if self.declarer is None:
            return {"complete": True, "redeal": True, "points": [0] * self.sides}
        out = {"complete": True, "declarer": self.declarer, "bid": f"{self.bid} {self.mode}",
               "trump": self.trump}
        if self.trump is None:
            out["direction"] = self.direction
        out.update(self._score())
        return out

    def _score(self) -> dict[str, Any]:
        """What a played hand's result adds to its contract: the books and points of each
        team, and whether it was a Boston."""
        declaring_team = team_of(self.declarer)  # type: ignore[arg-type]
        score = score_hand(self.rules, self.bid, self.mode, declaring_team,  # type: ignore[arg-type]
                           self.books()[declaring_team])
        return {"books": score["books"], "points": score["points"], "boston": score["boston"]}


# -- the match -----------------------------------------------------------------------------------


class Match(Chain):
    """Hands chained into a match: the dealer moves left every hand (an all-pass redeal too),
    running team scores, and the end at +game_target, -game_target or a Boston."""

    rules: Rules
    hand_type: ClassVar[type[HandState]] = BidWhistHand
    seats: ClassVar[int] = SEATS
    sides: ClassVar[int] = 2  # the two teams
    counted: ClassVar[str] = "points"
    counted_types: ClassVar[tuple[type, ...]] = (int,)
    over: ClassVar[str] = N_("the match is over")
    wrong_dealer: ClassVar[str] = N_("seat %(next)s must deal this hand, not seat %(dealer)s")
    missing: ClassVar[str] = N_("a hand's result needs its points for both teams")
    wrong_hand: ClassVar[str] = N_("only a Bid Whist hand can be added to a Bid Whist match")
    other_rules: ClassVar[str] = N_(
        "this hand was played under other house rules than the match")

    def __init__(self, rules: Rules, first_dealer: int = 0):
        super().__init__(rules, self._check_first_dealer(first_dealer))
        self.scores = [0] * self.sides
        self.winner: int | None = None

    @staticmethod
    def _check_first_dealer(dealer: object) -> int:
        return _check_dealer(dealer)

    @property
    def complete(self) -> bool:
        return self.winner is not None

    def _count(self, result: dict[str, Any], values: list[Any]) -> None:
        if result.get("boston") and result.get("declarer") not in (0, 1, 2, 3):
            raise WhistError(N_("a Boston's result needs its declarer"))
        self.scores = [score + points for score, points in zip(self.scores, values, strict=True)]
        self.winner = self._winner(result)

    def _winner(self, result: dict[str, Any]) -> int | None:
        """The winning team once the match is over, else None."""
        target = self.rules.game_target
        low = [team for team in (0, 1) if self.scores[team] <= -target]
        high = [team for team in (0, 1) if self.scores[team] >= target]
        if result.get("boston") and self.rules.boston == "wins_game":
            return team_of(result["declarer"])
        if low:  # falling to -target is settled before reaching +target
            return 1 - low[0] if len(low) == 1 else max((0, 1), key=self.scores.__getitem__)
        if high:
            return max(high, key=self.scores.__getitem__)
        return None

    def _totals(self) -> dict[str, Any]:
        return {"scores": list(self.scores)}

    def _outcome(self) -> dict[str, Any]:
        return {"winner": self.winner}


CHAIN = Match  # the engine contract's name for it (games.rules.base.GameModule)
