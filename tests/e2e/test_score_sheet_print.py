"""On paper: the evening's score sheets print one table a page, with no blank page after any of
them (Chromium's own print to PDF, on A4); standings print with every column on the page."""

import re

import pytest

from tests.e2e.conftest import signed_in

pytestmark = pytest.mark.slow


def test_each_table_of_an_evening_prints_on_one_page(browser, demo_server):
    base, evenings = demo_server["url"], demo_server["evenings"]
    tables, club, evening, _season = max(evenings, key=lambda each: int(each[0]))
    assert int(tables) >= 2  # the demo's busiest evening
    page = signed_in(browser, base)
    page.goto(f"{base}/clubs/{club}/evenings/{evening}/sheet/")
    assert page.locator(".sheet-page").count() == int(tables)
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == int(tables)
    page.context.close()


def test_standings_print_with_every_column_on_the_page(browser, demo_server):
    base, evenings = demo_server["url"], demo_server["evenings"]
    # the width of an A4 page inside its margins, at 96 dots an inch: what printing lays out
    page = signed_in(browser, base, viewport={"width": 700, "height": 1000})
    for season in sorted({(club, season) for _n, club, _e, season in evenings}):
        page.goto(f"{base}/clubs/{season[0]}/seasons/{season[1]}/")
        assert page.locator("button[data-print]").is_visible()  # the script shows it
        page.emulate_media(media="print")
        clipped = page.locator(".table-scroll").evaluate_all(
            "els => els.filter(el => el.scrollWidth > el.clientWidth + 1).length")
        hidden = page.locator("button[data-print], .scroll-hint").evaluate_all(
            "els => els.filter(el => el.offsetParent !== null).length")
        page.emulate_media(media="screen")
        assert (clipped, hidden) == (0, 0), season
    page.context.close()


def test_printed_standings_name_the_club_and_show_no_organiser_buttons(browser, demo_server):
    base, evenings = demo_server["url"], demo_server["evenings"]
    _tables, club, _evening, season = evenings[0]
    page = signed_in(browser, base)  # the demo's organiser: the buttons are theirs on screen
    page.goto(f"{base}/clubs/{club}/seasons/{season}/")
    buttons = ["New evening", "Close the season"]
    for name in buttons:
        assert page.get_by_role("link", name=name).is_visible()
    page.emulate_media(media="print")
    for name in buttons:
        assert not page.get_by_role("link", name=name).is_visible()
    assert not page.get_by_role("link", name="Standings (CSV)").is_visible()
    assert page.locator("p.print-club").inner_text() == "Demo Whist Club"
    assert page.locator("p.print-club").is_visible()
    printed = page.get_by_text(re.compile(r"^Printed on \d{1,2} \w+ \d{4}$"))
    assert printed.is_visible()
    assert " · " in page.locator("h1").inner_text()  # the league and the season
    page.context.close()
