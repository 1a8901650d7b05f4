"""A kind of score: how a table's results add up, and everything the leagues show of them.

A game of the registry names its kind of score (``GameDescription.score_kind``); the module
``leagues/score_kinds/<score_kind>.py`` gives its subclass of :class:`ScoreKind` as ``Kind``,
made once per game (:func:`leagues.score_kinds.of`, or ``League.score_kind``).  Everything that
depends on how a table's results add up is asked of it, so a new kind of score is one module:

- ``sheet``: how a table's results are entered, checked and kept (:mod:`leagues.sheets`);
- ``standings(season)``: the season's rows, ``standings_template``, the table of them on the
  season's page, and ``tie_breaks()``, the league's tie-breaks they can rank by;
- ``standings_columns()`` and ``standings_cells(row)``: the standings' CSV file;
- ``sides(table)``: who each column of a table's sheet is (a pair or a player) with its total
  (the results' CSV file, the evening's page, the table's sheet); ``seated(table)``: the members
  by seat (the ratings, the computer players of an online table);
- ``rivals(season)`` and ``meetings(season, first, second)``: the head-to-head page;
- ``member_series``, ``member_caption``, ``member_chart``: a member's chart of a league, and
  ``season_gains``, ``season_caption``, ``season_axis``: a season's chart;
- ``draw(evening, rng)``: the draw's unit, pairs or players (:mod:`leagues.draw`);
- ``table_form(club, evening, data, table)``: who sits at a table (:mod:`leagues.forms`);
- what pages and forms show: ``registers_pairs`` (a season's "Register a pair"),
  ``has_a_winner``, ``totals_help``, ``printed_headings()`` (the printed score sheet),
  ``show_total`` and ``totals_sentence`` (a table's history), ``online_deals`` and
  ``asks_number_of_deals`` (a table played online).

A part ending in ``_of`` takes the league (or the season): a league may show players where
its kind shows pairs (Bid Whist's partners drawn each round, ``League.draws_partners``).

The parts marked abstract below are each kind's own; the others default to players seated at
a table (the partnership match gives its pairs instead), and :class:`MatchKind` gives what the
kinds played to a target share.  ``tests/leagues/test_score_kinds.py`` checks that every kind
of the registry gives each part.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from decimal import Decimal
from typing import TYPE_CHECKING, Any, ClassVar

import pygal
from django.db.models import Count, Sum
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import registry
from leagues import paper, scoring, sit_outs
from leagues.charts import as_float, axis_from_zero, chart_config
from leagues.draw import draw_players
from leagues.forms import PlayersTableForm
from leagues.models import League, Member, TableSeat
from leagues.scoring import number, signed
from leagues.standings import counted_tables

if TYPE_CHECKING:
    from leagues.models import Club, Evening, EveningTable, Season
    from leagues.sheets import Sheet

# The parts each kind of score gives (the test of every kind reads them from here).
PARTS = ("sheet", "standings", "standings_template", "tie_breaks", "standings_columns",
         "standings_cells", "sides", "seated", "rivals", "meetings", "member_series",
         "member_caption", "member_chart", "season_gains", "season_caption", "season_axis",
         "draw", "table_form", "registers_pairs", "has_a_winner", "totals_help",
         "printed_headings", "show_total", "totals_sentence", "online_deals",
         "asks_number_of_deals")


class ScoreKind(ABC):
    """One kind of score, for one game (``game``: its registry description)."""

    id: ClassVar[str]  # the registry's constant: ``games.registry.PARTNERSHIP_MATCH``...
    registers_pairs: ClassVar[bool] = False  # a season's pairs are registered before the draw
    has_a_winner: ClassVar[bool] = False  # a table ends with a winner (a pair, or a player)
    # A substitute may take a seat from a deal on (``leagues.guests``): each deal is credited
    # to whoever played it, which a running balance can do and a match, counted whole, cannot.
    takes_substitutes: ClassVar[bool] = False
    # A player (or a pair) who sat out is credited by the league's choice
    # (``leagues.sit_outs``), in the unit the standings rank by (``round_averages``).
    credits_sit_outs: ClassVar[bool] = True
    # A table of one more player than the game's seats, the dealer sitting out each deal
    # (``League.odd_numbers``): each deal exchanges units between the four who play it, which
    # a running balance can add up, and a match of pairs or of three cannot.
    five_seat_tables: ClassVar[bool] = False
    asks_number_of_deals: ClassVar[bool] = True  # an online table asks how many deals
    # The league's standings options (``StandingsOptions``) this kind's standings read: a
    # league's settings page offers only these (a Solo league has no league points).
    standings_options: ClassVar[frozenset[str]] = frozenset({"sit_out_credit", "sit_out_score"})

    def __init__(self, game: str):
        self.game = registry.game(game)
        self.sheet: Sheet = self.make_sheet()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.game.id}>"

    @abstractmethod
    def make_sheet(self) -> Sheet:
        """How a table's results are entered, checked and kept."""

    # -- standings ----------------------------------------------------------------------------

    @property
    def standings_template(self) -> str:
        """The season page's table of the standings' rows."""
        return f"leagues/standings/{self.id}.html"

    def standings_template_of(self, league: League) -> str:
        """The season page's table of the rows of ``league``'s seasons (a league may rank its
        players where its kind ranks pairs: Bid Whist's partners drawn each round)."""
        return self.standings_template

    @abstractmethod
    def standings(self, season: Season) -> list:
        """The season's rows in order, each with its position (None: unranked)."""

    def round_averages(self, counted, options) -> dict[tuple[int, int], Decimal]:
        """The mean of what each side of ``counted`` (tables with a counted result) earned in
        each (evening, round), in the unit the standings rank by: here each seat's total."""
        averages = sit_outs.RoundAverages()
        for evening_id, round_number, total, seats in (
                TableSeat.objects.filter(table__in=counted).order_by()
                .values_list("table__evening_id", "table__round")
                .annotate(Sum("total"), Count("pk"))):
            averages.add((evening_id, round_number), Decimal(total), seats)
        return averages.means()

    def evening_scores(self, counted, options) -> list[tuple]:
        """(key, name, guest, score, points) of each side of an evening's ``counted`` tables,
        its score in what the standings rank by (``leagues.prizes``): here each player's
        totals summed, ``points`` None."""
        scores: dict[int, list] = {}
        for member_id, name, guest, total in TableSeat.objects.filter(
                table__in=counted).values_list("member_id", "member__name", "member__guest",
                                               "total"):
            scores.setdefault(member_id, [member_id, name, guest, Decimal(0), None])[3] += total
        return [tuple(line) for line in scores.values()]

    def evening_scores_of(self, league: League, counted, options) -> list[tuple]:
        """``evening_scores`` of an evening of ``league`` (a league may give its players'
        where its kind gives pairs': Bid Whist's partners drawn each round)."""
        return self.evening_scores(counted, options)

    def evening_score_text(self, score: Decimal, points: Decimal | None) -> str:
        """An evening's score in the results' e-mail (and a match's on the evening's page)."""
        return signed(score)

    def tie_breaks(self) -> list[str]:
        """The league's tie-breaks (``League.TieBreak``) its standings can rank by."""
        return list(League.TieBreak.values)

    @abstractmethod
    def standings_columns(self) -> list[str]:
        """The headings of the standings' CSV file."""

    def standings_columns_of(self, league: League) -> list[str]:
        """The headings of the standings' CSV file of ``league``'s seasons."""
        return self.standings_columns()

    @abstractmethod
    def standings_cells(self, row) -> list:
        """One row of the standings' CSV file (numbers through ``exports.csv_number``)."""

    # -- a table's sides -----------------------------------------------------------------------

    def seated(self, table: EveningTable) -> list[Member]:
        """The members by seat, 0 first (the seats as already loaded, when prefetched)."""
        return [s.member for s in sorted(table.seats.all(), key=lambda s: s.seat)]

    def sides(self, table: EveningTable) -> list[tuple[Any, Decimal]]:
        """Each column of the table's sheet: who (a member or a pair) and their total."""
        return [(s.member, s.total) for s in sorted(table.seats.all(), key=lambda s: s.seat)]

    def totals(self, table: EveningTable) -> list[Decimal]:
        return [total for _who, total in self.sides(table)]

    # -- head to head --------------------------------------------------------------------------

    def rivals(self, season: Season) -> Iterable:
        """Who the head-to-head page offers to compare: the season's players (or pairs)."""
        return list(Member.objects.filter(seats__table__evening__season=season).distinct())

    def meetings(self, season: Season, first, second) -> list[dict]:
        seats = (TableSeat.objects.filter(table__in=counted_tables(season),
                                          member__in=[first, second])
                 .select_related("table__evening").order_by("table__evening__date"))
        by_table: dict[int, dict] = {}
        for seat in seats:
            entry = by_table.setdefault(seat.table_id, {"evening": seat.table.evening,
                                                        "table": seat.table})
            entry["first" if seat.member_id == first.pk else "second"] = seat.total
        rows = []
        for entry in by_table.values():
            if "first" in entry and "second" in entry:
                entry["winner"] = first if entry["first"] > entry["second"] else (
                    second if entry["second"] > entry["first"] else None)
                entry["first"] = scoring.format_units(entry["first"])
                entry["second"] = scoring.format_units(entry["second"])
                rows.append(entry)
        return rows

    # -- charts --------------------------------------------------------------------------------

    @abstractmethod
    def member_series(self, member: Member, counted) -> dict:
        """What a member's chart of a league shows (``counted``: the league's counted tables)."""

    @abstractmethod
    def member_caption(self, league: League, series: dict) -> str:
        """The sentence under a member's chart (and its text for screen readers)."""

    @abstractmethod
    def member_chart(self, member: Member, series: dict):
        """The pygal chart of ``member_series``, before its title and labels."""

    @abstractmethod
    def season_gains(self, counted, options, gains: dict, dates: dict) -> None:
        """Adds to ``gains[name][evening_id]`` what each player or pair gained on each evening
        of ``counted`` (the season's counted tables), and each evening's date to ``dates``."""

    def season_gains_of(self, season: Season, counted, options, gains: dict,
                        dates: dict) -> None:
        """``season_gains`` of ``season`` (a league may chart its players where its kind charts
        pairs: Bid Whist's partners drawn each round)."""
        self.season_gains(counted, options, gains, dates)

    @abstractmethod
    def season_caption(self) -> str:
        """The sentence under the season's chart."""

    @abstractmethod
    def season_axis(self) -> str:
        """The title of the season chart's vertical axis."""

    # -- evenings and tables -------------------------------------------------------------------

    def draw(self, evening: Evening, rng) -> tuple[int, list]:
        """The evening's tables (``leagues.draw``): the number of tables, and who sits out."""
        return draw_players(evening, rng)

    def table_form(self, club: Club, evening: Evening, data, table: EveningTable | None = None):
        """The form of who sits at a table of ``evening``; ``table``: the one changed, its
        players shown first."""
        if table is None:
            return PlayersTableForm(club, self.game.seats, data, evening=evening,
                                    fifth_seat=evening.season.league.draws_five_seat_tables)
        members = table.seat_members()
        return PlayersTableForm(club, len(members), data, evening=evening,
                                initial={f"seat_{i}": m for i, m in enumerate(members)})

    @property
    def totals_help(self) -> str:
        """A line beside the form of a table's totals, or ""."""
        return ""

    def printed_headings(self) -> list[str]:
        """The columns of the printed score sheet before the players' or pairs': a game whose
        line names a partner (Solo's prop and cop, Belgian Whist's emballage) has a column for
        them, headed as its entry form asks for them."""
        fields = paper.of(self.game.id).DealForm.base_fields
        partner = [str(fields["partner"].label)] if "partner" in fields else []
        return [_("Contract"), _("Declarer"), *partner, _("Tricks")]

    def show_total(self, value) -> str:
        """A total in a table's history: a score as it is, a balance with its sign."""
        return signed(value)

    @abstractmethod
    def totals_sentence(self, parts: str) -> str:
        """The totals that moved (``parts``: "Carla −9 → +3, Bob …") as a line of a table's
        history: "Scores: …" or "Totals: …"."""

    def online_deals(self, deals: int | None) -> int | None:
        """The number of deals an online table of this kind stops after (None: the match's
        end decides)."""
        return None


def plural_count(value: Decimal) -> int:
    """The count a plural agrees with: the number itself when whole, else many (1.5 points)."""
    return int(value) if value == value.to_integral() else 2


class MatchKind(ScoreKind):
    """Hands are played until someone reaches a target (a pair, or one player)."""

    standings_options = ScoreKind.standings_options | {"points_for_win", "points_for_loss"}
    has_a_winner = True
    asks_number_of_deals = False  # a match is played to its target, not a number of deals
    opponents_label: ClassVar[Promise]  # the bars beside the member's own in their chart

    def show_total(self, value) -> str:
        return number(value)

    def totals_sentence(self, parts: str) -> str:
        return _("Scores: %(scores)s") % {"scores": parts}

    def member_caption(self, league, series):
        return ngettext(
            "%(league)s: %(won)s match won of %(played)s; the score of each match.",
            "%(league)s: %(won)s matches won of %(played)s; the score of each match.",
            series["won"]) % {
            "league": league.name, "won": series["won"], "played": series["played"]}

    def member_chart(self, member, series):
        chart = pygal.Bar(**chart_config(x_title=_("Match"), y_title=_("Score")))
        chart.add(member.name, [as_float(v) for v in series["values"]])
        chart.add(str(self.opponents_label), [as_float(v) for v in series["opponents"]])
        axis_from_zero(chart, [*series["values"], *series["opponents"]])
        return chart

    def league_points(self, options, won: bool):
        return options.points_for_win if won else options.points_for_loss

    def evening_score_text(self, score, points):
        return ngettext("%(league_points)s league point, score %(score)s",
                        "%(league_points)s league points, score %(score)s",
                        plural_count(score)) % {
            "league_points": number(score), "score": number(points or 0)}

    def season_caption(self):
        return _("League points after each evening.")

    def season_axis(self):
        return _("League points")
