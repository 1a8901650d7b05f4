"""What one update of a rating is, game by game: ``ratings/games/<game id>.py``, or the
default (:mod:`ratings.games.default`) for a game without a module of its own.

A game's ratings are a :class:`GameRatings`:

- ``UNIT``: ``"sides"`` or ``"ranked"`` (see :mod:`ratings.core`), ``MODEL``
  (``ratings.core.MODELS``) and ``BETA`` (openskill's performance spread, ``None`` for its
  own), chosen by measurement (``bench/ratings.py``, docs/ratings.md);
- ``seat_points(points)``: a result's points (as the engine and the score sheet keep them: per
  seat, or per team) as points per seat, higher is better;
- ``sides(players)``: the sides of a table before it plays (partners together), for the
  expected outcome;
- ``comparisons(players, points)``: what a prediction is scored on (the bench's log-loss):
  pairs ``(ahead, behind)`` of sides that finished in that order.

The default ranks every seat by its points (each for themselves, the declaring side ahead of
or behind the defenders); a game whose ratings differ (Bid Whist's partnerships) has its own
module, which gives every name above.  Nothing else in the ratings names a game: they ask
:func:`of`.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from itertools import combinations
from typing import Any, Protocol, cast, runtime_checkable


@runtime_checkable
class GameRatings(Protocol):
    """What the ratings ask of a game (its module, or the default)."""

    UNIT: str
    MODEL: str
    BETA: float | None

    def seat_points(self, points: Sequence[Any]) -> list[float]: ...

    def sides(self, players: Sequence[Any]) -> list[list[Any]]: ...

    def comparisons(self, players: Sequence[Any],
                    points: Sequence[Any]) -> list[tuple[list[Any], list[Any]]]: ...


def of(game_id: str) -> GameRatings:
    """The ratings of ``game_id``: its own module, else the default."""
    name = f"{__name__}.{game_id}"
    try:
        module = import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name != name:  # the game's module is there, something it imports is not
            raise
        module = import_module(f"{__name__}.default")
    return cast(GameRatings, module)


def rater(game_id: str, state=None):
    """The ratings of ``game_id`` as its module says they are updated."""
    from ratings.core import Rater

    module = of(game_id)
    return Rater(unit=module.UNIT, model_name=module.MODEL, beta=module.BETA,
                 state=state or {})


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
