"""A partnership match: two pairs play hands to a target (Bid Whist to 7).  A table keeps the
two pairs' scores (``EveningTable.score_0``/``score_1``) and the winning pair; a season's pairs
are registered, drawn against each other, and count league points for the matches won and lost.

What a partnership game keeps beside the score, and may break ties on, is the game's own: its
paper module's ``MATCH_TALLY`` (Bid Whist's Bostons).  A game that declares none keeps no
tally, shows no such column and offers no such tie-break.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import DecimalField, IntegerField, Q, Value
from django.db.models.functions import Cast
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import registry
from leagues import paper, scoring, sit_outs
from leagues.draw import draw_pairs
from leagues.exports import csv_number
from leagues.forms import PairsTableForm
from leagues.models import League, Member, Partnership, StandingsOptions
from leagues.paper.common import MatchTally
from leagues.prizes import pair_names
from leagues.score_kinds.base import MatchKind, plural_count
from leagues.scoring import EntryError
from leagues.sheets import MatchSheet, as_decimal
from leagues.standings import counted_tables, number_positions, player_row


class PartnershipMatchSheet(MatchSheet):
    """Seats 0 and 2 are the first pair, seats 1 and 3 the second (the engines' teams).  The
    table keeps the two pairs' scores, the winning pair, and the pairs' tallies when the game
    keeps one (``tally``: Bid Whist's Bostons)."""

    def __init__(self, tally: MatchTally | None):
        self.tally = tally

    def seat_members(self, table):
        return [table.pair_0.first, table.pair_1.first, table.pair_0.second, table.pair_1.second]

    def sides(self, table):
        return [str(table.pair_0), str(table.pair_1)]

    def result(self, table):
        result = {"scores": [str(table.score_0), str(table.score_1)], "winner": table.winner}
        if self.tally is not None:
            result["bostons"] = [table.bostons_0, table.bostons_1]
        return result

    def set_totals(self, table, values):
        if len(values) != 2:
            raise EntryError(_("Enter the two pairs' final scores."))
        target = table.league.engine_rules().game_target
        if values[0] == values[1]:
            raise EntryError(_("A match between pairs cannot end level; enter the final scores."))
        if max(values) < target and min(values) > -target:
            raise EntryError(_("Neither team has reached %(target)s or fallen to -%(target)s: "
                               "the match is not over.") % {"target": target})
        table.score_0, table.score_1 = values
        # The -target rule is settled first (the game's page in docs/rules/, "Match"): a team at
        # -target loses.
        if min(values) <= -target:
            table.winner = 1 if values[0] <= -target else 0
        else:
            table.winner = 0 if values[0] > values[1] else 1
        table.bostons_0 = table.bostons_1 = 0

    def clear_totals(self, table):
        table.score_0 = table.score_1 = 0
        table.winner = None
        table.bostons_0 = table.bostons_1 = 0

    def recompute(self, table, deals):
        match = self._match(table, [d.facts for d in deals])
        table.score_0, table.score_1 = (as_decimal(s) for s in match.scores)
        table.winner = match.winner
        tallies = [0, 0]
        if self.tally is not None:
            for result in match.results:
                if self.tally.counts(result):
                    tallies[result["declarer"] & 1] += 1
        table.bostons_0, table.bostons_1 = tallies

    def are_opponents(self, members, one, other):
        return members.index(one) % 2 != members.index(other) % 2


@dataclass(kw_only=True)
class MatchRecord:
    """What a line of a match league's standings sums: its matches and league points."""

    played: int = 0
    won: int = 0
    lost: int = 0
    league_points: Decimal = Decimal(0)  # a sit-out's credit (an average) may be a fraction
    points_for: Decimal = Decimal(0)
    points_against: Decimal = Decimal(0)
    tally: int = 0  # the game's count beside the score (Bostons), 0 for a game without one
    position: int | None = None
    credits: Decimal = Decimal(0)  # of the league points, credited for sitting out

    @property
    def difference(self) -> Decimal:
        return self.points_for - self.points_against

    @property
    def ranked(self) -> bool:
        """It has played a match, or been credited for sitting one out."""
        return bool(self.played or self.credits)

    def count(self, match: dict, side: int, earned: int) -> None:
        """Adds one finished match (a row of ``finished_matches``) seen from ``side``, which
        earned ``earned`` league points in it."""
        self.played += 1
        self.points_for += match[f"score_{side}"]
        self.points_against += match[f"score_{1 - side}"]
        self.tally += match[f"bostons_{side}"]
        if match["winner"] == side:
            self.won += 1
        else:
            self.lost += 1
        self.league_points += earned


@dataclass
class PairRow(MatchRecord):
    """One partnership's line in a season."""

    pair: Partnership
    head_to_head: int = 0


@dataclass
class PartnerRow(MatchRecord):
    """One player's line in a season whose partners are drawn each round: their matches,
    whoever they partnered, summed (``Kind.player_standings``)."""

    member_id: int
    name: str
    guest: bool = False


MATCH = ("pk", "pair_0_id", "pair_1_id", "score_0", "score_1", "bostons_0", "bostons_1",
         "winner", "evening_id", "round")
# What a row of the season's matches query is: a match, or a pair's sit-out.
PLAYED, SAT_OUT = 0, 2


def finished_matches(season, sat_out: list | None = None):
    """The season's finished, confirmed matches as plain values (one query).  With
    ``sat_out`` (a list), the pairs' sit-outs are read in the same query and added to it as
    (pair id, evening id, round)."""
    matches = counted_tables(season).filter(winner__isnull=False).order_by()
    if sat_out is None:
        return list(matches.values(*MATCH))
    integer = Cast(Value(None), IntegerField())
    score = Cast(Value(None), DecimalField(max_digits=14, decimal_places=6))
    rows = matches.annotate(kind=Value(PLAYED)).values_list(*MATCH, "kind").union(
        *sit_outs.pairs_sat_out_rows(
            season.evenings.all(), no_pair=integer, no_match=integer, score_0=score, score_1=score,
            bostons_0=integer, bostons_1=integer, winner=integer, evening=None, round=None,
            kind=Value(SAT_OUT)), all=True)
    out = []
    for *values, kind in rows:
        if kind == SAT_OUT:
            sat_out.append((values[0], values[8], values[9]))  # the pair's id first
        else:
            out.append(dict(zip(MATCH, values, strict=True)))
    return out


def _head_to_head(pairs: dict[int, PairRow], matches, options: StandingsOptions):
    """League points won against the other pairs on the same league points only."""
    for match in matches:
        a, b = match["pair_0_id"], match["pair_1_id"]
        if a in pairs and b in pairs and pairs[a].league_points == pairs[b].league_points:
            winner = a if match["winner"] == 0 else b
            pairs[winner].head_to_head += options.points_for_win - options.points_for_loss


def _with_member(member):
    return (Q(pair_0__first=member) | Q(pair_0__second=member) | Q(pair_1__first=member)
            | Q(pair_1__second=member))


def _meeting(table, one: int, first, second) -> dict:
    """One match of ``first`` against ``second`` (``first`` on side ``one``) as head to head
    lists it: each one's score and the winner."""
    scores = [table.score_0, table.score_1]
    return {"evening": table.evening, "table": table,
            "first": scoring.format_units(scores[one]),
            "second": scoring.format_units(scores[1 - one]),
            "winner": first if table.winner == one else second}


class Kind(MatchKind):
    id = registry.PARTNERSHIP_MATCH
    registers_pairs = True
    standings_options = MatchKind.standings_options | {"tie_break"}
    opponents_label = gettext_lazy("Opponents")

    def __init__(self, game: str):
        self.tally: MatchTally | None = paper.of_match(game).MATCH_TALLY
        super().__init__(game)

    def make_sheet(self):
        return PartnershipMatchSheet(self.tally)

    def standings_template_of(self, league):
        """A league whose partners are drawn each round ranks players, not pairs."""
        if league.draws_partners:
            return "leagues/standings/partners_drawn.html"
        return self.standings_template

    def standings(self, season):
        """Two queries (the pairs, the matches; with a sit-out credit, the pairs' sit-outs read
        in the matches' ``UNION ALL``, ``leagues.sit_outs``).  A league whose partners are
        drawn each round ranks its players (``player_standings``)."""
        if season.league.draws_partners:
            return self.player_standings(season)
        options = season.standings_options
        pairs = {p.pk: PairRow(p) for p in Partnership.objects.filter(season=season)
                 .select_related("first", "second")}
        credited = []
        matches = finished_matches(season, credited if sit_outs.gives_credit_in(season) else None)
        averages = sit_outs.RoundAverages()
        for match in matches:
            for side in (0, 1):
                earned = self.league_points(options, match["winner"] == side)
                averages.add((match["evening_id"], match["round"]), Decimal(earned))
                row = pairs.get(match[f"pair_{side}_id"])
                if row is not None:
                    row.count(match, side, earned)
        for (pair_id, _evening, _round), score in sit_outs.credits(credited, options, averages):
            row = pairs.get(pair_id)
            if row is not None:
                row.league_points += score
                row.credits += score
        _head_to_head(pairs, matches, options)
        order = self._tie_break(options.tie_break)
        # A pair that has neither played nor been credited for sitting out has earned nothing
        # yet: listed after the others, without a position (its 0 points and 0 difference
        # would rank it above the pairs that played and lost).
        ordered = sorted(pairs.values(),
                         key=lambda r: (not r.ranked, -r.league_points, *order(r), str(r.pair)))
        number_positions(ordered, key=lambda r: (r.league_points, *order(r)),
                         only=lambda r: r.ranked)
        return ordered

    def player_standings(self, season):
        """A season whose partners are drawn each round (``League.partners``), per player:
        matches played, won and lost, league points, points for and against summed over the
        pairs each player was in, and the league's credit for the rounds they sat out (as
        members: ``EveningRound.sitting_out``).  Ranked by league points, then difference;
        a guest is listed below without a position.  Three queries (the pairs, the matches,
        who sat out: the last only when the league credits a sit-out)."""
        options = season.standings_options
        members = {}
        for pair in Partnership.objects.filter(season=season).select_related("first",
                                                                              "second"):
            members[pair.pk] = (pair.first, pair.second)
        rows: dict[int, PartnerRow] = {}
        averages = sit_outs.RoundAverages()
        for match in finished_matches(season):
            for side in (0, 1):
                earned = self.league_points(options, match["winner"] == side)
                averages.add((match["evening_id"], match["round"]), Decimal(earned))
                for member in members.get(match[f"pair_{side}_id"], ()):
                    player_row(rows, PartnerRow, member.pk, member.name,
                               member.guest).count(match, side, earned)
        if sit_outs.gives_credit_in(season):
            for (member_id, name, guest, _evening, _round), score in sit_outs.credits(
                    sit_outs.sat_out(season.evenings.all()), options, averages):
                row = player_row(rows, PartnerRow, member_id, name, guest)
                row.league_points += score
                row.credits += score
        ordered = sorted(rows.values(), key=lambda r: (
            r.guest or not r.ranked, -r.league_points, -r.difference, r.name))
        number_positions(ordered, key=lambda r: (r.league_points, r.difference),
                         only=lambda r: r.ranked and not r.guest)
        return ordered

    def round_averages(self, counted, options):
        """The mean league points a pair of the round's finished matches earned."""
        averages = sit_outs.RoundAverages()
        for evening_id, number, winner in counted.filter(winner__isnull=False).order_by(
                ).values_list("evening_id", "round", "winner"):
            for side in (0, 1):
                averages.add((evening_id, number),
                             Decimal(self.league_points(options, winner == side)))
        return averages.means()

    def evening_scores(self, counted, options):
        """Each pair's league points of the evening's finished matches, then their difference
        (points for less points against); a pair named by both its players."""
        scores: dict[tuple, list] = {}
        for table in counted.filter(winner__isnull=False).select_related(
                "pair_0__first", "pair_0__second", "pair_1__first", "pair_1__second"):
            pair_scores = (table.score_0, table.score_1)
            for side, pair in enumerate((table.pair_0, table.pair_1)):
                key = ("pair", pair.pk)
                line = scores.setdefault(key, [key, pair_names(pair), False, Decimal(0),
                                               Decimal(0)])
                line[3] += self.league_points(options, table.winner == side)
                line[4] += pair_scores[side] - pair_scores[1 - side]
        return [tuple(line) for line in scores.values()]

    def evening_scores_of(self, league, counted, options):
        """A league whose partners are drawn each round gives each player's: the league points
        and the difference of the matches they played, whoever they partnered."""
        if not league.draws_partners:
            return self.evening_scores(counted, options)
        scores: dict[int, list] = {}
        for table in counted.filter(winner__isnull=False).select_related(
                "pair_0__first", "pair_0__second", "pair_1__first", "pair_1__second"):
            pair_scores = (table.score_0, table.score_1)
            for side, pair in enumerate((table.pair_0, table.pair_1)):
                for member in (pair.first, pair.second):
                    line = scores.setdefault(member.pk, [member.pk, member.name, member.guest,
                                                         Decimal(0), Decimal(0)])
                    line[3] += self.league_points(options, table.winner == side)
                    line[4] += pair_scores[side] - pair_scores[1 - side]
        return [tuple(line) for line in scores.values()]

    def evening_score_text(self, score, points):
        return ngettext("%(league_points)s league point, difference %(difference)s",
                        "%(league_points)s league points, difference %(difference)s",
                        plural_count(score)) % {
            "league_points": scoring.number(score), "difference": scoring.signed(points or 0)}

    def _tie_break(self, tie_break: str):
        """How pairs on equal league points are ordered: by the game's tally first when the
        league chose it (and the game keeps one), else by head to head or the difference."""
        if self.tally is not None and tie_break == self.tally.tie_break:
            return lambda r: (-r.tally, -r.difference, -r.head_to_head)
        if tie_break == League.TieBreak.HEAD_TO_HEAD:
            return lambda r: (-r.head_to_head, -r.difference, -r.tally)
        return lambda r: (-r.difference, -r.head_to_head, -r.tally)

    def tie_breaks(self):
        tie_breaks = [League.TieBreak.DIFFERENCE, League.TieBreak.HEAD_TO_HEAD]
        return tie_breaks + ([self.tally.tie_break] if self.tally is not None else [])

    def standings_columns(self):
        columns = [_("Position"), _("Pair"), _("Played"), _("Won"), _("Lost"),
                   _("League points"), _("Points for"), _("Points against"), _("Difference")]
        return columns + ([str(self.tally.label)] if self.tally is not None else [])

    def standings_columns_of(self, league):
        if not league.draws_partners:
            return self.standings_columns()
        columns = [_("Position"), _("Player"), _("Played"), _("Won"), _("Lost"),
                   _("League points"), _("Points for"), _("Points against"), _("Difference")]
        return columns + ([str(self.tally.label)] if self.tally is not None else [])

    def standings_cells(self, row):
        who = row.name if isinstance(row, PartnerRow) else row.pair
        cells = [row.position or "", who, row.played, row.won, row.lost,
                 csv_number(row.league_points), csv_number(row.points_for),
                 csv_number(row.points_against), csv_number(row.difference)]
        return cells + ([row.tally] if self.tally is not None else [])

    def seated(self, table):
        return self.sheet.seat_members(table)

    def sides(self, table):
        return [(table.pair_0, table.score_0), (table.pair_1, table.score_1)]

    def rivals(self, season):
        if season.league.draws_partners:  # players, whoever partnered them
            pairs = season.partnerships.values_list("first_id", "second_id")
            return list(Member.objects.filter(pk__in={pk for pair in pairs for pk in pair})
                        .order_by("name", "pk"))
        return list(season.partnerships.select_related("first", "second"))

    def meetings(self, season, first, second):
        if season.league.draws_partners:
            return self._players_meetings(season, first, second)
        rows = []
        for table in counted_tables(season).filter(
                Q(pair_0=first, pair_1=second) | Q(pair_0=second, pair_1=first)
        ).select_related("evening"):
            one = 0 if table.pair_0_id == first.pk else 1
            rows.append(_meeting(table, one, first, second))
        return rows

    def _players_meetings(self, season, first, second):
        """The matches two players of a league whose partners are drawn each round played on
        opposite sides, whoever partnered them: each side's score."""
        def in_pair(side, member):
            return Q(**{f"{side}__first": member}) | Q(**{f"{side}__second": member})

        rows = []
        for table in counted_tables(season).filter(
                (in_pair("pair_0", first) & in_pair("pair_1", second))
                | (in_pair("pair_0", second) & in_pair("pair_1", first))
        ).select_related("evening", "pair_0").order_by("evening__date", "round", "number"):
            one = 0 if first.pk in table.pair_0.members else 1
            rows.append(_meeting(table, one, first, second))
        return rows

    def member_series(self, member, counted):
        dates, mine, theirs, won = [], [], [], 0
        tables = (counted.filter(winner__isnull=False).filter(_with_member(member))
                  .select_related("evening", "pair_0").order_by("evening__date", "number"))
        for table in tables:
            side = 0 if member.pk in (table.pair_0.first_id, table.pair_0.second_id) else 1
            scores = [table.score_0, table.score_1]
            dates.append(table.evening.date)
            mine.append(scores[side])
            theirs.append(scores[1 - side])
            won += table.winner == side
        return {"dates": dates, "values": mine, "opponents": theirs, "won": won,
                "played": len(dates)}

    def season_gains(self, counted, options, gains, dates):
        for table in counted.filter(winner__isnull=False).select_related(
                "evening", "pair_0__first", "pair_0__second", "pair_1__first",
                "pair_1__second"):
            dates[table.evening_id] = table.evening.date
            for side, pair in enumerate((table.pair_0, table.pair_1)):
                gains[str(pair)][table.evening_id] += self.league_points(
                    options, table.winner == side)

    def season_gains_of(self, season, counted, options, gains, dates):
        """A league whose partners are drawn each round charts its players: the league points
        of each match they played, whoever partnered them, and a round sat out's credit, as
        their standings count them."""
        if not season.league.draws_partners:
            return self.season_gains(counted, options, gains, dates)
        averages = sit_outs.RoundAverages()
        for table in counted.filter(winner__isnull=False).select_related(
                "evening", "pair_0__first", "pair_0__second", "pair_1__first",
                "pair_1__second"):
            dates[table.evening_id] = table.evening.date
            for side, pair in enumerate((table.pair_0, table.pair_1)):
                earned = self.league_points(options, table.winner == side)
                averages.add((table.evening_id, table.round), Decimal(earned))
                for member in (pair.first, pair.second):
                    gains[member.name][table.evening_id] += earned
        if sit_outs.gives_credit_in(season):
            for (_member, name, _guest, evening_id, _round), score in sit_outs.credits(
                    sit_outs.sat_out(season.evenings.all()), options, averages):
                gains[name][evening_id] += score
        return None

    def draw(self, evening, rng):
        return draw_pairs(evening, rng)

    def table_form(self, club, evening, data, table=None):
        initial = {"pair_0": table.pair_0, "pair_1": table.pair_1} if table else {}
        return PairsTableForm(evening.season, data, initial=initial)

    def printed_headings(self):
        return [_("Bidding team"), _("Bid"), _("Books")]
