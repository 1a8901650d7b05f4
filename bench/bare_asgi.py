"""The floor of bench/ws_load.py: a bare consumer that only relays each message to its table.

    REDIS_URL=redis://127.0.0.1:6379/9 daphne -p 8001 bench.bare_asgi:application

``ws://HOST/ws/tables/<id>/`` joins the group of table <id>; every text message received is
group_sent, as it is, to that group over the same channels_redis pub/sub layer the site uses,
and each member sends it on to its socket.  No Django models, no database, no session, no
rules: what is left is daphne, Channels and Redis, i.e. the cost of a 4-way broadcast.
``GET /healthz`` answers 200 so the bench can wait for the process to listen.
"""

from __future__ import annotations

import os

import django
from django.conf import settings

if not settings.configured:
    settings.configure(
        DEBUG=False,
        INSTALLED_APPS=[],
        CHANNEL_LAYERS={"default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # Pub/sub channels are not scoped by the Redis db number: a prefix of our own keeps
            # the floor's groups apart from any site on the same Redis.
            "CONFIG": {"hosts": [os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/9")],
                       "prefix": "wsbench-floor"},
        }},
    )
    django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

from games.broadcasting import table_group  # noqa: E402  (the site's own group names)


class RelayConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = table_group(self.scope["url_route"]["kwargs"]["table_id"])
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        if text_data is not None:
            await self.channel_layer.group_send(self.group, {"type": "relay", "text": text_data})

    async def relay(self, event):
        await self.send(text_data=event["text"])


async def health(scope, receive, send):
    """200 for GET /healthz (and anything else): enough for a start-up probe."""
    if scope["type"] != "http":
        return
    await receive()
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"ok"})


application = ProtocolTypeRouter({
    "http": health,
    "websocket": URLRouter([path("ws/tables/<int:table_id>/", RelayConsumer.as_asgi())]),
})
