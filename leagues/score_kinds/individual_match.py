"""An individual match: each player for themselves, hands to a target (Cutthroat Bid Whist to
30).  A table keeps each player's score (``TableSeat.total``) and the winning seat
(``EveningTable.winner``); a season counts league points for the matches won and lost."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import DecimalField, IntegerField, Value
from django.db.models.functions import Cast
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import registry
from leagues import sit_outs
from leagues.exports import csv_number
from leagues.models import TableSeat
from leagues.score_kinds.base import MatchKind
from leagues.scoring import EntryError
from leagues.sheets import MatchSheet, as_decimal
from leagues.standings import counted_tables, number_positions, player_row


class IndividualMatchSheet(MatchSheet):
    def result(self, table):
        return {"scores": self.seat_totals(table), "winner": table.winner}

    def set_totals(self, table, values):
        if len(values) != table.seats.count():
            raise EntryError(_("Enter one final score for each player."))
        target = table.league.engine_rules().game_target
        top = max(values)
        if top < target:
            raise EntryError(_("Nobody has reached %(target)s: the match is not over.")
                             % {"target": target})
        if values.count(top) > 1:
            raise EntryError(_("Two players cannot share the highest score at the end of a "
                               "match; enter the final scores."))
        self.write_seat_totals(table, values)
        table.winner = values.index(top)

    def clear_totals(self, table):
        super().clear_totals(table)
        table.winner = None

    def recompute(self, table, deals):
        match = self._match(table, [d.facts for d in deals])
        self.write_seat_totals(table, [as_decimal(score) for score in match.scores])
        table.winner = match.winner


@dataclass
class PlayerMatchRow:
    """One player's line in a season of matches each for themselves."""

    member_id: int
    name: str
    played: int = 0
    won: int = 0
    league_points: Decimal = Decimal(0)  # a sit-out's credit (an average) may be a fraction
    points: Decimal = Decimal(0)  # the sum of the player's scores at the end of each match
    position: int | None = None
    guest: bool = False
    credits: Decimal = Decimal(0)  # of the league points, credited for sitting out

    @property
    def lost(self) -> int:
        return self.played - self.won


# What a row of the season's standings query is: a player's seat, or a sit-out.
SEAT, SAT_OUT = 0, 2


class Kind(MatchKind):
    id = registry.INDIVIDUAL_MATCH
    opponents_label = gettext_lazy("Best opponent")

    def make_sheet(self):
        return IndividualMatchSheet()

    def standings(self, season):
        """One query (a row per player per finished match; with a sit-out credit, the sit-outs
        read in its ``UNION ALL``, ``leagues.sit_outs``)."""
        options = season.standings_options
        crediting = sit_outs.gives_credit_in(season)
        seats = TableSeat.objects.filter(
            table__in=counted_tables(season).filter(winner__isnull=False)).order_by().annotate(
            kind=Value(SEAT)).values_list(*sit_outs.WHO, "seat", "total", "table__winner",
                                          "table__evening_id", "table__round", "kind")
        sitting_out = sit_outs.sat_out_rows(
            # typed NULLs: PostgreSQL's UNION would otherwise take them for text
            season.evenings.all(), seat=Cast(Value(None), IntegerField()),
            total=Cast(Value(None), DecimalField(max_digits=14, decimal_places=6)),
            winner=Cast(Value(None), IntegerField()), evening=None, round=None,
            kind=Value(SAT_OUT)) if crediting else ()
        rows: dict[int, PlayerMatchRow] = {}
        averages = sit_outs.RoundAverages()
        credited = []
        for member_id, name, guest, seat, total, winner, evening_id, number, kind in (
                seats.union(*sitting_out, all=True) if crediting else seats):
            if kind == SAT_OUT:
                credited.append((member_id, name, guest, evening_id, number))
                continue
            row = player_row(rows, PlayerMatchRow, member_id, name, guest)
            row.played += 1
            row.points += total
            if winner == seat:
                row.won += 1
            earned = self.league_points(options, winner == seat)
            row.league_points += earned
            averages.add((evening_id, number), Decimal(earned))
        for (member_id, name, guest, _evening, _round), score in sit_outs.credits(
                credited, options, averages):
            row = player_row(rows, PlayerMatchRow, member_id, name, guest)
            row.league_points += score
            row.credits += score
        # A guest is listed, marked so, below the members and without a position.
        ordered = sorted(rows.values(),
                         key=lambda r: (r.guest, -r.league_points, -r.points, r.name))
        number_positions(ordered, key=lambda r: (r.league_points, r.points),
                         only=lambda r: not r.guest)
        return ordered

    def round_averages(self, counted, options):
        """The mean league points a player of the round's finished matches earned."""
        averages = sit_outs.RoundAverages()
        for evening_id, number, seat, winner in TableSeat.objects.filter(
                table__in=counted.filter(winner__isnull=False)).order_by().values_list(
                "table__evening_id", "table__round", "seat", "table__winner"):
            averages.add((evening_id, number),
                         Decimal(self.league_points(options, winner == seat)))
        return averages.means()

    def evening_scores(self, counted, options):
        """Each player's league points of the evening's finished matches, then their final
        scores summed."""
        scores: dict[int, list] = {}
        for member_id, name, guest, seat, total, winner in TableSeat.objects.filter(
                table__in=counted.filter(winner__isnull=False)).values_list(
                *sit_outs.WHO, "seat", "total", "table__winner"):
            line = scores.setdefault(member_id, [member_id, name, guest, Decimal(0),
                                                 Decimal(0)])
            line[3] += self.league_points(options, winner == seat)
            line[4] += total
        return [tuple(line) for line in scores.values()]

    def standings_columns(self):
        return [_("Position"), _("Player"), _("Played"), _("Won"), _("Lost"),
                _("League points"), _("Total score")]

    def standings_cells(self, row):
        return [row.position or "", row.name, row.played, row.won, row.lost,
                csv_number(row.league_points), csv_number(row.points)]

    def member_series(self, member, counted):
        dates, mine, theirs, won = [], [], [], 0
        seats = (TableSeat.objects.filter(table__in=counted.filter(winner__isnull=False))
                 .select_related("table__evening").order_by("table__evening__date",
                                                            "table__number"))
        by_table = defaultdict(list)
        for seat in seats.filter(table__seats__member=member).distinct():
            by_table[seat.table_id].append(seat)
        for table_seats in by_table.values():
            own = next(s for s in table_seats if s.member_id == member.pk)
            others = [s.total for s in table_seats if s.member_id != member.pk]
            dates.append(own.table.evening.date)
            mine.append(own.total)
            theirs.append(max(others) if others else Decimal(0))
            won += own.table.winner == own.seat
        return {"dates": dates, "values": mine, "opponents": theirs, "won": won,
                "played": len(dates)}

    def season_gains(self, counted, options, gains, dates):
        for name, evening_id, date, seat, winner in TableSeat.objects.filter(
                table__in=counted).values_list("member__name", "table__evening_id",
                                               "table__evening__date", "seat", "table__winner"):
            dates[evening_id] = date
            if winner is not None:
                gains[name][evening_id] += self.league_points(options, winner == seat)
