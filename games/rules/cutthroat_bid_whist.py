"""Cutthroat Bid Whist: three players, each for themselves (every rule and
ruling in docs/rules/cutthroat_bid_whist.md).

Seats 0, 1, 2 clockwise.  54 cards (52 + ``BJ``/``LJ``): 17 to each seat and a 3-card kitty.
One round of bidding from left of the dealer; a bid names a number of tricks out of 18 (the 17
played and the discards) and a mode.  The highest bidder (the declarer) takes the kitty,
discards three cards (the declarer's first trick), names trumps (uptown/downtown bids) or the
direction (notrump bids), and leads.  Only the declarer scores; first to 30 points wins.

Phases, in order::

    "auction"  -> each seat in turn: ``pass`` or ``bid N uptown|downtown|notrump``
    "discard"  -> the declarer: ``discard C C C`` (any order; stored sorted)
    "declare"  -> the declarer: ``trump S|H|D|C`` or, for notrump, ``direction uptown|downtown``
    "play"     -> ``play C``, seventeen tricks of three cards
    "complete" -> nothing more (also straight after an all-pass auction with ``all_pass=redeal``)

The hand is the four-player game's (:class:`.bid_whist.BidWhistHand`, subclassed: the card
order, the jokers, the discards, the follow-suit checks and most refusals are its own) with
what depends on the number of seats and on bids in tricks changed here.  Like it, cards are
bits of an int and the legal cards are cached as a mask until the next ``apply``.  Scoring
lives only in :func:`score_hand`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, NoReturn

from . import bid_whist
from .base import Deal, HandState
from .bid_whist import (
    MODES,
    BidWhistHand,
    all_pass_rule,
    downtown_ace_rule,
    downtown_beats_uptown_rule,
    downtown_side_suits_rule,
    kitty_shown_rule,
    notrump_double_rule,
)
from .cards import CARD_BIT, JOKER_DECK
from .errors import N_, DealError, WhistError
from .house_rules import BaseRules, rule

GAME = "cutthroat_bid_whist"
SEATS = 3

HAND_SIZE = 17
KITTY_SIZE = 3
TRICKS_PER_HAND = 17  # played
TRICKS_IN_ALL = TRICKS_PER_HAND + 1  # the discards are the declarer's first trick
FAIR_SHARE = TRICKS_IN_ALL // SEATS  # 6: the floor of min_bid (a bid promises more)
MAX_BID = TRICKS_IN_ALL

AUCTION, DISCARD, DECLARE, PLAY, COMPLETE = "auction", "discard", "declare", "play", "complete"
_NEXT = (1, 2, 0)  # the seat to the left (clockwise)


@dataclass(frozen=True)
class Rules(BaseRules):
    """Cutthroat Bid Whist house rules; the four-player game's where they make sense."""

    GAME: ClassVar[str] = GAME

    kitty_shown: bool = kitty_shown_rule()
    min_bid: int = rule(
        9, "The lowest bid allowed, in tricks out of 18 (the discards count as one trick).",
        label=N_("Lowest bid"), minimum=FAIR_SHARE, maximum=MAX_BID)
    downtown_beats_uptown: bool = downtown_beats_uptown_rule()
    all_pass: str = all_pass_rule(N_("When all three pass"))
    downtown_ace: str = downtown_ace_rule()
    downtown_side_suits: str = downtown_side_suits_rule()
    notrump_double: bool = notrump_double_rule()
    game_target: int = rule(
        30, "The first player to reach this score wins the match.", label=N_("Score to win"),
        minimum=1, maximum=1000)

    @property
    def shape(self) -> CutthroatShape:
        """The deal (3 x 17 and a kitty of 3), in the form the four-player hand reads it."""
        return SHAPE


# -- the pure scoring function -------------------------------------------------------------------


def score_hand(rules: Rules, bid: int, mode: str, declarer: int, declarer_tricks: int
               ) -> dict[str, Any]:
    """Score one hand from plain facts; the only place Cutthroat Bid Whist scoring lives.

    ``bid`` is in tricks (``min_bid``..18), ``mode`` is ``uptown``, ``downtown`` or
    ``notrump``, ``declarer`` the seat 0..2 that won the auction, ``declarer_tricks`` the
    tricks the declarer took *including the discards* (1..18).

    Made (tricks >= bid): the declarer scores every trick taken.  Set: the declarer scores
    minus the bid.  Notrump doubles both with ``notrump_double``.  The other two score nothing.
    Returns ``{"points": [p0, p1, p2], "made": bool}``.
    """
    if isinstance(bid, bool) or not isinstance(bid, int) or not rules.min_bid <= bid <= MAX_BID:
        raise WhistError(N_("a bid is from %(low)s to %(high)s tricks, not %(bid)r"),
                         low=rules.min_bid, high=MAX_BID, bid=bid)
    if mode not in MODES:
        raise WhistError(N_("the mode is uptown, downtown or notrump, not %(mode)r"), mode=mode)
    if isinstance(declarer, bool) or declarer not in (0, 1, 2):
        raise WhistError(N_("the declarer is seat 0, 1 or 2, not %(seat)r"), seat=declarer)
    if (isinstance(declarer_tricks, bool) or not isinstance(declarer_tricks, int)
            or not 1 <= declarer_tricks <= TRICKS_IN_ALL):
        raise WhistError(N_("the declarer's tricks (the discards included) are from 1 to "
                            "%(high)s, not %(tricks)r"), high=TRICKS_IN_ALL,
                         tricks=declarer_tricks)
    factor = 2 if mode == "notrump" and rules.notrump_double else 1
    made = declarer_tricks >= bid
    points = [0, 0, 0]
    points[declarer] = (declarer_tricks if made else -bid) * factor
    return {"points": points, "made": made}


# -- precomputed tables --------------------------------------------------------------------------

BID_ACTIONS: dict[str, tuple[int, str]] = {
    f"bid {tricks} {mode}": (tricks, mode)
    for tricks in range(FAIR_SHARE, MAX_BID + 1) for mode in MODES
}

# -- deal ----------------------------------------------------------------------------------------


def _check_dealer(dealer: object) -> int:
    if isinstance(dealer, bool) or dealer not in (0, 1, 2):
        raise DealError(N_("the dealer is seat 0, 1 or 2, not %(dealer)r"), dealer=dealer)
    return dealer


def deal(rules: Rules, dealer: int, rng: random.Random) -> Deal:
    """Shuffle the 54 cards: 17 to each seat and 3 to the kitty."""
    _check_dealer(dealer)
    cards = list(JOKER_DECK)
    rng.shuffle(cards)
    return Deal(hands=[cards[0:17], cards[17:34], cards[34:51]], kitty=cards[51:54])


_DECK_SET = frozenset(JOKER_DECK)


def _count(value: Any) -> int:
    return len(value) if isinstance(value, (list, tuple)) else 0


def _diagnose_deal(hands: Any, kitty: Any) -> NoReturn:
    """Raise a DealError saying what is wrong with a deal that failed the fast check."""
    if not isinstance(hands, (list, tuple)) or len(hands) != SEATS:
        raise DealError(N_("a Cutthroat Bid Whist deal has 3 hands, not %(count)s"),
                        count=_count(hands))
    if kitty is None:
        raise DealError(N_("a Cutthroat Bid Whist deal needs its 3-card kitty"))
    for seat, hand in enumerate(hands):
        if not isinstance(hand, (list, tuple)) or len(hand) != HAND_SIZE:
            raise DealError(N_("seat %(seat)s has %(count)s cards; Cutthroat Bid Whist deals 17 "
                               "to each seat"), seat=seat, count=_count(hand))
    if not isinstance(kitty, (list, tuple)) or len(kitty) != KITTY_SIZE:
        raise DealError(N_("the kitty has %(count)s cards; Cutthroat Bid Whist deals a 3-card "
                           "kitty"), count=_count(kitty))
    seen: set[str] = set()
    for card in [*hands[0], *hands[1], *hands[2], *kitty]:
        if not isinstance(card, str) or card not in _DECK_SET:
            raise DealError(N_("%(card)r is not a card of the Bid Whist deck"), card=card)
        if card in seen:
            raise DealError(N_("%(card)s is dealt twice"), card=card)
        seen.add(card)
    raise DealError(N_("the deal is not the 54-card Bid Whist deck"))  # pragma: no cover


def new_hand(rules: Rules, dealer: int, hands: Any, kitty: Any = None) -> CutthroatHand:
    """Start a hand from dealt cards, refusing anything but 3 x 17 cards and a 3-card kitty
    that together are the 54-card deck.  The order of the cards is kept as given."""
    _check_dealer(dealer)
    try:
        h0, h1, h2 = hands
        dealt = (tuple(h0), tuple(h1), tuple(h2))
        kitty_cards = tuple(kitty)
        ok = (len(h0) == len(h1) == len(h2) == HAND_SIZE and len(kitty_cards) == KITTY_SIZE
              and set(dealt[0] + dealt[1] + dealt[2] + kitty_cards) == _DECK_SET)
    except (TypeError, ValueError):
        ok = False
    if not ok:
        _diagnose_deal(hands, kitty)
    bit = CARD_BIT.__getitem__
    masks = [sum(map(bit, hand)) for hand in dealt]
    return CutthroatHand(rules, dealer, dealt, kitty_cards, masks, sum(map(bit, kitty_cards)))


# -- the hand ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CutthroatShape:
    """What the four-player hand reads of its kitty shape (``bid_whist.KittyShape``), for 3 x 17
    cards and a kitty of 3: the discards, the refusals and the dealt kitty follow it."""

    name: str = "cutthroat"
    deck: tuple[str, ...] = JOKER_DECK
    hand_size: int = HAND_SIZE
    kitty_size: int = KITTY_SIZE
    deck_mask: int = sum(CARD_BIT.values())

    @property
    def tricks(self) -> int:
        return self.hand_size


SHAPE = CutthroatShape()


class CutthroatHand(BidWhistHand):
    """One hand of Cutthroat Bid Whist, from the auction to the last trick.

    The four-player hand does the discards, the declaring, the follow-suit checks and most
    refusals; this class changes what depends on the number of seats (the turn, the trick of
    three, the auction's single round, per-seat tricks) and on bids in tricks out of 18.
    """

    # The four-player hand's class attributes (their types are declared there), for three.
    game = GAME
    seats = SEATS
    sides = SEATS  # every player for themself
    next_seat = _NEXT
    bid_actions = BID_ACTIONS
    max_bid = MAX_BID
    not_a_seat = N_("a seat is 0, 1 or 2, or none for a spectator, not %(seat)r")
    not_a_bid = N_(
        "a bid is 'bid N uptown', 'bid N downtown' or 'bid N notrump' with N tricks from "
        "%(low)s to %(high)s")
    bid_too_low = N_(
        "%(bid)r does not beat the highest bid, %(high)r: bid more tricks, or notrump at the "
        "same number")
    __slots__ = ()

    def __init__(self, rules: Rules, dealer: int, dealt: tuple[tuple[str, ...], ...],
                 kitty: tuple[str, ...], masks: list[int], kitty_mask: int):
        super().__init__(rules, dealer, dealt, kitty, masks, kitty_mask)  # type: ignore[arg-type]
        self.to_act = _NEXT[dealer]
        self.tricks_won = [0, 0, 0]

    # -- views and result ------------------------------------------------------------------------

    def books(self) -> list[int]:
        """Tricks per seat so far: tricks won, plus the discards for the declarer."""
        books = list(self.tricks_won)
        if self._discards:
            books[self.declarer] += 1  # type: ignore[index]
        return books

    def _score(self) -> dict[str, Any]:
        """What a played hand's result adds to its contract: the tricks of each seat (the
        declarer's with the discards), the points, and whether the bid was made."""
        books = self.books()
        score = score_hand(self.rules, self.bid, self.mode, self.declarer,  # type: ignore[arg-type]
                           books[self.declarer])  # type: ignore[index]
        return {"books": books, "points": score["points"], "made": score["made"]}


# -- the match -----------------------------------------------------------------------------------


class Match(bid_whist.Match):
    """Hands chained into a match: the dealer moves left every hand (an all-pass redeal too),
    running individual scores, and the end when one player alone has the highest score at or
    above ``game_target``."""

    rules: Rules  # type: ignore[assignment]
    hand_type: ClassVar[type[HandState]] = CutthroatHand
    seats: ClassVar[int] = SEATS
    sides: ClassVar[int] = SEATS  # every player for themself
    missing: ClassVar[str] = N_("a hand's result needs its points for all three players")
    wrong_hand: ClassVar[str] = N_("only a Cutthroat Bid Whist hand can be added to a Cutthroat "
                                   "Bid Whist match")

    def __init__(self, rules: Rules, first_dealer: int = 0):
        super().__init__(rules, first_dealer)  # type: ignore[arg-type]

    @staticmethod
    def _check_first_dealer(dealer: object) -> int:
        return _check_dealer(dealer)

    def _count(self, result: dict[str, Any], values: list[Any]) -> None:
        self.scores = [score + points for score, points in zip(self.scores, values, strict=True)]
        top = max(self.scores)
        if top >= self.rules.game_target and self.scores.count(top) == 1:
            self.winner = self.scores.index(top)


CHAIN = Match  # the engine contract's name for it (games.rules.base.GameModule)
