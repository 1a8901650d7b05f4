"""An evening's results and its prizes (every game: a player's, or a pair's for Bid Whist), and
the organiser's e-mail of them to the members.

**The evening's score** of a player (or a pair) is in what the league's standings rank by
(``ScoreKind.evening_scores``): a running balance's balances summed over the evening's tables
(each round's), a substitute's part of a seat theirs, as in the standings; for a match (Cutthroat, Bid Whist), the league points of the evening's matches,
then their scores (Cutthroat's final scores summed, a pair's difference) to tell apart those
on the same league points; plus what they were credited for a round they sat out
(``leagues.sit_outs``).  **The prizes** a league names (``League.prize_winner``,
``prize_runner_up``, ``prize_booby``, each with an optional description): the winner is whoever
has the highest score, the runner-up the next score, the booby prize the lowest score (never
one of the winners' or the runners-up's); those on the same score share the prize, and a
pair's prize names both its players.  They are given once every table of the evening has a
result that counts (``is_done``).

Sending the results is ``leagues.reminders.send_results``, with the club's other e-mails about
an evening.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from leagues import sit_outs
from leagues.models import ClubChange, EntryError, Evening, EveningTable, Partnership
from leagues.scoring import long_date

WINNER, RUNNER_UP, BOOBY = "winner", "runner_up", "booby"


@dataclass
class Line:
    """A player's (or a pair's) evening: ``score`` ranks, then ``points`` (a match's scores)."""

    key: object  # a member's id, or ("pair", its id)
    name: str
    score: Decimal
    guest: bool = False
    position: int = 0
    points: Decimal | None = None
    shown: str = ""  # the score as the page and the e-mail give it

    @property
    def rank(self) -> tuple[Decimal, Decimal]:
        return (self.score, self.points or Decimal(0))


@dataclass
class Prize:
    kind: str
    label: str
    description: str
    names: list[str]
    score: Decimal
    shown: str = ""
    points: Decimal | None = None  # a match's: its score is then shown in words


def offers_prizes(league) -> bool:
    """A league with a prize named."""
    return bool(league.prize_winner or league.prize_runner_up or league.prize_booby)


def waiting_tables(evening: Evening) -> list[EveningTable]:
    """The evening's tables whose result does not count yet (none, or provisional)."""
    counted = set(EveningTable.objects.filter(evening=evening).counted().values_list(
        "pk", flat=True))
    return [t for t in evening.tables.order_by("round", "number") if t.pk not in counted]


def rounds_to_play(evening: Evening) -> int:
    """How many of an evening's planned rounds are not drawn yet (0 for one draw): its prizes
    wait for the last round, not only for the tables drawn so far."""
    return max(evening.rounds - evening.rounds_drawn(), 0) if evening.in_rounds else 0


def is_done(evening: Evening) -> bool:
    return (evening.tables.exists() and not rounds_to_play(evening)
            and not waiting_tables(evening))


def evening_lines(evening: Evening) -> list[Line]:
    """Each player's (or pair's) score of the evening, highest first, with their position
    (ties share)."""
    season = evening.season
    league = season.league
    kind = league.score_kind
    options = season.standings_options
    scores: dict[object, Line] = {
        key: Line(key, name, score, guest, points=points)
        for key, name, guest, score, points in kind.evening_scores_of(
            league, EveningTable.objects.filter(evening=evening).counted(), options)}
    credits = sit_outs.evening_credits(evening)
    if credits and sit_outs.sits_out_pairs(league):
        sat_out = list(sit_outs.pairs_sat_out([evening]))
        pairs = Partnership.objects.select_related("first", "second").in_bulk(
            [pair_id for pair_id, _evening, _number in sat_out])
        for pair_id, _evening, number in sat_out:
            credit = credits.get(number)
            if credit is not None:
                line = scores.setdefault(("pair", pair_id), Line(
                    ("pair", pair_id), pair_names(pairs[pair_id]), Decimal(0),
                    points=Decimal(0)))
                line.score += credit
    elif credits:
        for member_id, name, guest, _evening, number in sit_outs.sat_out([evening]):
            credit = credits.get(number)
            if credit is not None:
                line = scores.setdefault(member_id, Line(
                    member_id, name, Decimal(0), guest,
                    points=Decimal(0) if kind.has_a_winner else None))
                line.score += credit
    lines = sorted(scores.values(), key=lambda line: (-line.score, -(line.points or 0),
                                                      line.name))
    for index, line in enumerate(lines, start=1):
        line.position = (lines[index - 2].position if index > 1
                         and lines[index - 2].rank == line.rank else index)
        line.shown = kind.evening_score_text(line.score, line.points)
    return lines


def pair_names(pair) -> str:
    """A pair as its prize names it: both its players, after its own name if it has one."""
    players = f"{pair.first} & {pair.second}"
    return f"{pair.name} ({players})" if pair.name else players


def prizes(evening: Evening, lines: list[Line] | None = None) -> list[Prize]:
    """The league's prizes and who won each, once the evening is done (else none)."""
    league = evening.season.league
    if not offers_prizes(league) or not is_done(evening):
        return []
    lines = evening_lines(evening) if lines is None else lines
    by_rank: dict[tuple, list[Line]] = defaultdict(list)
    for line in lines:
        by_rank[line.rank].append(line)
    ranks = sorted(by_rank, reverse=True)
    out = []
    given = set()
    wanted = [(WINNER, league.prize_winner, league.prize_winner_text, 0),
              (RUNNER_UP, league.prize_runner_up, league.prize_runner_up_text, 1),
              (BOOBY, league.prize_booby, league.prize_booby_text, -1)]
    for kind, on, text, place in wanted:
        if len(ranks) <= (place if place >= 0 else 0):
            continue
        rank = ranks[place]
        if kind == BOOBY and (rank in given or len(ranks) < 3):
            continue  # the lowest is a winner or a runner-up already
        given.add(rank)
        if on:
            won = by_rank[rank]
            out.append(Prize(kind, prize_label(kind), text, [line.name for line in won],
                             won[0].score, won[0].shown, won[0].points))
    return out


def results_letter(evening: Evening, lines: list[Line], won: list[Prize]) -> tuple[str, str]:
    """The subject and message of the results' e-mail: the evening's standings, its prizes."""
    league = evening.season.league
    when = long_date(evening.date)
    subject = _("Results of %(league)s, %(when)s") % {"league": league.name, "when": when}
    text = [_("The results of %(league)s, %(when)s:") % {"league": league.name, "when": when},
            ""]
    for line in lines:
        # a guest is marked, as the evening's page and the board mark them
        name = _("%(name)s (guest)") % {"name": line.name} if line.guest else line.name
        text.append(_("%(position)s. %(name)s %(score)s") % {
            "position": line.position, "name": name, "score": line.shown})
    if won:
        text += ["", _("Prizes:")]
        for prize in won:
            names = ", ".join(prize.names)
            if prize.description:
                text.append(_("%(prize)s: %(names)s (%(score)s), %(description)s") % {
                    "prize": prize.label, "names": names, "score": prize.shown,
                    "description": prize.description})
            else:
                text.append(_("%(prize)s: %(names)s (%(score)s)") % {
                    "prize": prize.label, "names": names, "score": prize.shown})
    return subject, "\n".join(text)


def refuse_if_not_done(evening: Evening) -> None:
    if not evening.tables.exists():
        raise EntryError(_("This evening has no table yet: there are no results to send."))
    left = rounds_to_play(evening)
    if left:
        raise EntryError(ngettext(
            "%(count)s round of the evening is still to play: the results are sent at its "
            "end. Nothing was sent.",
            "%(count)s rounds of the evening are still to play: the results are sent at its "
            "end. Nothing was sent.", left) % {"count": left})
    waiting = waiting_tables(evening)
    if waiting:
        labels = ", ".join(t.label for t in waiting)
        raise EntryError(ngettext(
            "%(tables)s has no result that counts yet: the results are sent once every table "
            "has one. Nothing was sent.",
            "%(tables)s have no result that counts yet: the results are sent once every table "
            "has one. Nothing was sent.", len(waiting)) % {"tables": labels})


def times_sent(evening: Evening) -> int:
    """How many times the evening's results were sent (the lines of the club's history)."""
    return ClubChange.objects.filter(action="results_sent", after__evening=evening.pk).count()


def prize_label(kind: str) -> str:
    return {WINNER: _("Winner"), RUNNER_UP: _("Runner-up"), BOOBY: _("Booby prize")}.get(kind,
                                                                                       kind)
