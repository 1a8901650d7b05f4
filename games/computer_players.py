"""Computer players: when one has the turn (a computer seat, or a person's seat after their
grace period), it decides from its seat's view only (``games.bot_runner``) and plays through
``games.play.play_for_computer``.
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import connection

from games.models import Seat, Table
from games.snapshots import current_state
from games.versions import TableError

logger = logging.getLogger(__name__)

_bots_running = threading.local()
# Threads of computer players started here, and a word asking them to stop: a test's end (its
# database is emptied under them) or a process shutting down waits for them to let go.
_own_threads: set[threading.Thread] = set()
_own_threads_lock = threading.Lock()
_stop = threading.Event()


def schedule_bots(table_id: int, own_thread: bool = False) -> None:
    """Let computer players act after a short delay (none in tests), outside the request.

    ``own_thread``: even without a delay, on a thread of their own -- for a caller that must
    not wait for them (a presence check runs on a server's one database thread, and computer
    players taking over an abandoned table could play a whole match there, holding up every
    socket of the process)."""
    if getattr(_bots_running, "active", False):
        return  # the loop below is already playing this thread's bots
    delay = settings.BOT_DELAY_SECONDS
    if delay <= 0 and not own_thread:
        run_bots(table_id, 0)
    else:
        thread = threading.Thread(target=_run_bots_on_own_thread, args=(table_id, delay),
                                  daemon=True)
        with _own_threads_lock:
            _own_threads.add(thread)
        thread.start()


def _run_bots_on_own_thread(table_id: int, delay: float) -> None:
    try:
        run_bots(table_id, delay, own_thread=True)
    finally:
        with _own_threads_lock:
            _own_threads.discard(threading.current_thread())


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


def run_bots(table_id: int, delay: float, own_thread: bool = False) -> None:
    from games import play
    from games.bot_runner import decide

    _bots_running.active = True
    try:
        for _ in range(1000):  # a whole match of bot turns at most; never loop forever
            if own_thread and _stop.is_set():
                return
            table = Table.objects.filter(pk=table_id).first()
            if table is None or table.status != Table.Status.PLAYING:
                return
            state = current_state(table)
            if state is None or state.complete:
                return
            seat = Seat.objects.select_related("table").get(table=table, position=state.to_act)
            if not seat.played_by_bot():
                return
            if delay:
                time.sleep(delay)
            # The bot thinks in a worker process with a hard time limit (games.bot_runner),
            # from the seat's own view only.
            action = decide(state.view(state.to_act), seat.bot_level or "normal",
                            rules=state.rules.overrides())
            try:
                play.play_for_computer(table_id, seat.position, action, table.version)
            except TableError:
                continue  # someone else moved first: look again
    except Exception:
        logger.exception("computer player failed at table %s", table_id)
    finally:
        _bots_running.active = False
        if own_thread:
            connection.close()  # a thread of our own must not leave its connection open
