"""People play at live tables in a real browser (Debian's Chromium through Playwright)."""

import time
import uuid

import pytest

from tests.e2e.conftest import make_a_move, sign_up, version_of, wait_for_version

pytestmark = pytest.mark.slow


def test_a_new_user_plays_a_whole_bid_whist_hand_against_computer_players(new_page,
                                                                          live_server_url):
    page = new_page()
    sign_up(page, live_server_url, "e2e" + uuid.uuid4().hex[:6])
    page.goto(live_server_url + "/tables/")
    page.click("text=Bid Whist")
    page.click("text=Open the table")
    page.wait_for_selector("#table-state")
    for _ in range(3):
        page.click(".seat form[action*='/computer/'] button")
        page.wait_for_load_state()
    page.wait_for_selector(".my-hand")
    moves = waits = 0
    while not page.query_selector(".result-panel"):
        assert moves < 40, "a hand of Bid Whist takes far fewer clicks"
        assert waits < 600, "the computer players stopped playing"
        if make_a_move(page):
            moves += 1
        else:
            page.wait_for_timeout(100)
            waits += 1
    assert "Result of hand 1" in page.inner_text(".result-panel summary")
    # all four hands of the finished hand are shown face up
    assert len(page.query_selector_all(".result-panel .deal [data-card]")) == 48
    # and, in Bid Whist, the kitty the declarer took and the six cards they laid away
    assert len(page.query_selector_all(".result-panel .kitty [data-card]")) == 6
    assert len(page.query_selector_all(".result-panel .discards [data-card]")) == 6
    assert "1 hand played" in page.inner_text(".table-status")


def test_four_people_in_four_browsers_play_a_trick(new_page, live_server_url):
    pages = [new_page() for _ in range(4)]
    suffix = uuid.uuid4().hex[:6]
    for i, page in enumerate(pages):
        sign_up(page, live_server_url, f"p{i}{suffix}")
    host = pages[0]
    host.goto(live_server_url + "/tables/new/solo_whist/")
    host.click("text=Open the table")
    host.wait_for_selector("#table-state")
    table_url = host.url
    for page in pages[1:]:
        page.goto(table_url)
        page.click(".seat form[action*='/sit/'] button")
        page.wait_for_load_state()
    for page in pages:
        page.goto(table_url)
        page.wait_for_selector(".my-hand")
    deadline = time.monotonic() + 180  # generous: CI machines are busy
    while not (host.query_selector(".last-trick") or host.query_selector(".result-panel")):
        if time.monotonic() > deadline:
            pytest.fail("four people never completed a trick; each browser saw: "
                        + " | ".join(what_it_shows(page) for page in pages))
        moved = False
        for page in pages:
            if page.query_selector(".seat.me.to-act"):
                moved = make_a_move(page) or moved
        if not moved:
            host.wait_for_timeout(100)
    # every browser saw the same table: the same version, pushed over its own socket
    for page in pages:
        wait_for_version(page, version_of(host))


def what_it_shows(page) -> str:
    """Where a browser's table stands, for a failure's message: its version, whose turn its
    plates show, whether its own seat is to act, and any refusal it was shown."""
    try:
        to_act = page.locator(".seat.to-act .seat-name .name")
        error = page.locator("#table-error")
        return (f"version {version_of(page)}, to act: "
                f"{to_act.first.inner_text() if to_act.count() else 'nobody'}"
                f"{' (this browser)' if page.query_selector('.seat.me.to-act') else ''}"
                f"{', error: ' + error.inner_text() if error.count() and error.inner_text() else ''}")
    except Exception as exc:  # a page swapped mid-read: say so rather than hide the failure
        return f"unreadable ({exc})"
