"""axe-core (through axe-playwright-python) finds no serious or critical accessibility
violation on the lobby, the create form, each game's how-to-play page, the table in each phase of each game, and the replay
page, in Debian's Chromium."""

import time
import uuid

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Error as PlaywrightError

from games import registry
from tests.e2e.conftest import make_a_move, sign_up

pytestmark = pytest.mark.slow
AXE = Axe()


def serious_violations(page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now, one line each."""
    response = AXE.run(page).response
    return [f"{v['id']} ({v['impact']}): {v['help']} — "
            + "; ".join(node["target"][0] for node in v["nodes"][:3])
            for v in response["violations"] if v["impact"] in ("serious", "critical")]


def phase_of(page, played: bool) -> str | None:
    """What the player is looking at: a finished hand's result (once a card was played: the
    next hand may already be dealt), their call, a discard, their card to play, or someone
    else's turn (None)."""
    if played and page.locator(".result-panel").count():
        return "result"
    if page.locator(".discard-form").count():
        return "discard"
    if page.locator(".my-hand .action-buttons button").count():
        return "call"
    if page.locator(".my-hand .card-button").count():
        return "play"
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


def test_the_lobby_the_create_form_and_the_rules_have_no_serious_violation(new_page,
                                                                         live_server_url):
    page = new_page()
    sign_up(page, live_server_url, "axe" + uuid.uuid4().hex[:6])
    found = {}
    for url in (["/", "/tables/"] + [f"/tables/new/{g.id}/" for g in registry.all_games()]
                + [f"/games/{g.id}/how-to-play/" for g in registry.all_games()]):
        page.goto(live_server_url + url)
        found[url] = serious_violations(page)
    assert not any(found.values()), found


@pytest.mark.parametrize("game", [g.id for g in registry.all_games()])
def test_every_phase_of_the_table_and_the_replay_have_no_serious_violation(
        browser, live_server_url, game):
    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 800})
    context.set_default_timeout(15000)
    page = context.new_page()
    sign_up(page, live_server_url, "axe" + uuid.uuid4().hex[:6])
    table_url = open_table_with_computers(page, live_server_url, game)
    found: dict[str, list[str]] = {}
    deadline = time.monotonic() + 480  # generous: a busy CI machine
    while "result" not in found:
        assert time.monotonic() < deadline, f"the hand never finished: saw {sorted(found)}"
        phase = phase_of(page, played="play" in found)
        if phase is not None and phase not in found:
            try:
                found[phase] = serious_violations(page)
            except PlaywrightError:
                continue  # the table was swapped in while axe looked: look again
        if phase == "result" or not make_a_move(page):
            page.wait_for_timeout(100)
    assert {"call", "play", "result"} <= set(found), sorted(found)
    page.goto(table_url + "hands/1/")
    page.wait_for_selector("main")
    found["replay"] = serious_violations(page)
    page.goto(table_url + "hands/1/review/")
    page.click("text=Review my play")
    page.wait_for_selector(".review-moments, .review-nothing", timeout=60000)
    found["review"] = serious_violations(page)
    context.close()
    assert not any(found.values()), found


def test_a_message_folding_away_on_the_table_stays_readable_to_the_end(
        browser, live_server_url):
    """The site's message over a table folds away after a few seconds; at every moment of the
    fold its words keep their contrast (they are cut off, never faded: a CI run once caught a
    faded message half way)."""
    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 800})
    context.set_default_timeout(15000)
    page = context.new_page()
    sign_up(page, live_server_url, "axe" + uuid.uuid4().hex[:6])
    open_table_with_computers(page, live_server_url, "bid_whist")
    page.wait_for_selector(".message")
    moments = {}
    for ms in (5000, 5100, 5200, 5300, 5390):
        page.evaluate("""ms => document.getAnimations().forEach(a => {
            if (a.animationName === 'fold-away') { a.pause(); a.currentTime = ms; } })""", ms)
        moments[ms] = [line for line in serious_violations(page) if ".message" in line]
    context.close()
    assert not any(moments.values()), moments
