"""An event page's socket: it only listens.  Each change of the event (``events.live``) sends
the page a new ``#event-live-refresh`` element, which htmx swaps in and which fetches the
page's changing part again after a delay of its own (so that four hundred pages do not ask in
the same instant).  Only who may see the event may open it (``events.policies``).  Protocol:
docs/protocol.md ("An event's page")."""

from __future__ import annotations

import random

from channels.db import database_sync_to_async
from django.urls import reverse

from events import live, policies
from events.models import Event
from games.consumers import PersonSocket
from games.feeds import CLOSE_NOT_ALLOWED

# The longest a page waits before fetching after a change: spreads a whole field's requests.
MOST_DELAY_MS = 1500


def _may_see(event_id: int, user) -> bool:
    event = Event.objects.filter(pk=event_id).first()
    return event is not None and policies.may_see(event, user)


def refresh_element(event_id: int, delay_ms: int) -> str:
    url = reverse("event_live", args=[event_id])
    return (f'<div id="event-live-refresh" hidden hx-get="{url}" '
            f'hx-trigger="load delay:{delay_ms}ms" hx-target="#event-live" '
            'hx-swap="innerHTML"></div>')


class EventConsumer(PersonSocket):
    async def connect(self):
        self.event_id = int(self.scope["url_route"]["kwargs"]["event_id"])
        self.joined = False
        if not await database_sync_to_async(_may_see)(self.event_id, self.scope.get("user")):
            await self.close(code=CLOSE_NOT_ALLOWED)  # as the page: nothing said of why
            return
        if not await self.admit():
            return
        self.joined = True
        await self.channel_layer.group_add(live.group(self.event_id), self.channel_name)
        # What changed between the page's render and this socket's opening (or during a break
        # of the connection) is not lost: the page looks once now.
        await self.send(text_data=refresh_element(self.event_id, 0))

    async def disconnect(self, code):
        if getattr(self, "joined", False):
            self.joined = False
            await self.channel_layer.group_discard(live.group(self.event_id), self.channel_name)
            await self.release()

    async def receive(self, text_data=None, bytes_data=None):
        pass  # the page only listens

    async def event_changed(self, message):
        await self.send(text_data=refresh_element(self.event_id,
                                                  random.randint(0, MOST_DELAY_MS)))

    async def send_error(self, message: str, version: int | None = None):
        pass  # nothing to answer: the page only listens
