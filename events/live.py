"""An event's page told that the event changed (someone registered or withdrew, a round formed
or finished, an arena's table opened, the event over): only the event's id travels, to the
group of its pages' sockets (``events.consumers``), once the change commits; each page then
fetches what changed for its own reader (``events.views.event_live``), so nothing of anyone's
view rides the socket."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def group(event_id: int) -> str:
    return f"event-{event_id}"


def changed(event_id: int) -> None:
    """Tell the event's pages once the change in progress commits (nothing if it rolls back)."""
    transaction.on_commit(lambda: _send(event_id))


def _send(event_id: int) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group(event_id), {"type": "event.changed"})
