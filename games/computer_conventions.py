"""How the computer players play: what their calls, leads and discards mean, game by game.

Each game's page (``/games/<game>/computer-players/``) is written from here: its parts, and in
each the conventions the computer players at the levels a table offers above easy (normal and
strong) keep, in a club player's words.  A :class:`Convention` is something a partner can rely
on, and each one's ``id`` names the position in tests/games/rules/test_conventions.py that holds
the computer players to it; a :class:`NoAgreement` says plainly where they have no convention
(a discard that is no signal), so that nobody reads one into their play.

The figures are the computer players' own (games/rules/computer/bidding.py and the measured
figures they bid from), said as a player counts them: "about four tricks", never a threshold.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games import registry


@dataclass(frozen=True)
class Convention:
    id: str  # the test that holds the computer players to it (test_conventions.py)
    title: Promise
    text: Promise
    easy: Promise | None = None  # where the easy computer players play otherwise
    strong_only: bool = False  # kept by the strong level alone


@dataclass(frozen=True)
class NoAgreement:
    """Where the computer players follow no convention, said so that none is read into it."""
    title: Promise
    text: Promise


# The parts of every game's page, in order, by the id its contents link to.
PARTS = {
    "calls": _("What its calls mean"),
    "leads": _("Its leads"),
    "play": _("Following and taking tricks"),
    "discards": _("Its discards"),
}

FIRST_LEAD = NoAgreement(
    _("A first lead has no agreed meaning"),
    _("Its first lead is the card it judges best after trying many ways the hidden cards could "
      "lie, not a fixed rule such as the top of a sequence or the fourth best. It tells you "
      "nothing beyond the card itself."))
DISCARDS = NoAgreement(
    _("Its discards are not signals"),
    _("When it cannot follow suit it throws the card it expects to miss least. A high or a low "
      "discard asks for nothing and shows nothing, and it does not read your discards as "
      "signals either: it only notes that you had no card of the suit led."))

def _conventions() -> dict[str, dict[str, list[Convention | NoAgreement]]]:
    """Each game's parts, from its words module (``COMPUTER_CONVENTIONS``: a game of partners;
    Cutthroat, each for themselves, has none), in the registry's order."""
    from games import words

    return {game.id: found for game in registry.all_games()
            if (found := getattr(words.of(game.id), "COMPUTER_CONVENTIONS", None))}


def games_with_page() -> list[str]:
    return list(_conventions())


def conventions(game_id: str) -> list[Convention]:
    """Every convention of the game's page, in the page's order."""
    return [each for part in _conventions()[game_id].values() for each in part
            if isinstance(each, Convention)]


def page_context(game: registry.GameDescription) -> dict[str, object]:
    """What a game's page is rendered with: the game and its parts, each with its title and
    what it says."""
    conventions_of = _conventions()[game.id]
    parts = [(part_id, PARTS[part_id], conventions_of[part_id]) for part_id in PARTS
             if conventions_of.get(part_id)]
    return {"game": game, "parts": parts}
