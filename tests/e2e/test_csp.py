"""The Content-Security-Policy is sent, enforced, and no page of the site breaks it.

A real Chromium walks through the site (home, login, sign-up, lobby, the new-table form, a live
table played over its WebSocket, the clubs pages) and reports every ``securitypolicyviolation``
event and console error to the test.
"""

import json
import time
import uuid

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.conftest import make_a_move, sign_up, version_of

pytestmark = pytest.mark.slow

REPORTER = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolation(JSON.stringify({
    directive: event.effectiveDirective, blocked: event.blockedURI, page: location.pathname,
    sample: event.sample, disposition: event.disposition,
  }));
});
"""


def policy_of(response) -> dict[str, str]:
    header = response.headers.get("content-security-policy", "")
    directives = {}
    for part in header.split(";"):
        name, _, value = part.strip().partition(" ")
        if name:
            directives[name] = value
    return directives


@pytest.fixture
def watched(new_page):
    """A page whose CSP violations, console errors and WebSockets the test sees."""
    page = new_page()
    page.violations, page.errors, page.sockets = [], [], []
    page.expose_function("__cspViolation", lambda raw: page.violations.append(json.loads(raw)))
    page.add_init_script(REPORTER)
    page.on("console", lambda message: page.errors.append(f"{page.url}: {message.text}")
            if message.type == "error" else None)
    page.on("pageerror", lambda error: page.errors.append(f"{page.url}: {error}"))

    def on_socket(socket):
        record = {"url": socket.url, "frames": 0}
        socket.on("framereceived", lambda _payload: record.update(frames=record["frames"] + 1))
        page.sockets.append(record)

    page.on("websocket", on_socket)
    # The admin's pages have no favicon link, so the browser asks for /favicon.ico (404).
    page.route("**/favicon.ico", lambda route: route.fulfill(status=204))
    return page


def test_the_policy_is_sent_and_enforced(watched, live_server_url):
    response = watched.goto(live_server_url + "/")
    policy = policy_of(response)
    assert policy.get("default-src") == "'self'"
    assert "'unsafe-inline'" not in policy.get("script-src", "'self'")
    assert "'unsafe-eval'" not in policy.get("script-src", "'self'")
    assert policy.get("frame-ancestors") == "'none'"
    assert policy.get("object-src") == "'none'"
    # an injected inline script does not run, and the browser says why
    with pytest.raises(PlaywrightError):
        watched.add_script_tag(content="window.injected = true;")
    assert watched.evaluate("window.injected === undefined")
    watched.wait_for_timeout(200)
    assert any(v["directive"].startswith("script-src") for v in watched.violations)
    # static files carry no policy of their own to relax it
    assert watched.request.get(live_server_url + "/static/css/site.css").ok


def test_no_page_of_the_site_breaks_the_policy(watched, live_server_url):
    page, base = watched, live_server_url
    visited = []

    def visit(path):
        response = page.goto(base + path)
        assert response.ok, f"{path}: {response.status}"
        assert policy_of(response).get("default-src") == "'self'", path
        page.wait_for_load_state("networkidle")
        visited.append(path)

    for path in ("/", "/accounts/login/", "/accounts/signup/", "/accounts/password_reset/",
                 "/tables/", "/clubs/", "/admin/login/"):
        visit(path)
    sign_up(page, base, "csp" + uuid.uuid4().hex[:6])
    visit("/accounts/profile/")
    visit("/tables/")  # the lobby, live over its own socket
    visit("/tables/new/bid_whist/")
    page.check("#id_is_private")
    page.click("text=Open the table")
    page.wait_for_selector("#table-state")
    # a click on the invite link selects it for copying (a script file, not an onclick); the
    # socket's first state may swap the table in just after the click, so look a few times
    selected = False
    for _ in range(5):
        page.click(".invite input")
        selected = page.evaluate(
            "(() => { const i = document.querySelector('.invite input');"
            " return i.selectionEnd - i.selectionStart === i.value.length"
            " && i.value.length > 0; })()")
        if selected:
            break
        page.wait_for_timeout(300)
    assert selected
    table_path = page.url.removeprefix(base)
    for _ in range(3):
        page.click(".seat form[action*='/computer/'] button")
        page.wait_for_load_state()
    page.wait_for_selector(".my-hand")
    page.wait_for_load_state("networkidle")
    # play until the table has moved on a few versions, every change pushed over the socket
    start, deadline = version_of(page), time.monotonic() + 90
    while version_of(page) < start + 4:
        assert time.monotonic() < deadline, "the table did not move on"
        if not make_a_move(page):
            page.wait_for_timeout(100)
    table_sockets = [s for s in page.sockets if "/ws/tables/" in s["url"]]
    assert table_sockets and table_sockets[-1]["frames"] >= 1
    assert table_sockets[-1]["url"].startswith(base.replace("http://", "ws://"))
    page.click("text=Hand history")
    page.wait_for_load_state("networkidle")
    visited.append("hand history")
    visit(table_path)
    visit("/clubs/new/")
    page.fill("#id_name", "CSP club " + uuid.uuid4().hex[:4])
    page.click("main button[type=submit]")
    page.wait_for_selector(".message")
    page.wait_for_load_state("networkidle")
    assert "/clubs/" in page.url
    visited.append("club page")
    visit(page.url.removeprefix(base) + "members/")
    visit("/clubs/")
    assert page.violations == [], f"violations on {visited}: {page.violations}"
    assert page.errors == [], page.errors
