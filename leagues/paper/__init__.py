"""Paper entry, one module per game: ``leagues/paper/<game id>.py``.

Each module is everything the leagues know of one game's score sheet, a :class:`PaperSheet`
(a game played as a match, a :class:`MatchPaperSheet`); what several games share, and the
defaults (``engine_points`` for a game whose engine scores in ``points``, no ``MATCH_TALLY``),
is in ``leagues.paper.common`` for a module to re-export or override.  Nothing else in the
leagues names a game: they ask :func:`of` for the module of a league's game.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, Protocol, cast, runtime_checkable


@runtime_checkable
class PaperSheet(Protocol):
    """One game's score sheet."""

    # One line of the sheet: ``DealForm(names, data, rules=league_rules)`` offers only what
    # the league's house rules allow; ``.facts`` once valid, ``DealForm.initial_from(facts)``
    # to correct a line.
    DealForm: type[Any]

    def score(self, rules: Any, facts: dict) -> Any:
        """The line scored by the game's engine: a ``leagues.scoring.Outcome``."""

    def describe(self, facts: dict, names: list[str]) -> str:
        """The line in words."""

    def sheet_lines(self, result: dict) -> list[dict]:
        """The lines a hand played online gives (as paper takes them)."""

    def engine_points(self, result: dict) -> list:
        """What the engine scored for that hand, per seat or side."""


@runtime_checkable
class MatchPaperSheet(PaperSheet, Protocol):
    """The score sheet of a game played as a match (``games.registry``: partnership or
    individual match)."""

    # A ``leagues.paper.common.MatchTally`` (which imports the scoring this module is loaded
    # by: named, not imported), or None: the count a partnership game keeps beside the score
    # (Bid Whist's Bostons).
    MATCH_TALLY: Any

    def match_result(self, rules: Any, facts: dict) -> dict:
        """One line as the result the engine's ``CHAIN`` adds (``leagues.scoring.replay_match``
        replays the lines entered through it)."""


def of(game_id: str) -> PaperSheet:
    """The paper entry of ``game_id`` (a game of ``games.registry``)."""
    return cast(PaperSheet, import_module(f"{__name__}.{game_id}"))


def of_match(game_id: str) -> MatchPaperSheet:
    """The paper entry of ``game_id``, a game played as a match."""
    return cast(MatchPaperSheet, of(game_id))
