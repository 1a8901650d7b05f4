"""Computer players.  A bot sees exactly what a person in its seat sees: the seat's view.

``choose_action(view, level)`` is all the rest of the site calls.  For now every level plays
the simple, legal, sensible heuristics of :mod:`games.rules.bots.simple`; stronger play that
searches with the engines is a later step (the level is already stored per seat).
"""

from __future__ import annotations

import random
from typing import Any

from games.rules.bots import simple

LEVELS = ("easy", "normal", "strong")


def choose_action(view: dict[str, Any], level: str = "normal",
                  rng: random.Random | None = None) -> str:
    if not view.get("legal") and view.get("phase") != "discard":
        raise ValueError("the bot was asked to act in a view that offers no legal action")
    return simple.choose(view, rng or random.Random())
