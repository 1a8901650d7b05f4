"""A Bid Whist evening's prizes on the venue's screen, in French (Debian's Chromium): a pair's
score is words ("2 points de ligue, différence +4"), and the pair's names still read across
the prize's width, the score under them when it does not fit beside them.

The board is rendered by the site (the test client) and shown with its own stylesheet; the
browser starts after, since Django refuses database work in a thread where Playwright's loop
runs."""

import datetime
import os
import re
from pathlib import Path

import pytest

from leagues.models import Club, Evening, EveningTable, League, Member, Partnership, Season
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS

pytestmark = [
    pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db,
    # as tests/conftest.py leaves out those that ask for its browser fixtures
    pytest.mark.skipif(os.environ.get("WHISTCLUB_LEAVE_OUT_BROWSER_TESTS") == "1",
                       reason="browser tests run in the PostgreSQL + Redis pass"),
]
TV = {"width": 1920, "height": 1080}
TABLET_UPRIGHT = {"width": 768, "height": 1024}
BOARD_CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "board.css"


def french_bid_board(client, organiser_user) -> str:
    """The board of a finished Bid Whist evening of a public club, in French: the Rois (two
    long names) beat the Dames 7–3; a prize for the winner and the runner-up."""
    club = Club.create_with_organiser(organiser_user, name="Whist-club de la Lanterne")
    Club.objects.filter(pk=club.pk).update(is_public=True)
    league = League.objects.create(club=club, name="Bid Whist en paires", game="bid_whist",
                                   prize_winner=True, prize_runner_up=True)
    season = Season.objects.create(league=league, name="Hiver")
    camille, francois, luc, marie = (
        Member.objects.create(club=club, name=name)
        for name in ["Camille Roux", "François Girard", "Luc Garnier", "Marie Chevalier"])
    rois = Partnership.objects.create(season=season, first=camille, second=francois,
                                      name="Les Rois")
    dames = Partnership.objects.create(season=season, first=luc, second=marie, name="Les Dames")
    evening = Evening.objects.create(season=season, date=datetime.date(2030, 1, 9))
    for member in (camille, francois, luc, marie):
        evening.set_attendance(member, True)
    EveningTable.objects.create(evening=evening, number=1, pair_0=rois,
                                pair_1=dames).set_totals([7, 3], None)
    page = client.get(f"/clubs/{club.slug}/evenings/{evening.pk}/board/",
                      HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    style = f"<style>{BOARD_CSS.read_text()}</style>"
    return re.sub(r'<link rel="stylesheet"[^>]*>', lambda _: style, page)


@pytest.mark.parametrize("screen", [TV, TABLET_UPRIGHT], ids=["tv", "tablet-upright"])
def test_a_pairs_prize_reads_its_names_across_the_prize(client, organiser_user, screen):
    board = french_bid_board(client, organiser_user)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_context(locale="fr-FR", viewport=screen).new_page()
        page.set_content(board)
        winner = page.locator(".board-prize").first
        assert "Les Rois (Camille Roux & François Girard)" in winner.inner_text()
        assert "2 points de ligue, différence +4" in winner.inner_text()
        names = winner.locator(".board-prize-names")
        prize, box = winner.bounding_box(), names.bounding_box()
        size = names.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
        browser.close()
    # the names take most of the prize's width, on two lines at most (not a letter a line)
    assert box["width"] >= 0.6 * prize["width"], (box, prize)
    assert box["height"] <= 2.6 * size, (box, size)
