"""What the tuning benches share: the threshold a sample calls best from, the sample's figures by
band, and the held-out check (tuned on the even deals, judged on the odd ones)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import TypeVar

from bench.computer_players import summarise

Item = TypeVar("Item")
Points = list[tuple[float, float]]  # (the hand's figure, what calling gained or scored)


def best_threshold(points: Points, direction: str) -> tuple[float | None, float, int]:
    """(threshold, total score, calls) of the rule "call from the threshold" that maximises
    the total score over the sample; None when calling never gains.  ``direction``: "up" calls
    from the threshold up (trick counts), "down" from it down (misère risks)."""
    ordered = sorted(points, key=lambda p: -p[0] if direction == "up" else p[0])
    best, best_total, best_calls = None, 0.0, 0
    total = 0.0
    for i, (feature, value) in enumerate(ordered):
        total += value
        following = ordered[i + 1][0] if i + 1 < len(ordered) else None
        if following is not None and following == feature:
            continue  # a threshold falls between different evaluations only
        if total > best_total:
            best, best_total, best_calls = feature, total, i + 1
    return best, best_total, best_calls


def rounded_for_calls(threshold: float, direction: str) -> float:
    """The threshold to three decimals, rounded so that every call the sample made from it
    still calls: down for a trick count, up for a risk."""
    if direction == "up":
        return math.floor(threshold * 1000) / 1000
    return math.ceil(threshold * 1000) / 1000


def values_by_band(points: Points, width: float) -> dict[float, list[float]]:
    """The values of ``points`` by band of their feature (its floor), lowest band first."""
    by_band: dict[float, list[float]] = {}
    for feature, value in points:
        by_band.setdefault(round(math.floor(feature / width + 1e-9) * width, 2), []).append(value)
    return dict(sorted(by_band.items()))


def bands(points: Points, width: float) -> list[tuple[float, int, float]]:
    """(band's lowest figure, hands, mean value) by band."""
    return [(band, len(values), sum(values) / len(values))
            for band, values in values_by_band(points, width).items()]


def gain_by_band(points: Points, width: float) -> list[tuple[float, int, float, float]]:
    """(band's lowest figure, calls, mean gain of calling, its 95% half-width) by band."""
    return [(low, len(gains), *summarise(gains))
            for low, gains in values_by_band(points, width).items()]


def even_and_odd(items: Iterable[Item], deal_of: Callable[[Item], int]
                 ) -> tuple[list[Item], list[Item]]:
    """The items of the even deals (to tune on) and those of the odd ones (to judge on)."""
    items = list(items)
    return ([i for i in items if deal_of(i) % 2 == 0],
            [i for i in items if deal_of(i) % 2 == 1])


def gain_by_deal(records: list[dict], gain: Callable[[dict], float]
                 ) -> tuple[float, float, int]:
    """(mean, 95% half-width, deals) of what a rule gains a deal over another, from each
    record's ``gain`` summed by its deal (the calls of all four seats)."""
    by_deal: dict[int, float] = dict.fromkeys({r["deal"] for r in records}, 0.0)
    for r in records:
        by_deal[r["deal"]] += gain(r)
    mean, ci = summarise(list(by_deal.values()))
    return mean, ci, len(by_deal)
