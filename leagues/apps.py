from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Leagues")

    def ready(self):
        from django.conf import settings
        from django.db.models.signals import post_delete, post_save, pre_delete

        from games import signals
        from leagues import board, edits, online, results_version
        from leagues.models import EveningTable

        # Online fixtures: finished online hands become league deals (games never imports us).
        signals.hand_finished.connect(online.on_hand_finished,
                                      dispatch_uid="leagues.online.hand_finished")
        signals.table_finished.connect(online.on_table_finished,
                                       dispatch_uid="leagues.online.table_finished")
        # A deleted account's club records stay: also when staff delete it in the admin.
        pre_delete.connect(edits.on_account_deleted, sender=settings.AUTH_USER_MODEL,
                           dispatch_uid="leagues.edits.account_deleted")
        # A table drawn, added by hand or deleted: the evening's board shows it.
        post_save.connect(board.on_table_saved, sender=EveningTable,
                          dispatch_uid="leagues.board.table_saved")
        post_delete.connect(board.on_table_saved, sender=EveningTable,
                            dispatch_uid="leagues.board.table_deleted")
        # What the standings read, changed: the season's results version goes up.
        results_version.connect()
