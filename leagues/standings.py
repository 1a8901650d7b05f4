"""Season standings, computed with a fixed number of queries whatever the season's size.

Counted by the season's standings options (``Season.standings_options``: the league's, or
the ones a closed season closed with, so its final positions never move).  Tables keep their
own totals (``EveningTable.recompute``), so standings read one row per player
per table (Solo, Belgian) or one row per match (Bid Whist), aggregated by the database, never
the deals themselves.  Provisional results (entered by a player, not yet confirmed) and tables
without a result do not count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Count, Sum

from games import registry
from leagues.models import (
    EveningTable,
    League,
    Partnership,
    Season,
    StandingsOptions,
    TableSeat,
)


@dataclass
class StandingsRow:
    """One player's line in a Solo / Belgian Whist season."""

    member_id: int
    name: str
    evening_totals: list[Decimal] = field(default_factory=list)
    position: int | None = None
    qualified: bool = True
    total: Decimal = Decimal(0)
    average: Decimal = Decimal(0)
    best: Decimal = Decimal(0)
    score: Decimal = Decimal(0)  # the value the league ranks by
    evening_count: int = 0

    @property
    def evenings(self) -> int:
        return self.evening_count


@dataclass
class PairRow:
    """One partnership's line in a Bid Whist season."""

    pair: Partnership
    played: int = 0
    won: int = 0
    lost: int = 0
    league_points: int = 0
    points_for: Decimal = Decimal(0)
    points_against: Decimal = Decimal(0)
    bostons: int = 0
    head_to_head: int = 0
    position: int | None = None

    @property
    def difference(self) -> Decimal:
        return self.points_for - self.points_against


@dataclass
class PlayerMatchRow:
    """One player's line in a season of matches each for themselves (Cutthroat Bid Whist)."""

    member_id: int
    name: str
    played: int = 0
    won: int = 0
    league_points: int = 0
    points: Decimal = Decimal(0)  # the sum of the player's scores at the end of each match
    position: int | None = None

    @property
    def lost(self) -> int:
        return self.played - self.won


def counted_tables(season: Season):
    """Tables whose results count: entered, and not waiting for an opponent's confirmation."""
    return EveningTable.objects.filter(evening__season=season).counted()


def player_standings(season: Season) -> list[StandingsRow]:
    """Solo / Belgian Whist: one query.  Ranking by total or average, the database sums per
    player (one row each); for the best N evenings it sends one row per player per evening."""
    options = season.standings_options
    seats = TableSeat.objects.filter(table__in=counted_tables(season)).order_by()
    rows: dict[int, StandingsRow] = {}
    if options.ranking == League.Ranking.BEST_N:
        # A member sits at one table an evening, so each seat row is one evening's balance.
        for member_id, name, total in seats.values_list("member_id", "member__name", "total"):
            row = rows.get(member_id)
            if row is None:
                row = rows[member_id] = StandingsRow(member_id, name)
            row.evening_totals.append(total)
            row.evening_count += 1
        for row in rows.values():
            row.total = sum(row.evening_totals, Decimal(0))
            row.best = sum(sorted(row.evening_totals, reverse=True)[:options.best_evenings],
                           Decimal(0))
    else:
        for member_id, name, total, count in seats.values_list(
                "member_id", "member__name").annotate(Sum("total"), Count("table__evening_id",
                                                                           distinct=True)):
            row = rows[member_id] = StandingsRow(member_id, name, total=total)
            row.evening_count = count
    for row in rows.values():
        row.average = (row.total / row.evenings).quantize(Decimal("0.01"))
        row.qualified = row.evenings >= options.min_evenings
        row.score = {League.Ranking.TOTAL: row.total, League.Ranking.AVERAGE: row.average,
                     League.Ranking.BEST_N: row.best}[options.ranking]
    # Those who qualify come first; a player below the minimum is listed, unranked, below them.
    ordered = sorted(rows.values(), key=lambda r: (not r.qualified, -r.score, -r.total, r.name))
    _number(ordered, key=lambda r: (r.score,), only=lambda r: r.qualified)
    return ordered


def _number(rows, key, only=lambda r: True):
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


def bid_matches(season: Season):
    """The season's finished, confirmed matches as plain values (one query)."""
    return list(counted_tables(season).filter(winner__isnull=False).values(
        "pk", "pair_0_id", "pair_1_id", "score_0", "score_1", "bostons_0", "bostons_1",
        "winner", "evening_id"))


def pair_standings(season: Season) -> list[PairRow]:
    """Bid Whist: two queries (the pairs, the matches)."""
    options = season.standings_options
    pairs = {p.pk: PairRow(p) for p in Partnership.objects.filter(season=season)
             .select_related("first", "second")}
    matches = bid_matches(season)
    for match in matches:
        for side in (0, 1):
            row = pairs.get(match[f"pair_{side}_id"])
            if row is None:
                continue
            row.played += 1
            row.points_for += match[f"score_{side}"]
            row.points_against += match[f"score_{1 - side}"]
            row.bostons += match[f"bostons_{side}"]
            if match["winner"] == side:
                row.won += 1
                row.league_points += options.points_for_win
            else:
                row.lost += 1
                row.league_points += options.points_for_loss
    _head_to_head(pairs, matches, options)
    order = {
        League.TieBreak.DIFFERENCE: lambda r: (-r.difference, -r.head_to_head, -r.bostons),
        League.TieBreak.HEAD_TO_HEAD: lambda r: (-r.head_to_head, -r.difference, -r.bostons),
        League.TieBreak.BOSTONS: lambda r: (-r.bostons, -r.difference, -r.head_to_head),
    }[options.tie_break]
    ordered = sorted(pairs.values(), key=lambda r: (-r.league_points, *order(r), str(r.pair)))
    _number(ordered, key=lambda r: (r.league_points, *order(r)))
    return ordered


def _head_to_head(pairs: dict[int, PairRow], matches, options: StandingsOptions):
    """League points won against the other pairs on the same league points only."""
    for match in matches:
        a, b = match["pair_0_id"], match["pair_1_id"]
        if a in pairs and b in pairs and pairs[a].league_points == pairs[b].league_points:
            winner = a if match["winner"] == 0 else b
            pairs[winner].head_to_head += options.points_for_win - options.points_for_loss


def player_match_standings(season: Season) -> list[PlayerMatchRow]:
    """Matches each for themselves: one query (a row per player per finished match)."""
    options = season.standings_options
    rows: dict[int, PlayerMatchRow] = {}
    for member_id, name, seat, total, winner in TableSeat.objects.filter(
            table__in=counted_tables(season).filter(winner__isnull=False)).values_list(
            "member_id", "member__name", "seat", "total", "table__winner").order_by():
        row = rows.get(member_id)
        if row is None:
            row = rows[member_id] = PlayerMatchRow(member_id, name)
        row.played += 1
        row.points += total
        if winner == seat:
            row.won += 1
            row.league_points += options.points_for_win
        else:
            row.league_points += options.points_for_loss
    ordered = sorted(rows.values(), key=lambda r: (-r.league_points, -r.points, r.name))
    _number(ordered, key=lambda r: (r.league_points, r.points))
    return ordered


STANDINGS = {
    registry.PARTNERSHIP_MATCH: pair_standings,
    registry.RUNNING_BALANCE: player_standings,
    registry.INDIVIDUAL_MATCH: player_match_standings,
}


def season_standings(season: Season):
    """The season's rows, by the kind of score of the league's game."""
    return STANDINGS[season.league.game_description.score_kind](season)
