"""An event starts on time with no cron: the serving process's follow-up worker looks every
``EVENTS_LOOK_SECONDS`` (``events.periodic``) and forms its first round."""

import time

import pytest

pytestmark = pytest.mark.slow


def event_status(database, event_id) -> tuple[str, int]:
    code = (f"from events.models import Event, EventTable; e = Event.objects.get(pk={event_id});"
            f" print(e.status, EventTable.objects.filter(round__event=e).count())")
    status, tables = database.shell(code).strip().splitlines()[-1].split()
    return status, int(tables)


def test_a_running_site_starts_an_event_whose_time_has_come(server_database, start_server):
    start_server(EVENTS_LOOK_SECONDS="1")
    event_id = int(server_database.shell("""
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from events import running
from events.models import Event
User = get_user_model()
org = User.objects.create_user("org", "org@example.org", "pw-long-enough")
ana = User.objects.create_user("ana", "ana@example.org", "pw-long-enough")
event = Event.objects.create(name="Now", organiser=org, game="solo_whist", rounds=1,
                             deals_per_round=1, starts_at=timezone.now() + timedelta(hours=1))
running.register(event, ana)
print(event.pk)
""").strip().splitlines()[-1])
    assert event_status(server_database, event_id) == ("registration", 0)
    # Its time comes now. (Created a few seconds ahead, it once started before the first look
    # above, on a loaded machine where a shell takes that long to start.)
    server_database.shell("from django.utils import timezone; from events.models import Event;"
                          f" Event.objects.filter(pk={event_id}).update(starts_at=timezone.now())")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        status, tables = event_status(server_database, event_id)
        if status != "registration":
            break
        time.sleep(1)
    assert (status, tables) == ("playing", 1)  # round 1 formed: Ana and three computer players
