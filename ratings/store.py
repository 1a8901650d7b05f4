"""Writing ratings: a full rebuild of a scope and game, or the incremental path from a day.

The incremental path (what a new or corrected result triggers) starts from each player's rating
stored at the end of the last day before ``since`` (``RatingPoint``), forgets what was stored
from ``since`` on, and rates that day's and later results again.  It does the same float
operations in the same order as a rebuild, so both give the same numbers to the last bit
(``tests/ratings/test_rebuild.py``, a property test).
"""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from ratings import events as stream
from ratings import games
from ratings.core import Standing
from ratings.models import Rating, RatingPoint, RatingStream


def _state_before(scope: str, game: str, since: date) -> dict[str, Standing]:
    state = {}
    points = (RatingPoint.objects.filter(scope=scope, game=game, day__lt=since)
              .order_by("player", "day").values_list("player", "mu", "sigma", "results",
                                                     "online", "met"))
    for player, mu, sigma, results, online, met in points:
        state[player] = Standing(mu, sigma, results, online, tuple(met))  # the last day wins
    return state


def refresh(scope: str, game: str, since: date | None = None, events=None) -> int:
    """Rates ``scope`` and ``game`` again from the day ``since`` (None: from the start).
    Returns the number of results rated.  ``events``: the stream already loaded (the bench)."""
    with transaction.atomic():
        stream_row, _ = RatingStream.objects.get_or_create(scope=scope, game=game)
        RatingStream.objects.select_for_update().get(pk=stream_row.pk)
        if since is not None and not RatingPoint.objects.filter(
                scope=scope, game=game, day__lt=since).exists():
            since = None  # nothing stored before: the same as a rebuild
        state = {} if since is None else _state_before(scope, game, since)
        points = RatingPoint.objects.filter(scope=scope, game=game)
        (points if since is None else points.filter(day__gte=since)).delete()
        todo = stream.load(scope, game, since) if events is None else events
        rater = games.rater(game, state)
        history: dict[tuple[str, date], Standing] = {}
        for event in todo:
            for player in rater.apply(event):
                history[player, event.day] = rater.state[player]
        RatingPoint.objects.bulk_create(
            RatingPoint(scope=scope, game=game, player=player, day=day, mu=s.mu, sigma=s.sigma,
                        results=s.results, online=s.online, met=list(s.met))
            for (player, day), s in history.items())
        last_day = dict(RatingPoint.objects.filter(scope=scope, game=game).values("player")
                        .annotate(last=Max("day")).values_list("player", "last"))
        Rating.objects.filter(scope=scope, game=game).delete()
        Rating.objects.bulk_create(
            Rating(scope=scope, game=game, player=player, mu=s.mu, sigma=s.sigma,
                   results=s.results, online=s.online, met=list(s.met), day=last_day[player])
            for player, s in sorted(rater.state.items()))
        RatingStream.objects.filter(pk=stream_row.pk).update(
            events=len(todo) if since is None else stream_row.events,
            rebuilt_at=timezone.now() if since is None else stream_row.rebuilt_at,
            last_key=_last_key_after(stream_row.last_key, since, todo))
        return len(todo)


def _last_key_after(old: str, since: date | None, todo) -> str:
    """The stream's last key once ``todo`` (everything from ``since``) is rated: its last
    result's, or the old one when it lay before ``since`` (keys begin with the day)."""
    if todo:
        return todo[-1].key
    if since is not None and old and old[:10] < since.isoformat():
        return old
    return ""


def append(scope: str, game: str, event) -> bool:
    """One new result after every result rated so far: one update of its players alone, so its
    cost does not grow with the results already rated (that day or ever).  The same floats as a
    rebuild (``tests/ratings/test_rebuild.py``).  False, changing nothing, when the result is
    not after the last one rated (the caller re-rates from its day) -- a result rated twice is
    never counted twice."""
    with transaction.atomic():
        stream_row, _ = RatingStream.objects.get_or_create(scope=scope, game=game)
        stream_row = RatingStream.objects.select_for_update().get(pk=stream_row.pk)
        if not stream_row.last_key and Rating.objects.filter(scope=scope, game=game).exists():
            return False  # results rated, but not known up to where: re-rate from the day
        if stream_row.last_key and event.key <= stream_row.last_key:
            return False
        players = [p for p in dict.fromkeys(event.players) if p is not None]
        stored = {r.player: r for r in Rating.objects.filter(scope=scope, game=game,
                                                             player__in=players)}
        rater = games.rater(game, {p: Standing(r.mu, r.sigma, r.results, r.online, tuple(r.met))
                                   for p, r in stored.items()})
        changed = rater.apply(event)
        # One upsert a table for all the hand's players (not two queries a player): the
        # current rating, and the day's point in the history.
        fields = ["mu", "sigma", "results", "online", "met", "day"]
        for model, unique in ((Rating, ["scope", "game", "player"]),
                              (RatingPoint, ["scope", "game", "player", "day"])):
            rows = [model(scope=scope, game=game, player=player, mu=s.mu, sigma=s.sigma,
                          results=s.results, online=s.online, met=list(s.met), day=event.day)
                    for player in changed for s in [rater.state[player]]]
            model.objects.bulk_create(rows, update_conflicts=True, unique_fields=unique,
                                      update_fields=[f for f in fields if f not in unique])
        RatingStream.objects.filter(pk=stream_row.pk).update(last_key=event.key)
        return True


def scopes_and_games(club=None, game: str | None = None) -> list[tuple[str, str]]:
    """Every (scope, game) with results to rate, or those of one club or one game."""
    from games import registry
    from leagues.models import Club

    clubs = [club] if club is not None else list(Club.objects.all())
    wanted = [g.id for g in registry.all_games()] if game is None else [game]
    pairs = set()
    for each in clubs:
        pairs.update((stream.scope_of(each), g) for g in wanted)
    if club is None:
        pairs.update((stream.SITE, g) for g in wanted)
    return sorted(pairs)
