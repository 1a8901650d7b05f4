"""The names of computer players: several per level, chosen stably per table and seat.

A computer player is named by its level's list, at the index of its table and seat: the same
seat of the same table always has the same name, and one table never has two alike (the lists
are longer than the largest table, and no name is in two lists).  The names are words,
translated as words; no person may take one as a display name (``whistclub.accounts.names``).
"""

from __future__ import annotations

from django.utils.translation import gettext, pgettext_lazy

from games.models import COMPUTER_LEVELS
from games.registry import MAX_SEATS

NAMES = {
    "easy": (pgettext_lazy("computer player", "Sparrow"), pgettext_lazy("computer player", "Pebble"),
             pgettext_lazy("computer player", "Button"), pgettext_lazy("computer player", "Clover"),
             pgettext_lazy("computer player", "Biscuit"), pgettext_lazy("computer player", "Puffin")),
    "normal": (pgettext_lazy("computer player", "Robin"), pgettext_lazy("computer player", "Maple"),
               pgettext_lazy("computer player", "Otter"), pgettext_lazy("computer player", "Juniper"),
               pgettext_lazy("computer player", "Heron"), pgettext_lazy("computer player", "Willow")),
    "strong": (pgettext_lazy("computer player", "Professor"),
               pgettext_lazy("computer player", "Duchess"),
               pgettext_lazy("computer player", "Captain"),
               pgettext_lazy("computer player", "Judge"),
               pgettext_lazy("computer player", "Admiral"),
               pgettext_lazy("computer player", "Countess")),
}
assert all(len(names) > MAX_SEATS for names in NAMES.values())

LEVEL_WORDS = dict(COMPUTER_LEVELS)


def computer_name(table_id: int, position: int, level: str) -> str:
    """The name of the computer player of ``level`` at seat ``position`` of table ``table_id``."""
    names = NAMES.get(level) or NAMES["normal"]
    return str(names[(table_id + position) % len(names)])


def level_badge(level: str) -> str:
    """The small badge beside a computer player's name: "computer, strong"."""
    return gettext("computer, %(level)s") % {"level": LEVEL_WORDS.get(level, level)}
