"""What a player notices at the table, in a real browser: a dimmed card tapped says why, a
discard counts the ticked cards and waits for the count, the plates stay where they are from
the auction to the play and the trick keeps its height as it is gathered, and the sounds of a
player who turned them on."""

import time
import uuid

import pytest

from tests.e2e.conftest import Stall, make_a_move, open_bid_whist_to, shown, sign_up

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# Counts the tones the page starts (a DevTools script, which the page's Content-Security-Policy
# does not govern), on the <html> element where a selector can wait for it.
COUNT_TONES = """
(() => {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) { return; }
  const make = Context.prototype.createOscillator;
  Context.prototype.createOscillator = function () {
    const oscillator = make.call(this);
    const start = oscillator.start.bind(oscillator);
    oscillator.start = (...args) => {
      const root = document.documentElement;
      root.dataset.tones = String(Number(root.dataset.tones || 0) + 1);
      return start(...args);
    };
    return oscillator;
  };
})();
"""


def open_bid_whist(page, base_url):
    """A Bid Whist table to 21: a first hand set in notrump (−8) must not end the match before
    the test has seen the play."""
    open_bid_whist_to(page, base_url, 21)
    page.wait_for_selector(".my-hand")


def box(page, selector):
    return page.locator(selector).first.evaluate(
        "e => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, h: r.height}; }")


PLATES_NOW = """() => {
    // not while the page's style sheets load: bare plates stand one under another
    if (document.readyState !== 'complete') return null;
    const north = document.querySelector('.felt .seat-north');
    const west = document.querySelector('.felt .seat-west');
    if (!north || !west) return null;
    const playing = document.querySelector('.felt:not(.quiet)');
    const bidding = document.querySelector('.felt.quiet ~ .my-hand > .bid-box:not(.many)');
    if (!playing && !bidding) return null;
    const n = north.getBoundingClientRect(), w = west.getBoundingClientRect();
    return {phase: playing ? 'play' : 'auction', around: w.y >= n.y + n.height - 1};
}"""


def test_a_phone_player_is_told_why_a_card_is_dimmed_and_counts_a_discard(browser,
                                                                          live_server_url):
    context = browser.new_context(locale="en-GB", **PHONE)
    context.set_default_timeout(15000)
    page = context.new_page()
    sign_up(page, live_server_url, "det" + uuid.uuid4().hex[:6])
    open_bid_whist(page, live_server_url)
    seen = set()
    plates, trick_heights = {}, set()
    deadline = time.monotonic() + 240
    still = Stall(page)
    while time.monotonic() < deadline and not {"why", "discard"} <= seen:
        # at a call of the auction with the usual bid box (a long one, as a declarer's choice
        # of trumps and mode, is a sheet the plates stand in a row above), or in the play: the
        # plates sit around the table in both (the auction once put them in a row, then
        # around the table once a card was played).  Phase and plates are read at one moment
        # (the server swaps the table between two looks), once the page's style sheets are in.
        look = page.evaluate(PLATES_NOW)
        if look:
            plates.setdefault(look["phase"], look["around"])
        if page.locator(".felt:not(.quiet) .trick").count():
            trick_heights.add(round(box(page, ".felt .trick .table-centre")["h"]))
        if "discard" not in seen and page.locator(".discard-form").count():
            wanted = int(page.get_attribute(".discard-form", "data-count"))
            boxes = page.locator(".discard-form input[type=checkbox]")
            for i in range(3):
                boxes.nth(i).check()
            assert page.inner_text(".discard-chosen") == f"3 of {wanted}"
            assert page.locator(".discard-form button[type=submit]").is_disabled()
            for i in range(3, wanted):
                boxes.nth(i).check()
            assert page.inner_text(".discard-chosen") == f"{wanted} of {wanted}"
            assert page.locator(".discard-form button[type=submit]").is_enabled()
            seen.add("discard")
        dimmed = page.locator(".hand-row:has(.card-button) .card-disabled")
        if "why" not in seen and dimmed.count():
            assert not page.locator(".why-dimmed").is_visible()
            dimmed.first.click()
            said = page.locator(".why-dimmed")
            assert said.is_visible(), shown(page)
            assert said.inner_text() in {f"You must follow {suit}." for suit in
                                         ("spades", "hearts", "diamonds", "clubs")}, \
                said.inner_text()
            seen.add("why")
        if not make_a_move(page, prefer="call"):
            page.wait_for_timeout(100)
            still.check()
    assert {"why", "discard"} <= seen, f"reached only {seen}; the table shows: {shown(page)}"
    assert plates == {"auction": True, "play": True}, plates
    assert len(trick_heights) == 1, f"the trick changed height: {trick_heights}"
    context.close()


def test_a_player_who_turned_the_sounds_on_hears_their_turn(browser, live_server_url):
    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 800})
    context.set_default_timeout(15000)
    context.add_init_script(COUNT_TONES)
    page = context.new_page()
    sign_up(page, live_server_url, "snd" + uuid.uuid4().hex[:6])
    page.goto(live_server_url + "/accounts/profile/")
    page.check("#id_table_sounds")
    page.click("main form button[type=submit]")
    page.wait_for_load_state()
    open_bid_whist(page, live_server_url)
    assert page.locator(".table-page[data-sounds='on']").count()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not page.locator("html[data-tones]").count():
        page.mouse.click(5, 400)  # the player touches the page: the browser lets it sound
        if not make_a_move(page, prefer="call"):
            page.wait_for_timeout(100)
    assert page.locator("html[data-tones]").count(), "no tone at the player's turn"
    context.close()
