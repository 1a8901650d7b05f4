"""Names people are shown under: none may pass for a computer player or for someone else.

Display names are free text and not unique, so the rules are about what a reader would take a
name for: ``name_key`` is the name as a reader compares it (capitals, spaces and Unicode
look-alike forms such as full-width letters do not count).
"""

from __future__ import annotations

import unicodedata

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import translation
from django.utils.translation import gettext, gettext_noop

# How a computer player was once named, still refused as a person's name; today computer
# players have names of their own (games.computer_names), refused as well.
COMPUTER_NAME = gettext_noop("computer (%(level)s)")  # marked: each language's form is refused


def name_key(name: str) -> str:
    """``" Org  A"`` and ``"orga"`` read as the same name: one key for both."""
    return "".join(unicodedata.normalize("NFKC", name).casefold().split())


def _letters(name: str) -> str:
    return "".join(ch for ch in name_key(name) if ch.isalnum())


def _computer_forms() -> list[tuple[str, str, str, set[str]]]:
    """For each language of the site: the computer name's prefix and suffix around the level
    (as keys), the bare word(s) in letters only, and the level names in letters only."""
    from games.models import BOT_LEVELS

    forms = []
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            template = gettext(COMPUTER_NAME)
            levels = {_letters(gettext(level)) for level, _label in BOT_LEVELS}
        prefix, _, suffix = template.partition("%(level)s")
        forms.append((name_key(prefix), name_key(suffix), _letters(prefix), levels))
    return forms


def _computer_player_names() -> set[str]:
    from games.computer_names import NAMES

    names = set()
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            names |= {name_key(str(name)) for level in NAMES.values() for name in level}
    return names


def imitates_a_computer_player(name: str) -> bool:
    """"computer", "Computer (strong)", "computer-easy", "joueur virtuel (fort)", ..."""
    key, letters = name_key(name), _letters(name)
    if key in _computer_player_names():
        return True  # "Professor", the name of a computer player in some language
    for prefix, suffix, word, levels in _computer_forms():
        if suffix and key.startswith(prefix) and key.endswith(suffix):
            return True  # "computer (anything)"
        if word and (letters == word or (letters.startswith(word)
                                         and letters[len(word):] in levels)):
            return True  # "computer", "computer strong"
    return False


def used_by_another_account(name: str, user=None) -> bool:
    """Whether ``name`` reads as the username or display name of an account other than ``user``."""
    wanted = name_key(name)
    accounts = get_user_model().objects.all()
    if user is not None and user.pk is not None:
        accounts = accounts.exclude(pk=user.pk)
    for username, display_name in accounts.values_list("username", "profile__display_name"):
        if name_key(username) == wanted or (display_name and name_key(display_name) == wanted):
            return True
    return False

