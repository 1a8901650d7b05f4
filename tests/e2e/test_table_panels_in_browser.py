"""What the table shows once a hand is over, at the next hand's auction: the last trick stays
folded until asked for, the hand's result is said in the middle of the table, over neither the
hand nor the call, and its whole deal opens below the table only when asked for (Bid Whist's
discards included, read whole on a phone)."""

import time
import uuid

import pytest

from tests.e2e.conftest import (
    Stall,
    make_a_move,
    open_bid_whist_to,
    shown,
    sign_up,
    version_of,
)

pytestmark = pytest.mark.slow

SIZES = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}

# Which of ``els`` the eye can see: on screen, and what is drawn at their centre is them.
SEEN = """els => els.map(el => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const inside = r.width > 0 && r.height > 0 && x >= 0 && y >= 0
        && x <= window.innerWidth && y <= window.innerHeight;
    const hit = inside ? document.elementFromPoint(x, y) : null;
    return inside && !!hit && el.contains(hit);
})"""


@pytest.fixture(scope="module")
def second_auction(browser, live_server_url):
    """A Bid Whist table played by one person and three computer players up to the next
    hand's auction: (the table's address, the person's cookies)."""
    context = browser.new_context(locale="en-GB")
    context.set_default_timeout(15000)
    page = context.new_page()
    sign_up(page, live_server_url, "pan" + uuid.uuid4().hex[:6])
    # A match to 7 may end with its first hand (seven books bid and made, a Boston); these
    # tests need the next hand's auction, so the match goes on longer.
    open_bid_whist_to(page, live_server_url, 50, {"id_rule_boston": "normal"})
    deadline = time.monotonic() + 240
    still = Stall(page)
    while time.monotonic() < deadline:
        still.check()
        if (page.locator(".felt.quiet .last-trick").count()
                and page.locator("details.result-panel .discards").count()):
            break
        if not make_a_move(page, prefer="pass"):
            panel = page.locator("details.result-panel[open] > summary")
            if panel.count():
                panel.click()
            page.wait_for_timeout(150)
    else:
        # Say whether the table stopped or only this page's socket did (a fresh load shows
        # the table as the server has it), and what the page showed.
        fresh = context.new_page()
        try:
            fresh.goto(page.url)
            fresh.wait_for_selector("#table-state")
            loaded = version_of(fresh)
        except Exception as exc:  # the server itself may be what stopped
            loaded = f"(none: {exc})"
        fresh.close()
        pytest.fail(f"the next hand's auction never came: the page shows version "
                    f"{version_of(page)}, a fresh load {loaded}; the page reads: {shown(page)}")
    assert "50 wins, −50 loses" in shown(page)
    url, state = page.url, context.storage_state()
    context.close()
    return url, state


def player_page(browser, second_auction, size):
    url, state = second_auction
    context = browser.new_context(locale="en-GB", storage_state=state, **SIZES[size])
    context.set_default_timeout(15000)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("#table-state")
    page.wait_for_timeout(300)  # the page's script has placed the panels
    return page


@pytest.mark.parametrize("size", SIZES)
def test_the_last_trick_stays_folded_until_asked_for(browser, second_auction, size):
    page = player_page(browser, second_auction, size)
    assert not page.locator(".last-trick-panel").is_visible()
    assert not page.locator(".trick-finished").is_visible()
    toggle = page.locator(".last-trick .toggle-button")
    if toggle.is_visible():
        toggle.click()
        assert page.locator(".last-trick-panel").is_visible()
        assert all(page.locator(".last-trick-panel .card").evaluate_all(SEEN))
    page.context.close()


def overlap(a, b) -> bool:
    return not (a["right"] <= b["left"] or b["right"] <= a["left"]
                or a["bottom"] <= b["top"] or b["bottom"] <= a["top"])


def box(page, selector):
    return page.locator(selector).evaluate(
        "el => { const r = el.getBoundingClientRect();"
        " return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; }")


@pytest.mark.parametrize("size", SIZES)
def test_the_result_shows_in_the_middle_over_neither_the_hand_nor_the_call(browser,
                                                                         second_auction, size):
    page = player_page(browser, second_auction, size)
    words = page.locator(".last-hand-words")
    assert words.evaluate_all(SEEN) == [True]
    assert words.inner_text().startswith("Hand 1: ")
    result = box(page, ".last-hand-words")
    assert not overlap(result, box(page, ".my-hand")), "the result lies over the hand bar"
    assert all(page.locator(".my-hand [data-card]").evaluate_all(SEEN))
    if page.locator(".bid-box").count():
        assert not overlap(result, box(page, ".bid-box"))
    assert page.locator("details.result-panel").get_attribute("open") is None
    assert page.inner_text(".site-nav").strip()  # the header is not covered either
    assert all(page.locator(".site-nav a").evaluate_all(SEEN))
    page.context.close()


def test_the_whole_result_can_be_read_on_a_phone_discards_included(browser, second_auction):
    page = player_page(browser, second_auction, "phone")
    panel = page.locator("details.result-panel")
    assert panel.get_attribute("open") is None  # never opened over the table by itself
    page.click("a.whole-deal")
    assert panel.get_attribute("open") is not None
    seen: list = []
    for _ in range(50):  # the scroll may still be moving on a loaded machine: look again
        page.locator(".result-panel .discards").scroll_into_view_if_needed()
        page.wait_for_timeout(100)
        seen = page.locator(".result-panel .discards .card").evaluate_all(SEEN)
        if seen and all(seen):
            break
    assert seen and all(seen), seen
    assert all(page.locator(".result-panel .kitty .card").evaluate_all(SEEN))
    page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_result_stays_closed_for_a_visitor_until_opened(browser, second_auction, size):
    context = browser.new_context(locale="en-GB", **SIZES[size])
    context.set_default_timeout(15000)
    page = context.new_page()
    page.goto(second_auction[0])
    page.wait_for_selector("#table-state")
    page.wait_for_timeout(300)  # the page's script has placed the panels
    panel = page.locator("details.result-panel")
    assert panel.get_attribute("open") is None
    assert page.locator(".sign-in-prompt").evaluate_all(SEEN) == [True]  # log in, sign up
    panel.locator("summary").click()  # a watcher may still read it
    assert panel.get_attribute("open") is not None
    assert panel.locator(".result-words").is_visible()
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_computer_player_is_marked_as_one_on_its_plate(browser, second_auction, size):
    """On a phone too, where the words "computer, normal" do not fit: a short marker."""
    page = player_page(browser, second_auction, size)
    plates = page.locator(".felt .seat")
    assert plates.count() == 3  # the three computer players
    for i in range(plates.count()):
        plate = plates.nth(i)
        shown = plate.inner_text()  # what the eye reads: nothing hidden by the style sheet
        assert "bot" in shown.split() or "computer" in shown, shown
        # and a screen reader hears the words, level included, at every size
        assert "computer, " in plate.locator(".computer-badge").text_content()
    page.context.close()
