"""axe-core (through axe-playwright-python) finds no serious or critical accessibility
violation on the lobby, the create form, each game's how-to-play page, the table in each phase
of each game, the replay page, a finished table's end screen and its table talk, "Your games",
a guest's way in (the home page, their table, the sign-up page), the club night's pages and the
events' pages, in Debian's Chromium."""

import time
import uuid

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Error as PlaywrightError

from games import registry
from tests.e2e.conftest import make_a_move, open_bid_whist_to, sign_up, signed_in

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


def play_to_the_end(page) -> None:
    """Moves made until the table shows its end (a match to 1 ends with its first hand)."""
    deadline = time.monotonic() + 480  # generous: a busy CI machine
    while not page.locator(".match-end").count():
        assert time.monotonic() < deadline, "the match never ended"
        if not make_a_move(page):
            page.wait_for_timeout(150)
    page.wait_for_timeout(500)  # the last swap


def test_the_end_screen_the_table_talk_and_your_games_have_no_serious_violation(
        browser, live_server_url):
    """A match to 1 played to its end: its end screen, then with lines said in the table talk
    (a phrase, a person's words, a line of another person with its mute button), then the
    player's "Your games" page and the lobby with the finished table among the older ones."""
    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 800})
    context.set_default_timeout(15000)
    page = context.new_page()
    sign_up(page, live_server_url, "axe" + uuid.uuid4().hex[:6])
    open_bid_whist_to(page, live_server_url, 1)
    table_url = page.url
    page.wait_for_selector(".my-hand")
    play_to_the_end(page)
    found = {"end": serious_violations(page)}
    page.click(".chat-phrases button:text-is('Well played')")
    page.wait_for_selector("#chat-lines .chat-line:has-text('Well played')")
    page.fill("#chat-text", "Thanks for the game, see you next week")
    page.click(".chat-form button[type=submit]")
    page.wait_for_selector("#chat-lines .chat-line:has-text('see you next week')")
    other = browser.new_context(locale="en-GB").new_page()
    sign_up(other, live_server_url, "axe" + uuid.uuid4().hex[:6])
    other.goto(table_url)
    other.fill("#chat-text", "Nicely played from the rail")  # a spectator: not heard by players
    other.click(".chat-form button[type=submit]")
    other.wait_for_selector("#chat-lines .chat-line:has-text('Nicely played')")
    found["chat (spectator)"] = serious_violations(other)
    other.context.close()
    page.locator(".chat-panel").scroll_into_view_if_needed()
    found["chat"] = serious_violations(page)
    for url in ("/accounts/games/", "/tables/", "/"):
        page.goto(live_server_url + url)
        found[url] = serious_violations(page)
    context.close()
    assert not any(found.values()), found


def test_a_guests_way_in_has_no_serious_violation(browser, live_server_url):
    """A visitor taps Play now on the home page: the home page, their table as a guest, the
    sign-up page they become a member on, and that page with its errors."""
    for size in ({"viewport": {"width": 390, "height": 844}, "is_mobile": True},
                 {"viewport": {"width": 1280, "height": 800}}):
        context = browser.new_context(locale="en-GB", **size)
        context.set_default_timeout(15000)
        page = context.new_page()
        page.goto(live_server_url + "/")
        found = {"home": serious_violations(page)}
        page.locator("form[action='/tables/play/solo_whist/'] button").click()
        page.wait_for_selector(".my-hand")
        found["guest's table"] = serious_violations(page)
        page.goto(live_server_url + "/accounts/signup/")
        found["sign-up"] = serious_violations(page)
        page.fill("#id_username", "a b/c")
        page.fill("#id_email", "not an address")
        page.click("main button[type=submit]")
        page.wait_for_selector(".errorlist")
        found["sign-up with errors"] = serious_violations(page)
        page.goto(live_server_url + "/accounts/games/")
        found["guest's games"] = serious_violations(page)
        context.close()
        assert not any(found.values()), (size, found)


def test_the_club_night_and_the_events_pages_have_no_serious_violation(browser, demo_server):
    """The organiser's evening (rounds, attendance, guests, the board's link), a table's entry
    form, the board for the venue's screen, the league's settings, the standings, and the
    events' list and form."""
    base = demo_server["url"]
    _tables, slug, evening, season = demo_server["evenings"][0]
    page = signed_in(browser, base, viewport={"width": 390, "height": 844}, is_mobile=True)
    found = {}
    for url in (f"/clubs/{slug}/evenings/{evening}/",
                f"/clubs/{slug}/evenings/{evening}/attendance/sheet/", demo_server["solo_table"], f"/clubs/{slug}/evenings/{evening}/board/",
                f"/clubs/{slug}/seasons/{season}/", f"/clubs/{slug}/leagues/1/edit/",
                "/events/", "/events/new/solo_whist/"):
        response = page.goto(base + url)
        assert response.ok, url
        found[url] = serious_violations(page)
    assert not any(found.values()), found
    page.context.close()
