"""The table page in the reader's language: the words the table's HTML writes itself (seat
plates, the forms of a waiting seat, cards) are in the catalogues and translated."""

from __future__ import annotations

import ast
import re
from html import unescape
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import trans_real

from games import tables
from games.presentation import for_template
from tests.games.test_table_words import hands_of, table_dict

GAMES = Path(__file__).resolve().parents[2] / "games"
# The table's HTML built in Python, and the template tags that call it.
TAGS = [*(GAMES / "html").glob("*.py"), *(GAMES / "templatetags").glob("*.py")]
GETTEXT = {"_", "gettext", "gettext_lazy", "N_"}
PGETTEXT = {"pgettext", "pgettext_lazy"}


def messages_of(path: Path) -> set[str]:
    """Every literal message a module passes to gettext, as a catalogue's key (a context and
    its message joined by EOT), f-strings included: makemessages skips a call inside an
    f-string, which is how plates' words went missing from the catalogues."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        texts = [a.value for a in node.args if isinstance(a, ast.Constant)
                 and isinstance(a.value, str)]
        if node.func.id in GETTEXT and texts:
            found.add(texts[0])
        elif node.func.id in PGETTEXT and len(texts) >= 2:
            found.add(f"{texts[0]}\x04{texts[1]}")
    return found


@pytest.mark.parametrize("language", ["fr", "nl", "pt"])
def test_every_word_of_the_table_tags_is_in_the_catalogue(language):
    catalogue = trans_real.translation(language)._catalog
    messages = set().union(*(messages_of(path) for path in TAGS))
    assert {"declarer", "Sit here"} <= messages  # the scan sees the plates and their forms
    missing = sorted(m for m in messages if not catalogue.get(m))
    assert not missing, f"not in the {language} catalogue: {missing}"


def first_play_view():
    """Seat 0's view of a Bid Whist hand in trick play, its contract known."""
    for steps, _state in hands_of("bid_whist", range(20)):
        for hand in steps:
            if hand["phase"] == "play" and hand.get("contract"):
                return table_dict("bid_whist", hand)
    raise AssertionError("no hand reached trick play")


def test_a_plate_reads_in_french():
    view = first_play_view()
    with translation.override("fr"):
        html = render_to_string("games/partials/table_state.html",
                                {"view": view, "ui": for_template(view)})
    assert 'title="donneur"' in html and 'title="dealer"' not in html
    assert ">partenaire<" in html and ">partner<" not in html
    assert ">déclarant<" in html and ">declarer<" not in html


@pytest.mark.django_db(transaction=True)
def test_a_waiting_seat_offers_its_forms_in_french(client, django_user_model):
    person = django_user_model.objects.create_user("pat", "pat@example.org", "pw-long-enough")
    table = tables.create_table(person, "bid_whist", {})
    client.force_login(person)
    page = unescape(client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    for english, french in (("Sit here", "S’asseoir ici"),
                            ("Add a computer player", "Ajouter un joueur virtuel"),
                            ("Computer player level", "Niveau du joueur virtuel")):
        assert english not in page
        assert french in page


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["fr", "nl", "pt"])
def test_a_computer_players_short_mark_is_in_the_readers_language(client, django_user_model,
                                                                  settings, language):
    settings.COMPUTER_DELAY_SECONDS, settings.COMPUTER_WORKERS = 0, 0
    person = django_user_model.objects.create_user("pat", "pat@example.org", "pw-long-enough")
    table = tables.create_table(person, "solo_whist", {})
    tables.take_seat(table.pk, person, 0)
    tables.fill_seats(table.pk, person, "easy")
    client.force_login(person)
    page = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    marks = set(re.findall(r'<span class="computer-mark" aria-hidden="true">([^<]+)</span>', page))
    assert marks and "bot" not in marks, marks
