"""The organiser's pages on a phone (390x844, in Debian's Chromium): nothing wider than the
screen, nothing needing a sideways scroll nobody is told about, no button drawn invisible."""

import re

import pytest

from tests.e2e.conftest import browser, demo_server, signed_in  # noqa: F401 (fixtures)

pytestmark = pytest.mark.slow
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def page_width(page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth")


def wider_than_the_screen(page, width: int = 390) -> list[str]:
    """What sticks out past the screen's right edge (for a failing assertion to name)."""
    return page.evaluate("""width => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > width + 0.5)
        .slice(0, 8)
        .map(e => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}px: ${e.textContent.trim().slice(0, 60)}`)""", width)


def club_of(demo_server):  # noqa: F811
    return "/clubs/" + demo_server["evenings"][0][1] + "/"


def test_the_members_page_fits_a_phone_and_its_invite_buttons_can_be_read(browser,  # noqa: F811
                                                                          demo_server):  # noqa: F811
    base = demo_server["url"]
    for language in ("en", "fr"):
        page = signed_in(browser, base, extra_http_headers={"Accept-Language": language},
                         **PHONE)
        page.goto(base + club_of(demo_server) + "members/")
        assert page_width(page) <= 390, language
        invite = page.locator("table form.inline button").first
        colour, background = invite.evaluate(
            "b => [getComputedStyle(b).color, getComputedStyle(b.closest('td')).backgroundColor]")
        # The cell is white (the table's background shows through): white text was invisible.
        assert colour not in ("rgb(255, 255, 255)", background), language
        page.context.close()


def test_a_long_line_in_the_bulk_preview_keeps_the_page_on_the_screen(browser,  # noqa: F811
                                                                      demo_server):  # noqa: F811
    base = demo_server["url"]
    page = signed_in(browser, base, **PHONE)
    page.goto(base + club_of(demo_server) + "members/bulk/")
    page.fill("textarea", "Wanda Long\n" + "Y" * 300 + "\nwanda long")
    page.tap("main form button[type=submit]")
    page.wait_for_selector(".bulk-preview")
    # the preview's element exists before the new page's stylesheet has loaded: measuring then
    # measured the unstyled page (985 px wide once, under the test suite's load)
    page.wait_for_load_state("load")
    assert page_width(page) <= 390
    button = page.locator("main button[name=confirm]").bounding_box()
    assert button["x"] + button["width"] <= 390
    page.context.close()


def test_a_tables_sheet_on_a_phone_says_it_scrolls_sideways(browser, demo_server):  # noqa: F811
    base = demo_server["url"]
    page = signed_in(browser, base, **PHONE)
    page.goto(base + demo_server["solo_table"])
    sheet = page.locator(".table-scroll").first
    if sheet.evaluate("s => s.scrollWidth > s.clientWidth"):
        hint = page.locator(".scroll-hint", has_text=re.compile("sideways"))
        assert hint.count() == 1 and hint.is_visible()
        # the hint comes before the sheet it speaks of
        assert hint.bounding_box()["y"] < sheet.bounding_box()["y"]
    assert page_width(page) <= 390
    page.context.close()


def test_the_online_tables_invite_link_fits_a_phone(browser, demo_server):  # noqa: F811
    base = demo_server["url"]
    page = signed_in(browser, base, **PHONE)
    page.goto(base + demo_server["next_evening"] + "tables/new/")
    for seat, select in enumerate(page.locator("main select").all()):
        select.select_option(index=seat + 1)
    # Each tap opens another page: measure the page it opened, whole (its style sheet loaded),
    # not the one it left.
    with page.expect_navigation(wait_until="load"):
        page.tap("main form button[type=submit]")
    with page.expect_navigation(wait_until="load"):
        page.locator("main a", has_text=re.compile(r"^Table \d+$")).last.tap()
    with page.expect_navigation(wait_until="load"):
        page.tap("text=Play this table online >> nth=-1")
    page.wait_for_selector(".online-fixture code")
    assert page_width(page) <= 390, wider_than_the_screen(page)
    page.context.close()


def test_the_email_pages_choices_sit_beside_their_words(browser, demo_server):  # noqa: F811
    base = demo_server["url"]
    page = signed_in(browser, base, **PHONE)
    page.goto(base + demo_server["next_evening"] + "email/")
    for radio in page.locator("main input[type=radio]").all():
        box = radio.bounding_box()
        text = radio.locator("xpath=..").bounding_box()  # its label
        assert box["width"] < 40  # a radio button, not a bar across the screen
        assert text["y"] <= box["y"] and box["y"] + box["height"] <= text["y"] + text["height"]
        assert text["height"] < 60  # one line: the button beside its words, not above them
    message = page.locator("main textarea").bounding_box()
    subject = page.locator("main input[name=subject]").bounding_box()
    assert abs(message["width"] - subject["width"]) < 2  # as wide as the subject above it
    page.context.close()


def test_a_refused_deal_shows_its_reason_on_the_phones_screen(browser, demo_server):  # noqa: F811
    """Entering a deal from the bottom of a long sheet: the refusal swapped in is brought into
    view, beside the field it concerns, not left hundreds of pixels above the screen."""
    page = signed_in(browser, demo_server["url"], **PHONE)
    page.goto(demo_server["url"] + demo_server["solo_table"])
    page.wait_for_selector("#deal-entry form")
    page.check("input[name=contract][value=prop_and_cop]", force=True)
    page.check("input[name=declarer][value='0']", force=True)
    page.fill("input[name=tricks]", "8")
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    page.click("#deal-entry button[type=submit]")
    error = page.wait_for_selector("#deal-entry .errorlist")
    box = error.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 844, box
    assert "partner" in error.inner_text()
