"""The live boards of one process (``leagues.board``): for each evening, one render per change and
language shared by every board socket of that evening in the process, coalesced to at most one
every ``MIN_INTERVAL_SECONDS``, made on a thread of its own (never on the database thread that
serves the tables' actions).  One socket per evening and process listens to the evening's group
(``games.broadcasting.board_group``) for all of them, as the lobby's feed does
(``games.lobby_feed``): a change is one message per process, not one per socket.

Each render also reads again who may watch (the club public or not, the evening's token): a
socket whose token was replaced, or a public board of a club made members-only, is closed.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.db import connection

from games.broadcasting import board_group
from leagues import access

MIN_INTERVAL_SECONDS = 0.5
CLOSE_NOT_ALLOWED = 4404

_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="board-render")


def _render(evening_id: int, languages: set[str]):
    from leagues.board import render_board

    try:
        return render_board(evening_id, languages)
    finally:
        connection.close()  # give the pooled connection back; this thread holds none idle


class EveningBoards:
    """The board sockets of one evening in this process."""

    def __init__(self, evening_id: int):
        self.evening_id = evening_id
        self.sockets: dict[Any, str] = {}  # consumer -> its language
        self.listener: Any = None
        self.dirty = False
        self.task: asyncio.Task | None = None
        self.rendered_at = float("-inf")


class BoardFeed:
    def __init__(self):
        self.evenings: dict[int, EveningBoards] = {}
        self.renders = 0  # how many renders this process made (tests, benchmarks)

    async def join(self, consumer, evening_id: int, language: str) -> None:
        boards = self.evenings.setdefault(evening_id, EveningBoards(evening_id))
        boards.sockets[consumer] = language
        if boards.listener is None or boards.listener not in boards.sockets:
            await self._listen_through(boards, consumer)
        # What changed between the page's render and this socket's opening is not lost (and a
        # board that reconnects after a break catches up): one render for all who joined.
        self.changed(evening_id)

    async def leave(self, consumer, evening_id: int) -> None:
        boards = self.evenings.get(evening_id)
        if boards is None:
            return
        boards.sockets.pop(consumer, None)
        if consumer is boards.listener:
            await consumer.channel_layer.group_discard(board_group(evening_id),
                                                       consumer.channel_name)
            boards.listener = None
            successor = next(iter(boards.sockets), None)
            if successor is not None:
                await self._listen_through(boards, successor)
                self.changed(evening_id)  # a change during the handover is not lost
        if not boards.sockets:
            self.evenings.pop(evening_id, None)

    async def _listen_through(self, boards: EveningBoards, consumer) -> None:
        boards.listener = consumer
        await consumer.channel_layer.group_add(board_group(boards.evening_id),
                                               consumer.channel_name)

    def changed(self, evening_id: int) -> None:
        """The evening's board changed (every board socket of it in this process hears it)."""
        boards = self.evenings.get(evening_id)
        if boards is None:
            return
        boards.dirty = True
        loop = asyncio.get_running_loop()
        if boards.task is None or boards.task.done() or boards.task.get_loop() is not loop:
            boards.task = loop.create_task(self._push(boards))

    async def _push(self, boards: EveningBoards) -> None:
        loop = asyncio.get_running_loop()
        while boards.dirty and boards.sockets:
            wait = boards.rendered_at + MIN_INTERVAL_SECONDS - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)  # changes meanwhile fold into the next render
            boards.dirty = False
            boards.rendered_at = time.monotonic()
            languages = set(boards.sockets.values())
            answer = await loop.run_in_executor(_executor, _render, boards.evening_id,
                                                languages)
            self.renders += 1
            if answer is None:  # the evening was deleted
                for consumer in list(boards.sockets):
                    await consumer.close(code=CLOSE_NOT_ALLOWED)
                return
            rendered, evening = answer
            club = evening.season.league.club
            for consumer, language in list(boards.sockets.items()):
                if not access.board_visible(club, evening.board_token, consumer.board_token,
                                            consumer.board_member):
                    boards.sockets.pop(consumer, None)
                    await consumer.close(code=CLOSE_NOT_ALLOWED)
                    continue
                try:
                    await consumer.send(text_data=rendered[language])
                except Exception:  # a socket closing meanwhile must not stop the others
                    boards.sockets.pop(consumer, None)
                await asyncio.sleep(0)
        boards.dirty = False


feed = BoardFeed()


def wait_until_idle() -> None:
    """Return once every render already asked for has finished (tests)."""
    _executor.submit(lambda: None).result()
