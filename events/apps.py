from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = _("Events")

    def ready(self):
        from django.conf import settings

        from events import periodic, running
        from games import followups, signals

        # An event's table that has played its deals may end its round (games never imports
        # us; the signal is sent after the commit by the follow-up worker).
        signals.table_finished.connect(running.on_table_finished,
                                       dispatch_uid="events.running.table_finished")
        # Events start, and round clocks are looked at, without cron: each serving process's
        # follow-up worker looks every EVENTS_LOOK_SECONDS.
        followups.every(settings.EVENTS_LOOK_SECONDS, "events.periodic.look", periodic.look)
