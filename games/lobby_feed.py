"""The live lobby of one process: one render per change and language, shared by every lobby
socket of the process, coalesced to at most one every ``LOBBY_MIN_INTERVAL_SECONDS``, made on a
thread of its own so that lobby work never waits in front of a table's action on the database
thread (``games.feeds.SharedFeed``, as an evening's board).

The lobby list is the same for everyone (public tables only), so a render depends on the
language alone.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import connection
from django.template.loader import render_to_string
from django.utils import translation

from games.broadcasting import lobby_group
from games.feeds import Rendered, SharedFeed

# One thread: renders of the lobby never run two at once, nor on the database thread that
# serves the tables' actions.
_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lobby-render")


def render_lobby(languages: set[str]) -> Rendered:
    """The lobby list fragment in each language (one query for all of them), for anyone."""
    from games.models import lobby_tables

    try:
        tables = list(lobby_tables(None))
        rendered = {}
        for language in languages:
            with translation.override(language):
                rendered[language] = render_to_string("games/partials/lobby_list.html",
                                                      {"tables": tables, "oob": True})
        return Rendered(rendered)
    finally:
        connection.close()  # give the pooled connection back; this thread holds none idle


feed = SharedFeed(lobby_group(), render_lobby, _executor,
                  lambda: settings.LOBBY_MIN_INTERVAL_SECONDS)


def wait_until_idle() -> None:
    """Return once every render already asked for has finished (tests: a render still reading
    must not hold a lock on the next test's database)."""
    _executor.submit(lambda: None).result()
