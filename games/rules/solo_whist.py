"""Solo Whist (docs/rules/solo_whist.md): the auction, the play and the settlement in units.

Phases of a :class:`SoloHand`:

* ``"auction"`` -- bidding from the player left of the dealer, clockwise.  Also the phase of the
  proposer's last word when a Prop found no partner and ``prop_alone_may_solo`` is on (the
  proposer is asked ``solo`` or ``pass``).
* ``"declare"`` -- the declarer names trumps (``trump S|H|D|C``): Abundance, Abundance Declared,
  and every trump contract when the table plays without a turn-up.
* ``"play"`` -- ``play C``; play stops as soon as the result is certain.
* ``"complete"`` -- played out, or abandoned (all passed, or a Prop nobody accepted).

Rulings where the rules are silent are written in docs/rules/solo_whist.md.  :func:`score_hand`
is the one place units are computed; the leagues app calls it for paper score sheets.

Speed: a hand keeps each seat's unplayed cards as a bitmask (cards.py), looks actions up in
precomputed tables, and caches its legal list until the next ``apply``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from . import cards
from .base import Chain, Deal, HandState, HandView
from .cards import ALL_CARDS, CARD_BIT, CARD_INDEX, CARD_RANK, JOKERS, STANDARD_DECK, SUIT_MASK
from .errors import N_, DealError, IllegalAction, RulesError, WhistError
from .house_rules import BaseRules, rule

GAME = "solo_whist"
SEATS = 4  # the engine contract: how many seats a table of this game has

AUCTION, DECLARE, PLAY, COMPLETE = "auction", "declare", "play", "complete"
TRICKS_PER_HAND = 13
REVOKE_PENALTIES = ("lose_deal", "three_tricks")
REVOKE_TRICKS = 3  # the tricks a revoke costs under revoke_penalty "three_tricks"


@dataclass(frozen=True)
class Rules(BaseRules):
    """Solo Whist house rules (docs/rules/solo_whist.md)."""

    GAME: ClassVar[str] = GAME

    turn_up: bool = rule(
        True,
        "The dealer's last card is turned face up and its suit is trumps for Prop and Cop, Solo "
        "and Royal Abundance; when off, the declarer names trumps in every trump contract.",
        label=N_("The dealer's last card is turned up for trumps"),
    )
    prop_and_cop: bool = rule(
        True,
        "Prop and Cop, the partnership bid, is played; when off, every contract is played "
        "alone and nobody may say Prop or Cop.",
        label=N_("Prop and Cop is played"),
    )
    eldest_may_cop_after_pass: bool = rule(
        True,
        "The player left of the dealer may still accept (Cop) a Prop made after they passed "
        "(no effect without Prop and Cop).",
        label=N_("The player left of the dealer may Cop after passing"),
    )
    prop_alone_may_solo: bool = rule(
        False,
        "A Prop that nobody accepts may be played as a Solo by the proposer instead of being "
        "redealt (no effect without Prop and Cop).",
        label=N_("A Prop nobody accepts may be played as a Solo"),
    )
    overtricks: bool = rule(
        False,
        "Each defender pays or receives one more unit per trick over or under the goal in Prop "
        "and Cop, Solo, Abundance and Royal Abundance (those contracts then play all 13 tricks).",
        label=N_("Tricks over and under the goal are paid"),
    )
    stake_multiplier: float = rule(
        1,
        "Every stake is multiplied by this agreed number, greater than 0 (for example 5, or 0.1 "
        "for beginners).",
        label=N_("Stakes multiplied by"),
        kind=float,
    )
    revoke_penalty: str = rule(
        "lose_deal",
        "The penalty for a revoke (not following suit when able) on a paper score sheet: the "
        "revoking side loses the contract (when a defender revoked, the declaring side wins "
        "it), or three tricks count against the revoking side. Online play cannot revoke.",
        label=N_("Penalty for a revoke"),
        choices=REVOKE_PENALTIES, paper_only=True,
        choice_labels={"lose_deal": N_("the revoking side loses the contract"),
                       "three_tricks": N_("three tricks count against the revoking side")},
    )

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        multiplier = self.stake_multiplier
        if (isinstance(multiplier, bool) or not isinstance(multiplier, (int, float))
                or not math.isfinite(multiplier) or multiplier <= 0):
            raise RulesError(
                N_("house rule stake_multiplier: %(value)r is not a number greater than 0"),
                value=multiplier,
            )


# -- contracts -----------------------------------------------------------------------------------

# How a contract gets its trumps.
TRUMP_TURN_UP = "turn_up"  # the turn-up suit (named by the declarer when turn_up is off)
TRUMP_NONE = "none"
TRUMP_NAMED = "named"
TRUMP_NAMED_NOT_TURN_UP = "named_not_turn_up"


@dataclass(frozen=True)
class Contract:
    """One row of the contract table: the declaring side must take goal..most tricks."""

    name: str
    bid: str  # the auction action that bids it
    level: int  # auction order, higher beats lower
    stake: int  # units each (declaring player, defender) pair exchanges
    goal: int
    most: int
    trump: str
    pays_overtricks: bool

    def made_by(self, side_tricks: int) -> bool:
        return self.goal <= side_tricks <= self.most


CONTRACT_TABLE: tuple[Contract, ...] = (
    Contract("prop_and_cop", "prop", 1, 1, 8, 13, TRUMP_TURN_UP, True),
    Contract("solo", "solo", 2, 3, 5, 13, TRUMP_TURN_UP, True),
    Contract("misere", "misere", 3, 3, 0, 0, TRUMP_NONE, False),
    Contract("abundance", "abundance", 4, 5, 9, 13, TRUMP_NAMED_NOT_TURN_UP, True),
    Contract("royal_abundance", "royal_abundance", 5, 5, 9, 13, TRUMP_TURN_UP, True),
    Contract("spread_misere", "spread_misere", 6, 6, 0, 0, TRUMP_NONE, False),
    Contract("abundance_declared", "abundance_declared", 7, 8, 13, 13, TRUMP_NAMED, False),
)
CONTRACTS: dict[str, Contract] = {c.name: c for c in CONTRACT_TABLE}
CONTRACT_OF_BID: dict[str, Contract] = {c.bid: c for c in CONTRACT_TABLE}
PROP_AND_COP = CONTRACTS["prop_and_cop"]
SOLO = CONTRACTS["solo"]
NO_PROP_AND_COP = N_("this house plays without Prop and Cop: every contract is played alone")

AUCTION_ACTIONS: tuple[str, ...] = tuple(sorted([*CONTRACT_OF_BID, "cop", "pass"]))
TRUMP_ACTIONS: tuple[str, ...] = tuple(sorted("trump " + s for s in cards.SUITS))
_AUCTION_SET = frozenset(AUCTION_ACTIONS)
_TRUMP_SET = frozenset(TRUMP_ACTIONS)
GRAMMAR = ("pass, prop, cop, solo, misere, abundance, royal_abundance, spread_misere, "
           "abundance_declared, trump S|H|D|C, play <card> (e.g. play TD)")

# -- precomputed tables for the play ------------------------------------------------------------

NEXT_SEAT = (1, 2, 3, 0)
TRUMP_BONUS = 20  # added to a trump's rank so any trump beats any card of the led suit
STANDARD_SET = frozenset(STANDARD_DECK)

# "play AS" -> (card index, card bit, the card's suit mask, rank)
PLAY_INFO: dict[str, tuple[int, int, int, int]] = {
    "play " + card: (CARD_INDEX[card], CARD_BIT[card], SUIT_MASK[card[1]], CARD_RANK[CARD_INDEX[card]])
    for card in STANDARD_DECK
}

# The legal list of a mask is six table lookups: chunk k of 9 bits -> its "play" actions, sorted
# because bit order is string order (play_actions_of spells out the 9-bit shifts).
_CHUNK = 9
_PLAY_CHUNKS = tuple(
    tuple(
        tuple("play " + ALL_CARDS[k * _CHUNK + j] for j in range(_CHUNK)
              if value >> j & 1 and k * _CHUNK + j < len(ALL_CARDS) and
              ALL_CARDS[k * _CHUNK + j] not in JOKERS)
        for value in range(1 << _CHUNK)
    )
    for k in range(6)
)


def play_actions_of(mask: int) -> list[str]:
    """The sorted ``play C`` actions for the cards of ``mask``."""
    t0, t1, t2, t3, t4, t5 = _PLAY_CHUNKS
    return [*t0[mask & 511], *t1[mask >> 9 & 511], *t2[mask >> 18 & 511],
            *t3[mask >> 27 & 511], *t4[mask >> 36 & 511], *t5[mask >> 45 & 511]]


def _cards_of(mask: int) -> list[str]:
    return [action[5:] for action in play_actions_of(mask)]


# -- scoring -------------------------------------------------------------------------------------


def _as_number(value: Fraction | int) -> int | float:
    """Units as JSON numbers: an int when whole, else a float of the value rounded to 6 places."""
    return value.numerator if value.denominator == 1 else float(value)


def score_hand(rules: Rules, contract: str | None, declarer: int | None = None,
               partner: int | None = None, tricks: Sequence[int] = (0, 0, 0, 0),
               revoker: int | None = None) -> list[Any]:
    """Units won (+) and paid (-) by seats 0..3 for one hand.  Always sums to zero.

    ``contract`` is a name of :data:`CONTRACTS` (``"prop_and_cop"``, ``"solo"``, ...) or None
    for an abandoned hand (all zeros).  ``partner`` is the Cop of a Prop and Cop, else None.
    ``tricks`` are the tricks taken by each seat (fewer than 13 in all when play stopped early).
    ``revoker`` (paper play only: online play cannot revoke) is the seat caught revoking; the
    penalty is ``rules.revoke_penalty`` (see :func:`_revoked`).

    Every (declaring player, defender) pair exchanges the contract's stake, plus one unit per
    trick over or under the goal when ``rules.overtricks`` applies to the contract, times
    ``rules.stake_multiplier``.  With a fractional multiplier each pair's amount is rounded to
    6 decimal places, so the units stay exactly zero-sum as decimals.
    """
    if revoker is not None and (type(revoker) is not int or not 0 <= revoker <= 3):
        raise WhistError(N_("the revoke is by seat 0, 1, 2 or 3, not %(seat)r"), seat=revoker)
    if contract is None:
        if revoker is not None:
            raise WhistError(N_("an abandoned hand is not played, so nobody can revoke in it"))
        return [0, 0, 0, 0]
    c = CONTRACTS.get(contract) if isinstance(contract, str) else None
    if c is None:
        raise WhistError(N_("unknown contract %(contract)r (known: %(known)s)"),
                         contract=contract, known=", ".join(CONTRACTS))
    if not rules.turn_up and c.name == "royal_abundance":
        raise WhistError(N_("royal abundance is not played without a turn-up card"))
    if c is PROP_AND_COP and not rules.prop_and_cop:
        raise WhistError(NO_PROP_AND_COP)
    if type(declarer) is not int or not 0 <= declarer <= 3:
        raise WhistError(N_("the declarer must be seat 0, 1, 2 or 3, not %(seat)r"), seat=declarer)
    if c is PROP_AND_COP:
        if type(partner) is not int or not 0 <= partner <= 3 or partner == declarer:
            raise WhistError(N_("prop and cop needs a partner: a seat 0-3 other than the "
                                "declarer, not %(seat)r"), seat=partner)
    elif partner is not None:
        raise WhistError(N_("only prop and cop has a partner"))
    if (not isinstance(tricks, Sequence) or len(tricks) != 4
            or any(type(t) is not int or t < 0 for t in tricks) or sum(tricks) > TRICKS_PER_HAND):
        raise WhistError(N_("tricks must be 4 whole numbers, one per seat, at most 13 in all, "
                            "not %(tricks)r"), tricks=tricks)

    side = (declarer,) if partner is None else (declarer, partner)
    side_tricks = sum(tricks[s] for s in side)
    made = c.made_by(side_tricks)
    overtricks = rules.overtricks and c.pays_overtricks
    if revoker is not None:
        side_tricks, made, overtricks = _revoked(rules, c, revoker in side, side_tricks, made,
                                                 overtricks)
    per_pair: int | Fraction = c.stake
    if overtricks:
        per_pair += side_tricks - c.goal if made else c.goal - side_tricks
    if not made:
        per_pair = -per_pair
    multiplier = rules.stake_multiplier
    if type(multiplier) is int:
        per_pair *= multiplier
    else:
        per_pair = round(Fraction(per_pair) * Fraction(str(multiplier)), 6)
    defenders = 4 - len(side)
    units = [-per_pair * len(side)] * 4
    for s in side:
        units[s] = per_pair * defenders
    if type(per_pair) is int:
        return units
    return [_as_number(u) for u in units]


def _revoked(rules: Rules, c: Contract, declaring_side_revoked: bool, side_tricks: int,
             made: bool, overtricks: bool) -> tuple[int, bool, bool]:
    """The declaring side's tricks, made, and whether over/undertricks count, after a revoke.

    ``lose_deal``: the revoking side loses the contract.  A result that already went against
    the revoking side stands as played (over/undertricks included: a revoke never helps its
    side); otherwise it is turned round and settled at the bare stake, because the tricks of
    a revoked hand prove nothing.  ``three_tricks``: three tricks count against the revoking
    side, then the hand is scored as usual.  In a contract of tricks they move from the
    revoking side to the other; in Misère and Spread Misère, where each trick counts against
    the declarer, a declarer's revoke gives the declarer three more and a defender's revoke
    takes up to three away.  Only the side totals matter: the defenders hold every trick the
    declaring side did not take (a sheet writes the declaring side's tricks only), and never
    more tricks move than the giving side has.
    """
    if rules.revoke_penalty == "lose_deal":
        made_after = not declaring_side_revoked
        if made == made_after:
            return side_tricks, made, overtricks
        return side_tricks, made_after, False
    fewer = declaring_side_revoked == (c.goal > 0)  # the declaring side gives tricks away
    if fewer:
        side_tricks -= min(REVOKE_TRICKS, side_tricks)
    else:
        side_tricks += min(REVOKE_TRICKS, TRICKS_PER_HAND - side_tricks)
    return side_tricks, c.made_by(side_tricks), overtricks


# -- the deal ------------------------------------------------------------------------------------


def deal(rules: Rules, dealer: int, rng: random.Random) -> Deal:
    """13 cards each; the turn-up is ``hands[dealer][-1]``.  ``rng``: random.Random or SystemRandom.

    Sorting the deck on one random float per card is a uniform shuffle (ties have odds near
    2**-43) and runs in half the time of ``rng.shuffle``.
    """
    draw = rng.random
    deck = sorted(STANDARD_DECK, key=lambda _card: draw())
    return Deal(hands=[deck[0:13], deck[13:26], deck[26:39], deck[39:52]], kitty=None)


def _deal_problem(hands: Any) -> DealError | None:
    """The first thing wrong with ``hands`` as a Solo Whist deal, or None."""
    if not isinstance(hands, (list, tuple)) or len(hands) != 4:
        return DealError(N_("a Solo Whist deal is 4 hands of 13 cards"))
    seen: set[str] = set()
    for seat, hand in enumerate(hands):
        if not isinstance(hand, (list, tuple)) or len(hand) != 13:
            count = len(hand) if isinstance(hand, (list, tuple)) else 0
            return DealError(N_("seat %(seat)s has %(count)s cards; each player is dealt 13"),
                             seat=seat, count=count)
        for card in hand:
            if not isinstance(card, str) or card not in CARD_INDEX:
                return DealError(N_("seat %(seat)s: %(card)r is not a card"), seat=seat, card=card)
            if card in JOKERS:
                return DealError(N_("seat %(seat)s: Solo Whist is played without jokers (%(card)s)"),
                                 seat=seat, card=card)
            if card in seen:
                return DealError(N_("%(card)s is dealt twice"), card=card)
            seen.add(card)
    return None


def new_hand(rules: Rules, dealer: int, hands: Sequence[Sequence[str]],
             kitty: Sequence[str] | None = None) -> SoloHand:
    """Starts a hand from dealt cards (order kept as dealt); raises DealError on a bad deal."""
    if not isinstance(rules, Rules):
        raise RulesError(N_("these are not Solo Whist house rules"))
    if type(dealer) is not int or not 0 <= dealer <= 3:
        raise DealError(N_("the dealer must be seat 0, 1, 2 or 3, not %(dealer)r"), dealer=dealer)
    if kitty:
        raise DealError(N_("Solo Whist has no kitty"))
    try:  # the common case checked with set operations; the slow scan names the problem
        valid = (isinstance(hands, (list, tuple)) and len(hands) == 4
                 and all(isinstance(hand, (list, tuple)) and len(hand) == 13 for hand in hands))
        if valid:
            cards = [c for hand in hands for c in hand]
            valid = len(set(cards)) == 52 and STANDARD_SET.issuperset(cards)
    except TypeError:  # an unhashable "card"
        valid = False
    if not valid:
        raise _deal_problem(hands) or DealError(N_("a Solo Whist deal is 4 hands of 13 cards"))
    # 52 distinct cards: adding the bits of a hand is or-ing them
    masks = [sum(map(CARD_BIT.__getitem__, hand)) for hand in hands]
    return SoloHand(rules, dealer, [list(hand) for hand in hands], masks)


def _bids_legal(level: int, cop_open: bool, turn_up: bool, prop_and_cop: bool) -> tuple[str, ...]:
    """The legal auction actions of a seat still bidding, over a highest bid of ``level``."""
    legal = []
    for action in AUCTION_ACTIONS:
        if action == "cop":
            allowed = cop_open
        elif action == "pass":
            allowed = True
        else:
            contract = CONTRACT_OF_BID[action]
            allowed = (contract.level > level and (turn_up or contract.name != "royal_abundance")
                       and (prop_and_cop or contract is not PROP_AND_COP))
        if allowed:
            legal.append(action)
    return tuple(legal)


# (level of the highest bid, an unaccepted prop stands, turn_up, prop_and_cop) -> legal actions
_BIDS_LEGAL = {(level, cop_open, turn_up, prop_and_cop):
               _bids_legal(level, cop_open, turn_up, prop_and_cop)
               for level in range(len(CONTRACT_TABLE) + 1)
               for cop_open in (False, True) for turn_up in (False, True)
               for prop_and_cop in (False, True)}


# -- the hand ------------------------------------------------------------------------------------


class SoloHand(HandState):
    """One Solo Whist hand from the auction to the last card.  See the module docstring.

    ``apply(action, seat=None)``: when ``seat`` is given it must be ``to_act`` (the tables pass
    the acting seat so that an action out of turn is refused, not applied for someone else).
    ``legal_actions()`` returns a cached list: read it, do not change it.
    """

    game: ClassVar[str] = GAME
    dealt_kitty = None  # Solo Whist has none (records.record_of reads it)
    rules: Rules
    complete: bool  # a slot, kept up to date: read more often than the phase changes

    __slots__ = (
        "rules", "dealer", "dealt_hands", "turn_up", "turn_up_suit", "phase", "to_act", "complete",
        "history", "contract", "trump", "declarer", "partner", "redeal_reason",
        "_hands", "_legal", "_passed", "_auction", "_high", "_eldest_declined",
        "_proposer_choice", "_trump_mask", "_side", "_side_tricks", "_stop_early", "_leader",
        "_trick", "_led", "_best_key", "_best_seat", "_won", "_done",
    )

    def __init__(self, rules: Rules, dealer: int, dealt: list[list[str]], masks: list[int]):
        self.rules = rules
        self.dealer = dealer
        self.dealt_hands = dealt
        self.turn_up = dealt[dealer][-1] if rules.turn_up else None
        self.turn_up_suit = self.turn_up[1] if self.turn_up else None
        self.phase = AUCTION
        self.to_act = NEXT_SEAT[dealer]
        self.complete = False
        self.history: list[tuple[int, str]] = []
        self.contract: Contract | None = None
        self.trump: str | None = None
        self.declarer: int | None = None  # holder of the highest bid during the auction
        self.partner: int | None = None
        self.redeal_reason: str | None = None
        self._hands = masks
        self._legal: list[str] | None = None
        self._passed = [False, False, False, False]
        self._auction: list[tuple[int, str]] = []
        self._high: Contract | None = None
        self._eldest_declined = False
        self._proposer_choice = False
        self._trump_mask = 0
        self._side = 0
        self._side_tricks = 0
        self._stop_early = True
        self._leader: int | None = None
        self._trick: list[int] = []  # card indices; seat of the i-th is (leader + i) % 4
        self._led = 0
        self._best_key = 0
        self._best_seat = 0
        self._won = [0, 0, 0, 0]
        self._done: list[tuple[int, list[int], int]] = []  # (leader, card indices, winner)

    # -- the hot path ---------------------------------------------------------------------------

    def legal_actions(self) -> list[str]:
        legal = self._legal
        if legal is None:
            if self.phase == PLAY:
                hand = self._hands[self.to_act]  # type: ignore[index]  # a seat in the play
                if self._trick and hand & self._led:
                    hand &= self._led
                legal = play_actions_of(hand)
            else:
                legal = self._legal_outside_play()
            self._legal = legal
        return legal

    def apply(self, action: str, seat: int | None = None) -> None:
        if self.phase == PLAY:
            try:
                info = PLAY_INFO.get(action)
            except TypeError:  # unhashable junk: let the slow path name it
                info = None
            player: int = self.to_act  # type: ignore[assignment]  # a seat in the play
            if info is not None and (seat is None or seat == player):
                idx, bit, suit_mask, rank = info
                hand = self._hands[player]
                trick = self._trick
                if hand & bit and (not trick or suit_mask == self._led or not hand & self._led):
                    self._hands[player] = hand ^ bit
                    self.history.append((player, action))
                    self._legal = None
                    if trick:
                        if suit_mask == self._trump_mask:
                            key = rank + TRUMP_BONUS
                        elif suit_mask == self._led:
                            key = rank
                        else:
                            key = 0
                        if key > self._best_key:
                            self._best_key = key
                            self._best_seat = player
                        trick.append(idx)
                        if len(trick) == 4:
                            self._close_trick()
                            return
                    else:
                        self._led = suit_mask
                        self._best_key = rank + TRUMP_BONUS if suit_mask == self._trump_mask else rank
                        self._best_seat = player
                        trick.append(idx)
                    self.to_act = NEXT_SEAT[player]
                    return
        self._apply_slow(action, seat)

    def _close_trick(self) -> None:
        winner = self._best_seat
        self._won[winner] += 1
        self._done.append((self._leader, self._trick, winner))  # type: ignore[arg-type]
        self._trick = []
        if self._side >> winner & 1:
            self._side_tricks += 1
        remaining = TRICKS_PER_HAND - len(self._done)
        taken = self._side_tricks
        contract: Contract = self.contract  # type: ignore[assignment]  # set before the play
        if remaining == 0 or self._stop_early and (
                taken > contract.most or taken + remaining < contract.goal
                or contract.goal <= taken and taken + remaining <= contract.most):
            self._finish()
        else:
            self._leader = winner
            self.to_act = winner

    # -- everything else ------------------------------------------------------------------------

    def _apply_slow(self, action: object, seat: int | None) -> None:
        """Refuses with a reason, or applies an auction or declare action."""
        to_act: int = self.to_act  # type: ignore[assignment]  # None once complete: refused
        who = to_act if seat is None else seat
        if not isinstance(action, str):
            raise IllegalAction(who, action, N_("an action is a text such as 'pass' or "
                                                "'play AS'; Solo Whist actions: %(grammar)s"),
                                grammar=GRAMMAR)
        kind = self._kind_of(who, action)
        if self.phase == COMPLETE:
            raise IllegalAction(who, action, N_("the hand is over; no more actions are taken"))
        if seat is not None and seat != to_act:
            raise IllegalAction(seat, action, N_("it is seat %(to_act)s's turn, not seat %(seat)s's"),
                                to_act=to_act, seat=seat)
        if self.phase == AUCTION:
            if kind != "bid":
                raise IllegalAction(to_act, action, N_("the auction is not over: bid or pass "
                                                       "(you may: %(legal)s)"),
                                    legal=", ".join(self.legal_actions()))
            self._apply_bid(to_act, action)
        elif self.phase == DECLARE:
            if kind != "trump":
                raise IllegalAction(to_act, action, N_("seat %(seat)s must now name trumps "
                                                       "(%(legal)s)"),
                                    seat=to_act, legal=", ".join(self.legal_actions()))
            self._apply_trump(to_act, action)
        else:
            if kind != "play":
                raise IllegalAction(to_act, action, N_("the auction and trumps are settled; "
                                                       "seat %(seat)s must play a card"),
                                    seat=to_act)
            card = action[5:]
            if not self._hands[to_act] & CARD_BIT[card]:
                raise IllegalAction(to_act, action, N_("seat %(seat)s does not hold %(card)s"),
                                    seat=to_act, card=card)
            led = cards.CARD_SUIT[self._trick[0]]
            raise IllegalAction(to_act, action, N_("seat %(seat)s must follow %(suit)s"),
                                seat=to_act, suit=cards.SUIT_NAMES[led])  # type: ignore[index]

    @staticmethod
    def _kind_of(who: int | None, action: str) -> str:
        """"bid", "trump" or "play" for a well-formed action; refuses anything else."""
        if action in _AUCTION_SET:
            return "bid"
        if action in _TRUMP_SET:
            return "trump"
        if action in PLAY_INFO:
            return "play"
        if action.startswith("play "):
            card = action[5:]
            if card in JOKERS:
                raise IllegalAction(who, action, N_("Solo Whist is played without jokers"))
            raise IllegalAction(who, action, N_("%(card)r is not a card: write the rank "
                                                "(A K Q J T 9 8 7 6 5 4 3 2) then the suit "
                                                "(S H D C), e.g. 'play TD'"), card=card)
        if action.startswith("trump "):
            raise IllegalAction(who, action, N_("name trumps as 'trump S', 'trump H', "
                                                "'trump D' or 'trump C'"))
        raise IllegalAction(who, action, N_("unknown action; Solo Whist actions: %(grammar)s"),
                            grammar=GRAMMAR)

    # -- auction --------------------------------------------------------------------------------

    def _eldest_may_cop(self) -> bool:
        """Eldest passed before a Prop that still stands unaccepted and unbeaten."""
        eldest = NEXT_SEAT[self.dealer]
        return (self.rules.eldest_may_cop_after_pass and self._passed[eldest]
                and not self._eldest_declined and self._high is PROP_AND_COP
                and self.partner is None and self.declarer != eldest)

    def _legal_outside_play(self) -> list[str]:
        if self.phase == AUCTION:
            if self._proposer_choice:
                return ["pass", "solo"]
            if self._passed[self.to_act]:  # type: ignore[index]  # only eldest, holding the Cop option, gets here
                return ["cop", "pass"]
            high = self._high
            rules = self.rules
            return list(_BIDS_LEGAL[high.level if high else 0,
                                    high is PROP_AND_COP and self.partner is None,
                                    rules.turn_up, rules.prop_and_cop])
        if self.phase == DECLARE:
            assert self.contract is not None  # the auction set it
            if self.contract.trump == TRUMP_NAMED_NOT_TURN_UP and self.turn_up_suit:
                return [a for a in TRUMP_ACTIONS if a[-1] != self.turn_up_suit]
            return list(TRUMP_ACTIONS)
        return []

    def _apply_bid(self, seat: int, action: str) -> None:
        if action not in self.legal_actions():
            raise IllegalAction(seat, action, self._bid_refusal(seat, action),
                                highest=self._high.bid if self._high else None,
                                seat=seat, legal=", ".join(self.legal_actions()))
        self.history.append((seat, action))
        self._auction.append((seat, action))
        self._legal = None
        if self._proposer_choice:
            self._proposer_choice = False
            if action == "pass":
                self._abandon("prop_not_accepted")
            else:
                self._high = SOLO
                self._start_contract()
            return
        if action == "pass":
            if self._passed[seat]:
                self._eldest_declined = True
            self._passed[seat] = True
        elif action == "cop":
            self.partner = seat
        else:
            self._high = CONTRACT_OF_BID[action]
            self.declarer = seat
            self.partner = None
        following = self._next_bidder(seat)
        if following is not None:
            self.to_act = following
        elif self._high is None:
            self._abandon("all_passed")
        elif self._high is PROP_AND_COP and self.partner is None:
            if self.rules.prop_alone_may_solo:
                self._proposer_choice = True
                self.to_act = self.declarer
            else:
                self._abandon("prop_not_accepted")
        else:
            self._start_contract()

    def _bid_refusal(self, seat: int, action: str) -> str:
        """The template saying why ``action`` is not a legal bid now (params: see _apply_bid)."""
        if self._proposer_choice:
            return N_("nobody accepted the prop: seat %(seat)s may play solo or pass "
                      "(the hand is then redealt)")
        if action in ("prop", "cop") and not self.rules.prop_and_cop:
            return NO_PROP_AND_COP
        if self._passed[seat]:
            return N_("seat %(seat)s has passed and may now only cop the standing prop or pass")
        if action == "cop":
            if self._high is None:
                return N_("there is no prop to accept")
            if self._high is PROP_AND_COP:
                return N_("the prop has already been accepted")
            return N_("the prop has been overcalled by %(highest)s; it can no longer be accepted")
        if action == "royal_abundance" and not self.rules.turn_up:
            return N_("royal abundance needs a turn-up card; this table plays without one")
        return N_("a bid must be higher than %(highest)s (you may: %(legal)s)")

    def _next_bidder(self, after: int) -> int | None:
        """The next seat clockwise still in the auction; None when the auction is over."""
        eldest = NEXT_SEAT[self.dealer]
        for step in (1, 2, 3, 4):
            seat = (after + step) % 4
            if not self._passed[seat] and seat != self.declarer and seat != self.partner:
                return seat
            if seat == eldest and self._eldest_may_cop():
                return seat
        return None

    def _abandon(self, reason: str) -> None:
        self.redeal_reason = reason
        self.declarer = self.partner = None
        self._finish()

    def _start_contract(self) -> None:
        contract = self.contract = self._high
        assert contract is not None  # someone bid
        if contract.trump == TRUMP_NONE:
            self._start_play(None)
        elif contract.trump == TRUMP_TURN_UP and self.turn_up_suit:
            self._start_play(self.turn_up_suit)
        else:
            self.phase = DECLARE
            self.to_act = self.declarer

    def _apply_trump(self, seat: int, action: str) -> None:
        if action not in self.legal_actions():
            raise IllegalAction(seat, action, N_("abundance trumps may not be the turn-up suit "
                                                 "(%(suit)s): that is royal abundance"),
                                suit=cards.SUIT_NAMES[self.turn_up_suit or ""])
        self.history.append((seat, action))
        self._legal = None
        self._start_play(action[-1])

    def _start_play(self, trump: str | None) -> None:
        contract = self.contract
        assert contract is not None and self.declarer is not None
        self.trump = trump
        self._trump_mask = SUIT_MASK[trump] if trump else 0
        self._side = 1 << self.declarer | (1 << self.partner if self.partner is not None else 0)
        self._stop_early = not (self.rules.overtricks and contract.pays_overtricks)
        self._leader = self.declarer if contract.name == "abundance_declared" else NEXT_SEAT[self.dealer]
        self.to_act = self._leader
        self.phase = PLAY

    def _finish(self) -> None:
        self.phase = COMPLETE
        self.complete = True
        self.to_act = None
        self._legal = None

    # -- copies, results and views --------------------------------------------------------------

    def copy(self) -> SoloHand:
        new = SoloHand.__new__(SoloHand)
        new.rules = self.rules
        new.dealer = self.dealer
        new.dealt_hands = self.dealt_hands  # never changed after the deal
        new.turn_up = self.turn_up
        new.turn_up_suit = self.turn_up_suit
        new.phase = self.phase
        new.to_act = self.to_act
        new.complete = self.complete
        new.history = self.history[:]
        new.contract = self.contract
        new.trump = self.trump
        new.declarer = self.declarer
        new.partner = self.partner
        new.redeal_reason = self.redeal_reason
        new._hands = self._hands[:]
        new._legal = self._legal  # legal lists are replaced, never changed in place
        new._passed = self._passed[:]
        new._auction = self._auction[:]
        new._high = self._high
        new._eldest_declined = self._eldest_declined
        new._proposer_choice = self._proposer_choice
        new._trump_mask = self._trump_mask
        new._side = self._side
        new._side_tricks = self._side_tricks
        new._stop_early = self._stop_early
        new._leader = self._leader
        new._trick = self._trick[:]
        new._led = self._led
        new._best_key = self._best_key
        new._best_seat = self._best_seat
        new._won = self._won[:]
        new._done = self._done[:]  # finished tricks are never changed
        return new

    @property
    def tricks_played(self) -> int:
        return len(self._done)

    def result(self) -> dict[str, Any]:
        if not self.complete:
            return {"complete": False, "phase": self.phase, "to_act": self.to_act,
                    "legal": list(self.legal_actions())}
        if self.redeal_reason:
            return {"complete": True, "redeal": True, "reason": self.redeal_reason,
                    "units": [0, 0, 0, 0]}
        contract = self.contract
        assert contract is not None  # a hand complete without a redeal was played
        return {
            "complete": True,
            "contract": contract.name,
            "declarer": self.declarer,
            "partner": self.partner,
            "trump": self.trump,
            "tricks": self._won[:],
            "made": contract.made_by(self._side_tricks),
            "units": score_hand(self.rules, contract.name, self.declarer, self.partner, self._won),
        }

    def _turn_up_on_table(self) -> bool:
        """The turn-up lies face up until the dealer picks it up to play to the first trick."""
        if self.turn_up is None or self._done:
            return False
        if self._leader is None or not self._trick:
            return True
        return (self.dealer - self._leader) % 4 >= len(self._trick)

    def view(self, seat: int | None) -> HandView:
        if seat is not None and (type(seat) is not int or not 0 <= seat <= 3):
            raise WhistError(N_("a view is for seat 0, 1, 2 or 3, or None for a spectator"))
        contract = self.contract
        view: HandView = {
            "game": GAME,
            "seat": seat,
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": self.to_act,
            "hand_sizes": [mask.bit_count() for mask in self._hands],
            "turn_up": self.turn_up if self._turn_up_on_table() else None,
            "turn_up_suit": self.turn_up_suit,
            "auction": [{"seat": s, "action": a} for s, a in self._auction],
            "contract": None if contract is None or self.phase == AUCTION else {
                "name": contract.name, "declarer": self.declarer, "partner": self.partner,
                "trump": self.trump, "goal": contract.goal, "stake": contract.stake,
            },
            "trump": self.trump,
            "leader": self._leader if self.phase == PLAY else None,
            "trick": (self._trick_cards(self._leader, self._trick)
                      if self.phase == PLAY and self._leader is not None else []),
            "tricks": [{"leader": leader, "cards": self._trick_cards(leader, cards),
                        "winner": winner} for leader, cards, winner in self._done],
            "tricks_won": self._won[:],
            "exposed": None,
        }
        if seat is not None:
            view["hand"] = cards.sort_for_display(_cards_of(self._hands[seat]))
        declarer = self.declarer
        if (contract is not None and contract.name == "spread_misere" and self._done
                and declarer is not None):
            view["exposed"] = {"seat": declarer,
                               "cards": cards.sort_for_display(_cards_of(self._hands[declarer]))}
        if seat is not None and seat == self.to_act:
            view["legal"] = list(self.legal_actions())
        if self.complete:
            view["result"] = self.result()
            view["deal"] = [list(hand) for hand in self.dealt_hands]
        return view

    @staticmethod
    def _trick_cards(leader: int, cards: list[int]) -> list[dict[str, Any]]:
        return [{"seat": (leader + i) % 4, "card": ALL_CARDS[idx]} for i, idx in enumerate(cards)]


# -- sessions ------------------------------------------------------------------------------------


class Session(Chain):
    """A session of hands at one table: balances, dealer rotation and the end of the session.

    Ends after ``deals`` hands (abandoned hands count: each is a deal) or as soon as a player's
    balance reaches ``target_balance``; whichever comes first.  Without either it runs until the
    players stop (at an agreed time).  The deal always passes clockwise, also after a redeal.
    Balances are kept exactly (fractions) and reported like :func:`score_hand` units.
    """

    rules: Rules
    hand_type: ClassVar[type[HandState]] = SoloHand
    seats: ClassVar[int] = SEATS
    sides: ClassVar[int] = SEATS
    counted: ClassVar[str] = "units"
    missing: ClassVar[str] = N_("a hand's result needs the units of all four seats")
    wrong_hand: ClassVar[str] = N_("only a Solo Whist hand can be added to a Solo Whist session")

    def __init__(self, rules: Rules, first_dealer: int = 0, deals: int | None = None,
                 target_balance: int | float | None = None):
        if not isinstance(rules, Rules):
            raise RulesError(N_("these are not Solo Whist house rules"))
        if type(first_dealer) is not int or not 0 <= first_dealer <= 3:
            raise WhistError(N_("the first dealer must be seat 0, 1, 2 or 3, not %(seat)r"),
                             seat=first_dealer)
        if deals is not None and (type(deals) is not int or deals < 1):
            raise WhistError(N_("the number of deals must be a whole number of at least 1, "
                                "not %(deals)r"), deals=deals)
        if target_balance is not None and (
                isinstance(target_balance, bool) or not isinstance(target_balance, (int, float))
                or not math.isfinite(target_balance) or target_balance <= 0):
            raise WhistError(N_("the target balance must be a number greater than 0, "
                                "not %(target)r"), target=target_balance)
        super().__init__(rules, first_dealer)
        self.deals = deals
        self.target_balance = target_balance
        self._balances = [Fraction(0)] * 4

    @property
    def balances(self) -> list[int | float]:
        return [_as_number(b) for b in self._balances]

    @property
    def complete(self) -> bool:
        if self.deals is not None and len(self.results) >= self.deals:
            return True
        target = self.target_balance
        return target is not None and any(b >= Fraction(str(target)) for b in self._balances)

    def _count(self, result: dict[str, Any], values: list[Any]) -> None:
        for seat, value in enumerate(values):
            self._balances[seat] += Fraction(value) if type(value) is int else Fraction(str(value))

    def _totals(self) -> dict[str, Any]:
        return {"balances": self.balances}

    def _outcome(self) -> dict[str, Any]:
        best = max(self._balances)
        return {"leader": [seat for seat in range(4) if self._balances[seat] == best]}


CHAIN = Session  # the engine contract's name for it (games.rules.base.GameModule)
