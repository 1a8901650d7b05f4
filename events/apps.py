from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = _("Events")

    def ready(self):
        from events import running
        from games import signals

        # An event's table that has played its deals may end its round (games never imports
        # us; the signal is sent after the commit by the follow-up worker).
        signals.table_finished.connect(running.on_table_finished,
                                       dispatch_uid="events.running.table_finished")
