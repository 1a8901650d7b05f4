"""Who sits with whom in an event: a Swiss round, and the arena's tables formed as people wait.

Pure (no Django, no clock, no database): the events' pages give the players' ids, scores and
histories, and store what comes back.  docs/events.md says what each guarantees.

A table is a tuple of player ids in seat order, seat 0 first.  In a partnership game (Bid
Whist) seats 0 and 2 are partners against seats 1 and 3; in the others (Cutthroat Bid Whist,
Solo Whist, Belgian Whist, whose alliances change every deal) everyone at a table is everyone
else's opponent.

Both formats search the same way (:func:`_form_tables`): the players in order of score, best
first; the best still unseated anchors the next table, which takes the next best who do not
meet again; when a table cannot be completed without a repeat the search backtracks.  It
first looks for tables with no repeat at all, then allows one (a repeated partner counts
twice, a repeated opponent once), then two, and so on: on a field small enough for the search
to finish (every field of a test, most rounds of a real event) the tables have the fewest
repeats possible, and among those the first in order of score.  On a field too large for the
budget (``SEARCH_BUDGET`` steps), or of more than ``SEARCH_TABLES`` tables, the tables are
formed table by table instead, each the best of the next few players, then players of tables
close in score swap while a swap removes repeats: still complete, deterministic and by score,
without the proof.

A Swiss round then seats each table's players in the directions (a seat, or in a partnership
game a side) that even out those they have held over the rounds, among the seatings that keep
who meets whom (in a partnership game, or another pairing of the same four that repeats no
more: ``_directions_evened``); and it leaves out the players away (paused or gone), as if
they were not there.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations
from typing import Protocol, TypeAlias, TypeVar

PlayerId: TypeAlias = Hashable
Table: TypeAlias = tuple[PlayerId, ...]

PARTNER_REPEAT = 2  # partnering again the same player weighs as two repeated opponents
OPPONENT_REPEAT = 1
SEARCH_BUDGET = 20_000  # steps of the search (a player tried in a seat) before the fallback
FALLBACK_WINDOW = 3  # the fallback's table is the best of the next WINDOW × size players
REPAIR_REACH = 8  # then a player swaps with one at most this many tables up or down
SEARCH_TABLES = 300  # a round of more tables goes to the fallback at once (the search recurses
# once per table: Python's stack holds about a thousand)


@dataclass(frozen=True)
class Standing:
    """A player of a Swiss event before a round: their score, who they have met (``opponents``;
    in a partnership game ``partners`` too), how many rounds they sat out (``byes``), how
    many times they have held each direction (``directions``: the count of direction ``d`` at
    index ``d``, missing ones 0; a side in a partnership game, a seat otherwise), and whether
    they are ``away`` (paused, or gone for good: not seated this round, and not sitting out
    either -- the round they miss is no bye)."""

    id: PlayerId
    score: float
    opponents: frozenset[PlayerId] = frozenset()
    partners: frozenset[PlayerId] = frozenset()
    byes: int = 0
    directions: tuple[int, ...] = ()
    away: bool = False


@dataclass(frozen=True)
class Waiting:
    """A player waiting in an arena: their score, whom they sat with at the table they just
    left (``last_table``: empty for a newcomer), when they began waiting (``since``: any
    number that orders arrivals, a clock's or a counter's) and how many times they have held
    each direction at the arena's tables (``directions``, as ``Standing.directions``)."""

    id: PlayerId
    score: float
    last_table: frozenset[PlayerId] = frozenset()
    since: float = 0.0
    directions: tuple[int, ...] = ()


@dataclass(frozen=True)
class Entrant:
    """A person registered in an arena, as the arena knows them now: seated at a table in play
    (``seated``), or away (``away``: paused, or gone for good), or free since ``free_since``
    (their last table's end, or the arena's start) and ``back_since`` (when they registered
    once the arena was running, or came back from a pause; None if neither)."""

    id: PlayerId
    score: float = 0.0
    seated: bool = False
    away: bool = False
    last_table: frozenset[PlayerId] = frozenset()
    free_since: float = 0.0
    back_since: float | None = None
    directions: tuple[int, ...] = ()  # each direction held so far (``Waiting.directions``)


def arena_waiting(entrants: Iterable[Entrant]) -> list[Waiting]:
    """Who of an arena's people waits for a table: everyone neither seated nor away.  A person
    who registered late or came back from a pause waits from then (the later of that and
    their last table's end), so that they are not taken for someone who has waited since
    long before, and they wait their turn behind those already waiting."""
    return [Waiting(id=each.id, score=each.score, last_table=each.last_table,
                    since=max(each.free_since, each.back_since)
                    if each.back_since is not None else each.free_since,
                    directions=each.directions)
            for each in _distinct(entrants) if not each.seated and not each.away]


@dataclass(frozen=True)
class Round:
    """The tables formed, and who sits out: a Swiss round's byes, or the arena's players left
    waiting for the next table to finish.  ``repeats``: the weight of the repeated meetings the
    tables hold (0 when nobody meets again); ``exact``: whether the search proved that no
    tables with fewer exist (False only after the fallback)."""

    tables: tuple[Table, ...]
    sitting_out: tuple[PlayerId, ...] = ()
    repeats: int = 0
    exact: bool = True


@dataclass
class _Search:
    size: int
    partnership: bool
    cost: Callable[[PlayerId, PlayerId, bool], int]  # (a, b, as partners?) -> weight
    budget: int
    steps: int = 0
    memo: dict[tuple[frozenset[PlayerId], int], bool] = field(default_factory=dict)


def swiss_round(players: Iterable[Standing], *, size: int, partnership: bool = False,
                seed: int = 0) -> Round:
    """The next round of a Swiss event: tables of ``size`` (3 or 4) by score, best with best,
    with as few repeated opponents (and partners, in a partnership game) as the field allows.

    When the field does not divide by ``size``, ``len(players) % size`` players sit out: the
    lowest-scored of those who have had the fewest byes (so nobody has a second bye while
    someone has had none).  Equal scores are ordered by ``seed``: the same players, in any
    order, and the same seed give the same round.

    Players ``away`` are left out before anything is decided: neither seated nor sitting out,
    the round is formed from the others alone.  Once the tables are formed, each table's
    players take the directions that even out the directions they have held most
    (``_directions_evened``): who sits with whom stays as it is, and who partners whom too
    unless another pairing of the same four, with no more repeats, evens out the sides."""
    _check_size(size, partnership)
    return _swiss(players, size=size, partnership=partnership, seed=seed)


def _swiss(players: Iterable[Standing], *, size: int, partnership: bool, seed: int) -> Round:
    """``swiss_round``'s work for any size of table, 2 too: ``fixed_pairs_round``'s tables of
    two pairs."""
    field_ = [p for p in _distinct(players) if not p.away]
    rng = random.Random(seed)
    order = _by_score(field_, rng)  # best first, ties in the seed's order
    sitting = len(order) % size
    # Byes: the fewest byes first, then the lowest score (the end of ``order``).
    rank = {p.id: index for index, p in enumerate(order)}
    byes = sorted(order, key=lambda p: (p.byes, -rank[p.id]))[:sitting]
    bye_ids = {p.id for p in byes}
    playing = [p for p in order if p.id not in bye_ids]
    by_id = {p.id: p for p in playing}

    def cost(a: PlayerId, b: PlayerId, partners: bool) -> int:
        if partners:
            return PARTNER_REPEAT if b in by_id[a].partners or a in by_id[b].partners else 0
        return OPPONENT_REPEAT if b in by_id[a].opponents or a in by_id[b].opponents else 0

    tables, repeats, exact = _form_tables([p.id for p in playing],
                                          _Search(size, partnership, cost, SEARCH_BUDGET))
    held = {p.id: p.directions for p in playing}
    tables = tuple(_directions_evened(table, held, partnership=partnership, cost=cost)
                   for table in tables)
    return Round(tables, tuple(p.id for p in byes), _total_repeats(tables, cost, partnership),
                 exact)


def fixed_pairs_round(pairs: Iterable[tuple[Standing, Standing]], *, seed: int = 0) -> Round:
    """A Swiss round of a partnership game whose partners are fixed (a league's registered
    pairs): the pairs are ``swiss_round``'s players, two to a table, so its guarantees hold
    for pairs -- by score, the fewest repeated meetings of two pairs (a member of one met a
    member of the other), byes to the fewest byes then the lowest score -- and partners are
    never split.  A pair is its two members' ``Standing``: its score their mean, its byes the
    most either had, its sides held their sum; away when either is.  Each table's first pair
    sits in seats 0 and 2, the second in 1 and 3, the sides evened as ``swiss_round`` evens a
    table's directions.  ``sitting_out``: the members of the pairs sitting out."""
    pairs = list(pairs)
    members = [member.id for pair in pairs for member in pair]
    if len(set(members)) != len(members):
        raise ValueError("a player is in two pairs")
    pair_of = {member.id: (first.id, second.id) for first, second in pairs
               for member in (first, second)}
    units = []
    for first, second in pairs:
        met = {pair_of[other] for member in (first, second) for other in member.opponents
               if other in pair_of}
        held = [sum(sides) for sides in zip(*((list(m.directions) + [0, 0])[:2]
                                              for m in (first, second)), strict=True)]
        units.append(Standing(id=(first.id, second.id), score=(first.score + second.score) / 2,
                              opponents=frozenset(met - {(first.id, second.id)}),
                              byes=max(first.byes, second.byes), directions=tuple(held),
                              away=first.away or second.away))
    formed = _swiss(units, size=2, partnership=False, seed=seed)
    tables = tuple((pair_0[0], pair_1[0], pair_0[1], pair_1[1])  # type: ignore[index]
                   for pair_0, pair_1 in formed.tables)
    sitting_out = tuple(member for pair in formed.sitting_out
                        for member in pair)  # type: ignore[attr-defined]
    return Round(tables, sitting_out, formed.repeats, formed.exact)


def arrangements(table: Table, *, partnership: bool) -> list[Table]:
    """The ways of seating ``table``'s players that keep its meetings: who partners whom in a
    partnership game (the two sides may change places), any order otherwise (everyone is
    everyone's opponent).  ``table`` itself first."""
    if partnership:
        t0, t1, t2, t3 = table
        return [table, (t1, t0, t3, t2)]
    return list(permutations(table))


def direction_excess(table: Table, held: Mapping[PlayerId, Sequence[int]], *,
                     partnership: bool) -> tuple[int, int]:
    """How unevenly ``table`` seats its players' directions.  A player's excess is how many
    more times they have held the direction they take here than the direction they have held
    least (0 when they take one of their least held); the table's is (the largest excess of
    its players, their total), compared in that order.  A direction is a seat, or in a
    partnership game a side (seat mod 2)."""
    count = 2 if partnership else len(table)
    excesses = []
    for seat, player in enumerate(table):
        past = (list(held.get(player, ())) + [0] * count)[:count]
        excesses.append(past[seat % count] - min(past))
    return max(excesses), sum(excesses)


def partnerships(table: Table) -> list[Table]:
    """The three ways of making partners (seats 0 and 2, 1 and 3) of a table's four players,
    ``table``'s own first."""
    t0, t1, t2, t3 = table
    return [table, (t0, t1, t3, t2), (t0, t2, t1, t3)]


def _directions_evened(table: Table, held: Mapping[PlayerId, Sequence[int]], *,
                       partnership: bool,
                       cost: Callable[[PlayerId, PlayerId, bool], int] | None = None) -> Table:
    """``table`` seated so that its players' directions are the most even
    (``direction_excess``), among the arrangements keeping its meetings; the first such in
    ``arrangements``' order (with no history, ``table`` as it was).

    In a partnership game, given the pairing's ``cost``, the partners may change too, to
    another way of pairing the same four that repeats no more (``table_repeats``): partners
    take a side together, so two partners who each need the other side can only both have it
    with someone else.  The repeats come first, the sides next, and only then the order of
    the pairing's preference (best with fourth, ``_seated``), which ``table`` already has."""
    pairings = [table]
    if partnership and cost is not None:
        weight = table_repeats(table, cost, partnership=True)
        pairings = [each for each in partnerships(table)
                    if table_repeats(each, cost, partnership=True) <= weight]
    return min((seating for each in pairings
                for seating in arrangements(each, partnership=partnership)),
               key=lambda each: direction_excess(each, held, partnership=partnership))


def _total_repeats(tables: Iterable[Table], cost: Callable[[PlayerId, PlayerId, bool], int],
                   partnership: bool) -> int:
    return sum(table_repeats(table, cost, partnership=partnership) for table in tables)


def arena_tables(waiting: Iterable[Waiting], *, size: int, partnership: bool = False,
                 seed: int = 0) -> Round:
    """Tables for the players waiting in an arena now (called again as each table finishes):
    as many tables of ``size`` as the waiting players fill, by score, best with best, keeping
    apart, as far as the numbers allow, players who sat at the same table last time.

    Those left over wait for the next table to finish: the latest arrivals (``since``), so
    nobody waits twice while a newcomer plays.  Equal scores are ordered by ``seed``.  Each
    table's players then take the seats that even out the directions they have held
    (``_directions_evened``, as a Swiss round's): who sits with whom stays as it is."""
    _check_size(size, partnership)
    field_ = _distinct(waiting)
    rng = random.Random(seed)
    order = _by_score(field_, rng)
    left = len(order) % size
    rank = {p.id: index for index, p in enumerate(order)}
    # The latest arrivals wait; among equal arrivals, the lowest-scored.
    waits = sorted(order, key=lambda p: (-p.since, -rank[p.id]))[:left]
    wait_ids = {p.id for p in waits}
    playing = [p for p in order if p.id not in wait_ids]
    by_id = {p.id: p for p in playing}

    def cost(a: PlayerId, b: PlayerId, partners: bool) -> int:
        # At the table just left, everyone met everyone: any role repeats that table.
        together = b in by_id[a].last_table or a in by_id[b].last_table
        return (PARTNER_REPEAT if partners else OPPONENT_REPEAT) if together else 0

    tables, repeats, exact = _form_tables([p.id for p in playing],
                                          _Search(size, partnership, cost, SEARCH_BUDGET))
    held = {p.id: p.directions for p in playing}
    tables = tuple(_directions_evened(table, held, partnership=partnership, cost=cost)
                   for table in tables)
    return Round(tables, tuple(p.id for p in order if p.id in wait_ids),
                 _total_repeats(tables, cost, partnership), exact)


def next_block(played: Iterable[set[int]], size: int) -> int:
    """An arena table's deals: the first deal of the first block of ``size`` deals of the
    event's set that nobody in ``played`` (each player's blocks played, by their first deal)
    has played, so that nobody plays a deal twice and players at the same pace play the same
    deals."""
    taken: set[int] = set().union(*played)
    first = 0
    while first in taken:
        first += size
    return first


@dataclass(frozen=True)
class Seating:
    """What the arena decides from who waits (``arena_seating``): the tables to open now (a
    negative id is a computer player's seat) and who goes on waiting."""

    tables: tuple[tuple[PlayerId, ...], ...]
    waiting: tuple[PlayerId, ...]


def arena_seating(waiting: list[Waiting], *, size: int, partnership: bool = False,
                  seed: int = 0, now: float, others_in_play: bool, max_wait: float,
                  fill: bool = False) -> Seating:
    """Who sits where in an arena now (times are numbers of seconds, as ``Waiting.since``;
    the players' ids are never negative integers).  The waiting fill as many tables as they
    can (``arena_tables``: by score, apart from last time's table-mates, the latest arrivals
    left over).  Those left over -- fewer than a table -- are seated with
    computer players (negative ids) at once when ``fill`` (the start), when no other table is
    in play (nobody else will come back), or when one of them has waited ``max_wait``;
    otherwise they wait for the next table to finish."""
    formed = arena_tables(waiting, size=size, partnership=partnership, seed=seed)
    tables = list(formed.tables)
    left = list(formed.sitting_out)
    if left:
        since = {each.id: each.since for each in waiting}
        in_play = others_in_play or bool(tables)
        if fill or not in_play or any(now - since[uid] >= max_wait for uid in left):
            by_id = {each.id: each for each in waiting}
            pads = [Waiting(id=-(k + 1), score=-1.0) for k in range(size - len(left))]
            last = arena_tables([by_id[uid] for uid in left] + pads, size=size,
                                partnership=partnership, seed=seed)
            tables += list(last.tables)
            left = []
    return Seating(tuple(tables), tuple(left))


def table_repeats(table: Table, cost: Callable[[PlayerId, PlayerId, bool], int], *,
                  partnership: bool) -> int:
    """The weight of the repeated meetings at ``table`` (seats 0 and 2, 1 and 3 partners in a
    partnership game; everyone opponents otherwise)."""
    total = 0
    for i, j in combinations(range(len(table)), 2):
        partners = partnership and (i - j) % 2 == 0
        total += cost(table[i], table[j], partners)
    return total


# -- the search ------------------------------------------------------------------------------


def _check_size(size: int, partnership: bool) -> None:
    if size not in (3, 4):
        raise ValueError(f"a table has 3 or 4 seats, not {size!r}")
    if partnership and size != 4:
        raise ValueError("a partnership game has tables of 4")


class _Scored(Protocol):
    @property
    def id(self) -> PlayerId: ...

    @property
    def score(self) -> float: ...


S = TypeVar("S", bound=_Scored)


def _distinct(players: Iterable[S]) -> list[S]:
    field_ = list(players)
    if len({p.id for p in field_}) != len(field_):
        raise ValueError("a player is listed twice")
    return field_


def _by_score(players: list[S], rng: random.Random) -> list[S]:
    """Best first; equal scores in the order ``rng`` shuffles them into, from an order that
    does not depend on the order they were given in."""
    players = sorted(players, key=lambda p: (type(p.id).__name__, repr(p.id)))
    rng.shuffle(players)
    return sorted(players, key=lambda p: -p.score)


class _OutOfBudget(Exception):
    pass


def _form_tables(order: list[PlayerId], search: _Search) -> tuple[tuple[Table, ...], int, bool]:
    """Tables of ``search.size`` from ``order`` (best first, a multiple of the size): the fewest
    repeats the search proves, else the fallback's.  Returns (tables, repeats, exact)."""
    allowance = 0
    if len(order) // search.size > SEARCH_TABLES:
        tables = _repaired(_fallback(order, search), order, search)
        return tables, _repeats(tables, search), False
    try:
        while True:
            found = _place(order, allowance, search)
            if found is not None:
                tables = tuple(found)
                return tables, _repeats(tables, search), True
            allowance += 1  # proved impossible with fewer: allow one more
    except _OutOfBudget:
        tables = _repaired(_fallback(order, search), order, search)
        return tables, _repeats(tables, search), False


def _repeats(tables: Iterable[Table], search: _Search) -> int:
    return sum(table_repeats(t, search.cost, partnership=search.partnership) for t in tables)


def _place(remaining: list[PlayerId], allowance: int, search: _Search) -> list[Table] | None:
    """Tables for every player of ``remaining`` (best first) with repeats weighing at most
    ``allowance``, the best unseated anchoring each; None when there are none."""
    if not remaining:
        return []
    key = (frozenset(remaining), allowance)
    if key in search.memo:
        return None
    anchor, rest = remaining[0], remaining[1:]
    for group in _groups(anchor, rest, allowance, search):
        table, weight = _seated(group, search)
        if weight > allowance:
            continue
        chosen = set(group)
        following = _place([p for p in rest if p not in chosen], allowance - weight, search)
        if following is not None:
            return [table, *following]
    search.memo[key] = False
    return None


def _pair_bound(a: PlayerId, b: PlayerId, search: _Search) -> int:
    """What ``a`` and ``b`` at one table cost at least: in a partnership game the seating is
    chosen once the table is full, so the cheaper of the two roles."""
    if search.partnership:
        return min(search.cost(a, b, True), search.cost(a, b, False))
    return search.cost(a, b, False)


def _groups(anchor: PlayerId, rest: list[PlayerId], allowance: int, search: _Search
            ) -> Iterator[tuple[PlayerId, ...]]:
    """The groups of ``size`` holding ``anchor`` and players of ``rest``, nearest in score
    first (``rest``'s order, lexicographically), whose repeats may stay within ``allowance``."""
    def extend(group: tuple[PlayerId, ...], start: int, spent: int
               ) -> Iterator[tuple[PlayerId, ...]]:
        if len(group) == search.size:
            yield group
            return
        for index in range(start, len(rest) - (search.size - len(group)) + 1):
            search.steps += 1
            if search.steps > search.budget:
                raise _OutOfBudget
            candidate = rest[index]
            added = sum(_pair_bound(member, candidate, search) for member in group)
            if spent + added <= allowance:
                yield from extend((*group, candidate), index + 1, spent + added)

    yield from extend((anchor,), 0, 0)


def _seated(group: tuple[PlayerId, ...], search: _Search) -> tuple[Table, int]:
    """The group in seat order, and its repeats: in score order; in a partnership game the
    pairing of partners with the fewest repeats, first the best with the fourth against the
    second and third, then the best with the third, then the best with the second."""
    if not search.partnership:
        return group, table_repeats(group, search.cost, partnership=False)
    g0, g1, g2, g3 = group
    best: tuple[Table, int] | None = None
    for table in ((g0, g1, g3, g2), (g0, g1, g2, g3), (g0, g2, g1, g3)):
        weight = table_repeats(table, search.cost, partnership=True)
        if best is None or weight < best[1]:
            best = (table, weight)
    assert best is not None
    return best


def _fallback(order: list[PlayerId], search: _Search) -> tuple[Table, ...]:
    """Table by table, best first: the anchor with the players among the next few
    (``FALLBACK_WINDOW`` tables' worth) who make the fewest repeats, nearest in score first."""
    remaining = list(order)
    tables = []
    while remaining:
        anchor, rest = remaining[0], remaining[1:]
        window = rest[:FALLBACK_WINDOW * search.size]
        best: tuple[int, Table, tuple[PlayerId, ...]] | None = None
        for others in combinations(window, search.size - 1):
            table, weight = _seated((anchor, *others), search)
            if best is None or weight < best[0]:
                best = (weight, table, others)
        assert best is not None
        tables.append(best[1])
        taken = set(best[2])
        remaining = [p for p in rest if p not in taken]
    return tuple(tables)


def _repaired(tables: tuple[Table, ...], order: list[PlayerId], search: _Search
              ) -> tuple[Table, ...]:
    """The fallback's tables with their repeats swapped away where one player of a table
    with a repeat and one of a table near it in score (``REPAIR_REACH``) can change places
    and the two tables together repeat less; until no such swap is left."""
    rank = {p: index for index, p in enumerate(order)}
    current = list(tables)
    weights = [table_repeats(t, search.cost, partnership=search.partnership) for t in current]
    improved = True
    while improved:
        improved = False
        for i in range(len(current)):
            if weights[i] == 0:
                continue
            near = sorted((j for j in range(max(0, i - REPAIR_REACH),
                                            min(len(current), i + REPAIR_REACH + 1)) if j != i),
                          key=lambda j: (abs(j - i), j))
            swap = _a_better_swap(current[i], near, current, weights[i], weights, rank, search)
            if swap is not None:
                j, table_i, weight_i, table_j, weight_j = swap
                current[i], weights[i], current[j], weights[j] = \
                    table_i, weight_i, table_j, weight_j
                improved = True
    return tuple(current)


def _a_better_swap(table: Table, near: list[int], current: list[Table], weight: int,
                   weights: list[int], rank: dict[PlayerId, int], search: _Search
                   ) -> tuple[int, Table, int, Table, int] | None:
    for j in near:
        other = current[j]
        for mine in table:
            for theirs in other:
                group_i = sorted([p for p in table if p != mine] + [theirs], key=rank.__getitem__)
                group_j = sorted([p for p in other if p != theirs] + [mine], key=rank.__getitem__)
                table_i, weight_i = _seated(tuple(group_i), search)
                table_j, weight_j = _seated(tuple(group_j), search)
                if weight_i + weight_j < weight + weights[j]:
                    return j, table_i, weight_i, table_j, weight_j
    return None
