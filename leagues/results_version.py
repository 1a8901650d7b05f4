"""A season's results version (``Season.results_version``): raised by every write that changes
what the season's standings show, inside that write's transaction, so that the standings can
be kept between two changes (``leagues.standings.shown_standings``) and never shown stale.

Raised by:

- every announcement of changed results (``leagues.result_events.results_changed``: a table's
  result entered, corrected, confirmed or cleared, its players changed, tables or evenings
  deleted, an evening moved, members merged, a record claimed): :func:`on_results_changed`;
- the saves and deletes of what the standings read, whoever makes them (the pages, the draw,
  the admin): a table, a seat, a substitute's part, an evening, an answer to an evening (who
  came: a one-draw evening's sit-outs), a drawn round and who sat it out, a pair, a member (a
  rename, a guest made a member, retired), a league (its standings options: a sit-out's
  credit...) and the season itself (closed).  Signals, connected in ``LeaguesConfig.ready``;
  a queryset's ``update`` and ``bulk_create`` send none: the code that changes results that
  way (a merge of members, a result cleared) announces them through ``result_events``, and a
  series of evenings planned (``season_calendar.create_series``) raises the version itself.

The season's page keeps what it renders of the standings and of its evenings under the same key
(``leagues.standings.kept_key``, with the reader's language and what else the page varies on).

The version only goes up, and only in the database (``Season.save`` never writes it back), so
that a key read with a season is never reused for other results: a page reads the season
(its version) before the rows it counts, so rows read after a change may at worst be kept under
the version before it, which the next page no longer asks for.
"""

from __future__ import annotations

import threading

from django.conf import settings
from django.db import transaction
from django.db.models import F

from games import followups
from leagues.models import (
    Attendance,
    Evening,
    EveningRound,
    EveningTable,
    League,
    Member,
    Partnership,
    Season,
    Substitute,
    TableSeat,
)

WARM_STANDINGS = "leagues.warm_standings"
_to_warm = threading.local()  # the seasons this thread's open transaction changed


def bump(seasons) -> None:
    """Raise the version of the seasons of the queryset ``seasons``: one query (two when the
    standings are counted again after each change: ``settings.WARM_STANDINGS_AFTER_CHANGES``)."""
    if not settings.WARM_STANDINGS_AFTER_CHANGES:
        seasons.update(results_version=F("results_version") + 1)
        return
    ids = set(seasons.values_list("pk", flat=True))
    if not ids:
        return
    Season.objects.filter(pk__in=ids).update(results_version=F("results_version") + 1)
    pending = getattr(_to_warm, "seasons", None)
    if pending is None:
        pending = _to_warm.seasons = set()
    pending.update(ids)
    transaction.on_commit(_warm_after_commit)


def _warm_after_commit() -> None:
    """Once the change is in: its seasons' rows are counted again by the follow-up worker, not
    by the request that made the change, so that the next page shows them kept.  The first
    call after a commit takes every season; the others find nothing left.  (Seasons of a
    transaction rolled back wait for the next commit: counting them once more does no harm.)
    Not an outbox row of the change's own transaction: a crash loses only a warm cache."""
    pending = getattr(_to_warm, "seasons", None)
    if pending:
        seasons = sorted(pending)
        pending.clear()
        followups.add(WARM_STANDINGS, seasons=seasons)


def warm_standings(row) -> None:
    """The follow-up: count and keep the rows of each season (``standings.shown_standings``)
    under its version now, as the season's page would."""
    from leagues import standings

    for season in Season.objects.filter(pk__in=row.payload["seasons"]).select_related(
            "league"):
        standings.shown_standings(season)


def on_results_changed(sender, club, game: str, **kwargs) -> None:
    """``result_events.results_changed``: the results of ``club``'s leagues of ``game``
    changed."""
    bump(Season.objects.filter(league__club=club, league__game=game))


def _seasons_of(instance):
    """The seasons whose standings read ``instance``."""
    if isinstance(instance, (TableSeat, Substitute)):
        return Season.objects.filter(evenings__tables=instance.table_id)
    if isinstance(instance, (EveningTable, Attendance, EveningRound)):
        return Season.objects.filter(evenings=instance.evening_id)
    if isinstance(instance, (Evening, Partnership)):
        return Season.objects.filter(pk=instance.season_id)
    if isinstance(instance, Member):
        return Season.objects.filter(league__club=instance.club_id)
    if isinstance(instance, League):
        return Season.objects.filter(league=instance.pk)
    if isinstance(instance, Season):
        return Season.objects.filter(pk=instance.pk)
    # who sat out a round (a row of ``EveningRound.sitting_out`` or ``pairs_sitting_out``)
    return Season.objects.filter(evenings__drawn_rounds=instance.eveninground_id)


def on_saved(sender, instance, raw=False, **kwargs) -> None:
    """post_save, and pre_delete (the rows it leads to are still there)."""
    if not raw:
        bump(_seasons_of(instance))


def on_sitting_out_changed(sender, instance, action, reverse, pk_set, **kwargs) -> None:
    """m2m_changed of who sat out a round (``set`` and ``add`` write no row one by one)."""
    if action not in {"post_add", "post_remove", "post_clear"}:
        return
    if not reverse:
        bump(_seasons_of(instance))
    else:  # from a member's or a pair's side: the rounds ``pk_set`` (all, on a clear)
        bump(Season.objects.filter(evenings__drawn_rounds__in=pk_set) if pk_set is not None
             else _seasons_of(instance))


WATCHED = (TableSeat, Substitute, EveningTable, Attendance, EveningRound, Evening, Partnership,
           Member, League, Season, EveningRound.sitting_out.through,
           EveningRound.pairs_sitting_out.through)


def connect() -> None:
    from django.db.models.signals import m2m_changed, post_save, pre_delete

    from leagues import result_events

    followups.handler(WARM_STANDINGS)(warm_standings)
    result_events.results_changed.connect(on_results_changed,
                                          dispatch_uid="leagues.results_version.results")
    for model in WATCHED:
        post_save.connect(on_saved, sender=model,
                          dispatch_uid=f"leagues.results_version.saved.{model.__name__}")
        pre_delete.connect(on_saved, sender=model,
                           dispatch_uid=f"leagues.results_version.deleted.{model.__name__}")
    for through in (EveningRound.sitting_out.through, EveningRound.pairs_sitting_out.through):
        m2m_changed.connect(on_sitting_out_changed, sender=through,
                            dispatch_uid=f"leagues.results_version.m2m.{through.__name__}")
