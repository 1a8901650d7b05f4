from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubEventsConfig(AppConfig):
    name = "club_events"
    verbose_name = _("Clubs' events")

    def ready(self):
        from club_events.policy import ClubEventPolicy
        from events import policies

        # Who sees a club's event and who may register: events asks, never imports us.
        policies.register(ClubEventPolicy())
