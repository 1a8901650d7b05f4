"""The kinds of score, one module each: ``leagues/score_kinds/<score_kind>.py``, the id being
the game's ``score_kind`` in ``games.registry``.  Each module gives ``Kind``, a subclass of
``leagues.score_kinds.base.ScoreKind`` (what every kind gives is listed there).

Nothing else in the leagues asks which kind of score a game keeps: they ask :func:`of` (or
``League.score_kind``) for the object and let it answer.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

from games import registry

if TYPE_CHECKING:
    from leagues.score_kinds.base import ScoreKind


@cache
def of(game_id: str) -> ScoreKind:
    """The kind of score of ``game_id`` (a game of ``games.registry``), made once per game."""
    kind = registry.game(game_id).score_kind
    return import_module(f"{__name__}.{kind}").Kind(game_id)
