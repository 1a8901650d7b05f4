"""Waking the computer players once a change that gave one of them the turn is committed.

Playing and seating (``games.play``, ``games.seating``) give a computer player the turn: they
write ``Table.computer_turn`` in their transaction and call :func:`wake_after_commit`.  The
computer players (``games.computer_players``) sit above them, since they play through
``games.play``, so they are never imported from below: ``GamesConfig.ready`` gives here, once,
the call that wakes them (:func:`wake_with`).
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

_wake: Callable[[int], None] | None = None


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
