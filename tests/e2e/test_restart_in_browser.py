"""A server restart seen from a player's phone: the table says the connection is lost while
the server is down, and when it is back the page reconnects by itself, the line goes and the
computers' moves that were pending at the restart arrive (tests/live/test_restarts.py checks
the database side of the same journey)."""

import signal

import pytest

from tests.e2e.conftest import version_of, wait_for_version
from tests.live.conftest import server_database, start_server  # noqa: F401 (fixtures)
from tests.live_servers import DaphneServer, create_table, login_cookie

pytestmark = pytest.mark.slow
PAUSE = {"COMPUTER_DELAY_SECONDS": "0.8"}


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_a_restart_is_said_on_the_table_and_the_table_catches_up(
        browser, server_database, start_server, tmp_path, stop):  # noqa: F811
    server = start_server(**PAUSE)
    table_id = create_table(server_database, "solo_whist", {0: "ana"}, computers=(1, 2, 3))
    cookie = login_cookie(server.url, "ana", "pw-long-enough")
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  locale="en-GB")
    context.set_default_timeout(15000)
    context.add_cookies([{"name": k, "value": v, "url": server.url}
                         for k, v in (pair.split("=", 1) for pair in cookie.split("; "))])
    page = context.new_page()
    try:
        page.goto(f"{server.url}/tables/{table_id}/")
        lost = page.locator("#connection-lost")
        page.locator(".my-hand [data-action]").first.wait_for()  # her turn, the socket open
        assert lost.is_hidden()
        before = version_of(page)
        page.locator(".my-hand [data-action]").first.click()  # the computers' pause begins
        wait_for_version(page, before, changed=True)
        server.process.send_signal(stop)
        server.process.wait(timeout=20)
        lost.wait_for(state="visible", timeout=10000)
        assert "reconnecting" in lost.inner_text()
        down = version_of(page)  # what the page had when the server went

        again = DaphneServer(server_database, tmp_path / "daphne-again.log", port=server.port,
                             **PAUSE).start()
        try:
            lost.wait_for(state="hidden", timeout=30000)
            wait_for_version(page, down, changed=True, timeout=20000)  # the computers moved
        finally:
            again.stop()
    finally:
        context.close()
