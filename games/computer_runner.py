"""Computer players think in worker processes, never in a process that serves sockets.

``decide(view, level, rules=None)`` hands the decision to a process pool (created on first use,
``COMPUTER_WORKERS`` processes, started with ``forkserver`` where the platform has it, else
``spawn``: never a bare fork of a threaded server) and waits at most
``COMPUTER_TIME_LIMIT_SECONDS``.  A decision that overruns, or a worker that dies, costs nothing but
a log line: the pool is thrown away (its processes killed, so a runaway search cannot keep a
slot) and the easy heuristic answers in-process, in microseconds.  The next decision starts a
fresh pool.

``COMPUTER_WORKERS = 0`` (tests) decides in the calling process.  With ``COMPUTER_SERVICE_URL`` set the
decision is asked of the pool on machines of its own (:mod:`games.computer_service`), which runs
this same code there (:mod:`games.computer_server`).

The worker runs :func:`games.rules.computer.choose_action` on the seat's view only: the computer player
cannot see more than the person in its seat, whichever process it runs in.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import select
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.conf import settings

from games import computer_service
from games.rules.base import HandView
from games.rules.computer import choose_action

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_review_pool: ProcessPoolExecutor | None = None
# What a worker runs: (view, level) -> action.  A module attribute so tests can swap it.
_target = choose_action


def _start_method() -> str:
    methods = multiprocessing.get_all_start_methods()
    return "forkserver" if "forkserver" in methods else "spawn"


def _new_pool(workers: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=workers,
                               mp_context=multiprocessing.get_context(_start_method()),
                               initializer=end_with_site, initargs=(os.getpid(),))


def end_with_site(site_pid: int) -> None:
    """First thing in each worker: it ends when the site's process that started it does.

    Killed with SIGKILL, a daphne process cannot stop its pools, and its workers (84-150 MB
    each) waited for work forever: each holds the ends of its pool's pipes and the
    forkserver's, so none of them sees an end of file, and the forkserver (their parent, which
    outlives daphne for the same reason) never exits -- which is also why the kernel's
    parent-death signal (prctl PR_SET_PDEATHSIG) would never come.  So each worker watches
    the site's process itself: on Linux through a pidfd, readable the moment it ends; else by
    looking every second.  The forkserver and the resource tracker then end by themselves."""
    try:
        handle = os.pidfd_open(site_pid)
    except (AttributeError, OSError):  # not Linux, or a kernel before 5.3
        handle = None
    if not _alive(site_pid):  # it ended before we began watching
        os._exit(0)
    threading.Thread(target=_exit_when_gone, args=(site_pid, handle), daemon=True,
                     name="site-watch").start()


def _exit_when_gone(site_pid: int, handle: int | None) -> None:
    if handle is not None:
        select.select([handle], [], [])  # returns when the process has ended
        os._exit(0)
    while _alive(site_pid):
        time.sleep(1)
    os._exit(0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a process killed but not yet reaped is no longer alive
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return True


def _get_pool() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = _new_pool(settings.COMPUTER_WORKERS)
        return _pool


def _discard(pool: ProcessPoolExecutor) -> None:
    """Forget ``pool`` and kill its processes (a worker past its time limit keeps thinking
    otherwise, holding a slot)."""
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.kill()


def shutdown() -> None:
    """Stop the pools (tests, and a clean process exit)."""
    global _review_pool
    pool = _pool
    if pool is not None:
        _discard(pool)
    with _lock:
        reviews, _review_pool = _review_pool, None
    if reviews is not None:
        reviews.shutdown(wait=False, cancel_futures=True)


def fallback(view: HandView) -> str:
    """The easy heuristic, in-process: always fast, always legal."""
    return choose_action(view, "easy")


def submit(function, *args):
    """Run ``function(*args)`` (a hand's review: seconds, no time limit) in worker processes
    of the same kind, on a pool of their own (``REVIEW_WORKERS``): a review must never hold
    up a decision at a table behind it.  Returns the future.  The function and its
    arguments must pickle (a module-level function, plain data)."""
    global _review_pool
    for _attempt in range(2):
        with _lock:
            if _review_pool is None:
                _review_pool = _new_pool(settings.REVIEW_WORKERS)
            pool = _review_pool
        try:
            return pool.submit(function, *args)
        except BrokenProcessPool:  # a worker died: a fresh pool, once
            logger.warning("the review workers' pool was broken: starting a new one")
            with _lock:
                if _review_pool is pool:
                    _review_pool = None
    raise BrokenProcessPool("the review workers could not be started")


def decide(view: HandView, level: str, rules: dict[str, Any] | None = None) -> str:
    """The computer player's action for ``view`` (the acting seat's ``state.view(seat)``).

    ``rules``: the table's house-rule overrides (``rules.overrides()``), which the computer player
    needs to know the card order and the scores; they are public, like the view.
    """
    if rules:
        view = {**view, "rules": rules}
    if settings.COMPUTER_SERVICE_URL:  # the pool on machines of its own
        return computer_service.ask(view, level) or fallback(view)
    return decide_here(view, level)


def decide_here(view: HandView, level: str) -> str:
    """The decision by this machine's own pool (or in-process with ``COMPUTER_WORKERS = 0``)."""
    if settings.COMPUTER_WORKERS <= 0:
        return _target(view, level)
    limit = settings.COMPUTER_TIME_LIMIT_SECONDS
    pool = _get_pool()
    try:
        future = pool.submit(_target, view, level)
        return future.result(timeout=limit)
    except FutureTimeout:
        logger.warning("computer player (%s) took longer than %.2f s at seat %s; the easy heuristic "
                       "plays instead", level, limit, view.get("seat"))
    except BrokenProcessPool:
        logger.exception("computer player worker failed (%s, seat %s); the easy heuristic plays instead",
                         level, view.get("seat"))
    except Exception:
        # The decision raised (a view it could not read): the worker itself is well and the
        # pool is kept for every other table.
        logger.exception("computer player failed (%s, seat %s); the easy heuristic plays instead",
                         level, view.get("seat"))
        return fallback(view)
    _discard(pool)
    return fallback(view)
