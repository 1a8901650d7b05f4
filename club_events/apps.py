from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubEventsConfig(AppConfig):
    name = "club_events"
    verbose_name = _("Clubs' events")

    def ready(self):
        from club_events.evenings import EventPlace
        from club_events.policy import ClubEventPolicy
        from events import policies
        from leagues import played_elsewhere

        # Who sees a club's event and who may register: events asks, never imports us.
        policies.register(ClubEventPolicy())
        # An evening played as an event: its draw and its date ask us, leagues never imports us.
        played_elsewhere.register(EventPlace())
