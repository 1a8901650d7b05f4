"""Paper entry, one module per game: ``leagues/paper/<game id>.py``.

Each module is everything the leagues know of one game's score sheet:

- ``DealForm``: one line of the sheet (``DealForm(names, data, rules=league_rules)``: only
  what the league's house rules allow is offered; ``.facts`` once valid,
  ``DealForm.initial_from(facts)`` to correct a line);
- ``score(rules, facts) -> scoring.Outcome``: the line scored by the game's engine;
- ``describe(facts, names) -> str``: the line in words;
- ``sheet_lines(result) -> list[dict]``: the lines a hand played online gives (as paper takes
  them), and ``engine_points(result)``: what the engine scored for it;
- for a game played as a match (``games.registry``: partnership or individual match),
  ``match_result(rules, facts)``: one line as the result the engine's ``Match`` adds
  (``leagues.scoring.replay_match`` replays the lines entered through it);
- for a partnership game that keeps a count beside the score, ``MATCH_TALLY``: a
  ``leagues.paper.common.MatchTally`` (Bid Whist's Bostons); a game without one keeps none.

Nothing else in the leagues names a game: they ask :func:`of` for the module of a league's game.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType


def of(game_id: str) -> ModuleType:
    """The paper entry of ``game_id`` (a game of ``games.registry``)."""
    return import_module(f"{__name__}.{game_id}")
