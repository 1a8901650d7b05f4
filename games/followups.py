"""Work that follows a committed change, kept in the database until it is done (an outbox).

A change that needs more work afterwards -- a hand finished (the league records it, the ratings
take it), a table finished (its online fixture is complete), a result to rate -- writes a
:class:`~games.models.FollowUp` row in its own transaction (:func:`add`).  So the work is never
lost: a process killed between the commit and the work leaves the row, and the next process to
start (or any serving process, at its next look) does it.

Who does it: a worker process of each serving process (``games.followup_worker``), woken at each
commit that added a row and every ``FOLLOW_UP_POLL_SECONDS`` otherwise.  Never the thread that
played the card, nor the interpreter it runs in: a socket's click answers as soon as its
transaction commits, and the ratings or the league's deals are written a moment later, on
another core (``bench/ws_load.py --scenarios busy-day-rebuilds-1proc``).  With ``FOLLOW_UPS_INLINE`` (the
unit tests) the rows are done right after the commit, on the committing thread, so a test sees
every effect at once.

Each row is done in one transaction with its deletion: the work and "done" commit together, or
neither does.  A handler that fails is tried again later (waiting longer each time), with its
error kept on the row.  On PostgreSQL several processes share the rows (``SKIP LOCKED``); a
handler must still be idempotent, as the ones here are (a hand is recorded once, a rating
re-rates to the same numbers).

Apps register what they do with a kind (:func:`handler`): games never imports leagues or
ratings.  The same worker also does what must be looked at every so often whether or not
anything changed (an event whose start time has come, a round clock run out): apps register it
with :func:`every`, and each serving process's worker runs it on time, so a site needs no cron
for it (``manage.py start_events`` does the same from outside, for a site that has none of
these processes running).  Such work must be safe when several processes do it at once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.db import close_old_connections, transaction
from django.utils import timezone

from games.models import FollowUp

logger = logging.getLogger(__name__)

_handlers: dict[str, Callable[[FollowUp], None]] = {}
# What the worker does every so often: name -> (function, seconds between two runs).
_periodic: dict[str, tuple[Callable[[], object], float]] = {}
_wake_process = None  # the serving process's way to wake its worker (a multiprocessing Event)
_inline = threading.local()

# A failed attempt waits 5 s, then 10, 20 ... up to 10 minutes.
FIRST_RETRY_SECONDS, LAST_RETRY_SECONDS = 5, 600


def handler(kind: str):
    """Register the function that does the follow-ups of ``kind`` (given the row)."""

    def register(function: Callable[[FollowUp], None]):
        _handlers[kind] = function
        return function

    return register


def every(seconds: float, name: str, function: Callable[[], object]) -> None:
    """Register ``function`` to be run by each serving process's worker every ``seconds``
    (first as the worker starts); ``name`` keeps a second registration from adding it twice."""
    _periodic[name] = (function, seconds)


def run_periodic(next_runs: dict[str, float], now: float | None = None) -> float:
    """Run each registered periodic function that is due at ``now`` (``time.monotonic()``);
    ``next_runs`` keeps when each is due next (empty: all due).  One that fails is logged and
    tried again at its next time.  Returns the seconds until the next one is due."""
    now = time.monotonic() if now is None else now
    for name, (function, seconds) in list(_periodic.items()):
        if next_runs.get(name, now) <= now:
            next_runs[name] = now + seconds
            try:
                function()
            except Exception:
                logger.exception("follow-up worker: %s failed", name)
    return min((due - now for due in next_runs.values()), default=float("inf"))


def add(kind: str, **payload) -> FollowUp:
    """Record work of ``kind`` in the current transaction; it is done after the commit."""
    row = FollowUp.objects.create(kind=kind, payload=payload)
    transaction.on_commit(_committed)
    return row


def _committed() -> None:
    if settings.FOLLOW_UPS_INLINE:
        if getattr(_inline, "running", False):
            return  # a follow-up's own follow-ups: the loop below takes them next
        _inline.running = True
        try:
            process_due()
        finally:
            _inline.running = False
    else:
        wake()


def process_due(limit: int | None = None) -> int:
    """Do the follow-ups that are due, oldest first; returns how many were done."""
    done = 0
    while limit is None or done < limit:
        outcome = _process_one()
        if outcome is None:
            return done
        done += outcome
    return done


def _process_one() -> int | None:
    """Claim the oldest due row and do it: 1 when done, 0 when it failed (it waits for its next
    attempt), None when nothing is due."""
    failure = None
    with transaction.atomic():
        row = (FollowUp.objects.select_for_update(skip_locked=True)
               .filter(due_at__lte=timezone.now()).order_by("id").first())
        if row is None:
            return None
        do = _handlers.get(row.kind)
        try:
            if do is None:
                raise LookupError(f"no handler for follow-ups of kind {row.kind!r}")
            with transaction.atomic():
                do(row)
        except Exception as exc:  # kept on the row and tried again: never lost, never blocking
            logger.exception("follow-up %s (%s) failed", row.pk, row.kind)
            failure = f"{type(exc).__name__}: {exc}"[:2000]
            row.attempts += 1
            wait = min(LAST_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2 ** (row.attempts - 1))
            row.due_at = timezone.now() + timedelta(seconds=wait)
            row.last_error = failure
            row.save(update_fields=["attempts", "due_at", "last_error"])
        else:
            FollowUp.objects.filter(pk=row.pk).delete()
    return 0 if failure else 1


# -- the worker process of a serving process ----------------------------------------------


def use_wake_event(event) -> None:
    """This serving process's worker (``games.followup_worker.start``) waits on ``event``:
    each commit that added a row sets it."""
    global _wake_process
    _wake_process = event


def wake() -> None:
    """Look for due follow-ups now (a caller that knows rows are waiting)."""
    if _wake_process is not None:
        _wake_process.set()


def work_until_ended(wake_event) -> None:
    """The worker process's loop (``games.followup_worker``): every due row and the periodic
    work that is due, then wait for a wake-up or the next look."""
    next_runs: dict[str, float] = {}
    while True:
        wake_event.clear()
        try:
            close_old_connections()
            while _process_one() is not None:
                pass
        except Exception:  # the database gone for a moment: look again at the next wake
            logger.exception("follow-up worker: could not read the follow-ups")
        until_periodic = run_periodic(next_runs)
        wake_event.wait(max(0.0, min(settings.FOLLOW_UP_POLL_SECONDS, until_periodic)))
