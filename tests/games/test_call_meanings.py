"""Each call of the bid box says what it commits you to, in the page's sentence, and links to
its entry on the game's how-to-play page."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.utils import translation

from games import registry
from games.how_to_play import call_anchor, call_meanings
from games.html.table import table_fragment_html
from games.presentation import for_template
from tests.games.test_table_words import hands_of, table_dict

GAMES = [each.id for each in registry.all_games()]


def at_my_call(game: str):
    """Seat 0's view at its first call of the auction (a bid box to show)."""
    for steps, _state in hands_of(game, range(40)):
        for hand in steps:
            view = table_dict(game, hand)
            if hand.get("to_act") == 0 and for_template(view)["bid_box"]:
                return view
    raise AssertionError(f"seat 0 never called in {game}")


def meanings_of(text: str) -> dict[str, str]:
    box = text[text.index('<details class="call-meanings">'):]
    box = box[:box.index("</details>")]
    return {anchor: unescape(sentence) for anchor, sentence in re.findall(
        r'<dt><a href="[^"]*#(call-[a-z-]+)"[^>]*>[^<]+</a></dt><dd id="meaning-\1">([^<]+)</dd>',
        box)}


@pytest.mark.parametrize("game", GAMES)
def test_every_call_offered_carries_its_sentence_and_a_link_to_its_entry(game):
    view = at_my_call(game)
    text = str(table_fragment_html(view, for_template(view)))
    shown = meanings_of(text)
    offered = {call_anchor(a) for a in re.findall(r'<button type="submit" data-action="([^"]+)"',
                                                   text)}
    assert offered and offered <= set(shown), (offered, shown)
    assert shown == {anchor: call_meanings(game)[anchor][1] for anchor in shown}
    assert all(len(sentence.split()) >= 5 and sentence.endswith(".")
               for sentence in shown.values())
    assert f'href="/games/{game}/how-to-play/#' in text
    for action in re.findall(r'<button type="submit" data-action="([^"]+)"', text):
        button = re.search(rf'<button type="submit" data-action="{re.escape(action)}"[^>]*>',
                           text).group(0)
        assert f'aria-describedby="meaning-{call_anchor(action)}"' in button, button


def test_the_calls_are_explained_in_the_readers_language():
    view = at_my_call("bid_whist")
    with translation.override("fr"):
        text = str(table_fragment_html(view, for_template(view)))
    assert "Ce à quoi chaque annonce vous engage" in text
    assert meanings_of(text)["call-pass"].startswith("Vous n’enchérissez pas")
