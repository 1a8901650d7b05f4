"""Every message in the French, Dutch and Portuguese catalogues is translated."""

import subprocess
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[2] / "locale"


@pytest.mark.parametrize("language", ["fr", "nl", "pt"])
def test_the_catalogue_has_no_untranslated_or_fuzzy_message(language):
    result = subprocess.run(
        ["msgfmt", "--check-format", "--statistics", "-o", "/dev/null",
         str(LOCALE / language / "LC_MESSAGES" / "django.po")],
        capture_output=True, text=True, check=True)
    statistics = result.stderr.strip()
    assert "translated messages" in statistics
    assert "untranslated" not in statistics and "fuzzy" not in statistics, statistics


def test_french_puts_a_space_before_a_colon():
    """French writes "Donne 1 : …", never "Donne 1: …" (what the JSON of a hand record shows
    is code, left as it is)."""
    import gettext
    import re

    with open(LOCALE / "fr" / "LC_MESSAGES" / "django.mo", "rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)._catalog
    unspaced = []
    for key, translated in catalogue.items():
        if not key or (isinstance(key, tuple) and not key[0]):
            continue  # the header
        words = re.sub(r"<[^>]+>|\"[^\"]*\"\s*:|https?://|\d:\d", "", translated)
        if re.search(r"[^\s\u00a0\u202f]:", words):
            unspaced.append(translated)
    assert not unspaced, unspaced


def test_french_typography_no_break_spaces_and_apostrophes():
    """French puts a no-break space before ":", ";", "?" and "!" (so that a line never starts
    with one: "Venez-vous ?"), and writes its elisions with the typographic apostrophe
    ("n’a", "l’atout"), never a plain space or the typewriter's '. Quotation marks around
    what a player types (« 'pass' ») are left as they are."""
    import gettext
    import re

    with open(LOCALE / "fr" / "LC_MESSAGES" / "django.mo", "rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)._catalog
    spaced, typewritten = [], []
    for key, translated in catalogue.items():
        if not key or (isinstance(key, tuple) and not key[0]):
            continue  # the header
        if re.search(r" [:;?!]", translated):
            spaced.append(translated)
        if re.search(r"[A-Za-zÀ-ÿ]'[A-Za-zÀ-ÿ]", translated):
            typewritten.append(translated)
    assert not spaced, spaced[:10]
    assert not typewritten, typewritten[:10]
