"""Dependencies go one way (docs/architecture.md): games.rules <- games <- leagues <- ratings.

Read from the source, so that a lazy import inside a function counts as much as one at the
top of a module."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What each layer may not import: everything above it.
ABOVE = {
    "games/rules": ("django", "games.models", "games.tables", "leagues", "ratings", "whistclub"),
    "games": ("leagues", "ratings"),
    "leagues": ("ratings",),
}


def imported_modules(path: Path, *, relative: bool = False) -> set[str]:
    """The modules ``path`` imports; with ``relative``, a relative import counts too (as its
    dots and name: ``.views``)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
        elif isinstance(node, ast.ImportFrom) and relative:
            dots = "." * node.level
            names.update([dots + node.module] if node.module else
                         (dots + alias.name for alias in node.names))
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


def engine_imports_beyond_the_standard_library(root: Path) -> list[str]:
    """Importing an engine loads the package ``games`` first, then ``games.rules``: what
    either imports, other than the standard library and the engines themselves, could bring
    Django into a process that has none (the computer players' workers, the benches,
    ``manage.py deal``)."""
    found = [f"games/__init__.py imports {name}"
             for name in sorted(imported_modules(root / "games" / "__init__.py", relative=True))
             if name != "__future__"]
    rules = root / "games" / "rules"
    for path in sorted(rules.rglob("*.py")):
        for name in sorted(imported_modules(path)):
            top = name.partition(".")[0]
            if top in sys.stdlib_module_names or top == "__future__" or \
                    name == "games.rules" or name.startswith("games.rules."):
                continue
            found.append(f"{path.relative_to(root)} imports {name}")
    return found


def test_the_engines_need_the_standard_library_alone():
    assert engine_imports_beyond_the_standard_library(ROOT) == []


def test_the_check_sees_an_engine_import_beyond_the_standard_library(tmp_path):
    (tmp_path / "games" / "rules" / "bots").mkdir(parents=True)
    (tmp_path / "games" / "__init__.py").write_text("from . import signals\n")
    (tmp_path / "games" / "rules" / "x.py").write_text(
        "import json\nfrom games.rules.cards import mask_of\nfrom . import base\n")
    (tmp_path / "games" / "rules" / "bots" / "y.py").write_text(
        "def f():\n    import numpy\n    from games import tables\n")
    assert engine_imports_beyond_the_standard_library(tmp_path) == [
        "games/__init__.py imports .signals",
        "games/rules/bots/y.py imports games", "games/rules/bots/y.py imports numpy"]
