"""A game's how-to-play page: where it is, and where on it each call of the bid box is explained.

Each game's page is the template ``games/how_to_play/<game id>.html`` (its rules in words, for a
newcomer); every call of its bid box has an entry there whose id is :func:`call_anchor` of the
call, so the table can link a call to the sentence that says what it commits a player to.
"""

from __future__ import annotations

from django.urls import reverse


def template_of(game_id: str) -> str:
    return f"games/how_to_play/{game_id}.html"


def call_anchor(action: str) -> str:
    """The id of a call's entry on its game's page: the call, not its number or suit
    ("bid 4 notrump" -> "call-notrump", "solo 7 H" -> "call-solo", "petite_misere" ->
    "call-petite-misere")."""
    words = action.split()
    name = words[-1] if words[0] == "bid" else words[0]
    return "call-" + name.replace("_", "-")


def url(game_id: str, action: str | None = None) -> str:
    """The page of ``game_id``, at the entry of ``action`` when one is given."""
    page = reverse("how_to_play", args=[game_id])
    return f"{page}#{call_anchor(action)}" if action else page
