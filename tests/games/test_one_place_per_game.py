"""A game is described in one place: no code of the site outside the registry and each game's
own files names a game (docs/architecture.md, "Add a game").

A game's own places: its engine ``games/rules/<game>.py``, its computer players' hooks
``games/rules/bots/<game>.py``, its paper entry ``leagues/paper/<game>.py`` and its sentences on
the table page ``games/words/<game>.py``.  The engines' list (``games/rules/__init__.py``:
hand records name their game without Django) and ``games.registry`` name them all; everything
else asks the registry, or finds the game's own module by its id.
"""

from __future__ import annotations

import re
from pathlib import Path

from games import registry

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("games", "leagues", "whistclub", "templates", "static")
SUFFIXES = {".py", ".html", ".js", ".txt"}


def own_places(root: Path, game_id: str) -> set[Path]:
    """The engine of the game, its computer players, its paper entry, its words."""
    return {root / "games" / "rules" / f"{game_id}.py",
            root / "games" / "rules" / "bots" / f"{game_id}.py",
            root / "leagues" / "paper" / f"{game_id}.py",
            root / "games" / "words" / f"{game_id}.py"}


def allowed(root: Path, path: Path) -> bool:
    relative = path.relative_to(root).as_posix()
    return (relative == "games/rules/__init__.py"  # the engines' list
            or "/migrations/" in relative  # history: the choices as they were
            or relative == "games/registry.py"
            # Demo data names the games it creates leagues and tables of; it decides nothing.
            or relative.endswith(("/commands/load_demo.py", "/commands/load_leagues_demo.py")))


def games_named_outside_their_place(root: Path) -> list[str]:
    ids = "|".join(re.escape(each.id) for each in registry.all_games())
    named = re.compile(r"\b(" + ids + r")\b")
    # In the engines' layer a game's module may build on another's (Cutthroat on Bid Whist's
    # hand): there only the game's id as a string, what a branch compares, counts.
    quoted = re.compile(r"""["'](""" + ids + r""")["']""")
    found = []
    for top in SCANNED:
        for path in sorted((root / top).rglob("*")):
            if path.suffix not in SUFFIXES or not path.is_file() or allowed(root, path):
                continue
            engines = path.relative_to(root).as_posix().startswith("games/rules/")
            pattern = quoted if engines else named
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                match = pattern.search(line)
                if match and path not in own_places(root, match.group(1)):
                    found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return found


def test_no_code_outside_a_games_own_place_names_a_game():
    found = games_named_outside_their_place(ROOT)
    assert not found, "a game named outside its own place:\n" + "\n".join(found)


def test_the_scan_sees_a_branch_on_a_games_name(tmp_path):
    # The scan is only worth something if it catches one, and lets a game's own file be.
    (tmp_path / "leagues" / "paper").mkdir(parents=True)
    (tmp_path / "leagues" / "views.py").write_text('if game == "solo_whist":\n    pass\n')
    (tmp_path / "leagues" / "paper" / "solo_whist.py").write_text('GAME = "solo_whist"\n')
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "t.html").write_text('{% if game == "bid_whist" %}{% endif %}\n')
    # A game's words are its own place, not another game's.
    (tmp_path / "games" / "words").mkdir(parents=True)
    (tmp_path / "games" / "words" / "solo_whist.py").write_text('GAME = "solo_whist"\n')
    (tmp_path / "games" / "words" / "bid_whist.py").write_text('OTHER = "solo_whist"\n')
    (tmp_path / "games" / "words" / "__init__.py").write_text('FIRST = "bid_whist"\n')
    # In the engines' layer: a branch on a game's id counts, building on its module does not.
    (tmp_path / "games" / "rules" / "bots").mkdir(parents=True)
    (tmp_path / "games" / "rules" / "bots" / "search.py").write_text(
        'from games.rules import bid_whist\nif view["game"] == "bid_whist":\n    pass\n')
    (tmp_path / "games" / "rules" / "bots" / "solo_whist.py").write_text('GAME = "solo_whist"\n')
    assert games_named_outside_their_place(tmp_path) == [
        'games/rules/bots/search.py:2: if view["game"] == "bid_whist":',
        'games/words/__init__.py:1: FIRST = "bid_whist"',
        'games/words/bid_whist.py:1: OTHER = "solo_whist"',
        'leagues/views.py:1: if game == "solo_whist":',
        'templates/t.html:1: {% if game == "bid_whist" %}{% endif %}',
    ]
