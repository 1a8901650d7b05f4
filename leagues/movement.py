"""The movement of an evening in rounds: who sits out each round and who sits with whom, so that
everyone meets as many different players as the numbers allow.  Pure Python (no Django): the
draw (``leagues.draw.draw_round``) gives it who is present and what the earlier rounds were,
``bench/movement.py`` measures it, ``tests/leagues/test_movement.py`` checks its promises.

Players (tables of three or four, each for themselves):

1. Sit-outs: when the number present is not a multiple of the table's size, those who sat out
   fewest rounds this evening sit out (then those who sat out fewest evenings this season, then
   by lot), so nobody sits out twice before everyone present has sat out once.  A league that
   plays five-seat tables (``table_sizes``: the dealer sits out each deal) seats the players
   left over at tables of one more instead, as few as the numbers need; only those who cannot
   be seated so (6, 7 or 11 present) sit out.
2. Seats: a local search from several shuffles (``TRIES``), each improved by swapping two
   players of different tables while a swap lowers the cost, keeps the seating of least cost.
   The cost of a table is, for each two players at it, how often they met at a table earlier
   this evening (times ``EVENING_WEIGHT``) plus how often earlier this season (``season``,
   only for the "spread" draw): a repeat meeting this evening costs more than every season's
   meeting together.  The search is deterministic for a given ``random.Random``.

3. Places at the table (``rotate_seats``): the search above says who sits at which table;
   within each table, the order of its seats (who sits where, who deals first, who partners
   whom across the table) is then the one that gives fewest players the seat they had in the
   last round they played, then fewest a seat they had at all this evening (of the orders of
   that table, the first with fewest).  So nobody sits in the same seat two rounds running
   unless every player of their table had that same seat in their last round.

Partners drawn each round (an individual Bid Whist evening: tables of four, partners across,
seats 0 and 2 against 1 and 3): the players' movement above, ``partners`` given (how often
each two partnered this evening, ``partnerships``):

4. The cost of a table adds, for the best of its three ways to pair its four, ``PARTNER_WEIGHT``
   times the square of how often each pair of partners partnered before this evening.  A
   repeated partner costs a hundred second meetings: partners share every score of the round,
   so partnering someone again is what a player notices, while meeting them again across the
   table as an opponent is what small numbers force anyway.  The search therefore trades any
   number of repeated opponents it meets in practice for one partner fewer repeated.
5. Places at the table (``rotate_seats`` with ``partners``): first the orders that repeat fewest
   partners (the least of ``PARTNER_WEIGHT``'s cost, over the table's three pairings), then
   the seats' rule above among them.  So nobody partners the same player twice while a
   pairing of their table without it exists.

Pairs (Bid Whist): the round robin's circle method.  Each round is one of its rotations: the
first that gives the bye to a pair that sat out fewest rounds, and repeats fewest matches of
the evening, starting from the round the evening is at.  With the same pairs present all
evening, ``n - 1`` rounds (``n`` pairs, one more for a bye when odd) meet every pair once.
Each match's directions (``orient_matches``): the pair that sat North–South (``pair_0``, seats
0 and 2) more often this evening sits East–West, so a pair changes direction from one round to
the next unless its opponent changed less often.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Sequence
from itertools import combinations, permutations
from typing import TypeVar

T = TypeVar("T", bound=Hashable)

TRIES = 4
STEPS_PER_PLAYER = 150
EVENING_WEIGHT = 1000
PARTNER_WEIGHT = 100 * EVENING_WEIGHT
PARTNER_SEATS = ((0, 2), (1, 3))


def pair_key(a: Hashable, b: Hashable) -> frozenset:
    return frozenset((a, b))


def table_sizes(count: int, size: int, bigger: bool = False) -> list[int]:
    """The sizes of the tables for ``count`` players: tables of ``size``, the rest sitting out;
    or, ``bigger`` (five-seat tables), as many seated as tables of ``size`` and ``size + 1``
    can hold, with as few of the bigger tables as that needs (listed last): 9 players at 4 + 5,
    10 at 5 + 5, 13 at 4 + 4 + 5, 7 at one table of 5 and two sitting out."""
    if not bigger:
        return [size] * (count // size)
    for seated in range(count, size - 1, -1):
        larger = seated % size  # seated = smaller * size + larger * (size + 1)
        if larger * (size + 1) <= seated:
            smaller = (seated - larger * (size + 1)) // size
            return [size] * smaller + [size + 1] * larger
    return []


def choose_sit_outs(present: Sequence[T], size: int, sat_out: Counter,
                    season_sat_out: Counter, rng: random.Random,
                    count: int | None = None) -> list[T]:
    """Those who sit out this round: as many as the tables leave over (``count``; by default
    what tables of ``size`` leave), taken from those who sat out fewest rounds of this evening,
    then fewest evenings this season, then by lot."""
    count = len(present) % size if count is None else count
    order = sorted(present, key=lambda p: (sat_out[p], season_sat_out[p], rng.random()))
    return order[:count]


def pair_cost(a: Hashable, b: Hashable, met: Counter, season: Counter) -> int:
    """What seating ``a`` and ``b`` together costs: the square of how often they met this
    evening (a third meeting costs more than two second ones), times ``EVENING_WEIGHT``, plus
    how often they met this season."""
    key = pair_key(a, b)
    return EVENING_WEIGHT * met[key] * met[key] + season[key]


def table_cost(table: Sequence[T], met: Counter, season: Counter,
               partners: Counter | None = None) -> int:
    """The cost of ``table``: its meetings, and with ``partners`` (a partnership game), the
    cost of the best pairing of its four (``pairing_cost``)."""
    cost = sum(pair_cost(a, b, met, season) for a, b in combinations(table, 2))
    if partners is not None and len(table) == 4:
        cost += min(pairing_cost(order, partners) for order in pairings(table))
    return cost


def pairings(table: Sequence[T]) -> list[tuple[T, T, T, T]]:
    """The three ways to pair a table of four, each as an order of its seats (partners at 0
    and 2, and at 1 and 3)."""
    a, b, c, d = table
    return [(a, b, c, d), (a, c, b, d), (a, b, d, c)]


def pairing_cost(order: Sequence[T], partners: Counter) -> int:
    """What seating ``order`` (partners across: 0 and 2, 1 and 3) repeats of partners:
    ``PARTNER_WEIGHT`` times the square of how often each pair of partners partnered."""
    return sum(PARTNER_WEIGHT * partners[pair_key(order[i], order[j])] ** 2
               for i, j in PARTNER_SEATS)


def seat_tables(players: Sequence[T], size: int, met: Counter, rng: random.Random,
                season: Counter | None = None, tries: int = TRIES,
                sizes: Sequence[int] | None = None,
                partners: Counter | None = None) -> list[list[T]]:
    """``players`` (a multiple of ``size``) in tables of ``size`` (or of ``sizes``, which add
    up to the players: five-seat tables among tables of four), as few pairs who met before
    sharing a table as the search finds (``met``: this evening's meetings, by ``pair_key``);
    with ``partners`` (this evening's partnerships, by ``pair_key``: tables of four in
    partnerships), as few repeated partners first.  The order within a table is the
    search's: ``rotate_seats`` chooses who partners whom."""
    season = season if season is not None else Counter()
    players = list(players)
    if not players:
        return []
    if sizes is None:
        sizes = [size] * (len(players) // size)
    starts = [sum(sizes[:i]) for i in range(len(sizes))]
    best: list[list[T]] | None = None
    best_cost = 0
    for _try in range(max(tries, 1)):
        rng.shuffle(players)
        tables = [players[start:start + n] for start, n in zip(starts, sizes, strict=True)]
        cost, tables = _anneal(tables, met, season, rng, partners)
        if best is None or cost < best_cost:
            best, best_cost = [list(t) for t in tables], cost
        if best_cost == 0:
            break
    assert best is not None
    return best


def _anneal(tables: list[list[T]], met: Counter, season: Counter,
            rng: random.Random, partners: Counter | None = None) -> tuple[int, list[list[T]]]:
    """Swaps of two players of different tables, a worse one taken now and then while the
    temperature is high (simulated annealing), then only better ones; returns the least cost
    seen and its tables."""
    if len(tables) < 2:
        return table_cost(tables[0], met, season, partners) if tables else 0, tables

    def joined(table: list[T], index: int, newcomer: T) -> int:
        cost = sum(pair_cost(newcomer, other, met, season)
                   for i, other in enumerate(table) if i != index)
        if partners is not None and len(table) == 4:
            seated = [newcomer if i == index else other for i, other in enumerate(table)]
            cost += min(pairing_cost(order, partners) for order in pairings(seated))
        return cost

    cost = sum(table_cost(t, met, season, partners) for t in tables)
    best_cost, best = cost, [list(t) for t in tables]
    steps = STEPS_PER_PLAYER * sum(len(t) for t in tables)
    for step in range(steps):
        if not cost:
            break
        temperature = EVENING_WEIGHT * (1 - step / steps) ** 2
        t1, t2 = rng.sample(range(len(tables)), 2)
        first, second = tables[t1], tables[t2]
        i, j = rng.randrange(len(first)), rng.randrange(len(second))
        a, b = first[i], second[j]
        delta = (joined(first, i, b) + joined(second, j, a)
                 - joined(first, i, a) - joined(second, j, b))
        if delta <= 0 or (temperature > 1 and rng.random() < math.exp(-delta / temperature)):
            first[i], second[j] = b, a
            cost += delta
            if cost < best_cost:
                best_cost, best = cost, [list(t) for t in tables]
    return best_cost, best


def meetings(rounds: Sequence[Sequence[Sequence[T]]]) -> Counter:
    """How often each two sat at one table over ``rounds`` (each a list of tables)."""
    met: Counter = Counter()
    for tables in rounds:
        for table in tables:
            for a, b in combinations(table, 2):
                met[pair_key(a, b)] += 1
    return met


def partnerships(rounds: Sequence[Sequence[Sequence[T]]]) -> Counter:
    """How often each two partnered over ``rounds`` (each a list of tables, each table's players
    in the order of its seats: partners across, 0 and 2, 1 and 3; tables of four only)."""
    partners: Counter = Counter()
    for tables in rounds:
        for table in tables:
            if len(table) == 4:
                partners.update(pair_key(table[i], table[j]) for i, j in PARTNER_SEATS)
    return partners


def opponents(rounds: Sequence[Sequence[Sequence[T]]]) -> Counter:
    """How often each two sat at one table of four as opponents over ``rounds`` (seats in
    order, as ``partnerships``)."""
    against: Counter = Counter()
    for tables in rounds:
        for table in tables:
            if len(table) == 4:
                against.update(pair_key(table[i], table[j])
                               for i in (0, 2) for j in (1, 3))
    return against


def circle_round(teams: Sequence[T | None], index: int) -> list[tuple[T | None, T | None]]:
    """Rotation ``index`` of the circle method (``teams`` even, None a bye)."""
    n = len(teams)
    index %= n - 1
    rotating = list(teams[1:])
    if index:
        rotating = rotating[-index:] + rotating[:-index]
    order = [teams[0], *rotating]
    return [(order[i], order[n - 1 - i]) for i in range(n // 2)]


def pair_round(pairs: Sequence[T], met: Counter, sat_out: Counter,
               start: int) -> tuple[list[tuple[T, T]], list[T]]:
    """One round of matches between ``pairs`` (in a fixed order: the season's), and the pair
    with the bye: the circle method's rotation from ``start`` on that gives the bye to a pair
    that sat out fewest rounds, then repeats fewest matches of the evening (``met``)."""
    teams: list[T | None] = [*pairs, *([None] if len(pairs) % 2 else [])]
    if len(teams) < 2:
        return [], list(pairs)
    fewest = min((sat_out[p] for p in pairs), default=0)
    best: tuple[tuple[int, int], list[tuple[T, T]], list[T]] | None = None
    for step in range(len(teams) - 1):
        matches: list[tuple[T, T]] = []
        byes: list[T] = []
        for a, b in circle_round(teams, start + step):
            if a is None or b is None:
                byes.extend(p for p in (a, b) if p is not None)
            else:
                matches.append((a, b))
        unfair = len([p for p in byes if sat_out[p] > fewest])
        repeats = sum(met[pair_key(a, b)] for a, b in matches)
        if best is None or (unfair, repeats) < best[0]:
            best = ((unfair, repeats), matches, byes)
    assert best is not None
    return best[1], best[2]


def rotate_seats(tables: Sequence[Sequence[T]], had: dict[T, Counter],
                 last: dict[T, int] | None = None,
                 partners: Counter | None = None) -> list[list[T]]:
    """Each table's players in the order of its seats that gives fewest of them the seat they
    had in the last round they played (``last``), then fewest a seat they had earlier this
    evening (``had[player][seat]``: how often), then fewest such times; the given order when
    it is as good (a first round keeps the draw's order).  With ``partners`` (how often each
    two partnered this evening), a table of four's orders that repeat fewest partners come
    first (``pairing_cost``: partners across, seats 0 and 2, 1 and 3).  Who sits at which
    table is not changed."""
    last = last or {}
    out = []
    for table in tables:
        best, best_cost = list(table), None
        by_pairs = partners if partners is not None and len(table) == 4 else None
        for order in permutations(table):
            cost = ((pairing_cost(order, by_pairs) if by_pairs is not None else 0,)
                    + seats_cost(order, had, last))
            if best_cost is None or cost < best_cost:
                best, best_cost = list(order), cost
                if cost == (0, 0, 0, 0):
                    break
        out.append(best)
    return out


def seats_cost(order: Sequence[T], had: dict[T, Counter],
               last: dict[T, int]) -> tuple[int, int, int]:
    """What an order of a table's seats repeats: players in their last round's seat, players in
    a seat they had this evening, and how many times they had it."""
    repeats = [had.get(player, Counter())[seat] for seat, player in enumerate(order)]
    return (sum(1 for seat, player in enumerate(order) if last.get(player) == seat),
            sum(1 for r in repeats if r), sum(repeats))


def orient_matches(matches: Sequence[tuple[T, T]], north_south: Counter,
                   east_west: Counter) -> list[tuple[T, T]]:
    """Each match (North–South pair first) turned so that the pair that sat North–South more
    often this evening, compared to East–West, sits East–West; left as it is when even."""
    out = []
    for a, b in matches:
        lean_a = north_south[a] - east_west[a]
        lean_b = north_south[b] - east_west[b]
        out.append((b, a) if lean_a > lean_b else (a, b))
    return out


def places_so_far(rounds: Sequence[Sequence[Sequence[T]]]) -> tuple[dict[T, Counter], dict[T, int]]:
    """Over ``rounds`` (each a list of tables, each table's players in the order of its seats,
    earliest first): how often each player had each seat, and the seat of their last table
    (what ``rotate_seats`` reads)."""
    had: dict[T, Counter] = {}
    last: dict[T, int] = {}
    for tables in rounds:
        for table in tables:
            for place, player in enumerate(table):
                had.setdefault(player, Counter())[place] += 1
                last[player] = place
    return had, last


def partners_round(present: Sequence[T], rounds: Sequence[Sequence[Sequence[T]]],
                   sat_out: Counter, rng: random.Random, season_sat_out: Counter | None = None,
                   ) -> tuple[list[T], list[list[T]]]:
    """One round of an evening whose partners are drawn each round, after ``rounds`` (this
    evening's tables so far, each in the order of its seats): who sits out (the players'
    rule), and the tables of four, each in the order of its seats (partners across), with the
    partners' cost."""
    out = choose_sit_outs(list(present), 4, sat_out, season_sat_out or Counter(), rng)
    seated = [player for player in present if player not in out]
    partners = partnerships(rounds)
    had, last = places_so_far(rounds)
    tables = rotate_seats(seat_tables(seated, 4, meetings(rounds), rng, partners=partners),
                          had, last, partners=partners)
    return out, tables
