from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        from games import (
            session_watch,  # noqa: F401  (connects its signal receivers)
            signals,  # noqa: F401  (registers the follow-ups that send them)
        )
