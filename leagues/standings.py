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

from leagues.models import EveningTable, Season


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
