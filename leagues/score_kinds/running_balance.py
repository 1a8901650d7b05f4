"""A running balance: every deal exchanges units or points between the players (Solo, Belgian
Whist).  A table keeps each player's balance (``TableSeat.total``), which adds up to zero; a
season ranks the players by their total, their average or their best evenings."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

import pygal
from django.db.models import Count, Sum
from django.utils.translation import gettext as _

from games import registry
from leagues import scoring
from leagues.charts import as_float, axis_from_zero, chart_config
from leagues.exports import csv_number
from leagues.models import League, TableSeat
from leagues.score_kinds.base import ScoreKind
from leagues.scoring import EntryError
from leagues.sheets import Sheet, as_decimal
from leagues.standings import counted_tables, number_positions


class RunningBalanceSheet(Sheet):
    def result(self, table):
        return {"totals": self.seat_totals(table)}

    def set_totals(self, table, values):
        if len(values) != table.seats.count():
            raise EntryError(_("Enter one total for each player."))
        if sum(values) != 0:
            raise EntryError(_("The totals must add up to zero; they add up to %(sum)s.")
                             % {"sum": scoring.format_units(sum(values))})
        self.write_seat_totals(table, values)

    def recompute(self, table, deals):
        seats = list(table.seats.all())
        totals = [Decimal(0)] * len(seats)
        for deal in deals:
            for seat, units in enumerate(deal.points[:len(totals)]):
                totals[seat] += as_decimal(units)
        self.write_seat_totals(table, totals, seats)


@dataclass
class StandingsRow:
    """One player's line in a season of running balances."""

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


class Kind(ScoreKind):
    id = registry.RUNNING_BALANCE

    def make_sheet(self):
        return RunningBalanceSheet()

    def standings(self, season):
        """One query.  Ranking by total or average, the database sums per player (one row
        each); for the best N evenings it sends one row per player per evening."""
        options = season.standings_options
        seats = TableSeat.objects.filter(table__in=counted_tables(season)).order_by()
        rows: dict[int, StandingsRow] = {}
        if options.ranking == League.Ranking.BEST_N:
            # One row per player per evening: an evening in rounds seats them at a table a
            # round, and the evening's balance is their sum.
            for member_id, name, _evening, total in seats.values_list(
                    "member_id", "member__name", "table__evening_id").annotate(Sum("total")):
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
                    "member_id", "member__name").annotate(
                    Sum("total"), Count("table__evening_id", distinct=True)):
                row = rows[member_id] = StandingsRow(member_id, name, total=total)
                row.evening_count = count
        for row in rows.values():
            row.average = (row.total / row.evenings).quantize(Decimal("0.01"))
            row.qualified = row.evenings >= options.min_evenings
            row.score = {League.Ranking.TOTAL: row.total, League.Ranking.AVERAGE: row.average,
                         League.Ranking.BEST_N: row.best}[options.ranking]
        # Those who qualify come first; a player below the minimum is listed, unranked, below.
        ordered = sorted(rows.values(),
                         key=lambda r: (not r.qualified, -r.score, -r.total, r.name))
        number_positions(ordered, key=lambda r: (r.score,), only=lambda r: r.qualified)
        return ordered

    def standings_columns(self):
        return [_("Position"), _("Player"), _("Evenings"), _("Total"), _("Average"),
                _("Best evenings"), _("Qualified")]

    def standings_cells(self, row):
        return [row.position or "", row.name, row.evenings, csv_number(row.total),
                csv_number(row.average), csv_number(row.best),
                _("yes") if row.qualified else _("no")]

    def member_series(self, member, counted):
        dates, balances, balance = [], [], Decimal(0)
        # One point per evening (an evening in rounds: the sum of its rounds).
        for date, _evening, total in (
                TableSeat.objects.filter(member=member, table__in=counted)
                .values_list("table__evening__date", "table__evening__pk")
                .annotate(Sum("total")).order_by("table__evening__date", "table__evening__pk")):
            balance += total
            dates.append(date)
            balances.append(balance)
        return {"dates": dates, "values": balances}

    def member_caption(self, league, series):
        return _("%(league)s: running balance after each evening.") % {"league": league.name}

    def member_chart(self, member, series):
        chart = pygal.Line(**chart_config(show_legend=False, x_title=_("Evening"),
                                          y_title=_("Running balance")))
        chart.add(member.name, [as_float(v) for v in series["values"]])
        axis_from_zero(chart, series["values"])
        return chart

    def season_gains(self, counted, options, gains, dates):
        for name, evening_id, date, total in TableSeat.objects.filter(
                table__in=counted).values_list("member__name", "table__evening_id",
                                               "table__evening__date", "total"):
            dates[evening_id] = date
            gains[name][evening_id] += total

    def season_caption(self):
        return _("Each player's total after each evening.")

    def season_axis(self):
        return _("Total")

    @property
    def totals_help(self):
        return _("The totals must add up to zero.")

    def totals_sentence(self, parts):
        return _("Totals: %(totals)s") % {"totals": parts}

    def online_deals(self, deals):
        return deals
