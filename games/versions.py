"""A table's versions: the row lock, the compare-and-swap that makes each change the next
version, and :class:`TableError`, the refusal every table action raises (changing nothing).

Every change to a live table is one transaction: lock the row (``locked``), check, write, then
``bump`` the version; the sockets hear of it after the commit (``games.broadcasting``).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games import broadcasting
from games.access import seat_held_by
from games.models import Seat, Table
from games.rules import game_module


class TableError(Exception):
    """A refused table action; ``message`` is shown to the person at the table."""

    def __init__(self, message, version: int | None = None):
        self.message = message
        self.version = version
        super().__init__(str(message))


def rules_of(table: Table):
    return game_module(table.game).Rules.from_overrides(table.rules)


def seat_of(table: Table, user) -> int | None:
    """The seat ``user`` holds at ``table`` (``games.access.seat_held_by``)."""
    return seat_held_by(table.seats.all(), user)


def locked(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError(_("This table does not exist.")) from None


def seat_for_update(table: Table, position: int) -> Seat:
    """The seat at ``position`` (a table has its game's number of seats: three to five)."""
    seat = None
    if isinstance(position, int) and not isinstance(position, bool) and position >= 0:
        seat = Seat.objects.select_for_update().filter(table=table, position=position).first()
    if seat is None:
        raise TableError(_("There is no such seat."), table.version)
    return seat


def bump(table: Table) -> None:
    """Save the table as its next version, only if nobody saved that version first.

    The row lock of ``_locked`` already serialises writers on PostgreSQL; this compare-and-swap
    on the version is what keeps two racing actions from both applying on a database without
    row locks (SQLite), and a second line of defence everywhere.
    """
    old = table.version
    table.version = old + 1
    updated = Table.objects.filter(pk=table.pk, version=old).update(
        version=table.version, status=table.status, current=table.current,
        summary=table.summary, last_action=table.last_action, computer_turn=table.computer_turn,
        move_deadline=table.move_deadline)
    if not updated:
        raise TableError(_("The table has moved on since that click: nothing was done."))
    table_id, version = table.pk, table.version
    transaction.on_commit(lambda: broadcasting.broadcast(table_id, version))
