"""The bid box in a real browser: the Belgian auction fits a phone's screen, every call a tap
target of 44 px, and Bid Whist's numbers ascend by mode (games/words/<game>.py, bid_box)."""

import uuid

import pytest

from tests.e2e.conftest import fill_empty_seats, sign_up

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True}


def my_auction_call(page, live_server_url, game):
    """A table of ``game`` with computer players, waited on until it is this page's call in the
    auction proper (a Belgian trou round is answered on the way)."""
    page.goto(live_server_url + f"/tables/new/{game}/")
    page.click("text=Open the table")
    page.wait_for_selector("#table-state")
    fill_empty_seats(page)
    for _ in range(100):
        page.wait_for_selector(".bid-box", timeout=20000)
        if page.locator(".bid-box [data-action='pass']").count():
            return
        page.locator(".bid-box button[data-action]").first.click(timeout=2000)
        page.wait_for_timeout(200)
    pytest.fail("never my call")


def test_the_belgian_bid_box_fits_a_phone(browser, live_server_url):
    context = browser.new_context(locale="en-GB", **PHONE)
    page = context.new_page()
    sign_up(page, live_server_url, "bb" + uuid.uuid4().hex[:6])
    my_auction_call(page, live_server_url, "belgian_whist")
    # everything measured at one moment, once a bid box with a pass is on the screen: the
    # server swaps #table-state on every change, so two looks may see two different boxes
    # (and once the page's style sheets are in: a look while they load measures bare buttons)
    measured = page.wait_for_function("""() => {
        if (document.readyState !== 'complete') return null;
        const box = document.querySelector('.bid-box');
        if (!box || !box.querySelector("[data-action='pass']")) return null;
        const r = box.getBoundingClientRect();
        if (!r.width) return null;
        return {width: r.width, height: r.height,
                first: box.querySelector('button[data-action]').dataset.action,
                sizes: [...box.querySelectorAll('button')].map(e => {
                    const b = e.getBoundingClientRect();
                    return {x: b.x, width: b.width, height: b.height}; })};
    }""").json_value()
    assert measured["width"] <= 390 and measured["height"] <= 700, measured
    assert measured["first"] == "pass"
    assert measured["sizes"]
    for size in measured["sizes"]:
        assert size["width"] >= 44 and size["height"] >= 44, size
        assert size["x"] + size["width"] <= 390
    context.close()


def test_bid_whist_numbers_ascend_in_the_grid(new_page, live_server_url):
    page = new_page()
    sign_up(page, live_server_url, "bw" + uuid.uuid4().hex[:6])
    my_auction_call(page, live_server_url, "bid_whist")
    actions = page.wait_for_function("""() => {
        const bids = document.querySelectorAll(".bid-box button[data-action^='bid ']");
        return bids.length ? [...bids].map(e => e.dataset.action) : null;
    }""").json_value()
    bids = [a.split() for a in actions]
    keys = [(int(n), ("uptown", "downtown", "notrump").index(mode)) for _bid, n, mode in bids]
    assert bids and keys == sorted(keys)
