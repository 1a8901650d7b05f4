"""Each game's how-to-play page: open to everyone in the four languages, every call of the
game's bid box explained under the id the table links to, the figures of its score and of its
worked hand the engine's own, and one tap away from the home page, the table and the form of a
new table."""

from __future__ import annotations

import html
import random
import re

import pytest
from django.urls import reverse

from games import registry, tables
from games.how_to_play import call_anchor, url
from games.rules import belgian_whist, bid_whist, cutthroat_bid_whist, solo_whist
from tests.games.test_bid_box import CARD
from tests.games.test_table_words import dealt_hand

GAMES = [each.id for each in registry.all_games()]


def page(client, game: str, language: str = "en") -> str:
    response = client.get(url(game), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def section(text: str, name: str) -> str:
    start = text.index(f'<section id="{name}"')
    return text[start:text.index("</section>", start)]


def offered_calls(game: str, deals: int = 400) -> set[str]:
    """The entry of every call the game's bid box offered in hands played by the engine, each
    call chosen at random among the kinds of call offered (a solo in twelve suits and levels no
    likelier than a pass, so that auctions run long enough to offer a raise); every other deal
    passes whenever it may (a Belgian trou comes to naming trumps only then).  No call comes
    once the cards are played."""
    offered: set[str] = set()
    for seed in range(deals):
        rng, state = dealt_hand(game, seed)
        while not state.complete and state.phase != "play":
            if state.phase == "discard":  # cards, not calls (Bid Whist lists 18,564 choices)
                state.apply(state.random_action(rng))
                continue
            kinds: dict[str, list[str]] = {}
            for action in state.legal_actions():
                if not CARD.match(action) and not action.startswith("discard "):
                    kinds.setdefault(call_anchor(action), []).append(action)
            offered.update(kinds)
            if not kinds:
                state.apply(state.random_action(rng))
            elif seed % 2 and "call-pass" in kinds:
                state.apply("pass")
            else:
                state.apply(rng.choice(kinds[rng.choice(sorted(kinds))]))
    return offered


@pytest.mark.parametrize("game", GAMES)
def test_every_call_the_bid_box_offers_is_explained_under_its_id(client, game):
    text = page(client, game)
    explained = {anchor: sentence for anchor, sentence in re.findall(
        r'<dt id="(call-[a-z-]+)">[^<]+</dt>\s*<dd>\s*(\S[^<]+)', text)}
    missing = offered_calls(game) - set(explained)
    assert not missing, f"calls of the bid box without a sentence on the page: {missing}"
    assert all(len(sentence.split()) >= 5 for sentence in explained.values())


def cells(text: str) -> dict[str, int]:
    figures = re.findall(r'data-figure="([^"]+)">([^<]+)<', text)
    assert len(figures) == len({name for name, _ in figures})
    return {name: int(value.replace("−", "-")) for name, value in figures}


def worked_figures(game: str) -> dict[str, int]:
    """The worked hand's figures as the engine scores its facts (usual house rules)."""
    if game == "bid_whist":
        rules = bid_whist.Rules()
        return {name: bid_whist.score_hand(rules, 4, mode, 0, books)["points"][0]
                for name, mode, books in (("made", "uptown", 11), ("set", "uptown", 9),
                                          ("notrump", "notrump", 11))}
    if game == "cutthroat_bid_whist":
        rules = cutthroat_bid_whist.Rules()
        return {name: cutthroat_bid_whist.score_hand(rules, 10, mode, 0, tricks)["points"][0]
                for name, mode, tricks in (("made", "uptown", 12), ("set", "uptown", 9),
                                           ("notrump", "notrump", 12))}
    if game == "solo_whist":
        rules = solo_whist.Rules()
        made = solo_whist.score_hand(rules, "solo", 0, None, [5, 2, 1, 1])  # stopped at 9
        failed = solo_whist.score_hand(rules, "solo", 0, None, [4, 3, 3, 3])
        return {"made-you": made[0], "made-other": made[1],
                "failed-you": failed[0], "failed-other": failed[1]}
    if game == "belgian_whist":
        rules = belgian_whist.Rules()
        made = belgian_whist.score_hand(rules, "emballage", [0, 2], [5, 1, 5, 2], level=8)
        failed = belgian_whist.score_hand(rules, "emballage", [0, 2], [4, 3, 3, 3], level=8)
        solo = belgian_whist.score_hand(rules, "solo", [0], [7, 2, 2, 2], level=6)
        return {"made-you": made["points"][0], "made-partner": made["points"][2],
                "made-other": made["points"][1], "failed-you": failed["points"][0],
                "failed-partner": failed["points"][2], "failed-other": failed["points"][1],
                "solo-you": solo["points"][0], "solo-other": solo["points"][1]}
    raise AssertionError(f"{game} has no worked hand checked against its engine")


def table_figures(game: str) -> dict[str, int]:
    """The figures of the score's tables, from the engine's usual house rules."""
    if game == "solo_whist":
        return {f"{what}-{contract.name}": getattr(contract, what)
                for contract in solo_whist.CONTRACT_TABLE for what in ("goal", "stake")}
    if game == "belgian_whist":
        figures = {}

        def walk(prefix: str, value) -> None:
            if isinstance(value, dict):
                for key, inner in value.items():
                    walk(f"{prefix}.{key}" if prefix else key, inner)
            else:
                figures[prefix] = value

        walk("", belgian_whist.Rules().points_table)
        return figures
    return {}


@pytest.mark.parametrize("game", GAMES)
def test_the_worked_hand_scores_as_the_engine_scores_it(client, game):
    text = page(client, game)
    assert cells(section(text, "example")) == worked_figures(game)
    shown = {name: value for name, value in cells(text).items()
             if name not in worked_figures(game)}
    expected = table_figures(game)
    assert shown == {name: expected[name] for name in shown}, "a figure the engine disagrees with"
    assert len(shown) >= len(expected) // 2  # most of the table is shown, not a figure or two


@pytest.mark.parametrize("game", GAMES)
def test_the_worked_hand_shows_a_real_hand_of_card_faces(client, game):
    rows = re.findall(r'<span class="cards-row worked-cards">(.*?)</span></p>',
                      section(page(client, game), "example"))
    cards = [code for row in rows for code in re.findall(r'data-card="(\w\w)"', row)]
    assert len(cards) == len(set(cards))  # one deck
    module = registry.game(game).engine
    dealt = module.deal(module.Rules(), 0, random.Random(0))
    assert max(len(re.findall(r'data-card="', row)) for row in rows) == len(dealt.hands[0])


def paragraphs(text: str) -> list[str]:
    body = text[text.index('<article class="how-to-play">'):]
    found = re.findall(r"<(?:p|dd)>\s*([^<]*[a-zA-Z][^<]*?)\s*</(?:p|dd)>", body)
    return [html.unescape(" ".join(each.split())) for each in found]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("language", ["fr", "nl", "pt"])
def test_the_page_is_in_the_readers_language_paragraph_by_paragraph(client, game, language):
    english = paragraphs(page(client, game))
    translated = paragraphs(page(client, game, language))
    assert len(english) == len(translated) >= 12
    assert not set(english) & set(translated), set(english) & set(translated)
    assert f'<html lang="{language}">' in page(client, game, language)


def test_a_game_the_site_does_not_offer_has_no_page(client):
    assert client.get("/games/poker/how-to-play/").status_code == 404


def test_each_game_on_the_home_page_links_to_its_page(client):
    home = client.get("/").content.decode()
    for game in GAMES:
        assert f'href="{url(game)}"' in home


@pytest.mark.django_db
def test_the_table_and_the_new_table_form_link_to_their_games_page(client, django_user_model):
    user = django_user_model.objects.create_user("ada", password="pw")
    client.force_login(user)
    for game in GAMES:
        form = client.get(reverse("new_table", args=[game])).content.decode()
        assert f'href="{url(game)}"' in form
        table = tables.play_now(user, game)
        assert f'href="{url(game)}"' in client.get(table.get_absolute_url()).content.decode()
