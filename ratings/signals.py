"""Ratings follow the results: every change of a counted result re-rates its scope and game
from the day of the change -- never on the thread of the request or the socket that made it.

The change's transaction records the work (a ``rate`` follow-up, ``games.followups``), so it is
done after the commit by the follow-up worker, and still done if the process dies right after
the commit.  Pending re-ratings of one scope and game are done as one, from the earliest day.

What changed is said by the code that changed it, in its transaction:

- a league's results (``leagues.result_events.results_changed``: a table's deals or totals
  entered, corrected, confirmed, cleared or deleted, its players changed, an evening moved to
  another day or deleted, members merged, a record claimed by its person's login, who is then
  rated as their site user): the club's scope, and the site's when they may count there;
- a club's visibility (``leagues.result_events.visibility_changed``): its trusted results
  enter or leave the site's scope;
- a hand finished at an online table (``games.signals.hand_finished``, itself a follow-up; an
  evening table's hands come through its deals instead): one update of its players when it is
  the newest result (``ratings.store.append``), a re-rating from its day otherwise;
- a finished online table made an evening table's (``leagues.result_events.online_hands_taken``:
  an event played as an evening): its hands leave the site's online hands, so the site is
  re-rated from the first of them (the club's scope hears of the deals as of any result).
- an account deleted: its own ratings go, and the scopes it was rated in are re-rated.
"""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from datetime import date

from django.conf import settings
from django.db.models.signals import pre_delete
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


def on_results_changed(sender, club, game: str, since: date, **kwargs) -> None:
    """A club's results of ``game`` changed from ``since`` (``leagues.result_events``): its own
    scope, and the site's when its results may count there (a public club with at least two
    members who have an account)."""
    from ratings.events import SITE, scope_of

    schedule(scope_of(club), game, since)
    if club.is_public and _may_count_site_wide(club):
        schedule(SITE, game, since)


def on_visibility_changed(sender, club, game: str, since: date, **kwargs) -> None:
    """The club's own ratings stay as they are; the site's change only if its results could
    count there (so switching visibility is never a site-wide re-rating for a club of invented
    members)."""
    from ratings.events import SITE

    if _may_count_site_wide(club):
        schedule(SITE, game, since)


def _may_count_site_wide(club) -> bool:
    return club.members.filter(user__isnull=False).values("user").distinct().count() >= 2


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


def on_online_hands_taken(sender, game_table, since: date, **kwargs) -> None:
    """An online table's hands, rated site-wide as online hands, are an evening's deals now:
    the site re-rated from their day, as a rebuild would count them."""
    from ratings.events import SITE

    schedule(SITE, game_table.game, since)


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
    from leagues import result_events

    result_events.results_changed.connect(on_results_changed,
                                          dispatch_uid="ratings.results_changed")
    result_events.visibility_changed.connect(on_visibility_changed,
                                             dispatch_uid="ratings.visibility_changed")
    result_events.online_hands_taken.connect(on_online_hands_taken,
                                             dispatch_uid="ratings.online_hands_taken")
    game_signals.hand_finished.connect(on_hand_finished, dispatch_uid="ratings.hand_finished")
    followups.handler(RATE)(rate)
    pre_delete.connect(on_account_deleted, sender=settings.AUTH_USER_MODEL,
                       dispatch_uid="ratings.account_deleted")
