"""A running balance: every deal exchanges units or points between the players (Solo, Belgian
Whist).  A table keeps each player's balance (``TableSeat.total``), which adds up to zero; a
season ranks the players by their total, their average or their best evenings."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

import pygal
from django.db.models import (
    BooleanField,
    CharField,
    Count,
    DecimalField,
    Exists,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Cast
from django.utils.translation import gettext as _

from games import registry
from leagues import scoring, sit_outs
from leagues.charts import as_float, axis_from_zero, chart_config
from leagues.exports import csv_number
from leagues.models import EveningTable, League, Member, Substitute, TableSeat
from leagues.score_kinds.base import ScoreKind
from leagues.scoring import EntryError
from leagues.sheets import Sheet, as_decimal
from leagues.standings import counted_tables, number_positions, player_row


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
        # A substitute's part of their seat: the units of the deals they played.
        subs = list(table.substitutes.all())
        parts = {sub.pk: Decimal(0) for sub in subs}
        for deal in deals:
            for seat, units in enumerate(deal.points[:len(totals)]):
                totals[seat] += as_decimal(units)
                playing = Substitute.playing(subs, seat, deal.number)
                if playing is not None:
                    parts[playing.pk] += as_decimal(units)
        self.write_seat_totals(table, totals, seats)
        for sub in subs:
            if sub.total != parts[sub.pk]:
                sub.total = parts[sub.pk]
                sub.save(update_fields=["total"])


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
    guest: bool = False  # listed, marked a guest, without a position
    credits: Decimal = Decimal(0)  # of it, credited for sitting out (leagues.sit_outs)

    @property
    def evenings(self) -> int:
        return self.evening_count


# What a row of the season's standings query is: a player's seats (of an evening, or all), a
# substitute's part of a seat, a round's seats summed (its average, for a sit-out's credit), or
# a sit-out (credited by the league's choice).
SEAT, PART, ROUND_SUM, SAT_OUT = 0, 1, 2, 3


def substitute_parts(member, counted):
    """(table id, evening id, date, part) of what substitutes played in the member's seats at
    ``counted`` tables (less: it is theirs) and of the member's own parts of others' seats
    (more): what a seat's total needs to be each player's, as the standings count it.  Two
    queries."""
    columns = ("table_id", "table__evening_id", "table__evening__date", "total")
    given = Substitute.objects.filter(table__in=counted).filter(Exists(TableSeat.objects.filter(
        table=OuterRef("table"), seat=OuterRef("seat"), member=member))).values_list(*columns)
    taken = Substitute.objects.filter(table__in=counted, member=member).values_list(*columns)
    return ([(table, evening, date, -total) for table, evening, date, total in given]
            + list(taken))


class Kind(ScoreKind):
    id = registry.RUNNING_BALANCE
    takes_substitutes = True
    five_seat_tables = True
    standings_options = ScoreKind.standings_options | {"ranking", "best_evenings",
                                                       "min_evenings"}

    def make_sheet(self):
        return RunningBalanceSheet()

    def evening_scores(self, counted, options):
        """Each player's balances of the evening summed, a substitute's part of a seat theirs
        and taken off the seat's member, as the standings count them."""
        scores: dict[int, list] = {}
        seated: dict[tuple[int, int], int] = {}

        def add(member_id, name, guest, total):
            scores.setdefault(member_id, [member_id, name, guest, Decimal(0), None])[3] += total

        for member_id, name, guest, total, table_id, seat in TableSeat.objects.filter(
                table__in=counted).values_list("member_id", "member__name", "member__guest",
                                               "total", "table_id", "seat"):
            add(member_id, name, guest, total)
            seated[(table_id, seat)] = member_id
        for member_id, name, guest, total, table_id, seat in Substitute.objects.filter(
                table__in=counted).values_list("member_id", "member__name", "member__guest",
                                               "total", "table_id", "seat"):
            add(member_id, name, guest, total)
            scores[seated[(table_id, seat)]][3] -= total
        return [tuple(line) for line in scores.values()]

    def standings(self, season):
        """One query, a UNION of the seats and the substitutes: a substitute's part of a seat
        is theirs, taken off the seat's member (each substitute's row names that member).
        Ranking by total or average, the database sums the seats per player; for the best N
        evenings (or with a sit-out credit) per player and evening.  A guest is listed, marked
        so, without a position."""
        options = season.standings_options
        counted = counted_tables(season)
        # A sit-out's credit (``leagues.sit_outs``) counts as an evening played: with one, the
        # rows come an evening at a time (as for the best N evenings), the rounds' sums for
        # their averages and the sit-outs in the same query.
        crediting = sit_outs.gives_credit_in(season)
        best_n = options.ranking == League.Ranking.BEST_N or crediting
        who = sit_outs.WHO
        no_number = Cast(Value(None), IntegerField())  # typed: PostgreSQL's UNION needs it
        seats = TableSeat.objects.filter(table__in=counted).order_by()
        if best_n:  # a row per player per evening, its tables summed by the database
            seats = seats.values(*who, "table__evening_id").annotate(
                sum=Sum("total"), count=Value(1), starter=no_number, round=no_number,
                kind=Value(SEAT)).values_list(
                *who, "sum", "table__evening_id", "count", "starter", "round", "kind")
        else:
            seats = seats.values(*who).annotate(
                sum=Sum("total"), evening=Value(None, IntegerField()),
                count=Count("table__evening_id", distinct=True),
                starter=Value(None, IntegerField()), round=Value(None, IntegerField()),
                kind=Value(SEAT)).values_list(
                *who, "sum", "evening", "count", "starter", "round", "kind")
        parts = Substitute.objects.filter(table__in=counted).order_by().annotate(
            count=Value(1), starter=Subquery(TableSeat.objects.filter(
                table=OuterRef("table"), seat=OuterRef("seat")).values("member_id")[:1]),
            kind=Value(PART))
        parts = parts.values_list(*who, "total", "table__evening_id", "count", "starter",
                                  "table__round", "kind")
        credit_rows: tuple = ()
        if crediting:
            # each round's seats summed (its average), then who sat out
            round_sums = TableSeat.objects.filter(table__in=counted).order_by().values(
                "table__evening_id", "table__round").annotate(
                nobody=no_number, nobody_name=Cast(Value(None), CharField()),
                nobody_guest=Cast(Value(None), BooleanField()), sum=Sum("total"),
                count=Count("pk"), starter=no_number, kind=Value(ROUND_SUM)).values_list(
                "nobody", "nobody_name", "nobody_guest", "sum", "table__evening_id", "count",
                "starter", "table__round", "kind")
            credit_rows = (round_sums, *sit_outs.sat_out_rows(
                season.evenings.all(),
                total=Cast(Value(None), DecimalField(max_digits=14, decimal_places=6)),
                evening=None, count=Value(0), starter=no_number, round=None,
                kind=Value(SAT_OUT)))
        rows: dict[int, StandingsRow] = {}
        by_evening: dict[int, dict[int, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
        given_up = []
        averages = sit_outs.RoundAverages()
        credited = []
        for member_id, name, guest, total, evening_id, count, starter, number, kind in (
                seats.union(parts, *credit_rows, all=True)):
            if kind == SAT_OUT:
                credited.append((member_id, name, guest, evening_id, number))
                continue
            if kind == ROUND_SUM:
                averages.add((evening_id, number), total, count)
                continue
            row = player_row(rows, StandingsRow, member_id, name, guest)
            if kind == PART:  # a substitute's part, given up by the seat's member
                given_up.append((starter, evening_id, total))
                # Substituting at an evening they also sat down at counts it twice: rare, and
                # only for the average and the minimum of evenings.
            row.total += total
            if best_n:
                by_evening[member_id][evening_id] += total
            else:
                row.evening_count += count
        for starter, evening_id, total in given_up:
            rows[starter].total -= total
            by_evening[starter][evening_id] -= total
        for (member_id, name, guest, evening_id, _round), score in sit_outs.credits(
                credited, options, averages):
            row = player_row(rows, StandingsRow, member_id, name, guest)
            row.total += score
            row.credits += score
            by_evening[member_id][evening_id] += score
        if best_n:
            for member_id, row in rows.items():
                # The evening's balance: the sum of its rounds' tables (and of the parts of one
                # a member played or substituted at).
                row.evening_totals = list(by_evening[member_id].values())
                row.evening_count = len(row.evening_totals)
                row.best = sum(sorted(row.evening_totals, reverse=True)
                               [:options.best_evenings], Decimal(0))
        for row in rows.values():
            row.average = (row.total / row.evenings).quantize(Decimal("0.01"))
            row.qualified = row.evenings >= options.min_evenings and not row.guest
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
        """One point per evening (an evening in rounds: the sum of its rounds): the member's
        seats, less what substitutes played in them, plus their parts of others' seats and what
        they were credited for a round they sat out, as the standings count them.  A few
        queries."""
        by_evening: dict[int, list] = {}
        for date, evening_id, total in (
                TableSeat.objects.filter(member=member, table__in=counted)
                .values_list("table__evening__date", "table__evening__pk")
                .annotate(Sum("total")).order_by()):
            by_evening[evening_id] = [date, total]
        for _table, evening_id, date, part in substitute_parts(member, counted):
            by_evening.setdefault(evening_id, [date, Decimal(0)])[1] += part
        # a round sat out and credited (``leagues.sit_outs``), in the evening's balance as the
        # standings count it
        leagues = set(counted.values_list("evening__season__league_id", flat=True).distinct())
        for credit in sit_outs.member_credits(member):
            evening = credit["evening"]
            if evening.season.league_id in leagues:
                by_evening.setdefault(evening.pk, [evening.date, Decimal(0)])[1] += (
                    credit["score"])
        dates, balances, balance = [], [], Decimal(0)
        for _evening, (date, total) in sorted(by_evening.items(),
                                                key=lambda item: (item[1][0], item[0])):
            balance += total
            dates.append(date)
            balances.append(balance)
        return {"dates": dates, "values": balances}

    def rivals(self, season):
        """The season's players, and those who only ever substituted."""
        return list(Member.objects.filter(
            Q(seats__table__evening__season=season)
            | Q(substitutions__table__evening__season=season)).distinct())

    def meetings(self, season, first, second):
        """The tables both played at (a seat or a substitute's part of one), each with what
        each of them made there: their seat's total less what substitutes played in it, plus
        their substitute's parts, as the standings count them.  Three queries."""
        counted = counted_tables(season)
        ids = (first.pk, second.pk)
        parts: dict[tuple[int, int], Decimal] = defaultdict(Decimal)
        tables: dict[int, object] = {}
        for seat in (TableSeat.objects.filter(table__in=counted, member__in=ids)
                     .select_related("table__evening")):
            parts[(seat.table_id, seat.member_id)] += seat.total
            tables[seat.table_id] = seat.table
        for member in (first, second):
            for table_id, _evening, _date, part in substitute_parts(member, counted):
                parts[(table_id, member.pk)] += part
        missing = {table_id for table_id, _member in parts} - set(tables)
        tables.update(EveningTable.objects.select_related("evening").in_bulk(missing))
        rows = []
        for table_id, table in tables.items():
            if (table_id, first.pk) not in parts or (table_id, second.pk) not in parts:
                continue
            mine, theirs = parts[(table_id, first.pk)], parts[(table_id, second.pk)]
            rows.append({"evening": table.evening, "table": table,
                         "winner": first if mine > theirs else second if theirs > mine else None,
                         "first": scoring.format_units(mine),
                         "second": scoring.format_units(theirs)})
        return sorted(rows, key=lambda r: (r["evening"].date, r["table"].round,
                                           r["table"].number))

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
        # A substitute's part is theirs, given up by the seat's member.
        for name, starter, evening_id, total in Substitute.objects.filter(
                table__in=counted).annotate(starter=Subquery(TableSeat.objects.filter(
                    table=OuterRef("table"), seat=OuterRef("seat")).values("member__name")[:1])
                ).values_list("member__name", "starter", "table__evening_id", "total"):
            gains[name][evening_id] += total
            gains[starter][evening_id] -= total

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
