from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Leagues")

    def ready(self):
        # Online fixtures: finished online hands become league deals (games never imports us).
        from games import signals
        from leagues import online

        signals.hand_finished.connect(online.on_hand_finished,
                                      dispatch_uid="leagues.online.hand_finished")
        signals.table_finished.connect(online.on_table_finished,
                                       dispatch_uid="leagues.online.table_finished")
