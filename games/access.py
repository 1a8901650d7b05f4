"""Who may see a table and which seat a person holds: the one place that decides, used by
views, sockets and the actions layer alike."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from django.http import Http404

from games.models import Table

INVITES_SESSION_KEY = "table_invites"


class SeatLike(Protocol):
    """A seat as ``Seat`` rows and snapshots' frozen ``SeatFacts`` both have it (read-only)."""

    @property
    def position(self) -> int: ...

    @property
    def user_id(self) -> int | None: ...

    @property
    def computer_level(self) -> str: ...


def person_id(user) -> int | None:
    """The account id of a signed-in person; None for anyone else (an anonymous visitor's pk
    is None, like a computer seat's user: the two must never be compared)."""
    if user is None or not getattr(user, "is_authenticated", False) or user.pk is None:
        return None
    return user.pk


def seat_held_by(seats: Iterable[SeatLike], user) -> int | None:
    """The position of the seat ``user`` holds among ``seats`` (model seats or a snapshot's
    facts), or None.  Never a computer player's seat, a free seat, or anything for a visitor
    who is not signed in: only a seat's own player acts for it."""
    uid = person_id(user)
    if uid is None:
        return None
    return next((seat.position for seat in seats
                 if seat.user_id is not None and seat.user_id == uid and not seat.computer_level),
                None)


def is_host(created_by_id: int | None, user, seated: bool) -> bool:
    """Whether ``user`` is the table's host, who alone fills its empty seats with computer
    players: the person who opened it (``Table.created_by``), or, once their account is gone,
    any person seated there (``seated``: ``user`` holds a seat)."""
    uid = person_id(user)
    if uid is None:
        return False
    return created_by_id == uid if created_by_id is not None else seated


def can_view(table: Table, user, session) -> bool:
    if not table.is_private:
        return True
    uid = person_id(user)
    if uid is not None:
        if table.created_by_id == uid or table.seats.filter(user_id=uid).exists():
            return True
    # An invite is remembered with the link's token: renewing the link revokes it.
    return bool(session) and [table.pk, table.invite_token] in (
        session.get(INVITES_SESSION_KEY) or [])


def table_for_viewer(table_id, user, session) -> Table | None:
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not can_view(table, user, session):
        return None
    return table


def get_table_for_viewer(request, table_id) -> Table:
    """The table, or 404 for a table that does not exist or is private to this person."""
    table = table_for_viewer(table_id, request.user, request.session)
    if table is None:
        raise Http404
    return table


def remember_invite(request, table: Table) -> None:
    invites = [each for each in request.session.get(INVITES_SESSION_KEY) or []
               if isinstance(each, list) and each and each[0] != table.pk]
    invites.append([table.pk, table.invite_token])
    request.session[INVITES_SESSION_KEY] = invites
