"""Ratings follow the results: every change of a counted result re-rates its scope and game
from the day of the change, once the change is committed.

- a league table saved (a deal added, corrected or deleted, totals set or cleared, an entry
  confirmed: every entry path ends by saving the table) or deleted;
- an evening moved to another day;
- a member claiming their record (they are then rated as their site user), a club changing
  visibility (its results change scope): the scopes concerned are rebuilt;
- a hand finished at an online table (``games.signals.hand_finished``; an evening table's hands
  come through its deals instead);
- an account deleted: its own ratings go, and the scopes it was rated in are re-rated.

Several changes in one transaction re-rate each scope and game once, from the earliest day.
"""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from datetime import UTC
from functools import partial

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_delete, pre_save

logger = logging.getLogger(__name__)
_local = threading.local()
FROM_THE_START = None


@contextmanager
def paused():
    """No re-rating while a bulk load runs (demo data, benchmarks): rebuild afterwards
    (``manage.py rate --rebuild``)."""
    _local.paused = True
    try:
        yield
    finally:
        _local.paused = False


def schedule(scope: str, game: str, since) -> None:
    """Re-rate ``scope`` and ``game`` from the day ``since`` (None: from the start) once the
    current transaction commits; several calls in one transaction make one re-rating."""
    if getattr(_local, "paused", False):
        return
    batch = getattr(_local, "batch", None)
    if batch is None or batch["done"] or not any(
            entry[1] is batch["flush"] for entry in transaction.get_connection().run_on_commit):
        batch = _local.batch = {"pending": {}, "done": False}
        batch["flush"] = partial(_flush, batch)
        register = True
    else:
        register = False
    pending, key = batch["pending"], (scope, game)
    if key in pending:
        earlier = pending[key]
        pending[key] = None if since is None or earlier is None else min(earlier, since)
    else:
        pending[key] = since
    if register:
        transaction.on_commit(batch["flush"])


def _flush(batch) -> None:
    from ratings.store import refresh

    batch["done"] = True
    for (scope, game), since in sorted(batch["pending"].items(),
                                       key=lambda item: (item[0], str(item[1]))):
        try:
            refresh(scope, game, since)
        except Exception:  # a rating must never undo or block a result
            logger.exception("re-rating %s %s from %s failed", scope, game, since)


def _club_and_game(table):
    league = table.evening.season.league
    return league.club, league.game


def on_table_saved(sender, instance, created=False, **kwargs):
    from ratings.events import scope_of

    if created and not instance.entry:
        return  # a new table: nothing to rate yet
    try:
        club, game = _club_and_game(instance)
        day = instance.evening.date
    except ObjectDoesNotExist:  # the whole evening or league is being deleted
        return
    schedule(scope_of(club), game, day)


def on_evening_pre_save(sender, instance, **kwargs):
    if instance.pk:
        instance._ratings_old_date = (sender.objects.filter(pk=instance.pk)
                                      .values_list("date", flat=True).first())


def on_evening_saved(sender, instance, created, **kwargs):
    from ratings.events import scope_of

    old = getattr(instance, "_ratings_old_date", None)
    if created or old is None or old == instance.date or not instance.tables.exists():
        return
    league = instance.season.league
    schedule(scope_of(league.club), league.game, min(old, instance.date))


def on_member_pre_save(sender, instance, **kwargs):
    if instance.pk:
        instance._ratings_old_user = (sender.objects.filter(pk=instance.pk)
                                      .values_list("user_id", flat=True).first())


def on_member_saved(sender, instance, created, **kwargs):
    if not created and getattr(instance, "_ratings_old_user", None) != instance.user_id:
        _rebuild_club(instance.club)


def on_club_pre_save(sender, instance, **kwargs):
    if instance.pk:
        instance._ratings_was_public = (sender.objects.filter(pk=instance.pk)
                                        .values_list("is_public", flat=True).first())


def on_club_saved(sender, instance, created, **kwargs):
    was = getattr(instance, "_ratings_was_public", None)
    if not created and was is not None and was != instance.is_public:
        _rebuild_club(instance, both_scopes=True)


def _rebuild_club(club, both_scopes=False) -> None:
    from ratings.events import SITE, scope_of

    scopes = {scope_of(club)}
    if both_scopes:
        scopes |= {SITE, f"club-{club.pk}"}
    for game in set(club.leagues.values_list("game", flat=True)):
        for scope in scopes:
            schedule(scope, game, FROM_THE_START)


def on_hand_finished(sender, table, hand, **kwargs):
    from leagues.models import OnlineFixture
    from ratings.events import SITE

    if OnlineFixture.objects.filter(game_table=table).exists():
        return  # an evening table's hand: rated as the league deal it becomes
    schedule(SITE, table.game, hand.finished_at.astimezone(UTC).date())


def on_account_deleted(sender, instance, **kwargs):
    """A deleted account's rating identity (``u:<pk>``) goes at once, in the deletion's
    transaction; its results stay (a club's record of them is rated like any member without a
    login, its online seats like no one), so each scope and game it was rated in is re-rated
    from its first day there: the ratings stay what a rebuild from the results gives."""
    from django.db.models import Min

    from ratings.models import Rating, RatingPoint

    player = f"u:{instance.pk}"
    firsts = list(RatingPoint.objects.filter(player=player).values("scope", "game")
                  .annotate(first=Min("day")).values_list("scope", "game", "first"))
    RatingPoint.objects.filter(player=player).delete()
    Rating.objects.filter(player=player).delete()
    for scope, game, first in firsts:
        schedule(scope, game, first)


def connect() -> None:
    from games import signals as game_signals
    from leagues.models import Club, Evening, EveningTable, Member

    post_save.connect(on_table_saved, sender=EveningTable, dispatch_uid="ratings.table_saved")
    post_delete.connect(on_table_saved, sender=EveningTable,
                        dispatch_uid="ratings.table_deleted")
    pre_save.connect(on_evening_pre_save, sender=Evening, dispatch_uid="ratings.evening_pre")
    post_save.connect(on_evening_saved, sender=Evening, dispatch_uid="ratings.evening_saved")
    pre_save.connect(on_member_pre_save, sender=Member, dispatch_uid="ratings.member_pre")
    post_save.connect(on_member_saved, sender=Member, dispatch_uid="ratings.member_saved")
    pre_save.connect(on_club_pre_save, sender=Club, dispatch_uid="ratings.club_pre")
    post_save.connect(on_club_saved, sender=Club, dispatch_uid="ratings.club_saved")
    game_signals.hand_finished.connect(on_hand_finished, dispatch_uid="ratings.hand_finished")
    pre_delete.connect(on_account_deleted, sender=settings.AUTH_USER_MODEL,
                       dispatch_uid="ratings.account_deleted")
