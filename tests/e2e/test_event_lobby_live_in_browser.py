"""An event's lobby in Debian's Chromium, on a phone: a person registers on another phone and
the page open on the first shows them within seconds, with no reload by hand (its socket says
the event changed; the page fetches its changing part again)."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import browser, demo_server, signed_in  # noqa: F401 (fixtures)

pytestmark = pytest.mark.slow
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

EVENT = """
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from events.models import Event
User = get_user_model()
demo = User.objects.get(username="demo")
User.objects.create_user("lobbyguest", "lobbyguest@example.org", "whist-demo")
event = Event.objects.create(name="Lobby night", organiser=demo, game="solo_whist",
                             rounds=1, deals_per_round=2,
                             starts_at=timezone.now() + timedelta(hours=3))
print("event", event.pk)
"""


def test_the_lobby_shows_who_registers_without_a_reload(browser, demo_server):  # noqa: F811
    database = demo_server["database"]
    line = next(each for each in database.shell(EVENT).splitlines() if each.startswith("event "))
    event = line.split()[1]
    base = demo_server["url"]
    watcher = signed_in(browser, base, **PHONE)
    watcher.goto(f"{base}/events/{event}/")
    assert "Nobody yet." in watcher.locator("#event-live").inner_text()
    watcher.evaluate("() => { window.notReloaded = true; }")

    other = signed_in(browser, base, "lobbyguest", **PHONE)
    other.goto(f"{base}/events/{event}/")
    other.click("main button:has-text('Register')")
    # Waits for the registered page itself: the load state of the page before it can answer
    # first (a CI run once read the old page).
    expect(other.locator("#event-live")).to_contain_text("You are registered.", timeout=15000)

    watcher.locator("#event-live .event-people >> text=lobbyguest").wait_for(timeout=10000)
    assert "1 person registered" in watcher.locator("#event-live").inner_text()
    assert watcher.evaluate("() => window.notReloaded === true")  # swapped in, not reloaded
    # The organiser's own buttons are still theirs after the swap.
    assert watcher.locator("#event-live button:has-text('Start now')").is_visible()
    watcher.context.close()
    other.context.close()
