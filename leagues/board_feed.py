"""The live boards of one process (``leagues.board``): for each evening, one render per change and
language shared by every board socket of that evening in the process, coalesced to at most one
every ``MIN_INTERVAL_SECONDS``, made on a thread of its own (never on the database thread that
serves the tables' actions).  One socket per evening and process listens to the evening's group
(``games.broadcasting.board_group``) for all of them: a change is one message per process, not
one per socket.  The lobby's feed (``games.lobby_feed``) works the same way: both are a
``games.feeds.SharedFeed``.

Each render also reads again who may watch (the club public or not, the evening's token): a
socket whose token was replaced, or a public board of a club made members-only, is closed.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from functools import partial

from django.db import connection

from games.broadcasting import board_group
from games.feeds import CLOSE_NOT_ALLOWED as CLOSE_NOT_ALLOWED
from games.feeds import Rendered, SharedFeed
from leagues import access

MIN_INTERVAL_SECONDS = 0.5

_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="board-render")


def _render(evening_id: int, languages: set[str]) -> Rendered | None:
    from leagues.board import render_board

    try:
        answer = render_board(evening_id, languages)
    finally:
        connection.close()  # give the pooled connection back; this thread holds none idle
    if answer is None:  # the evening was deleted
        return None
    rendered, evening = answer
    club = evening.season.league.club

    def may_watch(consumer) -> bool:
        return access.board_visible(club, evening.board_token, consumer.board_token,
                                    consumer.board_member)

    return Rendered(rendered, may_watch)


class BoardFeed:
    """The board sockets of this process, a :class:`SharedFeed` per evening."""

    def __init__(self):
        self.evenings: dict[int, SharedFeed] = {}
        self.renders = 0  # how many renders this process made (tests, benchmarks)

    def _count_render(self, evening_id: int, languages: set[str]) -> Rendered | None:
        self.renders += 1
        return _render(evening_id, languages)

    async def join(self, consumer, evening_id: int, language: str) -> None:
        boards = self.evenings.get(evening_id)
        if boards is None:
            boards = self.evenings[evening_id] = SharedFeed(
                board_group(evening_id), partial(self._count_render, evening_id), _executor,
                lambda: MIN_INTERVAL_SECONDS)
        await boards.join(consumer, language)
        # What changed between the page's render and this socket's opening is not lost (and a
        # board that reconnects after a break catches up): one render for all who joined.
        boards.changed()

    async def leave(self, consumer, evening_id: int) -> None:
        boards = self.evenings.get(evening_id)
        if boards is None:
            return
        await boards.leave(consumer)
        if not boards.sockets:
            self.evenings.pop(evening_id, None)

    def changed(self, evening_id: int) -> None:
        """The evening's board changed (every board socket of it in this process hears it)."""
        boards = self.evenings.get(evening_id)
        if boards is not None:
            boards.changed()


feed = BoardFeed()


def wait_until_idle() -> None:
    """Return once every render already asked for has finished (tests)."""
    _executor.submit(lambda: None).result()
