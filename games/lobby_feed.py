"""The live lobby of one process: one render per change and language, shared by every lobby
socket of the process, coalesced to at most one every ``LOBBY_MIN_INTERVAL_SECONDS``, made on a
thread of its own so that lobby work never waits in front of a table's action on the database
thread.

The lobby list is the same for everyone (public tables only), so a render depends on the
language alone.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.db import connection
from django.template.loader import render_to_string
from django.utils import translation

from games.broadcasting import lobby_group

# One thread: renders of the lobby never run two at once, nor on the database thread that
# serves the tables' actions.
_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lobby-render")


def render_lobby(languages: set[str]) -> dict[str, str]:
    """The lobby list fragment in each language (one query for all of them)."""
    from games.models import lobby_tables

    try:
        tables = list(lobby_tables(None))
        rendered = {}
        for language in languages:
            with translation.override(language):
                rendered[language] = render_to_string("games/partials/lobby_list.html",
                                                      {"tables": tables, "oob": True})
        return rendered
    finally:
        connection.close()  # give the pooled connection back; this thread holds none idle


class LobbyFeed:
    def __init__(self):
        self.sockets: dict[Any, str] = {}  # consumer -> its language
        self.dirty = False
        self.task: asyncio.Task | None = None
        self.rendered_at = float("-inf")
        self.renders = 0  # how many renders this process made (tests, benchmarks)
        self.listener = None  # the one socket of this process in the lobby's group

    async def join(self, consumer, language: str) -> None:
        """A lobby socket opened.  One socket per process listens to the lobby's group for all
        of them (a change is then one message per process, not one per socket)."""
        self.sockets[consumer] = language
        if self.listener is None or self.listener not in self.sockets:
            await self._listen_through(consumer)

    async def leave(self, consumer) -> None:
        self.sockets.pop(consumer, None)
        if consumer is self.listener:
            await consumer.channel_layer.group_discard(lobby_group(), consumer.channel_name)
            self.listener = None
            successor = next(iter(self.sockets), None)
            if successor is not None:
                await self._listen_through(successor)
                self.changed()  # a change during the handover is not lost

    async def _listen_through(self, consumer) -> None:
        self.listener = consumer
        await consumer.channel_layer.group_add(lobby_group(), consumer.channel_name)

    def changed(self) -> None:
        """The lobby changed (every lobby socket of the process hears it: once is enough)."""
        self.dirty = True
        loop = asyncio.get_running_loop()
        # A task of another loop (a test's loop that has ended) will never run again.
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._push())

    async def _push(self) -> None:
        loop = asyncio.get_running_loop()
        while self.dirty and self.sockets:
            wait = self.rendered_at + settings.LOBBY_MIN_INTERVAL_SECONDS - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)  # changes meanwhile fold into the next render
            self.dirty = False
            self.rendered_at = time.monotonic()
            languages = set(self.sockets.values())
            rendered = await loop.run_in_executor(_executor, render_lobby, languages)
            self.renders += 1
            for consumer, language in list(self.sockets.items()):
                html = rendered.get(language)
                if html is not None:
                    try:
                        await consumer.send(text_data=html)
                    except Exception:  # a socket closing meanwhile must not stop the others
                        self.sockets.pop(consumer, None)
                    # Let the tables' messages in between: a send to hundreds of lobby sockets
                    # must not hold the event loop for the whole round.
                    await asyncio.sleep(0)
        self.dirty = False


feed = LobbyFeed()


def wait_until_idle() -> None:
    """Return once every render already asked for has finished (tests: a render still reading
    must not hold a lock on the next test's database)."""
    _executor.submit(lambda: None).result()
