"""The table fits the screen: on a phone (390x844) and on a desktop (1280x800), in every game,
during the auction (at this player's call) and during trick play, the whole hand, the trick,
every seat's plate, whose turn it is and the bid box are on screen without scrolling; every
card is a tap target of 44 px; the hand's suits alternate in colour.

Set WHISTCLUB_SCREENSHOTS to a folder to keep a screenshot of each page checked."""

import itertools
import os
import time
import uuid
from pathlib import Path

import pytest

from tests.e2e.conftest import (
    Stall,
    make_a_move,
    open_bid_whist_to,
    open_table,
    shown,
    sign_up,
)

pytestmark = pytest.mark.slow

GAMES = ("bid_whist", "cutthroat_bid_whist", "solo_whist", "belgian_whist")
SIZES = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
RED = {"H", "D"}


@pytest.fixture(scope="module")
def signed_in(browser, live_server_url):
    """One person, signed up once: their cookies, for a context of each size."""
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    sign_up(page, live_server_url, "lay" + uuid.uuid4().hex[:6])
    state = context.storage_state()
    context.close()
    return state


def my_call(page):
    """Waits until it is this player's call in the auction proper, the page settled.  On the
    way a Belgian round of trou is answered, and a hand another seat won the auction of is
    played out (a passing player defends: a card to play, no bid box) until the next deal."""
    deadline = time.monotonic() + 180  # deals thrown in and dealt again; a busy CI machine
    still = Stall(page)
    while time.monotonic() < deadline:
        if page.locator(".bid-box button[data-action]").count():
            settle(page)
            if (page.locator(".bid-box [data-action='pass']").count()
                    and page.locator(".bid-box button").count() > 2):
                return
        if not make_a_move(page, prefer="pass"):
            page.wait_for_timeout(150)
            still.check()
    pytest.fail(f"never my call; the table shows: {shown(page)}")


def settle(page):
    page.wait_for_timeout(500)  # the last swap and any transition


UNCOVERED = """els => els.filter(el => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 12));
    return !(hit && el.contains(hit));
}).map(el => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 12));
    return el.outerHTML.slice(0, 80) + ' under ' + (hit ? hit.outerHTML.slice(0, 200) : 'nothing');
})"""


def boxes(page, selector):
    """The box of every element ``selector`` matches, all measured at one moment: the server
    may swap #table-state in between two looks."""
    return page.locator(selector).evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {x: r.x, y: r.y, width: r.width, height: r.height}; })")


def inside(page, selector, width, height, what):
    """Every element of ``selector`` is on screen, and nothing lies over it."""
    covered = page.locator(selector).evaluate_all(UNCOVERED)
    assert not covered, f"{what} covered: {covered}"
    measured = boxes(page, selector)
    count = len(measured)
    assert count, f"no {what} ({selector})"
    for i, box in enumerate(measured):
        assert box["width"] and box["height"], f"{what} {i} is not shown"
        assert box["x"] >= -0.5 and box["y"] >= -0.5, (what, i, box)
        assert box["x"] + box["width"] <= width + 0.5, (what, i, box)
        assert box["y"] + box["height"] <= height + 0.5, (what, i, box)
    return count


def fewest_same_colour_neighbours(suits: list[str]) -> int:
    """The fewest neighbouring suits of one colour an order can have, the first one fixed."""
    first, rest = suits[0], suits[1:]
    best = len(suits)
    for order in itertools.permutations(rest):
        line = [first, *order]
        best = min(best, sum((a in RED) == (b in RED) for a, b in itertools.pairwise(line)))
    return best


def check_layout(page, size, at_call, shot):
    width, height = SIZES[size]["viewport"]["width"], SIZES[size]["viewport"]["height"]
    folder = os.environ.get("WHISTCLUB_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{shot}.png"))
    assert page.evaluate("window.scrollY") == 0
    cards = inside(page, ".my-hand [data-card]", width, height, "card of the hand")
    assert cards >= 8
    # At your call the bid box is a sheet over the middle of the table, which holds no card
    # then (nobody has played yet): the trick is checked whenever it shows one.
    if not at_call or page.locator("#trick-centre [data-card]:visible").count():
        inside(page, "#trick-centre", width, height, "trick")
    inside(page, ".seat", width, height, "seat plate")
    inside(page, ".seat.to-act .turn", width, height, "turn marker")
    # what is there for screen readers only leaves no mark (a heading's padding made a dot)
    for box in boxes(page, "#table-state .visually-hidden"):
        assert box["width"] <= 1 and box["height"] <= 1, box
    if at_call:
        inside(page, ".bid-box button, .my-hand .action-buttons button", width, height,
               "call")
    # a card is a tap target while it can be played or chosen (in the auction at a phone's
    # call the hand is a strip of card corners to read, under the bid box)
    taps = boxes(page, ".my-hand .card-button, .my-hand .pick")
    assert at_call or taps, "no card to tap at the seat's turn to play"
    for i, box in enumerate(taps):
        # the part of a card the next one leaves uncovered is what a finger can hit
        assert box["width"] >= 44 and box["height"] >= 44, (i, box)
    visible = page.evaluate("""() => [...document.querySelectorAll('.my-hand .card-tap')]
        .filter(el => el.querySelector('button, input'))
        .map(el => { const r = el.getBoundingClientRect();
                     const n = el.nextElementSibling;
                     const right = n && n.classList.contains('card-tap')
                       && n.getBoundingClientRect().top === r.top
                       ? Math.min(r.right, n.getBoundingClientRect().left) : r.right;
                     return right - r.left; })""")
    assert all(w >= 44 for w in visible), visible
    codes = page.locator(".my-hand [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)")
    suits = [c[1] for c in codes if c not in ("BJ", "LJ")]
    groups = [s for s, _ in itertools.groupby(suits)]
    assert len(groups) == len(set(groups)), f"a suit split in two: {codes}"
    same = sum((a in RED) == (b in RED) for a, b in itertools.pairwise(groups))
    assert same == fewest_same_colour_neighbours(groups), codes


# The most rows of calls a Belgian auction shows at once (pass; emballer; solo 6, 7 and 8;
# abondance 9, 10 and 11; the misères; two chelems), seen once a few thousand random calls.
LONGEST_BELGIAN_BID_BOX = 11


def longest_bid_box_leaves_the_plates_in_sight(page, size):
    """Whatever the deal, the bid box at its longest covers no plate: the box on the screen is
    made as long as the longest by repeating its rows of suits, then the plates are looked at."""
    rows = page.evaluate("""n => {
        const box = document.querySelector('.my-hand .bid-box');
        const rows = [...box.querySelectorAll('.bid-row')];
        const suits = rows.filter(r => r.querySelector('button.suit'));
        for (let i = rows.length; i < n; i++) {
            const copy = suits[i % suits.length].cloneNode(true);
            copy.querySelectorAll('button').forEach(b => { b.removeAttribute('id'); });
            suits[i % suits.length].after(copy);
        }
        return box.querySelectorAll('.bid-row').length;
    }""", LONGEST_BELGIAN_BID_BOX)
    assert rows >= LONGEST_BELGIAN_BID_BOX
    page.wait_for_timeout(100)
    width, height = SIZES[size]["viewport"]["width"], SIZES[size]["viewport"]["height"]
    inside(page, ".seat", width, height, "seat plate")
    inside(page, ".bid-box button", width, height, "call")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_the_table_fits_the_screen(browser, live_server_url, signed_in, game, size):
    context = browser.new_context(locale="en-GB", storage_state=signed_in, **SIZES[size])
    context.set_default_timeout(15000)
    page = context.new_page()
    try:
        open_table(page, live_server_url, game)
        my_call(page)
        check_layout(page, size, True, f"table-{game.replace('_', '-')}-auction-{size}")
        if game == "belgian_whist":
            longest_bid_box_leaves_the_plates_in_sight(page, size)
        deadline = time.monotonic() + 180  # a deal may be thrown in and dealt again; busy CI
        still = Stall(page)
        while not page.locator(".my-hand .card-button").count():
            if time.monotonic() > deadline:
                pytest.fail(f"never my turn to play a card; the table shows: {shown(page)}")
            if not make_a_move(page):  # a contract, so that the hand is played
                page.wait_for_timeout(150)
                still.check()
        settle(page)
        page.wait_for_selector(".my-hand .card-button")
        check_layout(page, size, False, f"table-{game.replace('_', '-')}-play-{size}")
    finally:
        context.close()


@pytest.mark.parametrize("game", GAMES)
def test_a_new_player_plays_a_whole_hand_by_tapping_on_a_phone(browser, live_server_url,
                                                                 signed_in, game):
    """The whole hand at 390×844, every call and card tapped; the result shows in words in
    the middle of the next deal, on screen with the whole hand and the call, over neither, or
    the table's end shows on screen.  (At a desktop's size, tests/e2e/test_accessibility.py
    plays a whole hand of each game by clicking.)"""
    context = browser.new_context(locale="en-GB", storage_state=signed_in, **SIZES["phone"])
    context.set_default_timeout(15000)
    page = context.new_page()
    width, height = 390, 844
    try:
        open_table(page, live_server_url, game)
        play_until(page, ".last-hand-words:visible, .match-end",
                   f"result-{game.replace('_', '-')}-phone")
        if page.locator(".match-end").count():
            check_the_end(page, width, height)
            return
        words = page.inner_text(".last-hand-words")
        assert "None" not in words and "{'" not in words and "_" not in words
        inside(page, ".my-hand [data-card]", width, height, "card of the hand")
        calls = ".bid-box button, .my-hand .action-buttons button"
        if page.locator(calls).count():
            inside(page, calls, width, height, "call")
        if page.locator(".bid-box.many").count():
            # a long bid box is a sheet over the middle of the table, the result too: the
            # player reads it by scrolling the table up above the sheet
            page.locator(".last-hand-words").evaluate("el => el.scrollIntoView()")
            assert not page.locator(".last-hand-words").evaluate_all(UNCOVERED)
            page.evaluate("window.scrollTo(0, 0)")
        else:
            inside(page, ".last-hand-words", width, height, "the hand's result")
        # the whole deal opens below the table, from the link, never by itself
        assert not page.locator("details.result-panel[open]").count()
        page.click("a.whole-deal")
        assert page.locator("details.result-panel[open] .deal [data-card]").count()
    finally:
        context.close()


def play_until(page, selector, shot):
    """Taps this player's moves until ``selector`` shows, then the page settles, seen from
    its top (kept as ``shot`` in WHISTCLUB_SCREENSHOTS)."""
    deadline = time.monotonic() + 480  # generous: a busy CI machine
    while not page.locator(selector).count():
        assert time.monotonic() < deadline, f"never {selector}: {shown(page)}"
        if not make_a_move(page):
            page.wait_for_timeout(150)
    settle(page)
    page.evaluate("window.scrollTo(0, 0)")  # a tap of the test may have scrolled the page
    page.wait_for_timeout(100)
    folder = os.environ.get("WHISTCLUB_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{shot}.png"))


def check_the_end(page, width, height):
    """A finished table's end on one screen: who won, the score by hand, play again."""
    for selector, what in ((".match-end h2", "the end's title"),
                           (".match-winner", "who won"),
                           (".score-by-hand tbody tr", "a hand's score"),
                           (".score-by-hand tfoot tr", "the total"),
                           (".match-end .rematch button", "play again")):
        inside(page, selector, width, height, what)
    assert page.inner_text(".match-end .rematch button") == "Play again"
    fits_across(page, width, "the end of the match")


@pytest.mark.parametrize("size", SIZES)
def test_a_finished_match_ends_on_a_screen_of_its_own(browser, live_server_url, signed_in,
                                                      size):
    """A match to 1 ends with its first hand played: its end is on screen, nothing to
    scroll."""
    context = browser.new_context(locale="en-GB", storage_state=signed_in, **SIZES[size])
    context.set_default_timeout(15000)
    page = context.new_page()
    width, height = SIZES[size]["viewport"]["width"], SIZES[size]["viewport"]["height"]
    try:
        open_bid_whist_to(page, live_server_url, 1)
        play_until(page, ".match-end", f"match-end-{size}")
        check_the_end(page, width, height)
    finally:
        context.close()


# -- the pages around the table ----------------------------------------------------------------

OVERFLOWING = """w => [...document.querySelectorAll('body *')].filter(el => {
    const r = el.getBoundingClientRect();
    if (!r.width || r.right <= w + 0.5) return false;
    for (let a = el.parentElement; a; a = a.parentElement) {
        const x = getComputedStyle(a).overflowX;
        if (x === 'auto' || x === 'scroll' || x === 'hidden' || x === 'clip') return false;
    }
    return true;
}).map(el => el.outerHTML.slice(0, 120))"""

# Each element scrolled into view, then looked at where a finger lands on it.
COVERED_ONCE_SCROLLED = """els => els.filter(el => {
    el.scrollIntoView({block: 'center'});
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 12));
    return !(hit && el.contains(hit));
}).map(el => el.outerHTML.slice(0, 120))"""


def fits_across(page, width, what):
    """Nothing runs off the right of the screen (a wide table inside its own scrolling box is
    fine: the page itself never scrolls sideways)."""
    wide = page.evaluate(OVERFLOWING, width)
    assert not wide, f"{what}: wider than the screen: {wide[:5]}"
    assert page.evaluate("document.documentElement.scrollWidth") <= width, what


def reachable(page, selector, what, least=1):
    """Every element of ``selector`` can be scrolled to and tapped: nothing lies over it."""
    count = page.locator(selector).count()
    assert count >= least, f"{what}: no {selector}"
    covered = page.locator(selector).evaluate_all(COVERED_ONCE_SCROLLED)
    assert not covered, f"{what}: covered: {covered}"
    page.evaluate("window.scrollTo(0, 0)")


def shoot(page, shot):
    folder = os.environ.get("WHISTCLUB_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{shot}.png"))


@pytest.mark.parametrize("size", SIZES)
def test_the_pages_around_the_table_fit_the_screen(browser, live_server_url, signed_in, size):
    """The home page (a visitor's and a member's), each game's how-to-play page, the player's
    "Your games" page and the lobby with its older tables: nothing runs off the screen's side,
    and their main actions are there to tap, covered by nothing."""
    width = SIZES[size]["viewport"]["width"]
    pages = {
        "/": ("form[action^='/tables/play/'] button, a[href^='/games/']", 4),
        "/accounts/games/": ("main a[href^='/tables/']", 0),
        "/tables/": ("main a.button, main a[href^='/tables/']", 4),
    }
    for game in GAMES:
        pages[f"/games/{game}/how-to-play/"] = ("main form[action^='/tables/play/'] button", 1)
    visitor = browser.new_context(locale="en-GB", **SIZES[size])
    member = browser.new_context(locale="en-GB", storage_state=signed_in, **SIZES[size])
    try:
        for context in (visitor, member):
            page = context.new_page()
            for url, (actions, least) in pages.items():
                if context is visitor and url in ("/accounts/games/", "/tables/"):
                    continue
                page.goto(live_server_url + url)
                fits_across(page, width, url)
                if page.locator("details.older-tables").count():
                    page.click("details.older-tables > summary")  # their links too
                    fits_across(page, width, url + " (older tables open)")
                reachable(page, actions, url, least)
    finally:
        visitor.close()
        member.close()


@pytest.mark.parametrize("size", SIZES)
def test_play_now_from_the_home_page_sits_a_visitor_at_a_table_that_fits(browser,
                                                                        live_server_url, size):
    """A visitor's one tap on the home page: a guest at a table whose hand, plates and whose
    turn it is fit the screen, nothing off its side."""
    width, height = SIZES[size]["viewport"]["width"], SIZES[size]["viewport"]["height"]
    context = browser.new_context(locale="en-GB", **SIZES[size])
    context.set_default_timeout(15000)
    page = context.new_page()
    try:
        page.goto(live_server_url + "/")
        page.locator("form[action='/tables/play/bid_whist/'] button").click()
        page.wait_for_selector(".my-hand [data-card]")
        settle(page)
        shoot(page, f"play-now-table-{size}")
        fits_across(page, width, "the guest's table")
        inside(page, ".my-hand [data-card]", width, height, "card of the hand")
        inside(page, ".seat", width, height, "seat plate")
    finally:
        context.close()


def test_the_hands_result_shows_in_words_on_a_desktop(browser, live_server_url, signed_in):
    """At a desktop's size too, the finished hand's result is in words in the middle of the
    table, with the next deal's hand on screen, nothing over either."""
    width, height = 1280, 800
    context = browser.new_context(locale="en-GB", storage_state=signed_in, **SIZES["desktop"])
    context.set_default_timeout(15000)
    page = context.new_page()
    try:
        # a match to 21: a first hand set in notrump (−8) must not end it
        open_bid_whist_to(page, live_server_url, 21)
        play_until(page, ".last-hand-words:visible", "result-bid-whist-desktop")
        words = page.inner_text(".last-hand-words")
        assert len(words) > 10
        assert "None" not in words and "{'" not in words and "_" not in words
        assert "=" not in words
        inside(page, ".last-hand-words", width, height, "the hand's result")
        inside(page, ".my-hand [data-card]", width, height, "card of the hand")
        fits_across(page, width, "the table after a hand")
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_finished_session_ends_on_a_screen_of_its_own(browser, live_server_url, signed_in,
                                                        size):
    """A Solo Whist session of one deal: its end (the balances, the score by hand, play
    again) on screen, nothing off its side."""
    context = browser.new_context(locale="en-GB", storage_state=signed_in, **SIZES[size])
    context.set_default_timeout(15000)
    page = context.new_page()
    width, height = SIZES[size]["viewport"]["width"], SIZES[size]["viewport"]["height"]
    try:
        open_table(page, live_server_url, "solo_whist", {"id_deals_limit": 1})
        play_until(page, ".match-end", f"session-end-{size}")
        for selector, what in ((".match-end h2", "the end's title"),
                               (".score-by-hand tbody tr", "a hand's score"),
                               (".match-end .rematch button", "play again")):
            inside(page, selector, width, height, what)
        fits_across(page, width, "the end of a session")
    finally:
        context.close()
