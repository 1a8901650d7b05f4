"""Telling sockets that something changed: a table's group hears only its new version (never a
card: the message may travel through Redis to every process), or a line said at the table
(``games.chat``: a person's words or a phrase, with its audience), the lobby's group that the
list of tables changed, an evening's group that its board at the venue changed (``leagues.board``).

The names of the channel layer's groups are made here and nowhere else (``table_group``,
``account_group``, ``lobby_group``, ``board_group``): the socket that joins a group and the code that sends to it
must spell it the same way.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def table_group(table_id: int) -> str:
    """Every socket open on one table."""
    return f"table-{table_id}"


def account_group(user_id: int) -> str:
    """Every socket of one account: told when a session of it ends (games.session_watch)."""
    return f"account-{user_id}"


def lobby_group() -> str:
    """The lobby: one socket per process listens for all its lobby sockets (games.lobby_feed)."""
    return "lobby"


def board_group(evening_id: int) -> str:
    """A league evening's board at the venue: one socket per process listens for all the boards
    of that evening open in the process (``leagues.board_feed``)."""
    return f"board-{evening_id}"


_deferred = threading.local()


@contextmanager
def broadcasts_deferred():
    """Collect this thread's table broadcasts instead of sending them.

    A consumer runs ``play`` on the database thread and sends the collected broadcasts itself
    from the event loop (``send_broadcasts``): the database thread does not wait for Redis.
    """
    pending: list[tuple[int, int]] = []
    _deferred.pending = pending
    try:
        yield pending
    finally:
        _deferred.pending = None


def _table_changed(version: int) -> dict:
    return {"type": "table.changed", "version": version}


def broadcast(table_id: int, version: int) -> None:
    """Tell every socket of the table that it changed: only the version, never a card."""
    pending = getattr(_deferred, "pending", None)
    if pending is not None:
        pending.append((table_id, version))
        return
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(table_group(table_id), _table_changed(version))


async def send_broadcasts(pending: list[tuple[int, int]]) -> None:
    """Send the broadcasts collected by ``broadcasts_deferred``, in order."""
    layer = get_channel_layer()
    if layer is not None:
        for table_id, version in pending:
            await layer.group_send(table_group(table_id), _table_changed(version))


async def send_chat_line(table_id: int, line: dict) -> None:
    """A line said at the table, to every socket of it: each keeps it or not by its audience
    (a spectators' line never reaches a player's socket: ``games.chat.hears``)."""
    layer = get_channel_layer()
    if layer is not None:
        await layer.group_send(table_group(table_id), {"type": "chat.line", "line": line})


def check_access(table_id: int) -> None:
    """Every socket of the table looks again whether its person may still see it."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(table_group(table_id), {"type": "access.check"})


def broadcast_lobby() -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(lobby_group(), {"type": "lobby.changed"})


def broadcast_board(evening_id: int) -> None:
    """An evening's tables or results changed: its boards render again (only the id travels)."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(board_group(evening_id), {"type": "board.changed"})
