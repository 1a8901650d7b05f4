"""What a player (or a pair) who sat out is credited with, in the unit the league's standings
rank by: a running balance's units (Solo, Belgian Whist), league points for a match (Cutthroat's
players, Bid Whist's pairs).

A league chooses (``League.sit_out_credit``, kept by a closed season with its standings options):
nothing; the **average of the round's tables**, the mean of what each side of the round's tables
with a counted result earned, to the hundredth (``ScoreKind.round_averages``: a running
balance's seats' totals, a match's league points); or a **fixed score** the organiser types
(``League.sit_out_score``).  Who sat out a round is who the draw left out of it
(``EveningRound.sitting_out``, ``pairs_sitting_out``); an evening drawn in one draw, before
rounds were stored, gives the members coming without a seat (the pairs both of whose players
came, without a table).  A round earns a credit only once one of its tables has a counted
result.

Who sat out is one ``UNION ALL`` of stored rounds and one-draw evenings; the season's standings
read it in their own query (``sat_out_rows``, ``pairs_sat_out_rows``), and the rounds' averages
from the rows they read anyway (``RoundAverages``), so a credit costs them no query; each kind's
standings take the sit-outs that earn one, with it, from ``credits``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from decimal import Decimal

from django.db.models import Exists, F, IntegerField, OuterRef, Q, Value

from leagues.models import (
    Attendance,
    Evening,
    EveningRound,
    EveningTable,
    League,
    Partnership,
    TableSeat,
)

NOTHING = League.SitOutCredit.NOTHING


class RoundAverages:
    """The rounds' averages summed from counted seats read one by one (the season's standings
    read them anyway): the same figures as ``round_averages``, without its query."""

    def __init__(self):
        self.sums: dict[tuple[int, int], list] = {}

    def add(self, key: tuple[int, int], total: Decimal, seats: int = 1) -> None:
        summed = self.sums.setdefault(key, [Decimal(0), 0])
        summed[0] += total
        summed[1] += seats

    def means(self) -> dict[tuple[int, int], Decimal]:
        return {key: (total / seats).quantize(Decimal("0.01"))
                for key, (total, seats) in self.sums.items()}


def credit_for(options, averages, key) -> Decimal | None:
    """The credit of a sit-out of the round ``key`` (evening, round), None when none is due."""
    if options.sit_out_credit == NOTHING or key not in averages:
        return None
    if options.sit_out_credit == League.SitOutCredit.FIXED:
        return Decimal(options.sit_out_score or 0)
    return averages[key]


def credits(sat_out: Iterable[tuple], options,
            averages: RoundAverages) -> Iterator[tuple[tuple, Decimal]]:
    """Each of these sit-outs that earns a credit, with it: (the sit-out, its credit).  A
    sit-out is a row of who sat out, then the evening's id and the round (``sat_out_rows``);
    ``averages``, the rounds' the standings summed, give the average's credit."""
    means = averages.means()
    for row in sat_out:
        score = credit_for(options, means, (row[-2], row[-1]))
        if score is not None:
            yield row, score


WHO = ("member_id", "member__name", "member__guest")
# The names of a sit-out's evening id and round among the columns a caller asks for.
EVENING, ROUND = "evening", "round"


def _shaped(queryset, who, evening, number, columns):
    """``queryset``'s sit-outs as ``who`` (its fields), then ``columns`` (name: expression, in
    order), where ``EVENING`` and ``ROUND`` take its fields ``evening`` and ``number``."""
    names = {EVENING: evening, ROUND: number}
    extra = {name: value for name, value in columns.items() if name not in names}
    return queryset.order_by().annotate(**extra).values_list(
        *who, *(names.get(name, name) for name in columns))


def _sat_out_parts(evenings, member=None, **columns):
    """The sit-outs of stored rounds and of one-draw evenings, as two querysets of who, then
    ``columns`` (``_shaped``)."""
    mine = {} if member is None else {"member": member}
    stored = EveningRound.sitting_out.through.objects.filter(
        eveninground__evening__in=evenings, **mine)
    one_draw = Attendance.objects.filter(
        evening__in=evenings, **mine, coming=True, member__retired=False,
        evening__tables__isnull=False).exclude(
        Exists(EveningRound.objects.filter(evening=OuterRef("evening")))).exclude(
        Exists(TableSeat.objects.filter(table__evening=OuterRef("evening"),
                                        member=OuterRef("member")))).annotate(
        number=Value(1, IntegerField()))
    return (_shaped(stored, WHO, "eveninground__evening_id", "eveninground__number", columns),
            _shaped(one_draw, WHO, "evening_id", "number", columns).distinct())


def sat_out(evenings, member=None):
    """(member id, name, guest, evening id, round) of every sit-out of these evenings (of one
    member): one query."""
    stored, one_draw = _sat_out_parts(evenings, member, **{EVENING: None, ROUND: None})
    return stored.union(one_draw, all=True)


def _pairs_sat_out_parts(evenings, pairs=None, **columns):
    """The pairs' sit-outs of stored rounds and of one-draw evenings (both players coming, the
    pair without a table), as two querysets of the pair's id, then ``columns`` (``_shaped``)."""
    theirs = {} if pairs is None else {"partnership__in": pairs}
    stored = EveningRound.pairs_sitting_out.through.objects.filter(
        eveninground__evening__in=evenings, **theirs)

    def coming(player):
        return Exists(Attendance.objects.filter(evening=OuterRef("sat_evening"),
                                                member=OuterRef(player), coming=True))

    one_draw = Partnership.objects.filter(
        **({} if pairs is None else {"pk__in": pairs}), retired=False,
        first__retired=False, second__retired=False,
        season__evenings__in=evenings).annotate(
        sat_evening=F("season__evenings__id"), number=Value(1, IntegerField())).filter(
        coming("first"), coming("second"),
        Exists(EveningTable.objects.filter(evening=OuterRef("sat_evening")))).exclude(
        Exists(EveningRound.objects.filter(evening=OuterRef("sat_evening")))).exclude(
        Exists(EveningTable.objects.filter(Q(pair_0=OuterRef("pk")) | Q(pair_1=OuterRef("pk")),
                                           evening=OuterRef("sat_evening"))))
    return (_shaped(stored, ("partnership_id",), "eveninground__evening_id",
                    "eveninground__number", columns),
            _shaped(one_draw, ("pk",), "sat_evening", "number", columns))


def pairs_sat_out(evenings, pairs=None):
    """(pair id, evening id, round) of every pair's sit-out of these evenings (of ``pairs``):
    one query."""
    stored, one_draw = _pairs_sat_out_parts(evenings, pairs, **{EVENING: None, ROUND: None})
    return stored.union(one_draw, all=True)


def pairs_sat_out_rows(evenings, **columns):
    """The pairs' sit-outs shaped as another query's rows, to be read in its ``UNION ALL``."""
    return _pairs_sat_out_parts(evenings, **columns)


def sat_out_rows(evenings, **columns):
    """The sit-outs of these evenings shaped as another query's rows (``_sat_out_parts``), to
    be read in that query's ``UNION ALL``: two querysets."""
    return _sat_out_parts(evenings, **columns)


def gives_credit_in(season) -> bool:
    """Whether this season's sit-outs earn a credit (its options, its league's kind of score)."""
    return (season.standings_options.sit_out_credit != NOTHING
            and gives_credit(season.league))


def gives_credit(league) -> bool:
    """Whether the league's kind of score credits a sit-out (every kind does now)."""
    return league.score_kind.credits_sit_outs


def sits_out_pairs(league) -> bool:
    """Whether the league's draw sits out pairs (registered Bid Whist pairs), rather than
    players (every other game, and a Bid Whist league whose partners are drawn each round)."""
    return league.registers_pairs


def round_averages(counted, league, options) -> dict[tuple[int, int], Decimal]:
    """The mean of what each side earned in each (evening, round) with a counted table, in the
    unit the league's standings rank by (``ScoreKind.round_averages``)."""
    return league.score_kind.round_averages(counted, options)


def evening_credits(evening) -> dict[int, Decimal | None]:
    """Each round's credit for a sit-out (None: none due yet, or none given); empty when the
    league gives none."""
    season = evening.season
    options = season.standings_options
    if not gives_credit_in(season):
        return {}
    averages = round_averages(EveningTable.objects.filter(evening=evening).counted(),
                              season.league, options)
    return {number: credit_for(options, averages, (evening.pk, number))
            for number in range(1, evening.rounds_drawn() + 1)}


def member_credits(member) -> list[dict]:
    """The rounds a member (or a pair of theirs) sat out and was credited for: evening, round
    and score, in date order.  A few queries per season they sat out in."""
    club_evenings = Evening.objects.filter(season__league__club_id=member.club_id)
    # A pair's league seats no one (its tables are the pairs'): its sit-outs are the pairs'
    # (unless its partners are drawn each round: then its players sit out, as members).
    rows = [(evening_id, number, False) for *_who, evening_id, number in sat_out(
        club_evenings, member=member)]
    rows += [(evening_id, number, True) for _pair, evening_id, number in pairs_sat_out(
        club_evenings, Partnership.objects.filter(Q(first=member) | Q(second=member)))]
    if not rows:
        return []
    evenings = Evening.objects.select_related("season__league").in_bulk([row[0] for row in rows])
    seasons: dict[int, tuple] = {}
    out = []
    for evening_id, number, as_a_pair in rows:
        evening = evenings[evening_id]
        season = evening.season
        if not gives_credit(season.league) or as_a_pair != sits_out_pairs(season.league):
            continue
        if season.pk not in seasons:
            options = season.standings_options
            seasons[season.pk] = (options, round_averages(
                EveningTable.objects.filter(evening__season=season).counted(), season.league,
                options))
        options, averages = seasons[season.pk]
        score = credit_for(options, averages, (evening_id, number))
        if score is not None:
            out.append({"evening": evening, "round": number, "score": score,
                        # a match's credit is league points, apart from its scores
                        "league_points": season.league.score_kind.has_a_winner})
    return sorted(out, key=lambda c: (c["evening"].date, c["evening"].pk, c["round"]))
