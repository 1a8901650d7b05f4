"""Reads that may go to a PostgreSQL replica, and the rule that keeps a person's own writes
in front of them (docs/deploy.md "Growing past one machine").

With ``DATABASE_REPLICA_URL`` set there is a second database alias, ``replica``, a streaming
copy of the primary.  Only the views marked :func:`reads_from_replica` (standings, member and
pair pages, charts, exports, calendars, rating lists: pages many people read and nobody edits)
read from it, and only for a GET or HEAD; every write, every read in a transaction, and every
other view uses the primary.

Read-your-writes: a person who has just changed anything (any POST, PUT, PATCH or DELETE that
did not fail) carries a cookie that expires after ``DATABASE_REPLICA_LAG_SECONDS``; while it is
there their reads stay on the primary, so the result they entered is in the standings they
open next even if the replica is a moment behind.  Everyone else may see the replica's
slightly older copy, which a replica that keeps up makes a matter of milliseconds.
"""

from __future__ import annotations

from contextvars import ContextVar
from functools import wraps

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

REPLICA = "replica"
WROTE_COOKIE = "whistclub_wrote"
SAFE_METHODS = frozenset({"GET", "HEAD"})

# True while a view marked reads_from_replica runs for a person who has not just written.
_replica_allowed: ContextVar[bool] = ContextVar("replica_allowed", default=False)


def replica_configured() -> bool:
    return REPLICA in settings.DATABASES


def reads_from_replica(view):
    """Mark a read-only view whose reads may go to the replica (see the module's docstring)."""
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if (not replica_configured() or request.method not in SAFE_METHODS
                or WROTE_COOKIE in request.COOKIES):
            return view(request, *args, **kwargs)
        token = _replica_allowed.set(True)
        try:
            response = view(request, *args, **kwargs)
            if getattr(response, "is_rendered", True) is False:
                response.render()  # a TemplateResponse's queries run here, on the replica
            return response
        finally:
            _replica_allowed.reset(token)

    return wrapped


class ReplicaRouter:
    """Reads of marked views to the replica; everything else, and every write, to the primary."""

    def db_for_read(self, model, **hints):
        if _replica_allowed.get() and not connections[DEFAULT_DB_ALIAS].in_atomic_block:
            return REPLICA
        return DEFAULT_DB_ALIAS

    def db_for_write(self, model, **hints):
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1, obj2, **hints):
        return True  # the replica holds the same rows as the primary

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == DEFAULT_DB_ALIAS  # the replica follows the primary's schema by itself


class ReadYourWritesMiddleware:
    """After a change that did not fail, this person's reads stay on the primary for
    ``DATABASE_REPLICA_LAG_SECONDS`` (a cookie that expires by itself)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (replica_configured() and request.method not in SAFE_METHODS
                and response.status_code < 400):
            response.set_cookie(WROTE_COOKIE, "1", max_age=settings.DATABASE_REPLICA_LAG_SECONDS,
                                secure=settings.SESSION_COOKIE_SECURE, httponly=True,
                                samesite="Lax")
        return response
