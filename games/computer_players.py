"""Computer players: when one has the turn (a computer seat, a person's seat after their
grace period, or a person's move whose time ran out), it decides from its seat's view only (``games.computer_runner``) and plays through
``games.play.play_for_computer``.

A computer's pending move lives in the database, not only in a thread: every change that may
give a computer the turn sets ``Table.computer_turn`` in its own transaction and wakes them
once committed (``games.computer_turns``, which calls :func:`schedule_computer_players`), and
:func:`resume_stalled` schedules the computer players of every such table -- when a process
starts, when a socket connects to a table, and at each presence sweep.  A move scheduled twice
is made once: the version compare-and-swap refuses the second, and a process runs one loop per
table at a time.
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import connection

from games import play
from games.computer_runner import decide
from games.models import Seat, Table, computer_plays, time_is_up, waits_for_its_people
from games.snapshots import current_state
from games.versions import TableError

logger = logging.getLogger(__name__)

_computer_players_running = threading.local()
# Threads of computer players started here, and a word asking them to stop: a test's end (its
# database is emptied under them) or a process shutting down waits for them to let go.
_own_threads: set[threading.Thread] = set()
_own_threads_lock = threading.Lock()
_stop = threading.Event()
# The tables whose computer players play on a thread of this process now, and those asked for
# again meanwhile (the loop then looks once more before it ends, so no wake-up is lost).
_playing: set[int] = set()
_asked_again: set[int] = set()


def schedule_computer_players(table_id: int, own_thread: bool = False) -> None:
    """Let computer players act after a short delay (none in tests), outside the request.

    ``own_thread``: even without a delay, on a thread of their own -- for a caller that must
    not wait for them (a presence check runs on a server's one database thread, and computer
    players taking over an abandoned table could play a whole match there, holding up every
    socket of the process)."""
    if getattr(_computer_players_running, "active", False):
        return  # the loop below is already playing this thread's computer players
    delay = settings.COMPUTER_DELAY_SECONDS
    if delay <= 0 and not own_thread:
        run_computer_players(table_id, 0)
        return
    with _own_threads_lock:
        if table_id in _playing:
            _asked_again.add(table_id)  # its loop looks again before it ends
            return
        _playing.add(table_id)
        thread = threading.Thread(target=_run_computer_players_on_own_thread, args=(table_id, delay),
                                  daemon=True)
        _own_threads.add(thread)
    thread.start()


def _run_computer_players_on_own_thread(table_id: int, delay: float) -> None:
    try:
        while True:
            run_computer_players(table_id, delay, own_thread=True)
            with _own_threads_lock:
                if table_id not in _asked_again or _stop.is_set():
                    _playing.discard(table_id)
                    _asked_again.discard(table_id)
                    return
                _asked_again.discard(table_id)
    finally:
        with _own_threads_lock:
            _own_threads.discard(threading.current_thread())
            _playing.discard(table_id)
        connection.close()  # a thread of our own must not leave its connection open


def resume_stalled(table_id: int | None = None, stalled_since_last_look: bool = False
                   ) -> list[int]:
    """Schedule the computer players of every table in play where one may have the turn (or
    of ``table_id`` only): what a killed process left undone.  Returns the tables scheduled.

    ``stalled_since_last_look`` (the presence sweep): only the tables still at the version the
    previous look saw, so a table whose computer is merely pausing before its move -- its
    loop perhaps in another process -- is left alone."""
    global _last_look
    tables = Table.objects.filter(status=Table.Status.PLAYING, computer_turn=True)
    if table_id is not None:
        tables = tables.filter(pk=table_id)
    seen = dict(tables.values_list("pk", "version"))
    if stalled_since_last_look:
        found = [pk for pk, version in seen.items() if _last_look.get(pk) == version]
        _last_look = seen
    else:
        found = list(seen)
    for each in found:
        schedule_computer_players(each, own_thread=True)
    return found


# The tables marked for a computer's move at the sweep's previous look, with their versions.
_last_look: dict[int, int] = {}


def stop_own_threads(timeout: float = 30.0) -> None:
    """Ask computer players playing on threads of their own to stop after their current move,
    and wait for them."""
    _stop.set()
    try:
        with _own_threads_lock:
            threads = list(_own_threads)
        for thread in threads:
            thread.join(timeout)
    finally:
        _stop.clear()


def run_computer_players(table_id: int, delay: float, own_thread: bool = False) -> None:
    _computer_players_running.active = True
    try:
        # a whole match of computer players' turns at most; never loop forever
        for _ in range(1000):
            if own_thread and _stop.is_set():
                return
            table = Table.objects.filter(pk=table_id).first()
            if table is None or table.status != Table.Status.PLAYING:
                return
            state = current_state(table)
            if state is None or state.complete:
                return
            seats = list(Seat.objects.filter(table=table).order_by("position"))
            seat = seats[state.to_act]
            if (not computer_plays(seat, table.grace_seconds, move_deadline=table.move_deadline)
                    or waits_for_its_people(seats, table.current,
                                            table.preset_deals is not None)):
                # A person is to act, or the table waits for one to come back: nothing is
                # pending (unless the table moved on meanwhile).
                Table.objects.filter(pk=table_id, version=table.version,
                                     computer_turn=True).update(computer_turn=False)
                return
            if delay and not time_is_up(table.time_up_at):
                time.sleep(delay)  # once the table's time is up, its deals are finished at once
            # The computer player thinks in a worker process with a hard time limit
            # (games.computer_runner), from the seat's own view only.
            action = decide(state.view(state.to_act), seat.computer_level or "normal",
                            rules=state.rules.overrides())
            try:
                play.play_for_computer(table_id, seat.position, action, table.version)
            except TableError:
                continue  # someone else moved first: look again
    except Exception:
        logger.exception("computer player failed at table %s", table_id)
    finally:
        _computer_players_running.active = False
