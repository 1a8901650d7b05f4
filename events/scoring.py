"""Duplicate scoring: one deal played at several tables, each result compared with those who
held the same cards in the same place (docs/events.md, "Scoring").

Pure numbers: a table's result of a deal is the engine's numbers per direction, in the
order the engine counts them (``module.CHAIN.counted`` of ``hand.result()``: per side in Bid
Whist, per seat in the other games; ``events.deals.directions_of`` reads them).  A direction is
what the same cards make comparable: Bid Whist's side (seats 0 and 2, or 1 and 3), a seat in
the others.

Two scores per direction:

* **matchpoints** -- 2 for each other table's result this one beats in the same direction, 1
  for each it ties, out of a top of ``2 × (n − 1)`` for ``n`` tables; as a percentage of the
  top (a field of one table scores 50%);
* **difference** -- the result minus the field's average in the same direction (its own
  result included, so the differences of a direction add up to zero), capped at ``± cap``
  so that one wild deal does not decide an event.

Which number is compared is :func:`relative`: a direction's result minus the average of the
other directions at its table, so that what the others made counts against it (Bid Whist's
two sides: own points minus the other side's; in a game whose results add up to zero at
each table the order is the raw numbers' own).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias, TypeVar

K = TypeVar("K", bound=Hashable)
Number: TypeAlias = float | Fraction  # a result: an engine's number, or one made relative


@dataclass(frozen=True)
class DirectionScore:
    """One direction's scores at one table for one deal."""

    result: float  # the number compared (:func:`relative` of the table's result)
    matchpoints: float  # 2 per result beaten, 1 per tie (a part of the top when adjusted)
    top: int  # 2 × (n − 1)
    percent: float  # matchpoints / top × 100; 50 when alone
    difference: float  # result minus the field's average, capped
    adjusted: bool = False  # not played in time: a percentage given (:func:`adjusted`)


def relative(values: Sequence[float]) -> list[float]:
    """Each direction's number minus the average of the other directions at its table."""
    return [float(v) for v in _relative(values)]


def _relative(values: Sequence[float]) -> list[Fraction]:
    """:func:`relative` in exact fractions, so that results equal once made relative tie
    (a division by three rounds two equal numbers apart in floating point)."""
    exact = [Fraction(v) for v in values]
    count = len(exact)
    if count < 2:
        return exact
    total = sum(exact, Fraction(0))
    return [v - (total - v) / (count - 1) for v in exact]


def matchpoints(results: Mapping[K, Number]) -> dict[K, int]:
    """2 for each other result beaten, 1 for each tied, per key (a table)."""
    exact = {key: Fraction(value) for key, value in results.items()}
    ordered = sorted(exact.values())
    below: dict[Fraction, int] = {}
    equal: dict[Fraction, int] = {}
    for index, value in enumerate(ordered):
        below.setdefault(value, index)
        equal[value] = equal.get(value, 0) + 1
    return {key: 2 * below[value] + (equal[value] - 1) for key, value in exact.items()}


def percentages(results: Mapping[K, Number]) -> dict[K, float]:
    """Matchpoints as a percentage of the top, 2 × (n − 1); 50 for a field of one."""
    top = 2 * (len(results) - 1)
    if top == 0:
        return {key: 50.0 for key in results}
    return {key: 100.0 * points / top for key, points in matchpoints(results).items()}


def differences(results: Mapping[K, Number], cap: float | None = None
                ) -> dict[K, float]:
    """Each result minus the field's average (its own included), within ``± cap``."""
    if not results:
        return {}
    exact = {key: Fraction(value) for key, value in results.items()}
    average = sum(exact.values(), Fraction(0)) / len(exact)
    out = {}
    for key, value in exact.items():
        difference = value - average
        if cap is not None:
            difference = max(-Fraction(cap), min(Fraction(cap), difference))
        out[key] = float(difference)
    return out


def score_deal(tables: Mapping[K, Sequence[float]], cap: float | None = None
               ) -> dict[K, list[DirectionScore]]:
    """The scores of one deal played at several tables: ``tables`` gives each table's result,
    one number per direction (the same count at every table); each direction is compared
    with the same direction at the other tables."""
    directions = {len(values) for values in tables.values()}
    if len(directions) > 1:
        raise ValueError("every table of a deal has the same directions")
    compared = {table: _relative(values) for table, values in tables.items()}
    out: dict[K, list[DirectionScore]] = {table: [] for table in tables}
    for direction in range(directions.pop() if directions else 0):
        field = {table: values[direction] for table, values in compared.items()}
        points = matchpoints(field)
        percent = percentages(field)
        difference = differences(field, cap)
        top = 2 * (len(field) - 1)
        for table, value in field.items():
            out[table].append(DirectionScore(float(value), points[table], top,
                                             percent[table], difference[table]))
    return out


def adjusted(percent: float, tables: int, cap: float | None = None) -> DirectionScore:
    """The score of a direction whose table did not finish the deal in time: ``percent`` of
    the top of a field of ``tables`` (every table that was to play it), as the bridge
    programs' "average minus" (40%).  No result is compared; it weighs in a player's
    percentage as a deal played in that field would.  Its difference is where ``percent``
    lies between the worst and the best a capped difference can be: 50% is 0, 0% is
    ``-cap``, 100% is ``+cap`` (so 40% is a fifth of the cap below the field's average); 0
    without a cap."""
    top = 2 * (tables - 1)
    difference = 0.0 if cap is None else float(Fraction(cap) * (Fraction(percent) - 50) / 50)
    return DirectionScore(result=0.0, matchpoints=top * percent / 100, top=top,
                          percent=float(percent), difference=difference, adjusted=True)


def overall_percent(scores: Iterable[DirectionScore]) -> float:
    """A player's percentage over the deals they played: their matchpoints over the tops they
    could have made (a deal of a larger field weighs more); 50 when every field was one."""
    scores = list(scores)
    top = sum(s.top for s in scores)
    if top == 0:
        return 50.0
    return 100.0 * sum(s.matchpoints for s in scores) / top


def total_difference(scores: Iterable[DirectionScore]) -> float:
    """A player's difference score over an event: the sum of their capped differences, one per
    deal they played (a deal of a larger field weighs as any other: its difference is already
    from that field's average)."""
    return float(sum((Fraction(s.difference) for s in scores), Fraction(0)))


def positions(totals: Mapping[K, float], places: int = 6) -> dict[K, int]:
    """Each key's place in a ranking by ``totals``, highest first: one more than the number of
    totals above it, so equal totals (to ``places`` decimals: sums of fractions read as
    floating point) share a place and the next place is skipped (1, 2, 2, 4)."""
    rounded = {key: round(value, places) for key, value in totals.items()}
    ordered = sorted(rounded.values(), reverse=True)
    first: dict[float, int] = {}
    for index, value in enumerate(ordered):
        first.setdefault(value, index + 1)
    return {key: first[value] for key, value in rounded.items()}
