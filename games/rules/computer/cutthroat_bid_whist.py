"""Computer players for Cutthroat Bid Whist: three players, each for themselves.

Only the declarer scores, so the two others play together against it: for a defender the
other defender is a partner (do not overtake it, let it win cheaply), for the declarer both
others are opponents.  Everything here reads the seat's view alone.

- **Bidding**: the four-player evaluation (:func:`.bidding.bid_whist_options`: top cards, trump
  length, ruffs, long suits, in the hand's own card order) gives the tricks in hand; the tricks
  the declarer takes are modelled from self-play as ``TRICKS_BASE + TRICKS_PER_TRICK`` times
  that, with ``TRICKS_SD`` of spread.  The computer player bids the cheapest winning bid of the mode
  with the best expected points, higher while seats are still to speak and the higher bid keeps
  most of the expectation, and passes below ``MIN_EXPECTATION``.
- **Discards and trumps**: the four-player ones (:func:`.bidding.bid_whist_discard`,
  :func:`.bidding.bid_whist_declare`): keep the trumps and top cards, short side suits.
- **Card play**: club heuristics from what has been seen (:class:`Table`): draw trumps as
  declarer with the best trump, cash sure winners, lead low from a long suit or return
  partner's suit; win as cheaply as possible, with a card that holds when someone is still to
  play, never overtake partner, and throw the lowest card of the shortest side suit.
  ``easy`` forgets the cards played (it knows only its own hand).  ``strong`` deals the unseen
  cards many times consistently with what it has seen (voids, hand sizes, the declarer's
  hidden discards, a shown kitty), plays each candidate card out with the same heuristics on
  every deal and keeps the best mean score; but two habits stand unless another card is
  clearly better: in notrump a defender on lead returns its partner's suit
  (:func:`partners_suit_back`), and a seat void in the suit led throws a joker
  (:func:`joker_first`).

What the blunder count (:mod:`.blunders`) reads of a played hand is the shared computer
players' reading (:func:`.knowledge.read`, :func:`.knowledge.sample`, the double-dummy
:class:`.double_dummy.Solver`), which this module's :func:`play_spec`, :func:`read_hidden` and
:func:`deck` fit to three seats: the declarer alone on one side, the two defenders on the other,
and an empty fourth seat (``kernel.PlaySpec.seats``).
"""

from __future__ import annotations

import math
import random
import time

from games.rules import cutthroat_bid_whist as ct
from games.rules.base import HandView
from games.rules.bid_whist import _TRUMP_BASE as TRUMP
from games.rules.bid_whist import NO_SUIT, _order_tables, trick_so_far
from games.rules.cards import ALL_CARDS, CARD_INDEX, JOKER_DECK, mask_of

from . import bid_whist, bidding
from .bid_whist import deck as deck  # the 54 cards (the shape's deck)
from .bid_whist import read_hidden as read_hidden  # the discards, a shown kitty: the declarer's
from .hooks import DOUBLE_DUMMY as DOUBLE_DUMMY  # a review gives none
from .hooks import auction_known as auction_known  # none known before the play
from .hooks import order_dealt as order_dealt  # the order does not matter
from .kernel import WIN, PlaySpec, bits
from .knowledge import contract_of, memo, seat_of, trump_group
from .search import clearly_better

GAME = ct.GAME
DECK_MASK = mask_of(JOKER_DECK)

# Measured in self-play (docs/computer-players.md, "Cutthroat Bid Whist"): the best hand of a deal made
# to declare, played out at ``normal``: tricks taken (the discards included) against the
# evaluation of the hand before the kitty.
TRICKS_BASE = 2.5
TRICKS_PER_TRICK = 1.0
TRICKS_SD = 1.8
NOTRUMP_TRICKS = 0.0  # too few notrump declarers in the sample to tell them apart
# The declarer keeps from hand and kitty what a Bid Whist declarer does by the hand-set rule
# (bidding.bid_whist_discard reads it here, the game's thresholds).
THRESHOLDS = {"keep": bid_whist.THRESHOLDS["keep"]}
MIN_EXPECTATION = 0.5  # points a bid must be expected to gain
PREEMPT_SHARE = 0.8  # bid higher than needed while that keeps this share of the expectation

SAMPLES = 24  # strong: deals sampled per card decision
BUDGET = 0.12  # strong: seconds per card decision (soft), once MIN_SAMPLES are done
MIN_SAMPLES = 4


def rules_of(view: HandView) -> ct.Rules:
    return ct.Rules.from_overrides(view.get("rules") or {})


def choose_action(view: HandView, level: str, rng: random.Random) -> str:
    """The action of the seat to act, from its view (see the module docstring)."""
    legal = view.get("legal") or []
    if level == "random":
        if not legal:
            return "discard " + " ".join(sorted(rng.sample(view["hand"], view["discard_count"])))
        return rng.choice(legal)
    if len(legal) == 1:
        return legal[0]
    rules = rules_of(view)
    phase = view["phase"]
    if phase == "auction":
        return call(view, rules, careful=level != "easy")
    if phase == "discard":
        return bidding.bid_whist_discard(view, rules)
    if phase == "declare":
        return bidding.bid_whist_declare(view, rules)
    table = Table(view, rules, memory=level != "easy")
    if level == "strong":
        return "play " + ALL_CARDS[search(table, rng)]
    return "play " + ALL_CARDS[table.heuristic()]


# -- the shared reading of a hand in play (the blunder count) ------------------------------------


def play_spec(view: HandView, rules: ct.Rules) -> PlaySpec:
    """The trick rules and sides of the hand in play for ``view``'s seat: the declarer's side
    (0) against the two defenders' (1), a fourth seat that holds nothing (2); the score is the
    declarer's points for the declarer, minus them for a defender (:func:`value`)."""
    me, contract = seat_of(view), contract_of(view)
    strength, suit_id, follow = _order_tables(
        view["trump"], view["direction"], rules.downtown_ace, rules.downtown_side_suits)
    declarer = contract["declarer"]

    def declarer_score(tricks: tuple[int, ...]) -> float:
        points = declarer_points(rules, contract["bid"], contract["mode"], declarer,
                                 tricks[declarer])
        return points if me == declarer else -points

    side = (*(0 if s == declarer else 1 for s in range(ct.SEATS)), 2)
    aim = (WIN,) * 4
    return PlaySpec(strength, suit_id, follow, side, aim, ct.TRICKS_PER_HAND,
                    memo(declarer_score, side, aim, me), me,
                    tuple(s == declarer for s in range(4)), trump_group(view["trump"]),
                    seats=ct.SEATS)


# -- bidding -------------------------------------------------------------------------------------


def _at_least(mean: float, threshold: int) -> float:
    """P(tricks >= threshold) for tricks ~ Normal(mean, TRICKS_SD), in whole tricks."""
    return 0.5 * math.erfc((threshold - 0.5 - mean) / (TRICKS_SD * math.sqrt(2)))


def expectation(mean: float, bid: int, factor: int) -> float:
    """Expected points of declaring ``bid`` when the tricks taken average ``mean``: made, every
    trick taken counts; set, minus the bid."""
    value = 0.0
    for tricks in range(bid, ct.TRICKS_IN_ALL + 1):
        value += (_at_least(mean, tricks) - _at_least(mean, tricks + 1)) * tricks
    return factor * (value - (1 - _at_least(mean, bid)) * bid)


def expected_tricks(hand_tricks: float, mode: str) -> float:
    return TRICKS_BASE + TRICKS_PER_TRICK * hand_tricks + (NOTRUMP_TRICKS if mode == "notrump"
                                                           else 0.0)


def call(view: HandView, rules: ct.Rules, *, careful: bool = True) -> str:
    legal = view["legal"]
    still_to_speak = len(view["auction"]) < ct.SEATS - 1
    best_action, best_value = None, None
    for hand_tricks, mode, bids in bidding.bids_by_mode(legal, view["hand"], rules):
        mean = expected_tricks(hand_tricks, mode)
        factor = 2 if mode == "notrump" and rules.notrump_double else 1
        if not careful:  # easy: bid when the count covers the cheapest bid
            value = mean - int(bids[0].split()[1]) - 0.5
            action = bids[0]
        else:
            value = expectation(mean, int(bids[0].split()[1]), factor)
            action = bids[0]
            if still_to_speak:  # shut the others out while it stays nearly as good
                for higher in bids[1:]:
                    if expectation(mean, int(higher.split()[1]), factor) < PREEMPT_SHARE * value:
                        break
                    action = higher
        if best_value is None or value > best_value:
            best_action, best_value = action, value
    if "pass" not in legal:  # a stuck dealer
        return best_action or min((a for a in legal if a.startswith("bid ")),
                                  key=lambda a: int(a.split()[1]))
    threshold = MIN_EXPECTATION if careful else 0.0
    if best_action is not None and best_value is not None and best_value > threshold:
        return best_action
    return "pass"


# -- what the seat has seen ----------------------------------------------------------------------


class Table:
    """The hand in play as the seat sees it: card order, what is unseen, voids, the trick."""

    def __init__(self, view: HandView, rules: ct.Rules, *, memory: bool = True):
        self.rules = rules
        self.me: int = seat_of(view)
        contract = contract_of(view)
        self.declarer: int = contract["declarer"]
        self.bid: int = contract["bid"]
        self.mode: str = contract["mode"]
        self.trump: str | None = view["trump"]
        self.strength, self.suit_id, self.follow = _order_tables(
            self.trump, view["direction"], rules.downtown_ace, rules.downtown_side_suits)
        self.trump_group = -1 if self.trump is None else "SHDC".index(self.trump)
        self.hand = mask_of(view["hand"])
        self.legal = mask_of(a[5:] for a in view["legal"])
        self.sizes = list(view["hand_sizes"])
        self.won = list(view["tricks_won"])
        self.voids = [0, 0, 0]  # per seat: bit g = void in suit group g
        played = 0
        first_leads: dict[int, int] = {}  # seat -> suit group of its first side-suit lead
        for trick in [*view["tricks"], {"cards": view["trick"]}]:
            led = -1
            for position, entry in enumerate(trick["cards"]):
                index = CARD_INDEX[entry["card"]]
                played |= 1 << index
                group = self.suit_id[index]
                if led < 0:
                    if group != NO_SUIT:
                        led = group
                        if position == 0 and group != self.trump_group:
                            first_leads.setdefault(entry["seat"], group)
                elif group != led:
                    self.voids[entry["seat"]] |= 1 << led
        known = self.hand | played
        self.discards = mask_of(view.get("discards") or [])
        known |= self.discards
        # a shown kitty (or the declarer's own): its unplayed cards are the declarer's
        self.kitty = mask_of(view["kitty"]) if view.get("kitty") and self.me != self.declarer \
            else 0
        self.unseen = DECK_MASK & ~known if memory else DECK_MASK & ~self.hand
        self.played = played
        self.first_leads = first_leads
        self.tricks_left = ct.TRICKS_PER_HAND - len(view["tricks"])
        # the trick in progress
        self.trick = [(e["seat"], CARD_INDEX[e["card"]]) for e in view["trick"]]
        self.led, self.best, self.best_seat = -1, -1, -1
        for seat, index in self.trick:
            s, g = self.strength[index], self.suit_id[index]
            if self.led < 0:
                if g != NO_SUIT:
                    self.led, self.best, self.best_seat = g, s, seat
            elif s > self.best and (s >= TRUMP or g == self.led):
                self.best, self.best_seat = s, seat

    # -- who plays with whom -------------------------------------------------------------------

    def partner(self, seat: int) -> int | None:
        """The other defender for a defender; the declarer plays alone."""
        if seat == self.declarer:
            return None
        return 3 - seat - self.declarer

    # -- card facts ----------------------------------------------------------------------------

    def beats(self, index: int) -> bool:
        s = self.strength[index]
        if self.led < 0:
            return self.suit_id[index] != NO_SUIT
        return s > self.best and (s >= TRUMP or self.suit_id[index] == self.led)

    def higher_unseen(self, index: int) -> int:
        """Unseen cards of the same suit group (trumps with the jokers) that beat ``index``."""
        group = self.suit_id[index]
        if group == NO_SUIT:
            return 0
        s = self.strength[index]
        return sum(1 << i for i in bits(self.unseen & self.follow[group])
                   if self.strength[i] > s)

    def is_boss(self, index: int) -> bool:
        return self.suit_id[index] != NO_SUIT and not self.higher_unseen(index)

    def may_ruff(self, seat: int, group: int) -> bool:
        """Whether ``seat`` may be void in ``group`` and still hold a trump."""
        if self.trump_group < 0 or group == self.trump_group:
            return False
        trumps_out = self.unseen & self.follow[self.trump_group]
        return bool(self.voids[seat] >> group & 1) and bool(trumps_out) \
            and not self.voids[seat] >> self.trump_group & 1

    # -- the heuristic -------------------------------------------------------------------------

    def heuristic(self) -> int:
        legal = bits(self.legal)
        if len(legal) == 1:
            return legal[0]
        if not self.trick:
            return self.lead(legal)
        return self.follow_card(legal)

    def lowest(self, cards: list[int]) -> int:
        """The card to throw: the lowest of the suit led; when void, a worthless notrump joker,
        else the lowest side card of the shortest side suit that is not a sure winner."""
        strength = self.strength
        if self.led >= 0 and all(self.suit_id[c] == self.led for c in cards):
            return min(cards, key=lambda c: strength[c])
        jokers = [c for c in cards if self.suit_id[c] == NO_SUIT]
        if jokers:
            return jokers[0]
        side = [c for c in cards if strength[c] < TRUMP]
        if not side:
            return min(cards, key=lambda c: strength[c])
        length = {g: sum(1 for c in side if self.suit_id[c] == g) for g in range(4)}
        return min(side, key=lambda c: (self.is_boss(c), length[self.suit_id[c]], strength[c]))

    def draw_trumps(self, cards: list[int]) -> int | None:
        """The declarer on lead draws the opponents' trumps with its best one, when that is the
        best still out or it holds more trumps than are out."""
        strength = self.strength
        trumps = [c for c in cards if strength[c] >= TRUMP]
        if self.trick or self.trump_group < 0 or self.me != self.declarer or not trumps:
            return None
        trumps_out = self.unseen & self.follow[self.trump_group]
        if not trumps_out or all(self.voids[s] >> self.trump_group & 1
                                 for s in range(3) if s != self.me):
            return None
        top = max(trumps, key=lambda c: strength[c])
        if self.is_boss(top) or len(trumps) > trumps_out.bit_count():
            return top
        return None

    def lead(self, cards: list[int]) -> int:
        strength, suit_id = self.strength, self.suit_id
        me = self.me
        opponents = [s for s in range(3) if s != me and s != self.partner(me)]
        trumps = [c for c in cards if strength[c] >= TRUMP]
        drawing = self.draw_trumps(cards)
        if drawing is not None:
            return drawing
        side = [c for c in cards if strength[c] < TRUMP and suit_id[c] != NO_SUIT]
        safe = [c for c in side if self.is_boss(c)
                and not any(self.may_ruff(s, suit_id[c]) for s in opponents)]
        if safe:
            return max(safe, key=lambda c: (self._held(suit_id[c]), strength[c]))
        partner = self.partner(me)
        if partner is not None and partner in self.first_leads:
            group = self.first_leads[partner]
            mine = [c for c in side if suit_id[c] == group]
            if mine:
                return min(mine, key=lambda c: strength[c])  # return partner's suit
        if side:
            # low from the longest side suit; a defender avoids a suit the declarer ruffs
            def key(c):
                ruffed = self.may_ruff(self.declarer, suit_id[c]) if me != self.declarer else 0
                return (not ruffed, self._held(suit_id[c]), -strength[c])
            return max(side, key=key)
        if trumps:
            top = max(trumps, key=lambda c: strength[c])
            return top if self.is_boss(top) else min(trumps, key=lambda c: strength[c])
        return cards[0]

    def _held(self, group: int) -> int:
        return (self.hand & self.follow[group]).bit_count()

    def follow_card(self, cards: list[int]) -> int:
        me = self.me
        partner = self.partner(me)
        last = len(self.trick) == ct.SEATS - 1
        if self.best_seat >= 0 and self.best_seat == partner:
            return self.lowest(cards)  # never overtake partner
        winners = sorted((c for c in cards if self.beats(c)), key=lambda c: self.strength[c])
        if not winners:
            return self.lowest(cards)
        if last:
            return winners[0]  # win as cheaply as possible
        following = (me + 1) % ct.SEATS
        if following == partner:
            return winners[0]  # partner, last, will not overtake
        # an opponent plays after us: win only with a card that holds
        for card in winners:
            group = self.suit_id[card]
            holds = not self.higher_unseen(card)
            if self.strength[card] < TRUMP and self.may_ruff(following, group):
                holds = False
            if self.led < 0:  # a joker was led in notrump: this card sets the suit
                holds = holds and not self.voids[following] >> group & 1
            if holds:
                return card
        return self.lowest(cards)


# -- strong: sampled deals played out ------------------------------------------------------------


def candidates(table: Table) -> list[int]:
    """One card of each run of equivalent legal cards: neither an unseen card nor the card
    winning the trick lies between them (the ace and the 3 under a 2 on the table, downtown,
    are not one: the ace takes the trick)."""
    out: list[int] = []
    by_group: dict[int, list[int]] = {}
    for card in bits(table.legal):
        by_group.setdefault(table.suit_id[card], []).append(card)
    for group, cards in by_group.items():
        if group == NO_SUIT:
            out.append(cards[0])
            continue
        cards.sort(key=lambda c: table.strength[c])
        others = [table.strength[i] for i in bits(table.unseen & table.follow[group])]
        if table.best_seat >= 0:
            others.append(table.best)
        out.append(cards[0])
        for lower, higher in zip(cards, cards[1:], strict=False):
            if any(table.strength[lower] < s < table.strength[higher] for s in others):
                out.append(higher)
    return out


def sample(table: Table, rng: random.Random, tries: int = 30) -> list[int] | None:
    """The other seats' hands on one deal consistent with what ``table`` has seen."""
    me, declarer = table.me, table.declarer
    places = [s for s in range(3) if s != me]
    need = {s: table.sizes[s] for s in places}
    if me != declarer:
        need[-1] = ct.KITTY_SIZE  # the declarer's discards, place -1
    unseen = bits(table.unseen)
    allowed: dict[int, list[int]] = {}
    for card in unseen:
        group = table.suit_id[card]
        ok = []
        for place in need:
            if place >= 0 and group != NO_SUIT and table.voids[place] >> group & 1:
                continue
            if table.kitty >> card & 1 and place not in (declarer, -1):
                continue  # a shown kitty card is with the declarer (or discarded)
            ok.append(place)
        allowed[card] = ok
    unseen.sort(key=lambda c: len(allowed[c]))
    for _ in range(tries):
        left = dict(need)
        hands = {p: 0 for p in need}
        order = unseen[:]
        rng.shuffle(order)
        order.sort(key=lambda c: len(allowed[c]))
        for card in order:
            room = [p for p in allowed[card] if left[p]]
            if not room:
                break
            place = rng.choice(room)
            left[place] -= 1
            hands[place] |= 1 << card
        else:
            out = [0, 0, 0]
            out[me] = table.hand
            for p in places:
                out[p] = hands[p]
            return out
    return None


class Playout:
    """The rest of one sampled deal, played by the heuristics with every hand known."""

    __slots__ = ("hands", "to_act", "trick", "led", "best", "best_seat", "won", "left")

    def __init__(self, table: Table, hands: list[int]):
        self.hands = hands
        self.to_act = table.me
        self.trick = list(table.trick)
        self.led, self.best, self.best_seat = table.led, table.best, table.best_seat
        self.won = list(table.won)
        self.left = table.tricks_left

    def play(self, table: Table, index: int) -> None:
        seat = self.to_act
        self.hands[seat] ^= 1 << index
        self.led, self.best, self.best_seat = trick_so_far(  # the engine's rule of the trick
            self.led if self.trick else -1, self.best, self.best_seat, table.suit_id[index],
            table.strength[index], seat)
        self.trick.append((seat, index))
        if len(self.trick) < ct.SEATS:
            self.to_act = (seat + 1) % ct.SEATS
            return
        self.won[self.best_seat] += 1
        self.left -= 1
        self.to_act = self.best_seat
        self.trick = []
        self.led = self.best = self.best_seat = -1

    def legal(self, table: Table) -> int:
        hand = self.hands[self.to_act]
        if not self.trick or self.led < 0:
            return hand
        return hand & table.follow[self.led] or hand

    def choose(self, table: Table) -> int:
        """The heuristics, for the seat to act, knowing every hand of this deal."""
        strength, suit_id = table.strength, table.suit_id
        seat = self.to_act
        cards = bits(self.legal(table))
        if len(cards) == 1:
            return cards[0]
        partner = table.partner(seat)
        if not self.trick:
            # cash the best card still out, else low from the longest suit
            rest = self.hands[(seat + 1) % 3] | self.hands[(seat + 2) % 3]
            for card in sorted(cards, key=lambda c: -strength[c]):
                group = suit_id[card]
                if group != NO_SUIT and not any(strength[i] > strength[card]
                                                for i in bits(rest & table.follow[group])):
                    return card
            return min(cards, key=lambda c: (strength[c] >= TRUMP, suit_id[c] == NO_SUIT,
                                             -(self.hands[seat] & table.follow[suit_id[c]]
                                               if suit_id[c] != NO_SUIT else 0).bit_count(),
                                             strength[c]))
        if self.best_seat >= 0 and self.best_seat == partner:
            return min(cards, key=lambda c: (suit_id[c] != NO_SUIT, strength[c]))
        led, best = self.led, self.best
        winners = [c for c in cards if (suit_id[c] != NO_SUIT if led < 0 else
                                        strength[c] > best and (strength[c] >= TRUMP
                                                                or suit_id[c] == led))]
        if winners:
            return min(winners, key=lambda c: strength[c])
        return min(cards, key=lambda c: (suit_id[c] != NO_SUIT, strength[c] >= TRUMP,
                                         strength[c]))

    def finish(self, table: Table) -> None:
        while self.left:
            self.play(table, self.choose(table))


def value(table: Table, won: list[int]) -> float:
    """The declarer's points from the tricks of a finished deal, for the seat deciding: its own
    points as declarer, minus them as a defender; a small nudge for its side's tricks."""
    declarer = table.declarer
    points = declarer_points(table.rules, table.bid, table.mode, declarer, won[declarer])
    mine = points if table.me == declarer else -points
    tricks = won[declarer] + 1  # the discards
    side = tricks if table.me == declarer else ct.TRICKS_IN_ALL - tricks
    return mine + 0.02 * side


def declarer_points(rules: ct.Rules, bid: int, mode: str, declarer: int, won: int) -> int:
    """The declarer's points when it took ``won`` tricks in play (its discards are one more)."""
    return ct.score_hand(rules, bid, mode, declarer, won + 1)["points"][declarer]


def search(table: Table, rng: random.Random) -> int:
    cards = candidates(table)
    if len(cards) == 1:
        return cards[0]
    drawing = table.draw_trumps(bits(table.legal))
    if drawing is not None:  # the club habit, played without searching: playouts undervalue it
        return drawing
    per_deal: dict[int, list[float]] = {card: [] for card in cards}
    done = 0
    start = time.perf_counter()
    for _ in range(SAMPLES):
        hands = sample(table, rng)
        if hands is None:
            break
        for card in cards:
            playout = Playout(table, hands[:])
            playout.play(table, card)
            playout.finish(table)
            per_deal[card].append(value(table, playout.won))
        done += 1
        if done >= MIN_SAMPLES and time.perf_counter() - start > BUDGET:
            break
    if not done:
        return table.heuristic()
    habit = table.heuristic()
    choice = max(cards, key=lambda c: (sum(per_deal[c]) / done + (0.05 if c == habit else 0.0),
                                       -c))
    # The playouts never return a suit, and throw a joker only when nothing else is lower:
    # their means cannot judge these two habits, which a partner notices most.
    habit_card = partners_suit_back(table, cards)
    if habit_card is None:
        habit_card = joker_first(table, cards)
    if habit_card is not None and choice != habit_card \
            and not clearly_better(per_deal, choice, habit_card):
        return habit_card
    return choice


def joker_first(table: Table, cards: list[int]) -> int | None:
    """In notrump, void in the suit led, a joker among the candidates: the joker (it never
    wins a trick; throwing a card that may instead is the blunder kind ``joker_kept``)."""
    if not table.trick or table.trump_group >= 0 or table.led < 0:
        return None
    if any(table.suit_id[c] == table.led for c in cards):
        return None
    return next((c for c in cards if table.suit_id[c] == NO_SUIT), None)


def partners_suit_back(table: Table, cards: list[int]) -> int | None:
    """A defender on lead in notrump, its partner's first-led suit in hand: the lowest card
    of it (the lead a partner waits for; the blunder kind ``no_return``), if a candidate."""
    if table.trick or table.trump_group >= 0:
        return None
    partner = table.partner(table.me)
    if partner is None or partner not in table.first_leads:
        return None
    group = table.first_leads[partner]
    mine = [c for c in cards if table.suit_id[c] == group]
    return min(mine, key=lambda c: table.strength[c]) if mine else None

