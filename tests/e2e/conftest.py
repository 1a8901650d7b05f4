"""End-to-end fixtures: a real daphne process and Debian's Chromium driven by Playwright.

The server runs in its own process on its own database (a fresh SQLite file, or a fresh
PostgreSQL database in the services pass), with the same channel layer as the pass, so these
tests go through every real part: HTTP, WebSockets, the channel layer and the database.
"""

from pathlib import Path

import pytest

from tests.live_servers import DaphneServer, ServerDatabase

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@pytest.fixture(scope="session")
def live_server_url(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is not installed (apt-get install chromium); "
                    ".ci/run installs it")
    folder = tmp_path_factory.mktemp("e2e")
    database = ServerDatabase(folder)
    database.manage("migrate", "--noinput", "-v0")
    server = DaphneServer(database, folder / "daphne.log").start()
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


def sign_up(page, base_url, username):
    page.goto(base_url + "/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.org")
    page.fill("#id_display_name", username.capitalize())
    page.fill("#id_password1", "a-long-test-password")
    page.fill("#id_password2", "a-long-test-password")
    page.click("main button[type=submit]")
    page.wait_for_selector(".message")
