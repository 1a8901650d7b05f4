"""Each partnership game's page "How the computer players play": open to everyone in the four
languages, linked from the game's how-to-play page and from its tables, in a club player's words
(no notation, no threshold, no test's name), and every convention on it held by a position of
tests/games/rules/test_conventions.py."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from games import computer_conventions, tables
from games.how_to_play import url as how_to_play_url
from tests.games.rules.test_conventions import COVERED, STRONG_ONLY

GAMES = computer_conventions.games_with_page()
LANGUAGES = ["en", "fr", "nl", "pt"]


def page(client, game: str, language: str = "en") -> str:
    response = client.get(reverse("computer_players", args=[game]),
                          HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def words(text: str) -> str:
    """What a reader sees of the page's article: its text, tags and comments gone."""
    body = text[text.index('<article class="how-to-play computer-conventions">'):]
    body = body[:body.index("</article>")]
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def paragraphs(text: str) -> list[str]:
    body = text[text.index('<article class="how-to-play computer-conventions">'):]
    found = re.findall(r"<(?:p|h2|h3)[^>]*>\s*([^<]*[a-zA-Z][^<]*?)\s*</(?:p|h2|h3)>", body)
    return [html.unescape(" ".join(each.split())) for each in found]


def test_the_partnership_games_have_a_page():
    assert set(GAMES) == {"bid_whist", "solo_whist", "belgian_whist"}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_is_in_the_readers_words(client, game, language):
    text = page(client, game, language)
    assert f'<html lang="{language}">' in text
    seen = words(text)
    assert not re.search(r"\w=\w|\bNone\b|_|\b\d\.\d", seen), "notation on the page"
    for convention in computer_conventions.conventions(game):
        assert convention.id not in seen
    assert not re.search(r"\b(bid|solo|belgian)_whist/", seen)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("language", ["fr", "nl", "pt"])
def test_every_sentence_is_translated(client, game, language):
    english = paragraphs(page(client, game))
    translated = paragraphs(page(client, game, language))
    assert len(english) == len(translated) >= 10
    assert not set(english) & set(translated), set(english) & set(translated)


@pytest.mark.parametrize("game", GAMES)
def test_every_convention_on_the_page_is_held_by_a_position(client, game):
    shown = set(re.findall(r'data-convention="([^"]+)"', page(client, game)))
    assert shown == {c.id for c in computer_conventions.conventions(game)}
    assert shown <= COVERED
    strong_only = {c.id for c in computer_conventions.conventions(game) if c.strong_only}
    assert strong_only == STRONG_ONLY & shown


def test_every_position_tested_is_a_convention_on_a_page():
    on_pages = {c.id for game in GAMES for c in computer_conventions.conventions(game)}
    assert on_pages == COVERED


@pytest.mark.parametrize("game", GAMES)
def test_the_page_says_the_computer_players_do_not_signal(client, game):
    assert "Its discards are not signals" in page(client, game)


def test_a_game_without_a_page_has_none(client):
    assert client.get("/games/cutthroat_bid_whist/computer-players/").status_code == 404
    assert client.get("/games/poker/computer-players/").status_code == 404


@pytest.mark.parametrize("game", GAMES)
def test_the_how_to_play_page_links_to_it_and_back(client, game):
    target = reverse("computer_players", args=[game])
    response = client.get(how_to_play_url(game))
    assert f'href="{target}"' in response.content.decode()
    assert f'href="{how_to_play_url(game)}"' in page(client, game)


@pytest.mark.django_db
def test_the_table_links_to_it(client, django_user_model):
    user = django_user_model.objects.create_user("ada", password="pw")
    client.force_login(user)
    for game in GAMES:
        table = tables.play_now(user, game)
        text = client.get(table.get_absolute_url()).content.decode()
        assert f'href="{reverse("computer_players", args=[game])}"' in text
    table = tables.play_now(user, "cutthroat_bid_whist")
    assert "/computer-players/" not in client.get(table.get_absolute_url()).content.decode()
