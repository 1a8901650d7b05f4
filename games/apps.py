from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        from django.conf import settings
        from django.db.models.signals import pre_delete

        from games import (
            computer_players,
            computer_turns,
            presence,
            session_watch,  # noqa: F401  (connects its signal receivers)
            signals,  # noqa: F401  (registers the follow-ups that send them)
            tables,
        )

        # Playing and seating sit below the computer players (who play through games.play):
        # they wake them by this call, looked up at each wake so a test may stand in for
        # ``schedule_computer_players``.
        computer_turns.wake_with(lambda table_id: computer_players.schedule_computer_players(table_id))
        # A timed turn's end is watched by the presence checks' timers.
        computer_turns.watch_deadlines_with(
            lambda table_id, deadline: presence.watch_move(table_id, deadline))

        # A deleted account's seats and tables: also when staff delete it in the admin.
        pre_delete.connect(tables.on_account_deleted, sender=settings.AUTH_USER_MODEL,
                           dispatch_uid="games.seating.account_deleted")
