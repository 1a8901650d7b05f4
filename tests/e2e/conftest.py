"""End-to-end fixtures: a real daphne process and Debian's Chromium driven by Playwright.

The server runs in its own process on its own database (a fresh SQLite file, or a fresh
PostgreSQL database in the services pass), with the same channel layer as the pass, so these
tests go through every real part: HTTP, WebSockets, the channel layer and the database.
"""

import re
import time
import warnings
from pathlib import Path

import pytest

from tests.live_servers import DaphneServer, ServerDatabase, emailed_link

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@pytest.fixture(scope="session")
def live_server_url(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is not installed (apt-get install chromium); "
                    ".ci/run installs it")
    folder = tmp_path_factory.mktemp("e2e")
    database = ServerDatabase.migrated(folder)
    # One server for every test of the session, and the tests leave tables mid-hand. Were the
    # people of those tables marked away, a computer would take over after the grace period and
    # play the rest of each match on the server's one database thread (computer players act at
    # once, on the caller's thread, when COMPUTER_DELAY_SECONDS is 0 as in tests), starving every
    # later page and socket for minutes. The takeover is tested on servers of their own
    # (tests/live); here a person who closed the page stays seated.
    server = DaphneServer(database, folder / "daphne.log",
                          PRESENCE_AWAY_AFTER_SECONDS="86400").start()
    yield server.url
    server.stop()
    database.drop()


# Module scope: Playwright's sync API keeps an event loop running in this thread while it is
# open, and Django refuses database work in a thread with a running loop.
@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                             headless=True)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser):
    contexts = []

    def make():
        context = browser.new_context(locale="en-GB")
        context.set_default_timeout(15000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def version_of(page) -> int:
    return int(page.get_attribute("#table-state", "data-version"))


def wait_for_version(page, version, *, changed=False, timeout=10000):
    """Wait until the table shows ``version`` (or, with ``changed``, any other version).

    A selector, not a script: ``wait_for_function`` evaluates its text in the page, which the
    site's content security policy forbids (no 'unsafe-eval'), so it fails whenever its
    condition is not already true at the first look.
    """
    operator = ":not([data-version='%s'])" if changed else "[data-version='%s']"
    page.wait_for_selector("#table-state" + operator % version, state="attached",
                           timeout=timeout)


def make_a_move(page, *, prefer="call") -> bool:
    """One move of this page's player, whatever the phase; True once the table moved on.

    ``prefer="call"`` makes a call other than a pass where there is one, so that hands are
    played rather than thrown in; ``prefer="pass"`` passes where it may.  Only calls that
    may be made now are clicked (a call too low is shown disabled, without ``data-action``).
    The table is swapped in over the WebSocket at any moment: locators are looked up again at
    click time, and a click that raced with an update returns False (look again).
    """
    from playwright.sync_api import Error as PlaywrightError

    before = version_of(page)
    try:
        if page.locator(".discard-form").count():
            needed = int(page.get_attribute(".discard-form", "data-count") or 1)
            for i in range(needed):
                page.locator(".discard-form input[type=checkbox]").nth(i).check(timeout=2000)
            page.locator(".discard-form button[type=submit]").click(timeout=2000)
        else:
            calls = ".my-hand .action-buttons button[data-action]"
            passes = page.locator(f"{calls}[data-action^='pass']")
            others = page.locator(f"{calls}:not([data-action^='pass'])")
            preferred, fallback = (passes, others) if prefer == "pass" else (others, passes)
            cards = page.locator(".my-hand .card-button")
            target = next((t for t in (preferred, fallback, cards) if t.count()), None)
            if target is None:
                return False
            target.first.click(timeout=2000)
        wait_for_version(page, before, changed=True)
    except PlaywrightError:
        return False
    return True


def shown(page) -> str:
    """What the player sees, for a failure's message (the screenshot is gone with the run)."""
    try:
        return " | ".join(page.inner_text("#table-state", timeout=2000).split("\n"))[:2000]
    except Exception as exc:  # the page itself may be what broke
        return f"(unreadable: {exc})"


class Stall:
    """A table that shows the same version for 30 s while this player cannot move has
    stalled: what it showed is recorded as a warning and the page reloaded once, as a player
    would, so that the test still checks what it is about and the stall is seen in the run's
    output.
    (The stalls once seen in these tests came from computer players taking over the abandoned tables
    of earlier tests on the server's one database thread; they now play on a thread of their
    own, tests/games/test_presence.py.)"""

    def __init__(self, page):
        self.page, self.reloaded = page, False
        self.version, self.since = None, time.monotonic()

    def check(self) -> None:
        version = self.page.get_attribute("#table-state", "data-version")
        if version != self.version:
            self.version, self.since = version, time.monotonic()
        elif time.monotonic() - self.since > 30 and not self.reloaded:
            warnings.warn(f"the table stalled at version {version}: {shown(self.page)}",
                          stacklevel=2)
            self.reloaded = True
            self.page.reload()
            self.page.wait_for_selector("#table-state")
            self.since = time.monotonic()


def sign_up(page, base_url, username):
    """Sign up, and finish with the link of the e-mail the server sent (into its log)."""
    page.goto(base_url + "/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.org")
    page.fill("#id_display_name", username.capitalize())
    page.fill("#id_password1", "a-long-test-password")
    page.fill("#id_password2", "a-long-test-password")
    page.click("main button[type=submit]")
    page.wait_for_url("**/accounts/signup/sent/")
    page.goto(base_url + emailed_link(base_url, f"{username}@example.org",
                                      "/accounts/signup/confirm/"))
    page.click("main button[type=submit]")
    page.wait_for_selector(".message")


DEMO_FACTS = """
import datetime
from django.utils import timezone
from leagues.models import Evening, EveningTable
for evening in Evening.objects.all():
    print("evening", evening.tables.count(), evening.season.league.club.slug, evening.pk,
          evening.season.pk)
open_solo = next(t for t in EveningTable.objects.all() if t.league.game == "solo_whist"
                 and t.entry != "totals" and not t.evening.season.is_closed)
print("solo_table", open_solo.get_absolute_url())
coming = Evening.objects.create(season=open_solo.evening.season,
                                date=timezone.localdate() + datetime.timedelta(days=7))
print("next_evening", coming.get_absolute_url())
"""


@pytest.fixture(scope="session")
def demo_server(tmp_path_factory):
    """A server of its own with the demo club (``manage.py load_demo``): its evenings
    (tables, club, evening id, season id), an open Solo table, an evening next week."""
    folder = tmp_path_factory.mktemp("e2e-demo")
    database = ServerDatabase.migrated(folder)
    database.manage("load_demo")
    facts = {"evenings": []}
    for line in database.shell(DEMO_FACTS).splitlines():
        if re.fullmatch(r"evening \d+ \S+ \d+ \d+", line):
            facts["evenings"].append(line.split()[1:])
        elif line.startswith(("solo_table ", "next_evening ")):
            key, value = line.split()
            facts[key] = value
    server = DaphneServer(database, folder / "daphne.log").start()
    yield {"url": server.url, "database": database, **facts}
    server.stop()
    database.drop()


def signed_in(browser, base_url, username="demo", **context):
    """A page of the demo's organiser (``manage.py load_demo``: demo / whist-demo), or of
    ``username`` (an account made with the same password)."""
    page = browser.new_context(locale="en-GB", **context).new_page()
    page.goto(base_url + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "whist-demo")
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    return page


def fill_empty_seats(page) -> None:
    """Computer players in every empty seat, from the table's own button.  The socket's first
    state may swap the table in as the button is clicked: click again until the seats are
    filled (a second fill changes nothing)."""
    from playwright.sync_api import Error as PlaywrightError

    for _ in range(4):
        try:
            page.click(".fill-seats button", timeout=5000)
            page.wait_for_selector(".fill-seats", state="detached", timeout=5000)
            return
        except PlaywrightError:
            continue
    pytest.fail(f"the empty seats were never filled; the table shows: {shown(page)}")


def open_table(page, base_url, game: str, fields: dict | None = None,
               choices: dict | None = None) -> None:
    """A new table of ``game`` from its creation form: each of ``fields`` (a field's id: its
    value) typed in, unfolding its part of the form first where it is folded, each of
    ``choices`` picked from its list; then the table opened and its empty seats filled with
    computer players."""
    page.goto(f"{base_url}/tables/new/{game}/")
    for field_id, value in (fields or {}).items():
        field = page.locator(f"#{field_id}")
        if not field.is_visible():
            page.locator(f"details:has(#{field_id}) > summary").click()
        field.fill(str(value))
    for field_id, value in (choices or {}).items():
        page.select_option(f"#{field_id}", value)
    page.click("text=Open the table")
    page.wait_for_selector("#table-state")
    fill_empty_seats(page)


def open_bid_whist_to(page, base_url, target: int, choices: dict | None = None) -> None:
    """A Bid Whist table played to ``target`` (the house rule folded in the creation form),
    its empty seats filled with computer players."""
    open_table(page, base_url, "bid_whist", {"id_rule_game_target": target}, choices)
