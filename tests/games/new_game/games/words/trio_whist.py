"""Trio Whist in words (``games.words.TableWords``): its calls are the shared bid words; the
sentences are the few a table needs."""

from __future__ import annotations

from typing import Any

from games.words import (
    Names,
    bid_grid,
    bid_words,
    declared_by_one,
    each_score,
    last_result,
    phases,
)

GAME = "trio_whist"
PHASES = phases()
ACTION_WORDS: dict[str, Any] = {}


def contract(view: dict[str, Any], names: Names) -> str | None:
    params = bid_words(GAME, view.get("hand") or {}, names)
    return None if params is None else f"{params['name']} bid {params['bid']}, {params['trumps']}."


@last_result
def result(outcome: dict[str, Any], names: Names) -> str | None:
    return f"Points: {each_score(outcome['points'], names)}."


def score(view: dict[str, Any], names: Names) -> str | None:
    scores = (view.get("summary") or {}).get("scores")
    return None if not scores else f"Scores: {each_score(scores, names)}."


def bid_box(legal: list[str], view: dict[str, Any]) -> dict[str, Any]:
    return bid_grid(legal, range(6, 19))


declared = declared_by_one
