"""The board on the venue's screen (Debian's Chromium): a typical club night, 6 tables and 24
players, fits a 1920x1080 TV without scrolling, its table numbers large; on a 1024x768 tablet
too."""

import os
from pathlib import Path

import pytest

from tests.e2e.conftest import browser  # noqa: F401 (fixture)
from tests.live_servers import DaphneServer, ServerDatabase

pytestmark = pytest.mark.slow
TV = {"width": 1920, "height": 1080}
TABLET = {"width": 1024, "height": 768}
TABLET_UPRIGHT = {"width": 768, "height": 1024}


def served_club_night(tmp_path_factory, name: str, build: str):
    """A server of its own on a club night (``tests.leagues.club_night``, ``build``'s
    arguments): the board's address, then the server stopped and its database dropped."""
    folder = tmp_path_factory.mktemp(name)
    database = ServerDatabase.migrated(folder)
    out = database.shell(f"from tests.leagues.club_night import build; print(build({build}))")
    line = next(x for x in out.splitlines() if x.startswith("club_night "))
    _, slug, evening_id, _organiser = line.split()
    server = DaphneServer(database, folder / "daphne.log").start()
    yield {"url": f"{server.url}/clubs/{slug}/evenings/{evening_id}/board/", "folder": folder}
    server.stop()
    database.drop()


@pytest.fixture(scope="module")
def club_night(tmp_path_factory):
    yield from served_club_night(tmp_path_factory, "board", "")


def overflow(page) -> dict:
    return page.evaluate("""() => ({
        width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight,
        below: [...document.querySelectorAll('#board li, #board h1, #board h2')]
            .filter(e => e.getBoundingClientRect().bottom > innerHeight + 0.5)
            .slice(0, 5).map(e => e.textContent.trim().slice(0, 40))})""")


@pytest.mark.parametrize("screen", [TV, TABLET, TABLET_UPRIGHT],
                         ids=["tv", "tablet", "tablet-upright"])
def test_a_club_night_fits_the_screen_without_scrolling(browser, club_night,  # noqa: F811
                                                        screen):
    page = browser.new_context(locale="en-GB", viewport=screen).new_page()
    page.goto(club_night["url"])
    page.wait_for_load_state("load")
    assert page.locator(".board-table").count() == 6
    assert page.locator(".board-standings-list li").count() == 24
    assert page.locator(".board-round").inner_text() == "Round 2 of 3"
    sizes = overflow(page)
    assert sizes["width"] <= screen["width"] and sizes["height"] <= screen["height"], sizes
    assert not sizes["below"], sizes
    # One script, measured at once: the socket's first render may swap the board meanwhile.
    body, number = page.evaluate("""() => [document.body, document.querySelector(
        '.board-table-number')].map(e => parseFloat(getComputedStyle(e).fontSize))""")
    assert number >= 2.5 * body
    if screen is TV:
        assert body >= 24  # read across a room
    if screen is TABLET_UPRIGHT:
        assert body >= 18  # the tables above the standings, the type by the width
    name = {id(TV): "board-tv.png", id(TABLET): "board-tablet.png",
            id(TABLET_UPRIGHT): "board-tablet-upright.png"}[id(screen)]
    target = Path(os.environ.get("BOARD_SCREENSHOTS") or club_night["folder"])
    page.screenshot(path=str(target / name))
    page.context.close()


@pytest.fixture(scope="module")
def complete_night(tmp_path_factory):
    """The same club night, its three rounds played: the board shows the prizes."""
    yield from served_club_night(tmp_path_factory, "board-prizes", "complete=True")


@pytest.mark.parametrize("screen", [TV, TABLET, TABLET_UPRIGHT],
                         ids=["tv", "tablet", "tablet-upright"])
def test_the_prizes_of_a_complete_evening_fit_the_screen_in_large_type(
        browser, complete_night, screen):  # noqa: F811
    page = browser.new_context(locale="en-GB", viewport=screen).new_page()
    page.goto(complete_night["url"])
    page.wait_for_load_state("load")
    assert page.locator(".board-round").inner_text() == "Round 3 of 3"
    labels = page.locator(".board-prize-label").all_inner_texts()
    assert [label.lower() for label in labels] == ["winner", "runner-up", "booby prize"]
    assert "A bottle of wine" in page.locator(".board-prizes").inner_text()
    assert page.locator(".board-standings-list li").count() == 24
    name = {id(TV): "board-prizes-tv.png", id(TABLET): "board-prizes-tablet.png",
            id(TABLET_UPRIGHT): "board-prizes-tablet-upright.png"}[id(screen)]
    target = Path(os.environ.get("BOARD_SCREENSHOTS") or complete_night["folder"])
    page.screenshot(path=str(target / name))
    sizes = overflow(page)
    assert sizes["width"] <= screen["width"] and sizes["height"] <= screen["height"], sizes
    assert not sizes["below"], sizes
    body, names = page.evaluate("""() => [document.body, document.querySelector(
        '.board-prize-names')].map(e => parseFloat(getComputedStyle(e).fontSize))""")
    assert names >= 1.5 * body  # the winners' names larger than the rest
    assert page.locator(".board-table").count() == 0  # the prizes where the tables were
    page.context.close()
