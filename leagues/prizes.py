"""An evening's results and its prizes (individual games: Solo, Belgian Whist, Cutthroat), and
the organiser's e-mail of them to the members.

**The evening's score** of a player: the sum of their totals at the evening's tables (each
round's; a running balance's balances, Cutthroat's final scores), plus what they were credited
for a round they sat out (``leagues.sit_outs``).  **The prizes** a league names
(``League.prize_winner``, ``prize_runner_up``, ``prize_booby``, each with an optional
description): the winner is whoever has the highest score, the runner-up the next score, the
booby prize the lowest score (never one of the winners' or the runners-up's); players on the
same score share the prize.  They are given once every table of the evening has a result that
counts (``is_done``).  A pair's league (Bid Whist) has none.

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
from leagues.models import ClubChange, EntryError, Evening, EveningTable, TableSeat
from leagues.scoring import long_date, signed

WINNER, RUNNER_UP, BOOBY = "winner", "runner_up", "booby"


@dataclass
class Line:
    member_id: int
    name: str
    score: Decimal
    guest: bool = False
    position: int = 0


@dataclass
class Prize:
    kind: str
    label: str
    description: str
    names: list[str]
    score: Decimal


def offers_prizes(league) -> bool:
    """A league of players (not pairs) with a prize named."""
    return (not league.score_kind.registers_pairs
            and (league.prize_winner or league.prize_runner_up or league.prize_booby))


def waiting_tables(evening: Evening) -> list[EveningTable]:
    """The evening's tables whose result does not count yet (none, or provisional)."""
    counted = set(EveningTable.objects.filter(evening=evening).counted().values_list(
        "pk", flat=True))
    return [t for t in evening.tables.order_by("round", "number") if t.pk not in counted]


def is_done(evening: Evening) -> bool:
    return evening.tables.exists() and not waiting_tables(evening)


def evening_lines(evening: Evening) -> list[Line]:
    """Each player's score of the evening, highest first, with their position (ties share)."""
    scores: dict[int, Line] = {}
    for member_id, name, guest, total in TableSeat.objects.filter(
            table__in=EveningTable.objects.filter(evening=evening).counted()).values_list(
            "member_id", "member__name", "member__guest", "total"):
        line = scores.setdefault(member_id, Line(member_id, name, Decimal(0), guest))
        line.score += total
    credits = sit_outs.evening_credits(evening)
    if credits:
        for member_id, name, guest, _evening, number in sit_outs.sat_out([evening]):
            credit = credits.get(number)
            if credit is not None:
                line = scores.setdefault(member_id, Line(member_id, name, Decimal(0), guest))
                line.score += credit
    lines = sorted(scores.values(), key=lambda line: (-line.score, line.name))
    for index, line in enumerate(lines, start=1):
        line.position = (lines[index - 2].position if index > 1
                         and lines[index - 2].score == line.score else index)
    return lines


def prizes(evening: Evening, lines: list[Line] | None = None) -> list[Prize]:
    """The league's prizes and who won each, once the evening is done (else none)."""
    league = evening.season.league
    if not offers_prizes(league) or not is_done(evening):
        return []
    lines = evening_lines(evening) if lines is None else lines
    by_score: dict[Decimal, list[str]] = defaultdict(list)
    for line in lines:
        by_score[line.score].append(line.name)
    scores = sorted(by_score, reverse=True)
    out = []
    given = set()
    wanted = [(WINNER, league.prize_winner, league.prize_winner_text, 0),
              (RUNNER_UP, league.prize_runner_up, league.prize_runner_up_text, 1),
              (BOOBY, league.prize_booby, league.prize_booby_text, -1)]
    for kind, on, text, place in wanted:
        if len(scores) <= (place if place >= 0 else 0):
            continue
        score = scores[place]
        if kind == BOOBY and (score in given or len(scores) < 3):
            continue  # the lowest is a winner or a runner-up already
        given.add(score)
        if on:
            out.append(Prize(kind, prize_label(kind), text, by_score[score], score))
    return out


def results_letter(evening: Evening, lines: list[Line], won: list[Prize]) -> tuple[str, str]:
    """The subject and message of the results' e-mail: the evening's standings, its prizes."""
    league = evening.season.league
    when = long_date(evening.date)
    subject = _("Results of %(league)s, %(when)s") % {"league": league.name, "when": when}
    text = [_("The results of %(league)s, %(when)s:") % {"league": league.name, "when": when},
            ""]
    for line in lines:
        text.append(_("%(position)s. %(name)s %(score)s") % {
            "position": line.position, "name": line.name, "score": signed(line.score)})
    if won:
        text += ["", _("Prizes:")]
        for prize in won:
            names = ", ".join(prize.names)
            if prize.description:
                text.append(_("%(prize)s: %(names)s (%(score)s), %(description)s") % {
                    "prize": prize.label, "names": names, "score": signed(prize.score),
                    "description": prize.description})
            else:
                text.append(_("%(prize)s: %(names)s (%(score)s)") % {
                    "prize": prize.label, "names": names, "score": signed(prize.score)})
    return subject, "\n".join(text)


def refuse_if_not_done(evening: Evening) -> None:
    if not evening.tables.exists():
        raise EntryError(_("This evening has no table yet: there are no results to send."))
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
