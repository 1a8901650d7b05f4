"""What one update of a rating is, game by game: ``ratings/games/<game id>.py``.

Each module gives:

- ``UNIT``: ``"sides"`` or ``"ranked"`` (see :mod:`ratings.core`), and optionally ``MODEL``
  (``ratings.core.MODELS``) and ``BETA`` (openskill's performance spread), chosen by
  measurement (``bench/ratings.py``,
  docs/ratings.md);
- ``seat_points(points)``: a result's points (as the engine and the score sheet keep them: per
  seat, or per team) as points per seat, higher is better;
- ``sides(players)``: the sides of a table before it plays (partners together), for the
  expected outcome;
- ``comparisons(players, points)``: what a prediction is scored on (the bench's log-loss):
  pairs ``(ahead, behind)`` of sides that finished in that order.

Nothing else in the ratings names a game: they ask :func:`of`.
"""

from __future__ import annotations

from importlib import import_module
from itertools import combinations
from types import ModuleType


def of(game_id: str) -> ModuleType:
    return import_module(f"{__name__}.{game_id}")


def rater(game_id: str, state=None):
    """The ratings of ``game_id`` as its module says they are updated."""
    from ratings.core import DEFAULT_MODEL, Rater

    module = of(game_id)
    return Rater(unit=module.UNIT, model_name=getattr(module, "MODEL", DEFAULT_MODEL),
                 beta=getattr(module, "BETA", None), state=state or {})


def individual_comparisons(players, points) -> list[tuple[list[str], list[str]]]:
    """Every two players who scored differently, the better one first."""
    seats = [(p, v) for p, v in zip(players, points, strict=True) if p is not None]
    pairs = []
    for (a, va), (b, vb) in combinations(seats, 2):
        if a != b and va != vb:
            pairs.append(([a], [b]) if va > vb else ([b], [a]))
    return pairs


def individual_sides(players) -> list[list[str]]:
    return [[p] for p in players]
