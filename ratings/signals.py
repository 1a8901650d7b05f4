"""Ratings follow the results: every change of a counted result re-rates its scope and game
from the day of the change -- never on the thread of the request or the socket that made it.

The change's transaction records the work (a ``rate`` follow-up, ``games.followups``), so it is
done after the commit by the follow-up worker, and still done if the process dies right after
the commit.  Pending re-ratings of one scope and game are done as one, from the earliest day.

- a league table saved (a deal added, corrected or deleted, totals set or cleared, an entry
  confirmed: every entry path ends by saving the table) or deleted;
- an evening moved to another day;
- a member claiming their record (they are then rated as their site user), a club changing
  visibility (its trusted results enter or leave the site's scope);
- a hand finished at an online table (``games.signals.hand_finished``, itself a follow-up; an
  evening table's hands come through its deals instead): one update of its players when it is
  the newest result (``ratings.store.append``), a re-rating from its day otherwise.
- an account deleted: its own ratings go, and the scopes it was rated in are re-rated.
"""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from datetime import date

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db.models.signals import post_delete, post_save, pre_delete, pre_save
from django.utils import timezone

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
    """Re-rate ``scope`` and ``game`` from the day ``since`` (None: from the start) after the
    current transaction commits, on the follow-up worker."""
    if getattr(_local, "paused", False):
        return
    from games import followups

    followups.add(RATE, scope=scope, game=game,
                  since=None if since is None else since.isoformat())


RATE = "rate"


def rate(row) -> None:
    """A ``rate`` follow-up, with every other one of its scope and game still waiting: one
    re-rating from the earliest day they name."""
    from games.models import FollowUp
    from ratings.store import refresh

    scope, game = row.payload["scope"], row.payload["game"]
    others = list(FollowUp.objects.select_for_update(skip_locked=True)
                  .filter(kind=RATE, payload__scope=scope, payload__game=game,
                          due_at__lte=timezone.now())
                  .exclude(pk=row.pk))
    days = [each.payload.get("since") for each in [row, *others]]
    since = None if None in days else date.fromisoformat(min(days))
    refresh(scope, game, since)
    FollowUp.objects.filter(pk__in=[each.pk for each in others]).delete()


def _club_and_game(table):
    league = table.evening.season.league
    return league.club, league.game


def on_table_saved(sender, instance, created=False, **kwargs):
    if created and not instance.entry:
        return  # a new table: nothing to rate yet
    try:
        club, game = _club_and_game(instance)
        day = instance.evening.date
    except ObjectDoesNotExist:  # the whole evening or league is being deleted
        return
    _schedule_club(club, game, day)


def _schedule_club(club, game: str, since) -> None:
    """A club's results changed from ``since``: its own scope, and the site's when its results
    may count there (a public club with at least two members who have an account)."""
    from ratings.events import SITE, scope_of

    schedule(scope_of(club), game, since)
    if club.is_public and _may_count_site_wide(club):
        schedule(SITE, game, since)


def _may_count_site_wide(club) -> bool:
    return club.members.filter(user__isnull=False).values("user").distinct().count() >= 2


def on_evening_pre_save(sender, instance, **kwargs):
    if instance.pk:
        instance._ratings_old_date = (sender.objects.filter(pk=instance.pk)
                                      .values_list("date", flat=True).first())


def on_evening_saved(sender, instance, created, **kwargs):
    old = getattr(instance, "_ratings_old_date", None)
    if created or old is None or old == instance.date or not instance.tables.exists():
        return
    league = instance.season.league
    _schedule_club(league.club, league.game, min(old, instance.date))


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
    """The club's own ratings stay as they are; the site's change only if its results could
    count there (so switching visibility is never a site-wide re-rating for a club of invented
    members)."""
    from ratings.events import SITE

    was = getattr(instance, "_ratings_was_public", None)
    if created or was is None or was == instance.is_public:
        return
    if not _may_count_site_wide(instance):
        return
    first = _first_day(instance)
    if first is not None:
        for game in set(instance.leagues.values_list("game", flat=True)):
            schedule(SITE, game, first)


def _first_day(club):
    from leagues.models import EveningTable

    return (EveningTable.objects.filter(evening__season__league__club=club)
            .order_by("evening__date").values_list("evening__date", flat=True).first())


def _rebuild_club(club) -> None:
    """A member claimed their record: the club's results are rated again for them."""
    first = _first_day(club)
    if first is None:
        return
    for game in set(club.leagues.values_list("game", flat=True)):
        _schedule_club(club, game, first)


def on_hand_finished(sender, table, hand, **kwargs):
    """An online hand (on the follow-up worker): the newest result is one update of its
    players; one that lands before newer ones re-rates from its day, coalesced."""
    from games.models import Hand
    from leagues.models import OnlineFixture
    from ratings.events import SITE, online_events
    from ratings.store import append

    if OnlineFixture.objects.filter(game_table=table).exists():
        return  # an evening table's hand: rated as the league deal it becomes
    events = online_events(table.game, hands=Hand.objects.filter(pk=hand.pk))
    if not events:
        return  # nothing to rate site-wide (one person with computer players, a redeal)
    if not append(SITE, table.game, events[0]):
        schedule(SITE, table.game, events[0].day)


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
    from games import followups
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
    followups.handler(RATE)(rate)
    pre_delete.connect(on_account_deleted, sender=settings.AUTH_USER_MODEL,
                       dispatch_uid="ratings.account_deleted")
