"""Waking the computer players once a change that gave one of them the turn is committed, and
watching the time of a turn that has a limit.

Playing and seating (``games.play``, ``games.seating``) give a computer player the turn: they
write ``Table.computer_turn`` in their transaction and call :func:`wake_after_commit`.  The
computer players (``games.computer_players``) sit above them, since they play through
``games.play``, so they are never imported from below: ``GamesConfig.ready`` gives here, once,
the call that wakes them (:func:`wake_with`).  In the same way a change that begins a timed turn
(``Table.move_deadline``) asks, once committed, for a look when it runs out
(:func:`watch_deadline_after_commit`, given by ``GamesConfig.ready`` from ``games.presence``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.db import transaction

_wake: Callable[[int], None] | None = None
_watch: Callable[[int, datetime], None] | None = None


def wake_with(wake: Callable[[int], None]) -> None:
    """``wake(table_id)`` is what wakes the computer players of a table (``games.apps``)."""
    global _wake
    _wake = wake


def wake_after_commit(table_id: int) -> None:
    """Once the current transaction is committed (at once outside one), the computer players of
    ``table_id`` look whether one of them is to act."""
    if _wake is None:
        raise RuntimeError("games.computer_turns.wake_with was never called: the games app "
                           "is not ready")
    wake = _wake
    transaction.on_commit(lambda: wake(table_id))


def watch_deadlines_with(watch: Callable[[int, datetime], None]) -> None:
    """``watch(table_id, deadline)`` looks at the table once ``deadline`` has passed
    (``games.apps``)."""
    global _watch
    _watch = watch


def watch_deadline_after_commit(table_id: int, deadline: datetime | None) -> None:
    """Once committed, look at ``table_id`` when the turn that ``deadline`` ends runs out
    (nothing without one).  A lost look is not a lost move: the deadline is in the database,
    and the presence sweep finds it overdue (``games.presence.look_at_overdue_moves``)."""
    if deadline is None or _watch is None:
        return
    watch = _watch
    transaction.on_commit(lambda: watch(table_id, deadline))
