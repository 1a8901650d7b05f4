"""A season's evenings created as a series on a phone, and a guest added at the door (390x844,
Debian's Chromium): the preview fits the screen, a date unticked is skipped, the guest is on the
evening's list marked as a guest."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import browser, demo_server, signed_in  # noqa: F401 (fixtures)

pytestmark = pytest.mark.slow
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SHOTS = "docs/screenshots/"


def page_width(page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth")


def to_season(page) -> None:
    """From an evening's page to its season's."""
    page.locator("main a[href*='/seasons/']").first.tap()
    page.wait_for_load_state()


def test_an_organiser_creates_a_series_of_evenings_on_a_phone(browser, demo_server):  # noqa: F811
    base = demo_server["url"]
    page = signed_in(browser, base, **PHONE)
    page.goto(base + demo_server["next_evening"])
    to_season(page)
    page.get_by_role("link", name="Plan a series of evenings").tap()
    page.wait_for_load_state()
    first = datetime.date.today() + datetime.timedelta(days=200)
    last = first + datetime.timedelta(days=76)
    page.select_option("#id_weekday", "3")  # Thursday
    page.fill("#id_first", first.isoformat())
    page.fill("#id_last", last.isoformat())
    page.fill("#id_start_time", "20:00")
    page.fill("#id_venue", "The Red Lion")
    with page.expect_navigation():
        page.get_by_role("button", name="Show the dates").tap()
    page.wait_for_selector(".series-preview")
    page.wait_for_load_state("load")
    boxes = page.locator(".series-dates input[type=checkbox]")
    count = boxes.count()
    assert count == 11
    assert page_width(page) <= 390
    # Each date is a row a finger can tap: 44px at least.
    assert page.locator(".series-dates label").first.bounding_box()["height"] >= 44
    page.locator(".series-preview").scroll_into_view_if_needed()
    page.screenshot(path=SHOTS + "leagues-series-preview-phone.png")
    page.locator(".series-dates label").nth(2).tap()  # a holiday: skipped
    assert not boxes.nth(2).is_checked()
    with page.expect_navigation():
        page.get_by_role("button", name=re.compile(r"Create the ticked evenings")).tap()
    assert page.locator(".messages").inner_text().strip().startswith(
        f"{count - 1} evenings added to")
    listed = page.locator("main ul.plain-list li", has_text="The Red Lion")
    assert listed.count() == count - 1
    page.context.close()


def test_a_guest_added_at_the_door_is_drawn_and_marked_on_a_phone(browser,  # noqa: F811
                                                                  demo_server):  # noqa: F811
    base = demo_server["url"]
    page = signed_in(browser, base, **PHONE)
    # An evening of its own (the other browser tests use the demo's next evening).
    page.goto(base + demo_server["next_evening"])
    to_season(page)
    page.get_by_role("link", name="New evening", exact=True).tap()
    page.wait_for_load_state()
    page.fill("#id_date", (datetime.date.today() + datetime.timedelta(days=3)).isoformat())
    page.fill("#id_start_time", "19:30")
    with page.expect_navigation():
        page.locator("main form button[type=submit]").tap()
    evening = page.url
    assert "/evenings/" in evening
    page.fill("#guest-name", "Gus Walker")
    with page.expect_navigation():
        page.get_by_role("button", name="Add the guest").tap()
    assert "Gus Walker plays this evening as a guest" in page.locator(".messages").inner_text()
    row = page.locator("main ul.plain-list li", has_text="Gus Walker")
    assert row.locator(".badge", has_text="guest").is_visible()
    # Three members say yes at the door, then the draw seats the guest with them.
    # The sheet's taps are saved by htmx, which starts once the page has loaded: wait for the
    # sheet's own load, not the evening page's (a tap before it would post nothing).
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("link", name="Mark who is coming").tap()
    sheet = page.locator(".attendance-row:not(:has(.badge))")
    for i in range(3):
        sheet.nth(i).locator("label.answer-yes").tap()
        expect(sheet.nth(i).locator(".attendance-state")).to_contain_text("saved")
    assert page.locator(".attendance-row .badge", has_text="guest").count() == 1
    page.goto(evening)
    with page.expect_navigation():
        page.get_by_role("button", name="Draw the tables").tap()
    card = page.locator(".cards article").first
    assert card.locator("td", has_text="Gus Walker").locator(".badge", has_text="guest") \
        .is_visible()
    assert page_width(page) <= 390
    card.scroll_into_view_if_needed()
    page.screenshot(path=SHOTS + "leagues-guest-evening-phone.png")
    page.context.close()
