"""Season standings, computed with a fixed number of queries whatever the season's size.

Counted by the season's standings options (``Season.standings_options``: the league's, or
the ones a closed season closed with, so its final positions never move).  Tables keep their
own totals (``EveningTable.recompute``), so standings read one row per player per table (a
running balance, an individual match) or one row per match (a partnership match), aggregated
by the database, never the deals themselves.  Provisional results (entered by a player, not yet
confirmed) and tables without a result do not count.  The rows are the kind of score's
(``leagues.score_kinds``: ``standings``); what they share is here.
"""

from __future__ import annotations

from django.core.cache import cache

from leagues.models import EveningTable, Season

# How long a season's rows are kept: the key changes with its results anyway (an old key is
# never asked for again); the cache's default (five minutes) would recount them mid-evening.
KEPT_FOR = 24 * 3600


def counted_tables(season: Season):
    """Tables whose results count: entered, and not waiting for an opponent's confirmation."""
    return EveningTable.objects.filter(evening__season=season).counted()


def number_positions(rows, key, only=lambda r: True):
    """Positions, with equal keys sharing a position (1, 2, 2, 4)."""
    previous = None
    for index, row in enumerate(rows, start=1):
        if not only(row):
            row.position = None
            continue
        if previous is not None and key(previous) == key(row):
            row.position = previous.position
        else:
            row.position = index
        previous = row


def player_row(rows: dict, make, member_id: int, name: str, guest: bool):
    """The player's row of ``rows`` (by member id), made by ``make`` at their first seat or
    credit."""
    row = rows.get(member_id)
    if row is None:
        row = rows[member_id] = make(member_id, name, guest=guest)
    return row


def season_standings(season: Season) -> list:
    """The season's rows, by the kind of score of the league's game."""
    return season.league.score_kind.standings(season)


def kept_key(season: Season) -> str:
    """What the season's standings are kept under: the season (its id and when it was made: a
    database restored or emptied between two tests numbers seasons again), its results
    version, its game (and, for a league whose partners are drawn each round, that its rows are
    players) and the options its standings are counted by.  The season's page keeps
    what it shows of them under it too (``leagues/season.html``)."""
    options = season.standings_options.as_json()
    game = season.league.game + (":drawn" if season.league.draws_partners else "")
    return "standings:{}:{}:{}:{}:{}".format(
        season.pk, season.created_at.timestamp(), season.results_version, game,
        ",".join(f"{name}={options[name]}" for name in sorted(options)))


def shown_standings(season: Season) -> list:
    """The season's rows as its pages show them: kept in the cache between two changes of its
    results, under its results version (``leagues.results_version``: raised by every write
    that changes what the standings show, in that write's transaction) and the options they
    are counted by.  ``season`` must have been read by this request (its version is the
    key): never one kept from before a change."""
    def counted() -> list:
        rows = season_standings(season)
        for row in rows:
            # Each evening's balance (a running balance's best N evenings) is summed already
            # and shown nowhere: not kept, it costs the page no unpickling.
            if getattr(row, "evening_totals", None):
                row.evening_totals = []
        return rows

    return cache.get_or_set(kept_key(season), counted, KEPT_FOR)
