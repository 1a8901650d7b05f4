"""The follow-up worker's own process (``games.followups.start_worker`` starts it).

Spawned, so it begins with a fresh interpreter: this module imports nothing of Django's at the
top, sets Django up, then works through ``games.followups`` until the serving process that
started it ends.
"""

from __future__ import annotations


def run(site_pid: int, wake_event) -> None:
    import django

    django.setup()
    from games import followups  # the apps registered their kinds in ready()
    from games.bot_runner import end_with_site

    end_with_site(site_pid)  # never outlive the site's process, even when it is killed
    followups.work_until_ended(wake_event)
