"""The follow-up worker's own process: one per serving process (``games.recovery`` starts it).

A process, not a thread: a long re-rating on a thread held the interpreter the sockets of the
process share, and clicks waited seconds (``bench/ws_load.py --scenarios
busy-day-rebuilds-1proc``).  Spawned, so it begins with a fresh interpreter: this module
imports nothing of Django's at the top; the process sets Django up, then works through
``games.followups`` until the serving process that started it ends (even killed).
"""

from __future__ import annotations

import multiprocessing
import os
import threading

_worker = None
_lock = threading.Lock()


def start() -> bool:
    """Start this serving process's worker (once), woken at each commit that added a row; it
    first catches up with whatever is left in the database.  False when follow-ups are done
    inline (the unit tests) or it runs already."""
    global _worker
    from django.conf import settings

    from games import followups

    if settings.FOLLOW_UPS_INLINE:
        return False
    with _lock:
        if _worker is not None and _worker.is_alive():
            return False
        context = multiprocessing.get_context("spawn")
        wake = context.Event()
        _worker = context.Process(target=run, name="follow-ups", daemon=True,
                                  args=(os.getpid(), wake))
        _worker.start()
        followups.use_wake_event(wake)
    return True


def run(site_pid: int, wake_event) -> None:
    import django

    django.setup()
    from games import followups  # the apps registered their kinds in ready()
    from games.computer_runner import end_with_site

    end_with_site(site_pid)  # never outlive the site's process, even when it is killed
    followups.work_until_ended(wake_event)
