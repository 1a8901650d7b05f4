"""What is looked at every so often, whether or not anything changed: the e-mails an hour
before events, the events whose start time has come, the rounds whose time is up with tables
still playing, the people waiting in an arena.

Each serving process's follow-up worker looks every ``EVENTS_LOOK_SECONDS`` (a setting, 20 by
default: an event starts at most that late; registered in
``EventsConfig.ready`` with ``games.followups.every``), so an event starts on time with no cron;
``manage.py start_events`` looks once, for a site with none of these processes running.  Every
step is safe when several processes look at once: each locks what it changes and checks it
again first (docs/events.md, "Starting on time")."""

from __future__ import annotations

from dataclasses import dataclass

from events import arena, reminders, running


@dataclass
class Looked:
    reminded: int  # e-mails sent
    started: list[int]  # events started
    finished: list[int]  # late tables finished by the computer players
    opened: list[int]  # arena tables formed


def look(now=None) -> Looked:
    """One look at everything above (``now``: the time to look at, by default the clock's)."""
    return Looked(reminded=reminders.send_due(now), started=running.start_due(now),
                  finished=running.finish_overdue_rounds(now), opened=arena.step_all(now))
