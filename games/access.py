"""Who may see a table: the one place that decides, used by views and sockets alike."""

from __future__ import annotations

from django.http import Http404

from games.models import Table

INVITES_SESSION_KEY = "table_invites"


def can_view(table: Table, user, session) -> bool:
    if not table.is_private:
        return True
    if user is not None and user.is_authenticated:
        if table.created_by_id == user.pk or table.seats.filter(user=user).exists():
            return True
    return bool(session) and table.pk in (session.get(INVITES_SESSION_KEY) or [])


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
    invites = list(request.session.get(INVITES_SESSION_KEY) or [])
    if table.pk not in invites:
        invites.append(table.pk)
        request.session[INVITES_SESSION_KEY] = invites
