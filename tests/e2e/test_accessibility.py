"""axe-core (through axe-playwright-python) finds no serious or critical accessibility
violation on the lobby, the create form, the table in each phase of each game, and the replay
page, in Debian's Chromium; and a whole hand of Bid Whist can be played with the keyboard alone,
with the focus always visible."""

import time
import uuid

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Error as PlaywrightError

from games import registry
from tests.e2e.conftest import sign_up
from tests.e2e.test_play_in_browser import act_once, version_of

pytestmark = pytest.mark.slow
AXE = Axe()


def serious_violations(page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now, one line each."""
    response = AXE.run(page).response
    return [f"{v['id']} ({v['impact']}): {v['help']} — "
            + "; ".join(node["target"][0] for node in v["nodes"][:3])
            for v in response["violations"] if v["impact"] in ("serious", "critical")]


def phase_of(page) -> str | None:
    """What the player is looking at: their call, a discard, their card to play, a finished
    hand's result, or someone else's turn (None)."""
    if page.locator(".discard-form").count():
        return "discard"
    if page.locator(".my-hand .action-buttons button").count():
        return "call"
    if page.locator(".my-hand .card-button").count():
        return "play"
    if page.locator(".result-panel").count():
        return "result"
    return None


def open_table_with_computers(page, base_url: str, game: str) -> str:
    page.goto(f"{base_url}/tables/new/{game}/")
    page.click("text=Open the table")
    page.wait_for_selector("#table-state")
    page.click("text=Fill the empty seats with computer players")
    page.wait_for_selector(".my-hand")
    return page.url


def test_the_check_sees_a_violation_when_there_is_one(new_page, live_server_url):
    page = new_page()
    page.goto(live_server_url + "/tables/")
    page.evaluate("document.querySelector('main').append(document.createElement('button'))")
    assert any(line.startswith("button-name") for line in serious_violations(page))


def test_the_lobby_and_the_create_form_have_no_serious_violation(new_page, live_server_url):
    page = new_page()
    sign_up(page, live_server_url, "axe" + uuid.uuid4().hex[:6])
    found = {}
    for url in ["/", "/tables/"] + [f"/tables/new/{g.id}/" for g in registry.all_games()]:
        page.goto(live_server_url + url)
        found[url] = serious_violations(page)
    assert not any(found.values()), found


@pytest.mark.parametrize("game", [g.id for g in registry.all_games()])
def test_every_phase_of_the_table_and_the_replay_have_no_serious_violation(
        new_page, live_server_url, game):
    page = new_page()
    sign_up(page, live_server_url, "axe" + uuid.uuid4().hex[:6])
    table_url = open_table_with_computers(page, live_server_url, game)
    found: dict[str, list[str]] = {}
    deadline = time.monotonic() + 480  # generous: a busy CI machine
    while "result" not in found:
        assert time.monotonic() < deadline, f"the hand never finished: saw {sorted(found)}"
        phase = phase_of(page)
        if phase is not None and phase not in found:
            try:
                found[phase] = serious_violations(page)
            except PlaywrightError:
                continue  # the table was swapped in while axe looked: look again
        if phase == "result" or not act_once(page):
            page.wait_for_timeout(100)
    assert {"call", "play", "result"} <= set(found), sorted(found)
    page.goto(table_url + "hands/1/")
    page.wait_for_selector("main")
    found["replay"] = serious_violations(page)
    assert not any(found.values()), found


def focused_outline(page) -> str:
    return page.evaluate("""() => {
      const el = document.activeElement;
      if (!el || el === document.body) return '';
      const style = getComputedStyle(el);
      return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
        ? style.outlineStyle : (style.boxShadow !== 'none' ? 'shadow' : '');
    }""")


def keyboard_move(page) -> bool:
    """Tab to the first thing this player may do and press it, with the keyboard alone; a
    discard ticks the cards it needs with Space, then sends with Enter."""
    before = version_of(page)
    wanted = {"call": ".my-hand .action-buttons button:not([aria-disabled=true])",
              "play": ".my-hand .card-button",
              "discard": ".discard-form input[type=checkbox]"}
    phase = phase_of(page)
    if phase not in wanted:
        return False
    needed = int(page.get_attribute(".discard-form", "data-count") or 1) \
        if phase == "discard" else 1
    ticked = 0
    for step in range(400):  # Tab through the page until the focus is on a wanted control
        if step or not page.evaluate(f"document.activeElement.matches({wanted[phase]!r})"):
            page.keyboard.press("Tab")  # (the table gives the focus back to a move: see below)
        if page.evaluate(f"document.activeElement.matches({wanted[phase]!r})"):
            assert focused_outline(page), "the focus is not visible"
            if phase == "discard":
                page.keyboard.press("Space")
                ticked += 1
                if ticked < needed:
                    continue
                while not page.evaluate(
                        "document.activeElement.matches('.discard-form button[type=submit]')"):
                    page.keyboard.press("Tab")
            page.evaluate("document.getElementById('table-error').textContent = ''")
            page.keyboard.press("Enter")
            try:  # the table moves on, or says the click came too late (then look again)
                page.wait_for_function(
                    f"document.querySelector('#table-state').dataset.version != '{before}'"
                    " || document.getElementById('table-error').textContent.trim() !== ''",
                    timeout=10000)
            except PlaywrightError:
                return False
            return version_of(page) != before
    raise AssertionError(f"Tab never reached a control to {phase}")


def test_a_whole_bid_whist_hand_is_played_with_the_keyboard_alone(new_page, live_server_url):
    page = new_page()
    sign_up(page, live_server_url, "keys" + uuid.uuid4().hex[:6])
    open_table_with_computers(page, live_server_url, "bid_whist")
    moves, deadline = 0, time.monotonic() + 480  # generous: a busy CI machine
    focus_kept = announced = cards = 0
    # until a hand is over in which this player laid every card (an all-pass deal is redealt)
    while cards < 12 or not page.locator(".result-panel").count():
        assert time.monotonic() < deadline, f"no hand finished: {cards} cards played"
        phase = phase_of(page)
        if phase in ("call", "play", "discard") and page.evaluate(
                "document.activeElement.closest('.my-hand') !== null"):
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
