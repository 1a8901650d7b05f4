"""The search kernel: trick play on bitmasks, a fast playout policy and exact endgame search.

The engines referee; this module only *simulates* the rest of a hand on a sampled deal, as fast
as pure Python allows.  Everything game-specific is in a :class:`PlaySpec` built from the view
(:mod:`games.rules.computer.knowledge`): each card's strength (trumps are ``>= TRUMP``), its suit
group (``NO_SUIT`` for a notrump joker, which follows nothing and never wins), the cards that
follow each suit group, the sides, and the score of a finished hand.  The trick rules are the
engines' own: Bid Whist's order tables are imported from ``bid_whist`` (jokers, downtown), who
wins a trick is the engine's own function (``bid_whist.trick_so_far``) and the follow logic
mirrors ``BidWhistHand``'s, of which Solo and Belgian Whist are the special case without jokers.

A playout policy plays like a steady club player who cannot see through the backs of the cards:
win cheaply, do not overtake partner, cash a boss card when leading, duck in a misère.  It is
deliberately simple: the search spends its time on many samples, not on a clever playout.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from games.rules.bid_whist import trick_so_far

TRUMP = 100  # every trump's strength is at least this (bid_whist._TRUMP_BASE)
NO_SUIT = 4

# What a seat wants from the tricks (the playout policy reads it).
WIN, LOSE, SINK = 0, 1, 2  # take tricks; take none (misère declarer); make a misère player win


@dataclass
class PlaySpec:
    strength: tuple[int, ...]  # per card index (cards.ALL_CARDS order)
    suit_id: tuple[int, ...]  # 0..3 = S H D C group, NO_SUIT = belongs to no suit
    follow: tuple[int, ...]  # cards that follow a lead of each suit group
    side: tuple[int, ...]  # seats with the same number play together
    aim: tuple[int, ...]  # WIN, LOSE or SINK per seat
    total_tricks: int  # tricks in the whole hand (12 in Bid Whist and petite misère)
    # final tricks per seat -> value for the computer player
    score: Callable[[tuple[int, ...]], float]
    me: int
    declaring: tuple[bool, ...] = (False, False, False, False)
    trump_group: int = -1  # suit group of the trumps, -1 without
    # The playouts' leads as a club player makes them (a level's choice, search.SearchLevel):
    # put partner in with a suit they hold the boss of; a defender leads a side suit, not
    # trumps.  Without it, a lead is low from a random suit.
    club_leads: bool = False
    # The seats that play a trick: 4, or 3 at Cutthroat's table, whose positions keep a
    # fourth hand that holds nothing (the solver and the blunder count read them; the playout
    # policy and the searches are the four-seat games').
    seats: int = 4
    # The lowest and highest scores the tricks still to play can reach, by the tricks won so
    # far and the tricks left (:func:`score_bounds`): filled as the search meets them.
    reach: dict[tuple[int, ...], tuple[float, float]] = field(default_factory=dict,
                                                             compare=False, repr=False)


@cache
def shares(left: int, seats: int) -> tuple[tuple[int, ...], ...]:
    """Every way ``left`` tricks can go to the first ``seats`` of four seats."""
    if seats == 1:
        return ((left, 0, 0, 0),)
    out = []
    for first in range(left + 1):
        for rest in shares(left - first, seats - 1):
            out.append((first, *rest[:3]))
    return tuple(out)


def score_bounds(spec: PlaySpec, won: list[int], left: int) -> tuple[float, float]:
    """The lowest and highest score of the hand once the ``left`` tricks still to play have
    gone, whoever takes them: every way of sharing them out is scored once per spec."""
    key = (*won, left)
    found = spec.reach.get(key)
    if found is None:
        values = [spec.score(tuple(w + extra for w, extra in zip(won, share, strict=True)))
                  for share in shares(left, spec.seats)]
        found = spec.reach[key] = (min(values), max(values))
    return found


class Position:
    """The cards still to be played on one sampled deal, and the trick in progress (four hands
    always: at three seats the fourth is empty and never plays)."""

    __slots__ = ("hands", "to_act", "count", "led", "best", "best_seat", "won", "left")

    def __init__(self, hands, to_act, count, led, best, best_seat, won, left):
        self.hands = hands  # four masks
        self.to_act = to_act
        self.count = count  # cards in the current trick
        self.led = led  # suit group to follow, -1 unset
        self.best = best  # strength of the card winning the trick so far
        self.best_seat = best_seat
        self.won = won  # tricks per seat so far (the whole hand)
        self.left = left  # tricks still to finish, the current one included

    def copy(self) -> Position:
        return Position(self.hands[:], self.to_act, self.count, self.led, self.best,
                        self.best_seat, self.won[:], self.left)


def legal_mask(spec: PlaySpec, pos: Position) -> int:
    hand = pos.hands[pos.to_act]
    if pos.count == 0 or pos.led < 0:
        return hand
    return hand & spec.follow[pos.led] or hand


def play(spec: PlaySpec, pos: Position, index: int) -> None:
    """Play card ``index`` for ``pos.to_act`` (assumed legal); who wins the trick so far is the
    engine's own rule (``bid_whist.trick_so_far``)."""
    seat = pos.to_act
    pos.hands[seat] ^= 1 << index
    pos.led, pos.best, pos.best_seat = trick_so_far(
        pos.led if pos.count else -1, pos.best, pos.best_seat, spec.suit_id[index],
        spec.strength[index], seat)
    pos.count += 1
    seats = spec.seats
    if pos.count < seats:
        pos.to_act = (seat + 1) % seats
        return
    winner = pos.best_seat
    pos.won[winner] += 1
    pos.left -= 1
    pos.count = 0
    pos.led = -1
    pos.to_act = winner


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# -- the playout policy ------------------------------------------------------------------------


def _lowest(strength, mask: int) -> int:
    best_i, best_s = -1, 1 << 30
    while mask:
        low = mask & -mask
        i = low.bit_length() - 1
        s = strength[i]
        if s < best_s:
            best_i, best_s = i, s
        mask ^= low
    return best_i


def _highest(strength, mask: int) -> int:
    best_i, best_s = -1, -1
    while mask:
        low = mask & -mask
        i = low.bit_length() - 1
        s = strength[i]
        if s > best_s:
            best_i, best_s = i, s
        mask ^= low
    return best_i


def beating(spec: PlaySpec, mask: int, led: int, best: int) -> int:
    """The cards of ``mask`` that would take the lead from a card of strength ``best``."""
    strength, suit_id = spec.strength, spec.suit_id
    out = 0
    m = mask
    while m:
        low = m & -m
        i = low.bit_length() - 1
        s = strength[i]
        if s > best and (s >= TRUMP or suit_id[i] == led):
            out |= low
        m ^= low
    return out


def _throw(spec: PlaySpec, pos: Position, legal: int) -> int:
    """The cheapest card: the lowest of the suit led, or, when void, the lowest side card of
    the longest side suit (keeping guards on the short ones), a trump only when nothing else."""
    strength = spec.strength
    if pos.count and pos.led >= 0 and legal & spec.follow[pos.led]:
        return _lowest(strength, legal)
    best_group, best_count = -1, 0
    for group in range(4):
        if group == spec.trump_group:
            continue
        count = (legal & spec.follow[group]).bit_count()
        if count > best_count:
            best_group, best_count = group, count
    if best_group < 0:
        return _lowest(strength, legal)
    return _lowest(strength, legal & spec.follow[best_group])


def policy(spec: PlaySpec, pos: Position, rng: random.Random) -> int:
    """A sensible card for ``pos.to_act`` on a fully known deal (the playouts' policy)."""
    seat = pos.to_act
    legal = legal_mask(spec, pos)
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    strength = spec.strength
    aim = spec.aim[seat]
    if pos.count == 0 or pos.led < 0:
        if aim == WIN:
            # draw trumps as declarer in control of them; cash a boss card when there is one;
            # else lead low from a random suit
            everyone = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]
            group = spec.trump_group
            if group >= 0 and spec.declaring[seat]:
                trumps = spec.follow[group]
                mine = legal & trumps
                if mine:
                    side = spec.side
                    theirs = 0
                    for other in range(4):
                        if side[other] != side[seat]:
                            theirs |= pos.hands[other]
                    theirs &= trumps
                    if theirs:
                        top = _highest(strength, mine)
                        if strength[top] > strength[_highest(strength, theirs)]:
                            return top
            bosses = []
            for group in range(4):
                mine = legal & spec.follow[group]
                if mine:
                    top = _highest(strength, mine)
                    if top == _highest(strength, everyone & spec.follow[group]):
                        bosses.append(top)
            if bosses:
                return bosses[rng.randrange(len(bosses))]
            if spec.club_leads:
                to_partner = _lead_to_partner(spec, pos, legal, everyone)
                if to_partner >= 0:
                    return to_partner
                trumps = spec.follow[spec.trump_group] if spec.trump_group >= 0 else 0
                if not spec.declaring[seat] and legal & ~trumps:
                    legal &= ~trumps
            cards = bits(legal)
            pick = cards[rng.randrange(len(cards))]
            group = spec.suit_id[pick]
            if group == NO_SUIT:
                return pick
            return _lowest(strength, legal & spec.follow[group])
        cards = bits(legal)
        pick = cards[rng.randrange(len(cards))]
        group = spec.suit_id[pick]
        return _lowest(strength, legal & spec.follow[group]) if group != NO_SUIT else pick
    best_seat = pos.best_seat
    winners = beating(spec, legal, pos.led, pos.best)
    if aim == LOSE:
        safe = legal & ~winners
        return _highest(strength, safe) if safe else _highest(strength, legal)
    if aim == SINK:
        target_winning = best_seat >= 0 and spec.aim[best_seat] == LOSE
        if target_winning:
            safe = legal & ~winners
            return _highest(strength, safe) if safe else _lowest(strength, legal)
        return _lowest(strength, legal)
    side = spec.side
    if best_seat >= 0 and side[best_seat] == side[seat] and spec.aim[best_seat] == WIN:
        return _throw(spec, pos, legal)  # partner is winning: never overtake
    if not winners:
        return _throw(spec, pos, legal)
    if pos.count == 3:
        return _lowest(strength, winners)
    follows = winners & spec.follow[pos.led]
    if follows:
        return _highest(strength, follows) if pos.count == 2 else _lowest(strength, follows)
    return _lowest(strength, winners)  # ruff as cheaply as possible


def _lead_to_partner(spec: PlaySpec, pos: Position, legal: int, everyone: int) -> int:
    """The lowest card of a side suit whose boss a partner holds and which no opponent can
    ruff, or -1."""
    seat, side = pos.to_act, spec.side
    partners = [s for s in range(4) if s != seat and side[s] == side[seat]]
    opponents = [s for s in range(4) if side[s] != side[seat]]
    trumps = spec.follow[spec.trump_group] if spec.trump_group >= 0 else 0
    for group in range(4):
        if group == spec.trump_group:
            continue
        mine = legal & spec.follow[group]
        if not mine:
            continue
        boss = _highest(spec.strength, everyone & spec.follow[group])
        if not any(pos.hands[p] >> boss & 1 for p in partners):
            continue
        if all(pos.hands[o] & spec.follow[group] or not pos.hands[o] & trumps
               for o in opponents):
            return _lowest(spec.strength, mine)
    return -1


def playout(spec: PlaySpec, pos: Position, rng: random.Random) -> float:
    """Play ``pos`` out with the policy (changes ``pos``) and return the computer player's value."""
    while pos.left > 0:
        play(spec, pos, policy(spec, pos, rng))
    return spec.score(tuple(pos.won))


# -- exact search ------------------------------------------------------------------------------


EXACT, LOWER, UPPER = 0, 1, 2  # what a transposition-table entry's value is: the value, or a bound


def solve(spec: PlaySpec, pos: Position, alpha: float = float("-inf"),
          beta: float = float("inf"), table: dict[Any, Any] | None = None) -> float:
    """The exact value of ``pos`` for the computer player's side, every card known (alpha-beta).

    The computer player's side maximises, every other seat minimises (the paranoid reading, right
    for the two-sided contracts and safe for several misère players at once).  Cards that are
    equivalent -- neighbours in strength with nothing still out between them -- are tried once.
    ``table`` (a dict, one per decision: every candidate and every deal searched for it share
    it, its keys being whole positions) remembers the positions met at the start of a trick --
    the same four hands, leader and tricks won are reached by many orders of play, and by
    several sampled deals -- with their value or the bound the search found.
    """
    if pos.left == 0:
        return spec.score(tuple(pos.won))
    # Where no way the rest can go changes the outcome against the window, the rest is not
    # searched: a contract settled, or a misère already lost (the value lies within the
    # bounds, so this is the bound alpha-beta would have found).
    low, high = score_bounds(spec, pos.won, pos.left)
    if high <= alpha or low == high:
        return high
    if low >= beta:
        return low
    key = None
    if table is not None and pos.count == 0 and pos.left > 1:
        hands = pos.hands
        key = (hands[0], hands[1], hands[2], hands[3], pos.to_act, *pos.won)
        entry = table.get(key)
        if entry is not None:
            stored, flag = entry
            if flag == EXACT:
                return stored
            if flag == LOWER:
                if stored >= beta:
                    return stored
                if stored > alpha:
                    alpha = stored
            else:
                if stored <= alpha:
                    return stored
                if stored < beta:
                    beta = stored
        first_alpha, first_beta = alpha, beta
    seat = pos.to_act
    maximise = spec.side[seat] == spec.side[spec.me]
    legal = legal_mask(spec, pos)
    candidates = distinct_cards(spec, legal, pos.hands[0] | pos.hands[1] | pos.hands[2]
                                | pos.hands[3], pos.best if pos.count else -1)
    if table is not None and len(candidates) > 2:
        candidates = order_for_search(spec, pos, candidates)
    value = float("-inf") if maximise else float("inf")
    for index in candidates:
        child = pos.copy()
        play(spec, child, index)
        score = solve(spec, child, alpha, beta, table)
        if maximise:
            if score > value:
                value = score
            if value > alpha:
                alpha = value
        else:
            if score < value:
                value = score
            if value < beta:
                beta = value
        if alpha >= beta:
            break
    if key is not None and table is not None:
        flag = UPPER if value <= first_alpha else LOWER if value >= first_beta else EXACT
        table[key] = (value, flag)
    return value


def order_for_search(spec: PlaySpec, pos: Position, candidates: list[int]) -> list[int]:
    """The likeliest best cards first, so alpha-beta cuts sooner: leading, the strongest
    cards; following, the cheapest card that takes the trick, then the cheapest others."""
    strength = spec.strength
    if pos.count == 0 or pos.led < 0:
        return sorted(candidates, key=lambda i: -strength[i])
    led, best, suit_id = pos.led, pos.best, spec.suit_id
    partner_winning = spec.side[pos.best_seat] == spec.side[pos.to_act]
    def rank(i):
        s = strength[i]
        wins = s > best and (s >= TRUMP or suit_id[i] == led)
        return (0 if wins and not partner_winning else 1, s)
    return sorted(candidates, key=rank)


def distinct_cards(spec: PlaySpec, legal: int, unplayed: int, best: int = -1) -> list[int]:
    """One card of each run of equivalent cards in ``legal`` (the lowest of the run).

    Two cards of the same suit group are equivalent when no unplayed card of another hand lies
    between them in strength, nor the card winning the current trick (``best``): playing either
    gives the same tricks.
    """
    strength, suit_id = spec.strength, spec.suit_id
    cards = sorted(bits(legal), key=lambda i: (suit_id[i], strength[i]))
    others = unplayed & ~legal
    out = []
    previous = -1
    for index in cards:
        if previous >= 0 and suit_id[previous] == suit_id[index] and suit_id[index] != NO_SUIT:
            low, high = strength[previous], strength[index]
            between = others & spec.follow[suit_id[index]] if suit_id[index] < 4 else 0
            gap = low < best < high
            for other in bits(between):
                if low < strength[other] < high:
                    gap = True
                    break
            if not gap:
                previous = index
                continue
        out.append(index)
        previous = index
    return out
