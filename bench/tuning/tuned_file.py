"""``games/rules/computer/tuned_calls.json``, as the tuning benches read and write it.

The file (version ``bidding.TUNED_VERSION``) keeps the figures the computer players call from apart from how
each was measured::

    {"version": 2,
     "thresholds": {game: {name: figure}},
     "provenance": {game: {bench: how it measured}}}

The computer players read ``thresholds`` alone (``bidding.measured_figures``).  Under ``provenance`` each
bench keeps its own entry: "tune_calls" and "tune_bids" the run that measured their figures
(deals, seed, level that played, calls), "tune_auctions" one such run per threshold.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from games.rules.computer import bidding

CALLS, BIDS, AUCTIONS = "tune_calls", "tune_bids", "tune_auctions"  # the benches that write it


def path() -> Path:
    return bidding.TUNED_FILE  # one place: the computer players' own (tests point both elsewhere)


def read() -> dict[str, Any]:
    """The file's content; an empty one when there is no file."""
    if not path().exists():
        return {"version": bidding.TUNED_VERSION, "thresholds": {}, "provenance": {}}
    return {"version": bidding.TUNED_VERSION, "thresholds": bidding.measured_figures(),
            "provenance": json.loads(path().read_text()).get("provenance", {})}


def figures(saved: dict[str, Any], game: str) -> dict[str, Any]:
    """The game's figures in ``saved``, to change in place."""
    return saved["thresholds"].setdefault(game, {})


def provenance(saved: dict[str, Any], game: str) -> dict[str, Any]:
    """How the game's figures were measured, by bench, to change in place."""
    return saved["provenance"].setdefault(game, {})


def write(saved: dict[str, Any]) -> str:
    """Save ``saved`` (version first, names sorted); the file's name, from the project's root,
    to print."""
    content = {"version": bidding.TUNED_VERSION,
               "thresholds": _sorted(saved["thresholds"]),
               "provenance": _sorted(saved["provenance"])}
    path().write_text(json.dumps(content, indent=2) + "\n")
    root = Path(__file__).resolve().parents[2]
    return str(path().relative_to(root)) if path().is_relative_to(root) else str(path())


def _sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _sorted(value[key]) for key in sorted(value)}
    return value
