"""An arena in Debian's Chromium, on a phone: a person whose table has finished waits on the
event's page, which reads itself again by itself, and shows their next table as soon as it is
formed (here: nobody else is free and the person has waited the longest wait: computer players
fill it)."""

import pytest

from tests.e2e.conftest import browser, demo_server, signed_in  # noqa: F401 (fixtures)

pytestmark = pytest.mark.slow
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# Five people in an arena of Bid Whist: a table of four and one of a person and three computer
# players.  The second table ends (its deals need not be played for who sits where): its
# person waits while the other table plays.
ARENA = """
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from events import running
from events.models import Event, EventTable
from games.models import Table
User = get_user_model()
demo = User.objects.get(username="demo")
event = Event.objects.create(name="Arena night", organiser=demo, game="bid_whist",
                             format="arena", rounds=1, deals_per_round=2, arena_minutes=30,
                             starts_at=timezone.now() + timedelta(hours=1))
running.register(event, demo)
for n in range(4):
    person = User.objects.create_user(f"arena{n}", f"arena{n}@example.org", "whist-demo")
    running.register(event, person)
running.start(event, demo)
alone = next(each for each in EventTable.objects.filter(round__event=event)
             if each.table.seats.filter(user__isnull=False).count() == 1)
Table.objects.filter(pk=alone.table_id).update(status="finished")
print("arena", event.pk, alone.table.seats.get(user__isnull=False).user.username)
"""

# The other table plays on, and the person alone has waited longer than the arena's longest
# wait (their wait counts from the arena's start: they played no deal): computer players fill
# a table with them.  (Ending the other table too would free its four, and the person might
# then be the one left waiting for the next table: not what this test looks at.)
LONG_WAIT = """
from datetime import timedelta
from django.db.models import F
from events.models import EventRound
EventRound.objects.filter(event_id={event}).update(started_at=F("started_at")
                                                   - timedelta(minutes=5))
"""


def test_a_waiting_person_s_page_shows_their_next_table_by_itself(browser, demo_server):  # noqa: F811
    database = demo_server["database"]
    line = next(each for each in database.shell(ARENA).splitlines()
                if each.startswith("arena "))
    _, event, waiting = line.split()
    base = demo_server["url"]
    page = signed_in(browser, base, waiting, **PHONE)
    page.goto(f"{base}/events/{event}/")
    assert "You are waiting for a table." in page.locator(".arena-now").inner_text()
    assert page.locator(".arena-now .round-clock .clock").is_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    database.shell(LONG_WAIT.format(event=event))
    # The page looks again by itself (15 seconds, then the site's 5), and the table is there.
    page.locator("text=Go to your table").wait_for(timeout=40000)
    assert "You are waiting" not in page.locator(".arena-now").inner_text()
    page.click("text=Go to your table")
    page.wait_for_load_state()
    assert "/tables/" in page.url
    page.context.close()
