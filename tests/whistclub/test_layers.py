"""Dependencies go one way (docs/architecture.md): games.rules <- games <- leagues <- ratings.

Read from the source, so that a lazy import inside a function counts as much as one at the
top of a module."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What each layer may not import: everything above it.
ABOVE = {
    "games/rules": ("django", "games.models", "games.tables", "leagues", "ratings", "whistclub"),
    "games": ("leagues", "ratings"),
    "leagues": ("ratings",),
}


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def imports_against_the_layers(root: Path) -> list[str]:
    found = []
    for layer, forbidden in ABOVE.items():
        for path in sorted((root / layer).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for name in sorted(imported_modules(path)):
                if any(name == f or name.startswith(f + ".") for f in forbidden):
                    found.append(f"{path.relative_to(root)} imports {name}")
    return found


def test_no_layer_imports_a_layer_above_it():
    assert imports_against_the_layers(ROOT) == []


def test_the_check_sees_an_import_from_above(tmp_path):
    (tmp_path / "games" / "rules").mkdir(parents=True)
    (tmp_path / "leagues").mkdir()
    (tmp_path / "games" / "views.py").write_text("def f():\n    from leagues.models import Club\n")
    (tmp_path / "games" / "rules" / "x.py").write_text("import django.conf\n")
    (tmp_path / "leagues" / "ok.py").write_text("from games import registry\n")
    assert imports_against_the_layers(tmp_path) == [
        "games/rules/x.py imports django.conf", "games/views.py imports leagues.models"]
