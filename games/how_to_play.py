"""A game's how-to-play page: where it is, and where on it each call of the bid box is explained.

Each game's page is the template ``games/how_to_play/<game id>.html`` (its rules in words, for a
newcomer); every call of its bid box has an entry there whose id is :func:`call_anchor` of the
call, so the table can link a call to the sentence that says what it commits a player to.  The
page is the one place that sentence is written: the bid box takes it from there
(:func:`call_meanings`).
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from html import unescape

from django.template import TemplateDoesNotExist
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from games import registry

# The parts of every game's page, in order, by the id its contents link to (and the tests find
# it by): ``base.html`` lists them and puts each under its heading (``{% section %}``).
SECTIONS = {
    "aim": _("The aim"),
    "deal": _("The cards and the deal"),
    "bidding": _("The bidding"),
    "play": _("The play"),
    "score": _("The score"),
    "example": _("A worked hand"),
}


def template_of(game_id: str) -> str:
    return f"games/how_to_play/{game_id}.html"


def call_anchor(action: str) -> str:
    """The id of a call's entry on its game's page: the call, not its number or suit
    ("bid 4 notrump" -> "call-notrump", "solo 7 H" -> "call-solo", "petite_misere" ->
    "call-petite-misere")."""
    words = action.split()
    name = words[-1] if words[0] == "bid" else words[0]
    return "call-" + name.replace("_", "-")


def page_context(game: registry.GameDescription,
                 other_games: list[registry.GameDescription]) -> dict[str, object]:
    """What a game's page is rendered with, beside the request's: the game, its computer
    players (one fewer than its seats), the pages of ``other_games`` linked at its foot, its
    parts and the cards of its deal."""
    cards_each, kitty_cards = deal_sizes(game)
    return {"game": game, "computers": game.seats - 1, "other_games": other_games,
            "sections": SECTIONS, "cards_each": cards_each, "kitty_cards": kitty_cards,
            "conventions_url": conventions_url(game.id)}


def conventions_url(game_id: str) -> str | None:
    """The page of how the game's computer players play, if it has one."""
    from games import computer_conventions

    if game_id not in computer_conventions.games_with_page():
        return None
    return reverse("computer_players", args=[game_id])


def deal_sizes(game: registry.GameDescription) -> tuple[int, int]:
    """The cards each player is dealt and the kitty's, under the game's usual house rules:
    the engine's deal, so that a page's figures are the table's."""
    engine = game.engine
    dealt = engine.deal(engine.Rules(), 0, random.Random(0))
    return len(dealt.hands[0]), len(dealt.kitty or ())


def url(game_id: str, action: str | None = None) -> str:
    """The page of ``game_id``, at the entry of ``action`` when one is given."""
    page = reverse("how_to_play", args=[game_id])
    return f"{page}#{call_anchor(action)}" if action else page


CALL_ENTRY = re.compile(r'<dt id="(call-[a-z-]+)">([^<]*)</dt>\s*<dd>(.*?)</dd>', re.S)
TAG = re.compile(r"<[^>]+>")


def call_meanings(game_id: str) -> dict[str, tuple[str, str]]:
    """Each call's entry on the game's page in the active language, by :func:`call_anchor`:
    (the call's name, the sentence of what it commits a player to), as plain text."""
    return _call_meanings(game_id, get_language())


@lru_cache(maxsize=64)
def _call_meanings(game_id: str, language: str | None) -> dict[str, tuple[str, str]]:
    # The page is rendered once per game and language (``language``, the cache's key: the
    # words are in it), for its list of calls alone (its forms' token is never sent).
    game = registry.game(game_id)
    try:
        page = render_to_string(template_of(game_id),
                                {**page_context(game, []), "csrf_token": "unused"})
    except TemplateDoesNotExist:  # a game without its page yet: its calls go unexplained
        return {}
    return {anchor: (_plain(name), _plain(sentence))
            for anchor, name, sentence in CALL_ENTRY.findall(page)}


def _plain(text: str) -> str:
    return " ".join(unescape(TAG.sub("", text)).split())
