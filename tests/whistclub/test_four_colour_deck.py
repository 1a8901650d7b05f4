"""The four-colour deck, a player's setting: diamonds and clubs get colours of their own."""

import re
from pathlib import Path

import pytest

from games import tables

pytestmark = pytest.mark.django_db
STYLESHEET = Path(__file__).resolve().parents[2] / "static" / "css" / "four-colour.css"


def colour_of(suit: str) -> str:
    """The colour the four-colour stylesheet gives a card of ``suit``."""
    for selectors, colour in re.findall(r"([^{}]+)\{\s*color:\s*([^;]+);", STYLESHEET.read_text()):
        if f".card.suit-{suit}" in selectors:
            return colour.strip()
    return ""


def test_a_player_turns_on_the_four_colour_deck_and_every_page_follows(client,
                                                                         django_user_model):
    pat = django_user_model.objects.create_user("pat", "pat@example.org", "pw-long-enough")
    client.force_login(pat)
    table = tables.create_table(pat, "solo_whist", {})
    assert 'class="four-colour"' not in client.get(f"/tables/{table.pk}/").content.decode()
    profile = client.get("/accounts/profile/").content.decode()
    assert "Four-colour deck" in profile and "no two suits share a colour" in profile
    client.post("/accounts/profile/", {"display_name": "", "language": "",
                                       "four_colour_deck": "on"})
    pat.profile.refresh_from_db()
    assert pat.profile.four_colour_deck is True
    for url in ("/", f"/tables/{table.pk}/", "/tables/"):
        assert 'class="four-colour"' in client.get(url).content.decode(), url
    client.post("/accounts/profile/", {"display_name": "", "language": ""})  # unticked
    assert 'class="four-colour"' not in client.get(f"/tables/{table.pk}/").content.decode()


def test_the_four_colours_are_four_different_colours():
    diamonds, clubs = colour_of("D"), colour_of("C")
    assert diamonds and clubs and diamonds != clubs
    red = "#c0141b"  # hearts (and diamonds in the usual deck): site.css
    assert red not in (diamonds.lower(), clubs.lower())
