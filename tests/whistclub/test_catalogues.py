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
