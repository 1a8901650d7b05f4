"""One render per change for every socket of a process that shows the same live fragment (the
lobby's list: ``games.lobby_feed``; an evening's board: ``leagues.board_feed``).

A feed keeps the sockets of one channel-layer group in this process with the language of each.
One of them listens to the group for all (a change is one message per process, not one per
socket); when it leaves, another takes over.  A change marks the feed dirty; renders are
coalesced to at most one every ``min_interval()`` seconds and made on the feed's own thread
(never on the database thread that serves the tables' actions), once per language, and the
result is sent to each socket, dropping those whose send fails.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

CLOSE_NOT_ALLOWED = 4404  # the socket's close code when what it showed is gone or not its to see


def _anyone(consumer: Any) -> bool:
    return True


@dataclass
class Rendered:
    """A feed's render: the fragment in each language, and who may still watch it (read again at
    each render, so that a change of who may see it closes the sockets that no longer may)."""

    pages: dict[str, str]
    may_watch: Callable[[Any], bool] = field(default=_anyone)


class SharedFeed:
    """The sockets of this process in one group.  ``render(languages)`` runs on ``executor`` and
    returns a :class:`Rendered`, or None when the thing shown is gone (every socket is then
    closed)."""

    def __init__(self, group: str, render: Callable[[set[str]], Rendered | None],
                 executor: Executor, min_interval: Callable[[], float]):
        self.group = group
        self.render = render
        self.executor = executor
        self.min_interval = min_interval  # read at each render (tests change the setting)
        self.sockets: dict[Any, str] = {}  # consumer -> its language
        self.listener: Any = None  # the one socket of this process in the group
        self.dirty = False
        self.task: asyncio.Task | None = None
        self.rendered_at = float("-inf")
        self.renders = 0  # how many renders this feed made (tests, benchmarks)

    async def join(self, consumer, language: str) -> None:
        self.sockets[consumer] = language
        if self.listener is None or self.listener not in self.sockets:
            await self._listen_through(consumer)

    async def leave(self, consumer) -> None:
        self.sockets.pop(consumer, None)
        if consumer is self.listener:
            await consumer.channel_layer.group_discard(self.group, consumer.channel_name)
            self.listener = None
            successor = next(iter(self.sockets), None)
            if successor is not None:
                await self._listen_through(successor)
                self.changed()  # a change during the handover is not lost

    async def _listen_through(self, consumer) -> None:
        self.listener = consumer
        await consumer.channel_layer.group_add(self.group, consumer.channel_name)

    def changed(self) -> None:
        """What the sockets show changed (every socket of the group in this process hears it:
        once is enough)."""
        self.dirty = True
        loop = asyncio.get_running_loop()
        # A task of another loop (a test's loop that has ended) will never run again.
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._push())

    async def _push(self) -> None:
        loop = asyncio.get_running_loop()
        while self.dirty and self.sockets:
            wait = self.rendered_at + self.min_interval() - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)  # changes meanwhile fold into the next render
            self.dirty = False
            self.rendered_at = time.monotonic()
            languages = set(self.sockets.values())
            rendered = await loop.run_in_executor(self.executor, self.render, languages)
            self.renders += 1
            if rendered is None:  # the thing shown is gone
                for consumer in list(self.sockets):
                    await consumer.close(code=CLOSE_NOT_ALLOWED)
                return
            for consumer, language in list(self.sockets.items()):
                if not rendered.may_watch(consumer):
                    self.sockets.pop(consumer, None)
                    await consumer.close(code=CLOSE_NOT_ALLOWED)
                    continue
                html = rendered.pages.get(language)
                if html is None:  # joined during the render in another language: served next time
                    continue
                try:
                    await consumer.send(text_data=html)
                except Exception:  # a socket closing meanwhile must not stop the others
                    self.sockets.pop(consumer, None)
                # Let the tables' messages in between: a send to hundreds of sockets must not
                # hold the event loop for the whole round.
                await asyncio.sleep(0)
        self.dirty = False
