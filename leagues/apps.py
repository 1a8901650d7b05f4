from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Leagues")

    def ready(self):
        from django.conf import settings
        from django.db.models.signals import pre_delete

        from games import signals
        from leagues import edits, online

        # Online fixtures: finished online hands become league deals (games never imports us).
        signals.hand_finished.connect(online.on_hand_finished,
                                      dispatch_uid="leagues.online.hand_finished")
        signals.table_finished.connect(online.on_table_finished,
                                       dispatch_uid="leagues.online.table_finished")
        # A deleted account's club records stay: also when staff delete it in the admin.
        pre_delete.connect(edits.on_account_deleted, sender=settings.AUTH_USER_MODEL,
                           dispatch_uid="leagues.edits.account_deleted")
