"""Names people are shown under: none may pass for a computer player or for someone else.

Display names are free text and not unique, so the rules are about what a reader would take a
name for.  A name is first made ``readable``: Unicode's compatibility forms folded (NFKC:
full-width letters are letters) and the format characters dropped (category Cf: zero-width
spaces and joiners, soft hyphens, right-to-left overrides, which show nothing or reorder what
is shown); that is the name stored and shown.  Two names then read alike when they have the same
``name_key`` (capitals and spaces aside) or the same ``look_alike_key``: Unicode's confusable
skeleton (TR39), by which a Cyrillic "А" or "о" is the Latin letter it looks like, "rn" is "m"
and "0" is "O".

The skeleton comes from the table of Unicode's confusables.txt that the confusable_homoglyphs
library keeps (the library django-registration uses against look-alike usernames).  The library
answers "which characters look like this one"; TR39's skeleton maps each character to the one
prototype of its class, so ``_prototype`` finds it in the library's table (docs/deploy.md).
"""

from __future__ import annotations

import unicodedata

from confusable_homoglyphs.confusables import confusables_data
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import translation
from django.utils.translation import gettext, gettext_noop

# How a computer player was once named, still refused as a person's name; today computer
# players have names of their own (games.computer_names), refused as well.
COMPUTER_NAME = gettext_noop("computer (%(level)s)")  # marked: each language's form is refused


def readable(name: str) -> str:
    """The name as it is stored and shown: NFKC, without format characters (category Cf)."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", name)
                   if unicodedata.category(ch) != "Cf")


def name_key(name: str) -> str:
    """``" Org  A"`` and ``"orga"`` read as the same name: one key for both."""
    return "".join(readable(name).casefold().split())


def _prototype(ch: str) -> str:
    """The prototype of ``ch``'s confusable class in TR39 (``ch`` itself if it has none).

    The library's table lists, for each line of confusables.txt ("source → prototype"), the
    prototype under the source and the source under the prototype.  A prototype is never a
    source (TR39's skeleton is idempotent), so a character listed with one look-alike is a
    source of it, unless the two list only each other: then either may be the prototype, and
    the smaller stands for both."""
    entries = confusables_data.get(ch)
    if not entries or len(entries) != 1:
        return ch
    other = entries[0]["c"]
    back = confusables_data.get(other, ())
    if len(back) == 1 and back[0]["c"] == ch:
        return min(ch, other)
    return other


def skeleton(text: str) -> str:
    """TR39's skeleton: NFD, each character to its prototype, NFD again."""
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(_prototype(ch) for ch in decomposed))


def look_alike_key(name: str) -> str:
    """``"Аlice"`` (a Cyrillic А), ``"AIice"`` and ``"alice"`` look alike: one key for all.

    The skeleton is taken before capitals are folded ("I" looks like "l", "i" does not) and
    again after (a folded capital may look like something else: "M" → "m" → "rn")."""
    return "".join(skeleton(skeleton(readable(name)).casefold()).split())


def _keys(name: str) -> tuple[str, str]:
    return name_key(name), look_alike_key(name)


def _letters(key: str) -> str:
    return "".join(ch for ch in key if ch.isalnum())


def _computer_forms(key) -> list[tuple[str, str, str, set[str]]]:
    """For each language of the site: the computer name's prefix and suffix around the level
    (as ``key`` gives them), the bare word(s) in letters only, and the level names in letters
    only."""
    from games.models import COMPUTER_LEVELS

    forms = []
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            template = gettext(COMPUTER_NAME)
            levels = {_letters(key(gettext(level))) for level, _label in COMPUTER_LEVELS}
        prefix, _, suffix = template.partition("%(level)s")
        forms.append((key(prefix), key(suffix), _letters(key(prefix)), levels))
    return forms


def _computer_player_names(key) -> set[str]:
    from games.computer_names import NAMES

    names = set()
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            names |= {key(str(name)) for level in NAMES.values() for name in level}
    return names


def imitates_a_computer_player(name: str) -> bool:
    """"computer", "Computer (strong)", "computer-easy", "joueur virtuel (fort)", and each of
    them written with look-alike letters ("Prоfessor" with a Cyrillic о), ..."""
    for key in (name_key, look_alike_key):
        wanted = key(name)
        letters = _letters(wanted)
        if wanted in _computer_player_names(key):
            return True  # "Professor", the name of a computer player in some language
        for prefix, suffix, word, levels in _computer_forms(key):
            if suffix and wanted.startswith(prefix) and wanted.endswith(suffix):
                return True  # "computer (anything)"
            if word and (letters == word or (letters.startswith(word)
                                             and letters[len(word):] in levels)):
                return True  # "computer", "computer strong"
    return False


def used_by_another_account(name: str, user=None) -> bool:
    """Whether ``name`` reads as the username or display name of an account other than
    ``user``: the same but for capitals and spaces, or the same to the eye (``_keys``)."""
    wanted = _keys(name)
    accounts = get_user_model().objects.all()
    if user is not None and user.pk is not None:
        accounts = accounts.exclude(pk=user.pk)
    for username, display_name in accounts.values_list("username", "profile__display_name"):
        for taken in (username, display_name):
            if taken and any(a == b for a, b in zip(_keys(taken), wanted, strict=True)):
                return True
    return False

