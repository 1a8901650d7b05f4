"""An event's round clock in Debian's Chromium, on a phone and a desktop: the event's page and
the table count the time left down each second from the seconds the server gave, and a reload
gives the server's count again (the device's clock plays no part)."""

import re
import time

import pytest

from tests.e2e.conftest import browser, demo_server, signed_in  # noqa: F401 (fixtures)

pytestmark = pytest.mark.slow
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SHOTS = "docs/screenshots/"

# The demo's organiser registers for a Solo Whist event of 12-minute rounds and starts it: a
# table of one person and three computer players.
EVENT = """
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from events import running
from events.models import Event
demo = get_user_model().objects.get(username="demo")
event = Event.objects.create(name="Clock night", organiser=demo, game="solo_whist", rounds=3,
                             deals_per_round=2, round_minutes=12, move_seconds=120,
                             starts_at=timezone.now() + timedelta(hours=1))
running.register(event, demo)
running.start(event, demo)
table = event.event_rounds.get().tables.get().table_id
print("event", event.pk, table)
"""


def seconds_shown(page, selector: str) -> int:
    text = page.locator(selector).inner_text().strip()
    minutes, seconds = re.fullmatch(r"(\d+):(\d\d)", text).groups()
    return int(minutes) * 60 + int(seconds)


@pytest.fixture(scope="module")
def clock_event(demo_server):  # noqa: F811
    database = demo_server["database"]
    line = next(each for each in database.shell(EVENT).splitlines()
                if each.startswith("event "))
    _, event_id, table_id = line.split()
    return {"url": demo_server["url"], "event": event_id, "table": table_id}


@pytest.mark.parametrize(("size", "context"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_the_round_clock_counts_down_and_a_reload_gives_the_servers_time(
        browser, clock_event, size, context):  # noqa: F811
    base = clock_event["url"]
    page = signed_in(browser, base, **context)
    page.goto(f"{base}/events/{clock_event['event']}/")
    clock = ".round-clock .clock"
    first = seconds_shown(page, clock)
    assert 600 < first <= 720  # 12 minutes a round, begun moments ago
    time.sleep(2.5)
    counted = seconds_shown(page, clock)
    assert first - 4 <= counted <= first - 2  # counted down each second
    page.reload()
    again = seconds_shown(page, clock)
    assert abs(again - counted) <= 2  # the server's count
    assert page.evaluate("() => document.documentElement.scrollWidth") <= (
        context["viewport"]["width"])
    if size == "phone":
        page.screenshot(path=f"{SHOTS}events-round-clock-phone.png", full_page=True)

    page.goto(f"{base}/tables/{clock_event['table']}/")
    at_table = seconds_shown(page, ".table-status .time-left .clock")
    assert abs(at_table - again) <= 4
    time.sleep(2.5)
    assert seconds_shown(page, ".table-status .time-left .clock") <= at_table - 2
    # The same script counts the move's clock at the player's turn (two minutes a move), in
    # plain seconds, to the instant the server gave.
    move = page.locator(".move-clock [data-countdown-to]")
    move.wait_for(timeout=30000)
    before = int(move.inner_text())
    assert 0 < before <= 120
    time.sleep(2.5)
    after = int(move.inner_text())
    assert before - 4 <= after <= before - 2, (before, after)
    page.context.close()
