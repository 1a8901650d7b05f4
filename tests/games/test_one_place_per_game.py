"""A game is described in one place: no code of the site outside the registry and each game's
own files names a game (docs/architecture.md, "Add a game"), and every game has all of them.

A game's own places: its engine ``games/rules/<game>.py``, its computer players' hooks
``games/rules/computer/<game>.py``, its paper entry ``leagues/paper/<game>.py``, its sentences on
the table page ``games/words/<game>.py`` and, unless the default fits it, how its results rate
``ratings/games/<game>.py``.  The engines' list (``games/rules/__init__.py``: hand records name
their game without Django) and ``games.registry`` name them all; everything else asks the
registry, or finds the game's own module by its id.  Each kind of module is a ``Protocol``
(checked by mypy where it is loaded); here every game's modules are checked against theirs.
"""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path

import pytest

from games import registry
from games import words as table_words
from games.rules import game_module
from games.rules.computer import hooks as computer_hooks
from games.rules.records import random_record
from leagues import paper
from ratings import games as rated_games

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("games", "leagues", "events", "ratings", "whistclub", "templates", "static")
SUFFIXES = {".py", ".html", ".js", ".txt"}


def own_places(root: Path, game_id: str) -> set[Path]:
    """The engine of the game, its computer players, its paper entry, its words, its ratings."""
    return {root / "games" / "rules" / f"{game_id}.py",
            root / "games" / "rules" / "computer" / f"{game_id}.py",
            root / "leagues" / "paper" / f"{game_id}.py",
            root / "games" / "words" / f"{game_id}.py",
            root / "ratings" / "games" / f"{game_id}.py"}


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
    (tmp_path / "games" / "rules" / "computer").mkdir(parents=True)
    (tmp_path / "games" / "rules" / "computer" / "search.py").write_text(
        'from games.rules import bid_whist\nif view["game"] == "bid_whist":\n    pass\n')
    (tmp_path / "games" / "rules" / "computer" / "solo_whist.py").write_text('GAME = "solo_whist"\n')
    assert games_named_outside_their_place(tmp_path) == [
        'games/rules/computer/search.py:2: if view["game"] == "bid_whist":',
        'games/words/__init__.py:1: FIRST = "bid_whist"',
        'games/words/bid_whist.py:1: OTHER = "solo_whist"',
        'leagues/views.py:1: if game == "solo_whist":',
        'templates/t.html:1: {% if game == "bid_whist" %}{% endif %}',
    ]


def protocol_members(protocol) -> list[str]:
    """The names a ``Protocol`` asks for: its attributes and its methods, its bases' too."""
    names: dict[str, None] = {}
    for klass in reversed(protocol.__mro__):
        if klass in (object, *type(protocol).__mro__) or not getattr(klass, "_is_protocol", False):
            continue
        names.update(dict.fromkeys(getattr(klass, "__annotations__", {})))
        names.update(dict.fromkeys(name for name, value in vars(klass).items()
                                   if callable(value) and not name.startswith("_")))
    return list(names)


def lacking(module, protocol) -> list[str]:
    return [name for name in protocol_members(protocol) if not hasattr(module, name)]


def missing_parts(game) -> list[str]:
    """What the rest of the site asks a game's own modules for (each kind's ``Protocol``) and
    this game lacks; its ratings may be the default."""
    needs = {
        "games/words": (table_words.of, table_words.TableWords),
        "leagues/paper": (paper.of, paper.MatchPaperSheet if game.is_match else paper.PaperSheet),
        "ratings/games": (rated_games.of, rated_games.GameRatings),
        "games/rules/computer": (computer_hooks.of, computer_hooks.ComputerPlayers),
    }
    missing = []
    for place, (find, protocol) in needs.items():
        try:
            module = find(game.id)
        except (ImportError, KeyError):  # KeyError: a game no engine plays
            missing.append(f"{place}/{game.id}.py")
            continue
        if place == "games/rules/computer" and getattr(module, "choose_action", None) is None:
            protocol = computer_hooks.SharedComputerPlayers  # played by the shared computer players
        missing += [f"{place}/{game.id}.py: {name}" for name in lacking(module, protocol)]
    return missing


@pytest.mark.parametrize("game", registry.all_games(), ids=lambda game: game.id)
def test_every_game_has_each_of_its_own_places(game):
    assert missing_parts(game) == []


def test_a_game_without_its_own_places_is_told_what_it_lacks():
    stranger = dataclasses.replace(registry.all_games()[0], id="no_such_game")
    assert missing_parts(stranger) == [
        "games/words/no_such_game.py", "leagues/paper/no_such_game.py",
        "games/rules/computer/no_such_game.py"]  # its ratings: the default


def test_a_module_short_of_its_protocol_is_told_which_names_it_lacks():
    class HalfWords:
        PHASES: dict = {}
        GAME = "half"

        def contract(self, view, names):
            return None

    assert lacking(HalfWords(), table_words.TableWords) == [
        "ACTION_WORDS", "score", "result", "bid_box", "declared"]
    assert "choose_action" in protocol_members(computer_hooks.SharedComputerPlayers)


@pytest.mark.parametrize("game", registry.all_games(), ids=lambda game: game.id)
def test_every_game_is_its_kinds_protocols_at_run_time(game):
    assert isinstance(table_words.of(game.id), table_words.TableWords)
    assert isinstance(paper.of(game.id), paper.MatchPaperSheet if game.is_match
                      else paper.PaperSheet)
    assert isinstance(rated_games.of(game.id), rated_games.GameRatings)
    assert isinstance(computer_hooks.of(game.id), computer_hooks.ComputerPlayers)


def test_no_two_games_say_one_call_differently():
    """The words of the calls are each game's own; a label reads every game's, so a word two
    games share must read the same in both."""
    said: dict[str, tuple[str, str]] = {}
    clashes = []
    for game in registry.all_games():
        for word, label in table_words.of(game.id).ACTION_WORDS.items():
            shared = table_words.ACTION_WORDS.get(word)
            if shared is not None and str(shared) != str(label):
                clashes.append(f"{game.id}: {word!r} is shared as {shared!r}")
            first = said.setdefault(word, (game.id, str(label)))
            if first[1] != str(label):
                clashes.append(f"{game.id}: {word!r} reads {label!r}, {first[0]}: {first[1]!r}")
    assert clashes == []


@pytest.mark.parametrize("game", registry.all_games(), ids=lambda game: game.id)
def test_every_call_of_a_game_is_in_its_own_words_or_the_shared_ones(game):
    """Through random hands, every word of every legal call is the game's own
    (``ACTION_WORDS`` of its words module), one several games share, a number or a card."""
    known = {**table_words.ACTION_WORDS, **table_words.of(game.id).ACTION_WORDS}
    module = game_module(game.id)
    unworded = set()
    for seed in range(3):
        record = random_record(game.id, seed)
        state = module.new_hand(module.Rules.from_overrides({}), record["dealer"],
                                record["hands"], record.get("kitty"))
        rng = random.Random(seed)
        while not state.complete:
            for action in state.legal_actions():
                verb, *rest = action.split()
                unworded.update(word for word in (verb, *rest) if word not in known
                                and not word.isdigit() and word not in table_words.SUITS
                                and not (len(word) == 2 and word[1] in table_words.SUITS)
                                and word not in ("BJ", "LJ"))  # the jokers, as cards
            state.apply(state.random_action(rng))
    assert unworded == set()
