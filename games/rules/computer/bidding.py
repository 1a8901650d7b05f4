"""Bidding and the other calls of the normal and strong computer players, from a hand evaluation.

The evaluation counts the tricks a hand should take, the way a club player counts them:
top cards in each suit (in the hand's own card order: uptown, downtown with the ace high or
low, jokers on top of the trumps), trump length, ruffing value of short side suits when the
trumps are long, long-suit tricks in notrump, and, in Bid Whist, what the kitty and the partner
can be expected to add.  A misère hand is judged by its exits: in each suit the n-th lowest card
must be low enough to stay under the others.

Every function here reads only the seat's view.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from games.rules.base import HandView
from games.rules.cards import JOKER_MASK, RANK_VALUE

from .hooks import of as hooks_of
from .knowledge import contract_of, seat_of

SUITS = "SHDC"
UP = "AKQJT98765432"
DOWN_ACE_HIGH = "A23456789TJQK"
DOWN_ACE_LOW = "23456789TJQKA"

PARTNER_BID_BOOKS = 0.6  # partner has bid: partner is stronger than average
OPPONENT_BID_BOOKS = -0.6  # an opponent has bid: the strength is against us
# The house rule ``kitty``: forcing the best of 120 deals' hands to declare and playing them out
# at the normal level, the kitty shapes of 4, 5 and 6 cards made the same books within 0.15 of
# each other; without a kitty (no kitty book, no best 12 of 18) 1.7 fewer for the same count.
KITTY_BOOKS = {"none": -1.7}
PREEMPT_FLOOR = 0.8  # a higher bid (preempting_bid) is expected to gain at least this

# The evaluations from which a call is made: trick counts (the call from this count up) and
# misère risks (from this risk down).  Each game's computer players' module holds its own, set by hand
# (``THRESHOLDS`` in games/rules/computer/<game>.py: the first computer players'; normal_v1 and strong_v1
# keep them); the figures measured by the tuning benches (bench/tuning/, TUNED_FILE) overlay them
# for the levels with ``tuned_calls``.  The file holds, by game, the figures ("thresholds") apart
# from how each was measured ("provenance", for people and the benches): only the figures are
# read here.
TUNED_FILE = Path(__file__).with_name("tuned_calls.json")
TUNED_VERSION = 2  # the file's layout: {"version", "thresholds": {game: {name: figure}}, ...}
# A measured threshold of None: calling it never gained in the sample.  A trick count then
# needs more than a hand holds, a misère risk less than none.
NEVER_TRICKS, NEVER_RISK = 99.0, -1.0
RISK_CALLS = {"spread_misere", "misere", "misere_etalee", "grande_misere", "piccolo",
              "petite_misere"}
# Measured figures, by group, that a tuned level takes only when its settings name the group
# (search.SearchLevel.measured; calls "tuned+<group>..."): each waits there until a duplicate
# match shows it better at a real table.  Bid Whist's bids and kitty, measured in real
# auctions by bench/tune_bids.py, beat the hand-set ones and are normal's and strong's (the
# earlier levels keep the hand-set ones).  Bid Whist's books model, measured with every other
# seat passing, lost to the hand-set one by 0.53 points a hand (a pass hands the contract to
# the other side, which that measurement cannot see): the candidate strong_books' alone.
HELD_BACK = {
    "books": ("books",),
    "bids": ("bid_from", "overcall_opponent_from", "overcall_partner_from", "preempt_share"),
    "kitty": ("keep",),
    # Solo's and Belgian Whist's calls bench/tune_auctions.py measured in real auctions (the
    # partnership calls, piccolo, petite misère): they win among computer players but call a
    # partnership on less than clubs agree it promises the partner (docs/rules/), so only the candidates
    # normal_auctions and strong_auctions take them (docs/computer-players.md, "A partner's promise")
    "auctions": ("prop", "cop", "solo_after_prop", "propose", "emballer", "maintain", "raise",
                 "piccolo", "petite_misere"),
    # Solo's solo from a hand that could prop or cop instead, measured against that call in
    # real auctions (bench/tune_auctions.py): normal's and strong's, not the earlier levels'
    "partnership": ("solo_over_partnership",),
}
# Conventions a level keeps, by the group its calls name ("tuned+bids+four_says_joker"): each
# sets its switch among the thresholds (the hand-set ones leave it off, as the earlier levels
# played).  Not measured figures: what a partner is told a call means (docs/computer-players.md,
# "Conventions").  "advice": the rule texts' advice on what a call needs, kept as a club player
# keeps it (:func:`lacks_what_advice_asks`): a spread misère (misère étalée) only from a hand
# certain to lose every trick (:func:`misere_certain`); in Bid Whist no bid without an ace or
# a joker, and notrump only with two aces or more.  "four_says_joker": in Bid Whist an opening bid of 4 uptown or downtown
# (nobody has bid before it) is made only with a joker (:func:`breaks_joker_four`), and a
# partner's such opening is read as holding one (games/rules/computer/bid_whist.py,
# ``read_hidden``); a 4 over a bid promises nothing.
CONVENTIONS = {"four_says_joker": "four_says_joker", "advice": "advice"}
_tuned: dict[tuple[str, str], dict[str, Any]] = {}  # (game, calls) -> its thresholds


def thresholds(view: HandView, calls: str | dict | None = None) -> dict[str, Any]:
    """The thresholds the seat's calls are made from: its game's hand-set ones, or (``calls``
    = "tuned", the level's choice) those overlaid by the measured figures but those held back
    (``HELD_BACK``), or ("tuned+books", "tuned+bids+kitty": a candidate's) by those and the
    held-back groups named).  A dict is taken as the thresholds themselves (the tuning benches
    ask what a call would be with one figure changed)."""
    if isinstance(calls, dict):
        return calls
    game = view["game"]
    hand_set = hooks_of(game).THRESHOLDS
    if not calls or not calls.startswith("tuned"):
        return hand_set
    if (game, calls) not in _tuned:
        measured = measured_figures()
        taken_groups = calls.split("+")[1:]
        unknown = set(taken_groups) - set(HELD_BACK) - set(CONVENTIONS)
        if calls.split("+")[0] != "tuned" or unknown:
            raise ValueError(f"unknown calls {calls!r} (groups: "
                             f"{', '.join([*HELD_BACK, *CONVENTIONS])})")
        held = {name for group, names in HELD_BACK.items() if group not in taken_groups
                for name in names}
        taken = {name: value for name, value in measured.get(game, {}).items()
                 if name not in held}
        merged = overlay(hand_set, taken)
        for group in taken_groups:
            if CONVENTIONS.get(group) in hand_set:  # a convention of this game
                merged[CONVENTIONS[group]] = True
        _tuned[(game, calls)] = merged
    return _tuned[(game, calls)]


def measured_figures() -> dict[str, dict[str, Any]]:
    """The measured figures of TUNED_FILE, by game (none when there is no file)."""
    if not TUNED_FILE.exists():
        return {}
    saved = json.loads(TUNED_FILE.read_text())
    if saved.get("version") != TUNED_VERSION:
        raise ValueError(f"{TUNED_FILE.name} is not in the layout of version {TUNED_VERSION}: "
                         f"write it again with a tuning bench (bench/tuning/)")
    return saved["thresholds"]


def overlay(hand_set: dict[str, Any], measured: dict[str, Any]) -> dict[str, Any]:
    """``hand_set`` with the measured figures of the same names (the others are ignored)."""
    merged = dict(hand_set)
    for name, value in measured.items():
        if name in hand_set:
            if value is None:
                value = NEVER_RISK if name in RISK_CALLS else NEVER_TRICKS
            merged[name] = value
    if "solo" in measured:
        for name in SOLO_FOLLOWERS:
            if name in hand_set and name not in measured:
                merged[name] = merged["solo"]
    return merged


# The figures of Solo's solo in other circumstances, which follow a measured solo until they
# are measured themselves: the proposer's last word (the same hand, the same contract) and the
# solo of a hand that could prop or cop (the solo alone decides)
SOLO_FOLLOWERS = ("solo_after_prop", "solo_over_partnership")


def _ranks(cards: list[str], suit: str) -> tuple[str, ...]:
    """The ranks of ``cards`` in ``suit`` (sorted: one key for one holding)."""
    return _ranks_by_suit(tuple(cards))[suit]


# An evaluation looks at the same hand's suits many times (every trump and direction; the
# auction's weighting evaluates each sampled hand): the hand's suits, and a suit's worth, are
# remembered (plain data, the same answer every time).
@lru_cache(maxsize=1024)
def _ranks_by_suit(cards: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    by_suit: dict[str, list[str]] = {suit: [] for suit in SUITS}
    for card in cards:
        if card not in ("BJ", "LJ"):
            by_suit[card[1]].append(card[0])
    return {suit: tuple(sorted(ranks)) for suit, ranks in by_suit.items()}


def honour_tricks(positions: list[int], length: int) -> float:
    """Quick tricks of a suit from the places (0 = best card) of the cards held, best first."""
    held = set(positions)
    tricks = 0.0
    if 0 in held:
        tricks += 1
    if 1 in held:
        tricks += 1 if 0 in held else (0.5 if length >= 2 else 0.1)
    if 2 in held and length >= 3:
        tricks += 1 if {0, 1} <= held else (0.5 if held & {0, 1} else 0.25)
    return min(tricks, length)


@lru_cache(maxsize=8192)
def suit_tricks(ranks: tuple[str, ...], order: str, *, trumps: bool = False, jokers: int = 0,
                long_value: float = 0.0) -> float:
    """Tricks from one suit (``ranks``: as :func:`_ranks` gives them): honours, plus length
    (trumps) or long cards (notrump)."""
    # positions of the cards among the suit's cards, jokers first when they are trumps
    positions = list(range(jokers)) + sorted(jokers + order.index(r) for r in ranks)
    length = len(positions)
    if not length:
        return 0.0
    top = honour_tricks(positions, length)
    if trumps:
        if jokers == 2 and 2 in positions:
            top += 0.5  # the trump ace under both jokers
        return min(length, top + max(0, length - 3) * 0.85)
    if long_value and length >= 5 and top >= 1:
        top += (length - 4) * long_value
    return min(length, top)


def side_tricks(cards: list[str], trump: str | None, order_of, trump_length: int) -> float:
    total = 0.0
    for suit in SUITS:
        if suit == trump:
            continue
        ranks = _ranks(cards, suit)
        total += suit_tricks(ranks, order_of(suit))
        if trump is not None and trump_length >= 5:  # ruffing value of a short side suit
            total += {0: 0.8, 1: 0.45, 2: 0.15}.get(len(ranks), 0.0)
    return total


def trump_hand_tricks(cards: list[str], trump: str, order_of, jokers_are_trumps: bool) -> float:
    jokers = sum(c in ("BJ", "LJ") for c in cards) if jokers_are_trumps else 0
    ranks = _ranks(cards, trump)
    if jokers_are_trumps and "LJ" in cards and "BJ" not in cards:
        jokers_tricks_adjust = -0.15
    else:
        jokers_tricks_adjust = 0.0
    length = len(ranks) + jokers
    trumps = suit_tricks(ranks, order_of(trump), trumps=True, jokers=jokers)
    return trumps + jokers_tricks_adjust + side_tricks(cards, trump, order_of, length)


def notrump_tricks(cards: list[str], order_of) -> tuple[float, int]:
    """(tricks, stopped suits) of a notrump hand; jokers are worthless there."""
    total, stopped = 0.0, 0
    for suit in SUITS:
        ranks = _ranks(cards, suit)
        order = order_of(suit)
        places = sorted(order.index(r) for r in ranks)
        n = len(places)
        if n and (places[0] == 0 or (n >= 2 and places[0] <= 1) or (n >= 3 and places[0] <= 2)):
            stopped += 1
        total += suit_tricks(ranks, order, long_value=0.8)
    return total, stopped


# -- Bid Whist -----------------------------------------------------------------------------------


def bid_whist_orders(rules, direction: str, trump: str | None):
    if direction == "uptown":
        return lambda suit: UP
    down = DOWN_ACE_HIGH if rules.downtown_ace == "high" else DOWN_ACE_LOW
    if trump is None or rules.downtown_side_suits == "reversed":
        return lambda suit: down
    return lambda suit: down if suit == trump else UP


def bid_whist_options(cards: list[str], rules) -> list[tuple[float, str, str | None, str]]:
    """(tricks in hand, mode, trump, direction) for every way to play the hand, best first."""
    out: list[tuple[float, str, str | None, str]] = []
    for direction in ("uptown", "downtown"):
        for trump in SUITS:
            order_of = bid_whist_orders(rules, direction, trump)
            out.append((trump_hand_tricks(cards, trump, order_of, True), direction, trump,
                        direction))
        order_of = bid_whist_orders(rules, direction, None)
        tricks, stopped = notrump_tricks(cards, order_of)
        if stopped >= 3:
            # notrump only with stoppers and length; the kitty may stop the fourth suit
            out.append((tricks - (0.6 if stopped == 3 else 0.0), "notrump", None, direction))
    out.sort(key=lambda o: -o[0])
    return out


def _normal_at_least(mean: float, sd: float, threshold: float) -> float:
    return 0.5 * math.erfc((threshold - 0.5 - mean) / (sd * math.sqrt(2)))


def bid_expectation(tricks: float, mode: str, n: int, rules, partner_bid: bool,
                    opponent_bid: bool, books: dict[str, float]) -> float:
    """Expected points of declaring ``bid n mode`` with a hand worth ``tricks``; ``books``:
    the model of the books a team makes (the game's ``THRESHOLDS["books"]``)."""
    mean = books["base"] + KITTY_BOOKS.get(rules.kitty, 0.0) + books["per_trick"] * tricks \
        + (PARTNER_BID_BOOKS if partner_bid else 0.0)
    if opponent_bid:
        mean += OPPONENT_BID_BOOKS
    if mode == "notrump":
        mean += books["notrump"]
    made = _normal_at_least(mean, books["sd"], n + 6)
    factor = 2 if mode == "notrump" and rules.notrump_double else 1
    return factor * (made * max(n, mean - 6) - (1 - made) * n)


def bids_by_mode(legal: list[str], cards: list[str], rules
                 ) -> Iterator[tuple[float, str, list[str]]]:
    """For each mode with a legal bid (Bid Whist's and Cutthroat's auctions): the hand's trick
    count in its best way to play that mode (:func:`bid_whist_options`), the mode, and the
    mode's legal bids, cheapest first."""
    seen_modes = set()
    for tricks, mode, _trump, _direction in bid_whist_options(cards, rules):
        if mode in seen_modes:
            continue  # the best way to play each mode is enough
        seen_modes.add(mode)
        bids = sorted((a for a in legal if a.startswith("bid ") and a.endswith(" " + mode)),
                      key=lambda a: int(a.split()[1]))
        if bids:
            yield tricks, mode, bids


@dataclass
class BidChoice:
    """What a Bid Whist seat weighs before it calls: its best mode's cheapest winning bid and
    that bid's expected points (the books model's), the mode's higher bids with theirs (only
    while others are still to speak: a higher bid shuts them out), and the auction around it."""
    cheapest: str | None = None
    value: float = -99.0
    higher: list[tuple[str, float]] = field(default_factory=list)
    holder: str = "none"  # who holds the auction so far: "none", "partner", "opponent"
    can_pass: bool = True  # False for a dealer stuck with the bid


JOKER_FOUR = 4  # the bid that says the joker (the convention "four_says_joker")
JOKER_SET = {"BJ", "LJ"}


def says_joker(rules) -> bool:
    """Whether an opening bid of 4 uptown or downtown can say "a joker" at this table: the deck
    has one (house rule ``kitty``) and 4 is above the table's lowest bid (``min_bid``: where
    4 is the lowest bid, every opening is one and says nothing more)."""
    return bool(rules.shape.deck_mask & JOKER_MASK) and rules.min_bid < JOKER_FOUR


def joker_four(action: str) -> bool:
    """A bid of 4 in a suit (uptown or downtown: a 4 notrump, where the jokers are worthless,
    says nothing of them)."""
    words = action.split()
    return len(words) == 3 and words[0] == "bid" and words[1] == str(JOKER_FOUR) \
        and words[2] in ("uptown", "downtown")


def opening(view: HandView) -> bool:
    """Whether nobody has bid yet (every call so far a pass): the next bid is the auction's
    opening, the only bid that keeps the convention.  A bid over an opponent's or over
    partner's says nothing of the jokers."""
    return all(e["action"] == "pass" for e in view["auction"])


def opening_bid(auction: list[dict]) -> dict | None:
    """The auction's opening: its first entry that is not a pass, or None."""
    return next((e for e in auction if e["action"] != "pass"), None)


def breaks_joker_four(view: HandView, rules, action: str) -> bool:
    """Whether ``action`` would open the auction with 4 in a suit from a hand without a joker
    (the convention "four_says_joker" forbids it)."""
    return joker_four(action) and says_joker(rules) and opening(view) \
        and not JOKER_SET & set(view["hand"])


def top_cards(cards: list[str], rules, direction: str) -> int:
    """How many suits the hand holds the top card of, in ``direction``'s order without a
    trump (the ace, or downtown with the ace low the 2)."""
    order_of = bid_whist_orders(rules, direction, None)
    return sum(1 for suit in SUITS if order_of(suit)[0] + suit in cards)


def lacks_what_advice_asks(cards: list[str], rules, action: str) -> bool:
    """Whether the bid ``action`` goes against the rule text's advice (the convention
    "advice"): a bid without an ace or a joker ("three trumps and no ace is a pass"; downtown
    "the aces are still high: you need strong cards to control the tricks"), notrump with fewer
    than two aces ("only with several aces and long, solid suits": the jokers are worthless
    there)."""
    mode = action.split()[-1]
    if mode == "notrump":
        return max(top_cards(cards, rules, d) for d in ("uptown", "downtown")) < 2
    return not JOKER_SET & set(cards) and top_cards(cards, rules, mode) == 0


def bid_whist_choice(view: HandView, rules, books: dict[str, float],
                     four_says_joker: bool = False, advice: bool = False) -> BidChoice:
    """What the seat weighs (:class:`BidChoice`); with ``four_says_joker``, a hand without a
    joker opening the auction leaves out the bids of 4 in a suit: its best bid is then another (3, or 5 when 5
    keeps the preempting share of 3's expectation), or a pass.  With ``advice``, the bids the
    rule text advises against (:func:`lacks_what_advice_asks`) are left out too."""
    legal = view["legal"]
    if four_says_joker:
        legal = [a for a in legal if not breaks_joker_four(view, rules, a)]
    if advice and "pass" in legal:  # a dealer stuck with the bid bids its best all the same
        legal = [a for a in legal if not (a.startswith("bid ")
                                          and lacks_what_advice_asks(view["hand"], rules, a))]
    cards = view["hand"]
    me = seat_of(view)
    partner_bid = any(e["seat"] == (me + 2) % 4 and e["action"] != "pass"
                      for e in view["auction"])
    opponent_bid = any(e["seat"] % 2 != me % 2 and e["action"] != "pass"
                       for e in view["auction"])
    choice = BidChoice(holder=_holder(view, me), can_pass="pass" in legal)
    for tricks, mode, bids in bids_by_mode(legal, cards, rules):
        n = int(bids[0].split()[1])  # the cheapest bid that wins the auction so far
        value = bid_expectation(tricks, mode, n, rules, partner_bid, opponent_bid, books)
        if choice.cheapest is None or value > choice.value:
            higher = [(b, bid_expectation(tricks, mode, int(b.split()[1]), rules, partner_bid,
                                          opponent_bid, books))
                      for b in bids[1:]] if len(view["auction"]) < 3 else []
            choice = replace(choice, cheapest=bids[0], value=value, higher=higher)
    return choice


def preempting_bid(choice: BidChoice, share: float) -> str | None:
    """The bid to make: the cheapest, or higher while every bid up to it keeps ``share`` of
    the cheapest one's expectation (and at least PREEMPT_FLOOR points)."""
    action = choice.cheapest
    for higher, value in choice.higher:
        if value < max(share * choice.value, PREEMPT_FLOOR):
            break
        action = higher
    return action


# What a bid must be expected to gain, by who holds the auction: a pass is not worth nothing,
# it leaves the contract to the others (measured: bench/tune_bids.py).
BID_FROM = {"none": "bid_from", "opponent": "overcall_opponent_from",
            "partner": "overcall_partner_from"}


def bid_whist_call(view: HandView, rules, calls: str | dict | None = None) -> str:
    """The level's call: its best bid (``preempting_bid``) when that bid is expected to gain at
    least the figure ``BID_FROM`` names for who holds the auction, else a pass."""
    figures = thresholds(view, calls)
    choice = bid_whist_choice(view, rules, figures["books"], figures.get("four_says_joker", False),
                              figures.get("advice", False))
    action = preempting_bid(choice, figures["preempt_share"])
    if not choice.can_pass:
        return action or view["legal"][0]
    bid_from = figures[BID_FROM[choice.holder]]
    if action is not None and choice.value >= bid_from:
        return action
    return "pass"


def _holder(view, me) -> str:
    bids = [e for e in view["auction"] if e["action"] != "pass"]
    if not bids:
        return "none"
    return "partner" if bids[-1]["seat"] == (me + 2) % 4 else "opponent"


def keep_value(card: str, trump: str | None, order_of, counts: dict[str, int],
               weights: dict[str, float]) -> float:
    """How much a card is worth keeping (Bid Whist discards); ``weights``: the game's
    ``THRESHOLDS["keep"]``: what a side suit's ace and king add, what each card of a suit adds
    in notrump (long suits run), and what each card short of four takes from a side suit with
    trumps (short suits ruff)."""
    if card in ("BJ", "LJ"):
        return 200.0 if trump is not None else -10.0  # worthless in notrump
    suit = card[1]
    place = order_of(suit).index(card[0])
    if suit == trump:
        return 150.0 - place
    value = 20.0 - place * 1.5
    if place == 0:
        value += weights["ace"]
    elif place == 1:
        value += weights["king"]
    if trump is None:
        value += counts[suit] * weights["notrump_length"]
    else:
        value -= (4 - min(counts[suit], 4)) * weights["short_side"]
    return value


def best_keep(cards: list[str], mode: str, rules, weights: dict[str, float],
              discard_count: int = 6) -> tuple[float, list[str], str | None, str]:
    """The best cards to keep (all but ``discard_count``: 12 of 18 with the six-card kitty)
    and the trump/direction they are meant for."""
    best = None
    plans: list[tuple[str | None, str]] = []
    if mode == "notrump":
        plans = [(None, d) for d in ("uptown", "downtown")]
    else:
        plans = [(s, mode) for s in SUITS]
    counts = {s: len(_ranks(cards, s)) for s in SUITS}
    for trump, direction in plans:
        order_of = bid_whist_orders(rules, direction, trump)
        ranked = sorted(cards, key=lambda c: -keep_value(c, trump, order_of, counts, weights))
        keep = ranked[:len(cards) - discard_count]
        if trump is None:
            tricks = notrump_tricks(keep, order_of)[0]
        else:
            tricks = trump_hand_tricks(keep, trump, order_of, True)
        if best is None or tricks > best[0]:
            best = (tricks, keep, trump, direction)
    return best  # type: ignore[return-value]


def bid_whist_discard(view: HandView, rules, calls: str | dict | None = None) -> str:
    mode = contract_of(view)["mode"]
    _tricks, keep, _trump, _direction = best_keep(view["hand"], mode, rules,
                                                  thresholds(view, calls)["keep"],
                                                  view["discard_count"])
    discards = [c for c in view["hand"] if c not in keep]
    return "discard " + " ".join(sorted(discards))


def bid_whist_declare(view: HandView, rules, calls: str | dict | None = None) -> str:
    cards = view["hand"]
    mode = contract_of(view)["mode"]
    if mode == "notrump":
        scores = {d: notrump_tricks(cards, bid_whist_orders(rules, d, None))[0]
                  for d in ("uptown", "downtown")}
        return "direction " + max(scores, key=lambda d: (scores[d], d == "uptown"))
    scores = {s: trump_hand_tricks(cards, s, bid_whist_orders(rules, mode, s), True)
              for s in SUITS}
    return "trump " + max(SUITS, key=lambda s: scores[s])


# -- Solo and Belgian Whist (52 cards, ace high) --------------------------------------------------


def plain_tricks(cards: list[str], trump: str | None) -> float:
    order_of = lambda suit: UP  # noqa: E731
    if trump is None:
        return notrump_tricks(cards, order_of)[0]
    return trump_hand_tricks(cards, trump, order_of, False)


def best_trump(cards: list[str], exclude: str | None = None) -> tuple[float, str]:
    return max((plain_tricks(cards, s), s) for s in SUITS if s != exclude)


def misere_certain(cards: list[str]) -> bool:
    """Whether the hand loses every trick however the others hold and lead their cards: in
    each suit the k-th lowest card (from 0) has at most k of the others' cards below it, so
    the others can never lead a card under all the hand still holds of the suit."""
    for suit in SUITS:
        ranks = sorted(RANK_VALUE[c[0]] for c in cards if c[1] == suit)
        if any(rank > 2 + 2 * k for k, rank in enumerate(ranks)):
            return False
    return True


def misere_risk(cards: list[str]) -> float:
    """0 for a hand that can always play under; each unit is about one card in danger."""
    risk = 0.0
    voids = 0
    for suit in SUITS:
        ranks = sorted(RANK_VALUE[c[0]] for c in cards if c[1] == suit)
        if not ranks:
            voids += 1
        for i, rank in enumerate(ranks):
            allowed = 3 + 2 * i  # the lowest card 2 or 3, the next up to 5, then 7, 9 ...
            if rank > allowed:
                risk += (rank - allowed) / 3
    return max(0.0, risk - 0.3 * voids)


# The proposer's last word when nobody accepted a prop (the house rule prop_alone_may_solo)
SOLO_LAST_WORD = ["pass", "solo"]


def partnership_offered(legal: list[str]) -> bool:
    """Whether the seat may prop or cop (a house without Prop and Cop never offers them)."""
    return "prop" in legal or "cop" in legal


def solo_call(view: HandView, rules, calls: str | dict | None = None) -> str:
    t = thresholds(view, calls)
    legal = view["legal"]
    cards = view["hand"]
    if legal == SOLO_LAST_WORD:
        tricks = turn_up_tricks(cards, view.get("turn_up_suit"))
        return "solo" if tricks >= t["solo_after_prop"] else "pass"
    turn = view.get("turn_up_suit")
    judged = solo_evaluation(cards, turn)
    turn_tricks, other_tricks = judged["turn_tricks"], judged["other_tricks"]
    best_any, risk = judged["best_tricks"], judged["misere_risk"]
    wishes = []  # best first
    if best_any >= t["abundance_declared"]:
        wishes.append("abundance_declared")
    if risk <= t["spread_misere"] and (not t.get("advice") or misere_certain(cards)):
        wishes.append("spread_misere")
    if turn and turn_tricks >= t["royal_abundance"]:
        wishes.append("royal_abundance")
    if other_tricks >= t["abundance"] or (not turn and best_any >= t["abundance"]):
        wishes.append("abundance")
    if risk <= t["misere"]:
        wishes.append("misere")
    # A hand that could prop or cop solos only from the figure measured against that call
    # (never below the solo's own, measured against passing)
    if turn_tricks >= t["solo"] and (
            not partnership_offered(legal) or turn_tricks >= t["solo_over_partnership"]):
        wishes.append("solo")
    if rules.prop_and_cop:  # a house without Prop and Cop never offers them
        if turn_tricks >= t["cop"]:
            wishes.append("cop")
        if turn_tricks >= t["prop"]:
            wishes.append("prop")
    for wish in wishes:
        if wish in legal:
            return wish
    return "pass" if "pass" in legal else legal[0]


def turn_up_tricks(cards: list[str], turn: str | None) -> float:
    """Tricks with the turn-up suit as trumps (without a turn-up, with the hand's best suit)."""
    return plain_tricks(cards, turn) if turn else best_trump(cards)[0]


def solo_evaluation(cards: list[str], turn: str | None) -> dict[str, float]:
    """What Solo's calls are judged by: tricks with the turn-up suit (or the best suit without
    one), with the best other suit, the better of the two, and the misère risk."""
    turn_tricks = turn_up_tricks(cards, turn)
    other_tricks = best_trump(cards, exclude=turn)[0]
    return {"turn_tricks": turn_tricks, "other_tricks": other_tricks,
            "best_tricks": max(turn_tricks, other_tricks), "misere_risk": misere_risk(cards)}


def solo_declare(view: HandView, rules=None, calls: str | dict | None = None) -> str:
    legal = view["legal"]
    cards = view["hand"]
    options = [a for a in legal if a.startswith("trump ")]
    return max(options, key=lambda a: plain_tricks(cards, a[-1]))


# A Belgian proposal promises about this many tricks in its suit (what an emballeur raises on),
# and is made only in a suit of at least this many cards.
PROPOSER_TRICKS = 4.5
PROPOSE_LENGTH = 4


def belgian_evaluation(cards: list[str]) -> dict[str, Any]:
    """What Belgian Whist's calls are judged by: tricks with each suit as trumps, the best of
    them and its suit, tricks without trumps, and the misère risk."""
    by_suit = {s: plain_tricks(cards, s) for s in SUITS}
    best_tricks, best_suit = max((t, s) for s, t in by_suit.items())
    nt_tricks = plain_tricks(cards, None)
    return {"by_suit": by_suit, "best_tricks": best_tricks, "best_suit": best_suit,
            "nt_tricks": nt_tricks, "misere_risk": misere_risk(cards),
            # a chelem may be played without trumps: the better of the two, and how
            "chelem_tricks": max(best_tricks, nt_tricks),
            "chelem_suit": best_suit if best_tricks >= nt_tricks else "NT"}


def belgian_call(view: HandView, rules, calls: str | dict | None = None) -> str:
    t = thresholds(view, calls)
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    cards = view["hand"]
    me = view["seat"]
    judged = belgian_evaluation(cards)
    by_suit, best_tricks, best_suit = judged["by_suit"], judged["best_tricks"], judged["best_suit"]
    risk = judged["misere_risk"]
    legal_set = set(legal)
    mine = seat_standing(view)

    def first(options):
        for option in options:
            if option in legal_set:
                return option
        return None

    # contracts played alone, strongest first
    alone = []
    for chelem in ("grand_chelem", "petit_chelem"):
        if judged["chelem_tricks"] >= t[chelem]:
            alone.append(f"{chelem} {judged['chelem_suit']}")
    if risk <= t["misere_etalee"] and (not t.get("advice") or misere_certain(cards)):
        alone.append("misere_etalee")
    for level in (11, 10, 9):
        if best_tricks >= t[f"abondance {level}"]:
            alone.append(f"abondance {level} {best_suit}")
    if risk <= t["grande_misere"]:
        alone.append("grande_misere")
    if piccolo_risk(cards) <= t["piccolo"]:
        alone.append("piccolo")
    for level in (8, 7, 6):
        if best_tricks >= t[f"solo {level}"]:
            alone.append(f"solo {level} {best_suit}")
    if petite_misere_risk(cards) <= t["petite_misere"]:
        alone.append("petite_misere")
    choice = first(alone)
    if choice:
        return choice
    status = mine.get("status")
    if status == "emballeur":
        suit = pair_suit(view, me)
        action = cheapest_raise(legal, suit) if suit else None
        if action and raise_spare(by_suit[suit], action) >= t["raise"]:
            return action
        return "pass"
    # join a proposal
    for action in sorted(emballer_options(legal), key=lambda a: -by_suit[a[-1]]):
        if by_suit[action[-1]] >= t["emballer"]:
            return action
    if status == "proposing":
        if "maintain" in legal_set and by_suit.get(proposed_suit(mine), 0) >= t["maintain"]:
            return "maintain"
        return "pass"
    for action in sorted(proposal_options(cards, legal), key=lambda a: -by_suit[a[-1]]):
        if by_suit[action[-1]] >= t["propose"]:
            return action
    return "pass"


def pair_suit(view, me) -> str | None:
    for entry in reversed(view["auction"]):
        words = entry["action"].split()
        if entry["seat"] == me and words[0] in ("emballer", "raise"):
            return words[-1]
    return None


def seat_standing(view: HandView) -> dict[str, Any]:
    """The seat's own entry of the Belgian auction's standing (status, proposal, partner)."""
    return {e["seat"]: e for e in (view.get("standing") or [])}.get(view["seat"], {})


def proposed_suit(standing: dict[str, Any]) -> str:
    return standing.get("proposal") or "S"


def emballer_options(legal: list[str]) -> list[str]:
    return [a for a in legal if a.startswith("emballer ")]


def proposal_options(cards: list[str], legal: list[str]) -> list[str]:
    """The proposals of suits the hand holds at least ``PROPOSE_LENGTH`` cards of."""
    return [a for a in legal if a.startswith("propose ")
            and sum(1 for c in cards if c[1] == a[-1]) >= PROPOSE_LENGTH]


def cheapest_raise(legal: list[str], suit: str) -> str | None:
    raises = [a for a in legal if a.startswith("raise ") and a.endswith(suit)]
    return min(raises, key=lambda a: int(a.split()[1]), default=None)


def raise_spare(suit_tricks: float, action: str) -> float:
    """The tricks an emballeur's pair has to spare over a raise (``raise N S``): its own
    tricks in the suit and the about 4.5 the proposer promised, less the N it commits to."""
    return suit_tricks + PROPOSER_TRICKS - int(action.split()[1])


def piccolo_risk(cards: list[str]) -> float:
    """A piccolo's misère risk: the hand but its single ace (the trick it takes); a hand
    with no ace or several cannot make a piccolo (infinite)."""
    aces = [c for c in cards if c[0] == "A"]
    if len(aces) != 1:
        return math.inf
    return misere_risk([c for c in cards if c != aces[0]])


def petite_misere_risk(cards: list[str]) -> float:
    """A petite misère's risk: the hand but its highest card (discarded before the play)."""
    worst = max(cards, key=lambda c: RANK_VALUE[c[0]])
    return misere_risk([c for c in cards if c != worst])


def belgian_discard(view: HandView, rules=None, calls: str | dict | None = None) -> str:
    """Petite misère: throw the card most likely to win a trick."""
    cards = view["hand"]
    best = min(cards, key=lambda c: misere_risk([x for x in cards if x != c]))
    return "discard " + best


def belgian_trump(view: HandView, rules=None, calls: str | dict | None = None) -> str:
    cards = view["hand"]
    return "trump " + best_trump(cards)[1]
