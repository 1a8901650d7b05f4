"""End-to-end fixtures: a real daphne process and Debian's Chromium driven by Playwright.

The server runs in its own process on its own database (a fresh SQLite file, or a fresh
PostgreSQL database in the services pass), with the same channel layer as the pass, so these
tests go through every real part: HTTP, WebSockets, the channel layer and the database.
"""

import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_database(tmp_path_factory):
    """A database URL for the server process, and how to drop it afterwards."""
    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.postgresql":
        path = tmp_path_factory.mktemp("e2e") / "server.sqlite3"
        return f"sqlite:///{path}", lambda: None
    import psycopg

    name = f"whistclub_e2e_{uuid.uuid4().hex[:8]}"
    admin = {"host": db["HOST"], "port": db["PORT"] or 5432, "user": db["USER"],
             "password": db["PASSWORD"] or None, "dbname": "postgres", "autocommit": True}
    with psycopg.connect(**admin) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')

    def drop():
        with psycopg.connect(**admin) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/{name}", drop


@pytest.fixture(scope="session")
def live_server_url(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is not installed (apt-get install chromium); "
                    ".ci/run installs it")
    database_url, drop = server_database(tmp_path_factory)
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "DEBUG": "1", "BOT_DELAY_SECONDS": "0",
           "ALLOWED_HOSTS": "127.0.0.1,localhost", "DJANGO_SETTINGS_MODULE": "whistclub.settings"}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT,
                   env=env, check=True, timeout=300)
    log = (tmp_path_factory.mktemp("e2e-log") / "daphne.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "whistclub.asgi:application"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("the daphne server did not start")
        yield url
    finally:
        server.terminate()
        server.wait(timeout=20)
        log.close()
        drop()


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
