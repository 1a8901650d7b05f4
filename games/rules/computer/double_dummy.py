"""The double-dummy result: the tricks a side takes with every card seen and best play by all.

:func:`side_tricks` answers by zero-window searches -- can the side take at least ``k`` more
tricks? -- on the search kernel's bitmask positions (:mod:`.kernel`), starting from a guess (the
tricks the side really took: the result is usually near it) and moving one trick at a time.
Two things make it affordable in pure Python: equivalent cards are tried once
(:func:`kernel.distinct_cards`), and a table remembers, for each position met at the start of a
trick, the bounds found on the tricks still to come -- keyed by the cards' ranks among those
still out, not the cards themselves, so that positions which differ only in which small cards
are gone are one (the trick counts so far are not in the key: the bounds are on the tricks to
come).  A search that runs past its deadline raises :class:`OutOfTime`.
"""

from __future__ import annotations

import time

from .kernel import PlaySpec, Position, distinct_cards, legal_mask, order_for_search, play


class OutOfTime(Exception):
    """The search did not settle before its deadline."""


class Solver:
    """Double-dummy searches on one deal (``spec``): the table of bounds is shared by every
    search on it, from the first trick or from a later one."""

    def __init__(self, spec: PlaySpec, side: int, side_wants_tricks: bool = True):
        self.spec = spec
        self.side = side  # the side whose tricks are counted (kernel.PlaySpec.side)
        self.maximises = side_wants_tricks  # a misère declarer wants as few as possible
        self.table: dict[tuple, tuple[int, int]] = {}
        self.nodes = 0
        self.deadline = float("inf")
        groups: dict[int, list[int]] = {}
        for card, suit in enumerate(spec.suit_id):
            groups.setdefault(suit, []).append(card)
        # each suit group's cards in strength order, as bits: for the keys by rank
        self.orders = [[1 << c for c in sorted(cards, key=lambda c: spec.strength[c])]
                       for _suit, cards in sorted(groups.items())]

    def side_tricks(self, pos: Position, guess: int, deadline: float) -> int:
        """The tricks still to come (the current one included) that the side takes from
        ``pos`` with best play by everyone."""
        self.deadline = deadline
        guess = max(0, min(pos.left, guess))
        if self._at_least(pos, guess):
            found = guess
            while found < pos.left and self._at_least(pos, found + 1):
                found += 1
            return found
        found = guess - 1
        while found > 0 and not self._at_least(pos, found):
            found -= 1
        return found

    def takes_at_least(self, pos: Position, target: int, deadline: float) -> bool:
        """Whether the side takes at least ``target`` of the tricks still to come from ``pos``
        with best play by everyone: one zero-window search, often far cheaper than the count
        (which needs two at its exact value), as when the question is the contract's."""
        self.deadline = deadline
        return self._at_least(pos, target)

    def _key(self, hands: list[int], leader: int) -> tuple:
        """The position by the ranks of the cards among those still out, per suit group."""
        h0, h1, h2, h3 = hands
        o0 = o1 = o2 = o3 = 0
        rank = 1
        for order in self.orders:
            for bit in order:
                if h0 & bit:
                    o0 |= rank
                elif h1 & bit:
                    o1 |= rank
                elif h2 & bit:
                    o2 |= rank
                elif h3 & bit:
                    o3 |= rank
                else:
                    continue
                rank <<= 1
            rank <<= 1  # a gap between the groups
        return (o0, o1, o2, o3, leader)

    def _at_least(self, pos: Position, target: int) -> bool:
        """Whether the side takes at least ``target`` of the tricks still to come, against
        best play (by the other side when the side wants tricks; by itself when it does
        not, the others then trying to give it tricks)."""
        if target <= 0:
            return True
        if target > pos.left:
            return False
        key = None
        if pos.count == 0:
            key = self._key(pos.hands, pos.to_act)
            bounds = self.table.get(key)
            if bounds is not None:
                if bounds[0] >= target:
                    return True
                if bounds[1] < target:
                    return False
        self.nodes += 1
        if not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise OutOfTime
        spec, side = self.spec, self.side
        # the seat to play wants "at least target" true when it plays for the counted side
        # and that side wants tricks, or plays against it and it does not
        wants_true = (spec.side[pos.to_act] == side) == self.maximises
        hands = pos.hands
        candidates = distinct_cards(spec, legal_mask(spec, pos),
                                    hands[0] | hands[1] | hands[2] | hands[3],
                                    pos.best if pos.count else -1)
        if len(candidates) > 1:
            candidates = order_for_search(spec, pos, candidates)
        result = not wants_true
        for card in candidates:
            child = pos.copy()
            play(spec, child, card)
            still = target
            if child.count == 0 and spec.side[child.to_act] == side:
                still -= 1  # the trick ended and the side took it
            if self._at_least(child, still) == wants_true:
                result = wants_true
                break
        if key is not None:
            low, high = self.table.get(key, (0, pos.left))
            self.table[key] = (max(low, target), high) if result else (low, min(high, target - 1))
        return result
