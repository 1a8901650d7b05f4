"""What a serving process does as it starts: its follow-up worker, and a catch-up with what a
killed process left undone -- computer players' moves never made (``Table.computer_turn``),
takeovers and timed moves whose timers died with it (``games.presence``), and follow-ups never
done
(``games.followups``, which its worker starts with).

Nothing runs in the background when follow-ups are done inline: the unit tests, whose database
a thread of its own must not touch behind a test's back.
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import connection

logger = logging.getLogger(__name__)

_started = False
_lock = threading.Lock()


def start_background_work() -> bool:
    """Once per process: start the follow-up worker and catch up.  False when nothing was
    started (follow-ups inline, or started already)."""
    global _started
    from games import followup_worker

    if settings.FOLLOW_UPS_INLINE:
        return False
    with _lock:
        if _started:
            return False
        _started = True
    followup_worker.start()
    threading.Thread(target=_catch_up, name="catch-up", daemon=True).start()
    return True


def _catch_up() -> None:
    from games import computer_players, presence

    try:
        presence.look_at_away_seats()
        presence.look_at_overdue_moves()
        resumed = computer_players.resume_stalled()
        if resumed:
            logger.info("resumed the computer players of %d tables", len(resumed))
    except Exception:  # the database not there yet: the heartbeat's sweep tries again
        logger.exception("catching up at start failed")
    finally:
        connection.close()
