"""A whole hand of Bid Whist played with the keyboard alone, the focus always visible, every
move read aloud by the live region (static/js/table.js keeps the focus across updates)."""

import time
import uuid

import pytest

from tests.e2e.conftest import sign_up, version_of

pytestmark = pytest.mark.slow

WANTED = {"call": ".my-hand .action-buttons button[data-action]",  # a call it may make now
          "play": ".my-hand .card-button",
          "discard": ".discard-form input[type=checkbox]"}


def my_phase(page) -> str | None:
    if page.locator(".discard-form").count():
        return "discard"
    if page.locator(WANTED["call"]).count():
        return "call"
    if page.locator(WANTED["play"]).count():
        return "play"
    return None


def focus_matches(page, selector: str) -> bool:
    return page.locator(":focus").evaluate_all(
        f"els => els.some(el => el.matches({selector!r}))")


def focused_outline(page) -> str:
    return page.evaluate("""() => {
      const el = document.activeElement;
      if (!el || el === document.body) return '';
      const style = getComputedStyle(el);
      return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
        ? style.outlineStyle : (style.boxShadow !== 'none' ? 'shadow' : '');
    }""")


def moved_on(page, before: int, seconds: float = 10) -> bool:
    """The table moved on, or said the key came too late (then look again): polled from
    here, since the page's content security policy forbids Playwright's in-page eval."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if version_of(page) != before:
            return True
        if page.inner_text("#table-error").strip():
            return False
        page.wait_for_timeout(50)
    return False


def keyboard_move(page) -> bool:
    """Tab to the first thing this player may do and press it, with the keyboard alone; a
    discard ticks the cards it needs with Space, then sends with Enter."""
    before = version_of(page)
    phase = my_phase(page)
    if phase is None:
        return False
    needed = int(page.get_attribute(".discard-form", "data-count") or 1) \
        if phase == "discard" else 1
    ticked = 0
    for step in range(400):  # Tab through the page until the focus is on a wanted control
        if step or not focus_matches(page, WANTED[phase]):
            page.keyboard.press("Tab")  # (the table gives the focus back to a move: see below)
        if focus_matches(page, WANTED[phase]):
            assert focused_outline(page), "the focus is not visible"
            if phase == "discard":
                page.keyboard.press("Space")
                ticked += 1
                if ticked < needed:
                    continue
                while not focus_matches(page, ".discard-form button[type=submit]"):
                    page.keyboard.press("Tab")
            page.evaluate("document.getElementById('table-error').textContent = ''")
            page.keyboard.press("Enter")
            return moved_on(page, before)
    raise AssertionError(f"Tab never reached a control to {phase}")


def test_a_whole_bid_whist_hand_is_played_with_the_keyboard_alone(new_page, live_server_url):
    page = new_page()
    sign_up(page, live_server_url, "keys" + uuid.uuid4().hex[:6])
    page.goto(live_server_url + "/tables/new/bid_whist/")
    page.click("text=Open the table")
    page.wait_for_selector("#table-state")
    page.click("text=Fill the empty seats with computer players")
    page.wait_for_selector(".my-hand")
    moves, deadline = 0, time.monotonic() + 300  # generous: a busy CI machine
    focus_kept = announced = cards = 0
    # until a hand is over in which this player laid every card (an all-pass deal is redealt)
    while cards < 12 or not page.locator(".result-panel").count():
        assert time.monotonic() < deadline, f"no hand finished: {cards} cards played"
        phase = my_phase(page)
        if phase is not None and focus_matches(page, ".my-hand *"):
            focus_kept += 1  # the table gave the focus back to a move after its update
        if keyboard_move(page):
            moves += 1
            cards += phase == "play"
            said = page.inner_text("#table-announcer")
            if said:
                announced += 1
                assert "None" not in said and "_" not in said and "=" not in said, said
        else:
            page.wait_for_timeout(100)
    assert moves >= 12  # at least every card of the hand, played from the keyboard
    assert focus_kept >= moves // 2, (focus_kept, moves)
    assert announced >= moves // 2, (announced, moves)  # the live region says what happened
