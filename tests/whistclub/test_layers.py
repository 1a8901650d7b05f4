"""Dependencies go one way (docs/architecture.md): games.rules <- games <- leagues <- ratings,
events beside leagues (neither imports the other), and no module of the project imports, through any chain, a module that imports it back; and no view module is longer than a reader takes in whole.

Read from the source, so that a lazy import inside a function counts as much as one at the
top of a module: it is still a dependency to a reader, and still a cycle."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What each layer may not import: everything above it.
ABOVE = {
    "games/rules": ("django", "games.models", "games.tables", "leagues", "events", "ratings",
                    "club_events", "whistclub"),
    "games": ("leagues", "events", "ratings", "club_events"),
    # leagues and events stand side by side on games: neither imports the other; a club's
    # events (club_events) stand on both, and they hear of it through events.policies.
    "leagues": ("events", "ratings", "club_events"),
    "events": ("leagues", "ratings", "club_events"),
    "club_events": ("ratings",),
}
# The project's own packages, whose modules may not import one another in a circle.
PROJECT = ("games", "leagues", "events", "ratings", "club_events", "whistclub")
# The events' pure modules: the standard library and the engines alone, as the engines (they
# run in the benches and the pairing's tests without Django).
PURE_EVENTS = ("events/pairing.py", "events/scoring.py", "events/deals.py")


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


def project_modules(root: Path) -> dict[str, Path]:
    """Every module of the project by its dotted name (a package by its ``__init__``)."""
    modules = {}
    for package in PROJECT:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(root).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _statements(tree: ast.AST):
    """The import statements of ``tree``, at any depth, but for those under
    ``if TYPE_CHECKING:``: they are only read by type checkers, never run."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def dependencies(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project's modules that module ``name`` imports (``from a import b`` names the
    module ``a.b`` when there is one, else ``a``; relative imports resolved)."""

    def own(dotted: str) -> str | None:  # the project module that ``dotted`` lies in
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in _statements(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(own(alias.name) for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
            base = ".".join([*anchor, *([node.module] if node.module else [])])
        for alias in node.names:
            found.add(own(f"{base}.{alias.name}") if f"{base}.{alias.name}" in modules
                      else own(base))
    return found - {None, name}


def import_cycles(root: Path) -> list[str]:
    """One circle of imports, in words, for each group of modules that import one another."""
    modules = project_modules(root)
    graph = {name: dependencies(name, path, modules) for name, path in modules.items()}
    cycles, placed = [], set()
    for start in sorted(graph):
        if start in placed:
            continue
        # The shortest way back to ``start`` (breadth first), if there is one.
        came_from, frontier = {start: None}, [start]
        circle = None
        while frontier and circle is None:
            following = []
            for module in frontier:
                for target in sorted(graph[module]):
                    if target == start:
                        circle = module
                        break
                    if target not in came_from:
                        came_from[target] = module
                        following.append(target)
                if circle is not None:
                    break
            frontier = following
        if circle is None:
            continue
        path = [start]
        while circle is not None and circle != start:
            path.insert(1, circle)
            circle = came_from[circle]
        placed.update(_reachable_both_ways(graph, start))
        cycles.append(" -> ".join([*path, start]))
    return cycles


def _reachable_both_ways(graph: dict[str, set[str]], start: str) -> set[str]:
    """The modules in a circle with ``start``: reached from it and reaching it."""

    def reached(edges):
        seen, stack = {start}, [start]
        while stack:
            for target in edges[stack.pop()]:
                if target not in seen:
                    seen.add(target)
                    stack.append(target)
        return seen

    backwards: dict[str, set[str]] = {name: set() for name in graph}
    for name, targets in graph.items():
        for target in targets:
            backwards[target].add(name)
    return reached(graph) & reached(backwards)


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


def test_no_module_imports_itself_through_others():
    assert import_cycles(ROOT) == []


def test_the_check_sees_a_circle_of_imports(tmp_path):
    for package in PROJECT:
        (tmp_path / package).mkdir()
    (tmp_path / "games" / "computer").mkdir()
    files = {
        # a circle of three, one of them a lazy import inside a function
        "games/play.py": "from games import seating\n",
        "games/seating.py": "from games.deals import deal\n",
        "games/deals.py": "def f():\n    from games.play import play\n",
        # a circle through a package and a relative import
        "games/computer/__init__.py": "from .search import best\n",
        "games/computer/search.py": "from . import LEVELS\n",
        # no circle: a name of a module imported, a type only read by type checkers
        "leagues/models.py": "from leagues import sheets\n",
        "leagues/sheets.py": ("from typing import TYPE_CHECKING\n"
                              "if TYPE_CHECKING:\n    from leagues.models import Table\n"),
        "ratings/store.py": "import games.play\nfrom leagues.models import Club\n",
        "whistclub/migrations/0001_x.py": "from whistclub import settings\n",
        "whistclub/settings.py": "from whistclub.migrations import x\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert import_cycles(tmp_path) == [
        "games.computer -> games.computer.search -> games.computer",
        "games.deals -> games.play -> games.seating -> games.deals"]


def test_only_its_command_imports_the_computer_players_server():
    """The service's HTTP side runs in ``manage.py serve_computer_players`` alone; a site
    process only asks it (``games.computer_service``)."""
    modules = project_modules(ROOT)
    assert sorted(name for name, path in modules.items()
                  if "games.computer_server" in dependencies(name, path, modules)) == [
        "games.management.commands.serve_computer_players"]


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


def pure_imports_beyond_the_engines(root: Path, paths: tuple[str, ...]) -> list[str]:
    """What ``paths`` import other than the standard library and the engines."""
    found = []
    for relative in paths:
        for name in sorted(imported_modules(root / relative)):
            top = name.partition(".")[0]
            if top in sys.stdlib_module_names or top == "__future__" or \
                    name == "games.rules" or name.startswith("games.rules."):
                continue
            found.append(f"{relative} imports {name}")
    return found


def test_the_events_pure_modules_need_the_standard_library_and_the_engines_alone():
    assert pure_imports_beyond_the_engines(ROOT, PURE_EVENTS) == []


def test_the_check_sees_a_pure_module_importing_django(tmp_path):
    (tmp_path / "events").mkdir()
    (tmp_path / "events" / "pairing.py").write_text(
        "import random\nfrom games.rules import game_module\nfrom django.conf import settings\n"
        "def f():\n    from games import registry\n")
    assert pure_imports_beyond_the_engines(tmp_path, ("events/pairing.py",)) == [
        "events/pairing.py imports django.conf", "events/pairing.py imports games"]


def test_the_engines_need_the_standard_library_alone():
    assert engine_imports_beyond_the_standard_library(ROOT) == []


def test_the_check_sees_an_engine_import_beyond_the_standard_library(tmp_path):
    (tmp_path / "games" / "rules" / "computer").mkdir(parents=True)
    (tmp_path / "games" / "__init__.py").write_text("from . import signals\n")
    (tmp_path / "games" / "rules" / "x.py").write_text(
        "import json\nfrom games.rules.cards import mask_of\nfrom . import base\n")
    (tmp_path / "games" / "rules" / "computer" / "y.py").write_text(
        "def f():\n    import numpy\n    from games import tables\n")
    assert engine_imports_beyond_the_standard_library(tmp_path) == [
        "games/__init__.py imports .signals",
        "games/rules/computer/y.py imports games", "games/rules/computer/y.py imports numpy"]


# A page family's views stay small enough to read whole; past this, split the family
# (docs/architecture.md lists the modules of each app's views).
MOST_LINES_IN_A_VIEW_MODULE = 500


def long_view_modules(root: Path) -> list[str]:
    """The view modules under ``root`` (``views.py`` and every module of a ``views/`` package)
    longer than ``MOST_LINES_IN_A_VIEW_MODULE``, with their lengths."""
    modules = [*root.glob("*/views.py"), *root.glob("*/views/*.py")]
    return sorted(f"{path.relative_to(root)}: {n} lines" for path in modules
                  if (n := len(path.read_text(encoding="utf-8").splitlines()))
                  > MOST_LINES_IN_A_VIEW_MODULE)


def test_no_view_module_is_longer_than_a_reader_takes_in():
    assert long_view_modules(ROOT) == []


def test_the_check_sees_a_long_view_module(tmp_path):
    (tmp_path / "app" / "views").mkdir(parents=True)
    (tmp_path / "app" / "views" / "pages.py").write_text("x = 1\n" * 501, encoding="utf-8")
    (tmp_path / "app" / "views" / "short.py").write_text("x = 1\n" * 500, encoding="utf-8")
    assert long_view_modules(tmp_path) == ["app/views/pages.py: 501 lines"]
