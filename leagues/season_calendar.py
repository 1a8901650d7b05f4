"""A season's calendar: evenings created as a series ("every Thursday from 8 January to 26
March, 20:00, at The Red Lion"), an evening cancelled (it stays on the calendar, marked so,
and holds no result) or brought back, and the members told by e-mail when an evening is
cancelled, brought back or moves to another day.

Each change checks, writes and records a line of the club's history (``ClubChange``) in one
transaction, or raises EntryError with a sentence and changes nothing, as
:mod:`leagues.edits` does.  The e-mails go through the organisers' e-mail path
(:mod:`leagues.reminders`, :mod:`leagues.club_mail`): only to members whose address is
confirmed and who have not stopped them, never to a guest, within the club's daily limit.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _

from leagues import club_mail, reminders, results_version
from leagues.edits import evening_facts, table_facts
from leagues.models import ClubChange, EntryError, Evening, EveningTable, Letter, Season
from leagues.scoring import long_date

# A series of more evenings than this is a typo (a year instead of a month), said in words.
MOST_EVENINGS = 60
# How often the evenings of a series come: every week, or every other week.
EVERY_WEEKS = (1, 2)


def series_dates(weekday: int, first: datetime.date, last: datetime.date,
                 every_weeks: int = 1) -> list[datetime.date]:
    """The days of a series: ``weekday`` (0 Monday … 6 Sunday) from ``first`` (the first such
    day on or after it) to ``last`` included, every ``every_weeks`` weeks."""
    day = first + datetime.timedelta(days=(weekday - first.weekday()) % 7)
    step = datetime.timedelta(weeks=every_weeks)
    out = []
    while day <= last:
        out.append(day)
        day += step
    return out


def taken_dates(season: Season, dates: list[datetime.date]) -> set[datetime.date]:
    """The days among ``dates`` on which the season already has an evening."""
    return set(season.evenings.filter(date__in=dates).values_list("date", flat=True))


def create_series(season: Season, dates: list[datetime.date], start_time, venue: str,
                  by) -> list[Evening]:
    """The season's evenings on ``dates`` (a day that already has one is left as it is, so a
    series confirmed twice adds its evenings once); one line of the club's history."""
    if not dates:
        raise EntryError(_("Choose at least one date."))
    if len(dates) > MOST_EVENINGS:
        raise EntryError(_("A series has at most %(most)s evenings: choose a shorter period.")
                         % {"most": MOST_EVENINGS})
    with transaction.atomic():
        season = Season.objects.select_for_update().select_related("league__club").get(
            pk=season.pk)
        season.refuse_if_closed()
        taken = taken_dates(season, dates)
        league = season.league  # each evening starts with the league's rounds, as one made alone
        new = [Evening(season=season, date=day, start_time=start_time, venue=venue,
                       rounds=league.rounds, deals_per_round=league.deals_per_round)
               for day in sorted(set(dates)) if day not in taken]
        Evening.objects.bulk_create(new)  # sends no save signal: the season's page lists them
        results_version.bump(Season.objects.filter(pk=season.pk))
        if new:
            ClubChange.record(season.league.club, by, "evenings_add", None, {
                "season": season.name, "league": season.league.name,
                "dates": [e.date.isoformat() for e in new],
                "time": start_time.strftime("%H:%M") if start_time else None, "venue": venue})
        return new


def refuse_if_results(evening: Evening) -> None:
    table = (EveningTable.objects.filter(evening=evening).exclude(entry="")
             .order_by("number").first())
    if table is not None:
        raise EntryError(_("Table %(number)s of this evening has a result: an evening with "
                           "results was played and cannot be cancelled. Delete its results "
                           "first, or change the evening's date.")
                         % {"number": table.number})


def cancel_evening(evening: Evening, by) -> list[int]:
    """The evening is cancelled: it stays on the calendar, marked so, and its tables without a
    result (a draw made before) go; refused in words when a table has a result, is played
    online, or the evening is cancelled already.  Returns the numbers of the tables removed."""
    with transaction.atomic():
        evening = (Evening.objects.select_for_update(of=("self",))
                   .select_related("season__league__club").get(pk=evening.pk))
        evening.season.refuse_if_closed()
        if evening.is_cancelled:
            raise EntryError(_("This evening is already cancelled."))
        tables = list(EveningTable.objects.select_for_update().filter(evening=evening)
                      .order_by("number"))
        refuse_if_results(evening)
        for table in tables:
            table.refuse_while_online(_("Table %(number)s is being played online: an evening "
                                        "being played cannot be cancelled.")
                                      % {"number": table.number})
        removed = [table_facts(t) for t in tables]
        EveningTable.objects.filter(pk__in=[t.pk for t in tables]).delete()
        evening.cancelled_at = timezone.now()
        evening.save(update_fields=["cancelled_at"])
        ClubChange.record(evening.season.league.club, by, "evening_cancel",
                          {**evening_facts(evening), "tables": removed}, None)
        return [t["number"] for t in removed]


def bring_back(evening: Evening, by) -> None:
    """A cancelled evening is on again (its answers were kept)."""
    with transaction.atomic():
        evening = (Evening.objects.select_for_update(of=("self",))
                   .select_related("season__league__club").get(pk=evening.pk))
        evening.season.refuse_if_closed()
        if not evening.is_cancelled:
            raise EntryError(_("This evening is not cancelled."))
        evening.cancelled_at = None
        evening.save(update_fields=["cancelled_at"])
        ClubChange.record(evening.season.league.club, by, "evening_uncancel",
                          evening_facts(evening), None)


# -- telling the members ------------------------------------------------------------------------

CANCELLED, BACK, MOVED = "cancelled", "back", "moved"


def when(evening: Evening) -> str:
    words = long_date(evening.date)
    if evening.start_time:
        words += " " + time_format(evening.start_time, "H:i")
    return words


def letter_words(evening: Evening, what: str, before: dict | None = None) -> tuple[str, str]:
    """The subject and message of the e-mail about a change of the evening."""
    league = evening.season.league.name
    params = {"league": league, "when": when(evening), "venue": evening.venue}
    if what == CANCELLED:
        subject = _("Cancelled: %(league)s, %(when)s") % params
        lines = [_("The evening of %(league)s on %(when)s is cancelled.") % params]
    elif what == BACK:
        subject = _("On again: %(league)s, %(when)s") % params
        lines = [_("The evening of %(league)s on %(when)s is on again: it is no longer "
                   "cancelled.") % params]
    else:
        old = datetime.date.fromisoformat((before or {})["date"])
        params["before"] = long_date(old)
        subject = _("New date: %(league)s, %(when)s") % params
        lines = [_("The evening of %(league)s on %(before)s moves to %(when)s.") % params]
    if evening.venue:
        lines.append(_("Venue: %(venue)s.") % params)
    return subject, "\n".join(lines)


def tell_members(request, evening: Evening, what: str,
                 before: dict | None = None) -> list[tuple[str, str]]:
    """E-mails every member the club may write to (not guests) about the change, kept as a
    letter of the evening (what the daily limit held back is sent from its e-mail page), and
    returns what the organiser is told, as (level, sentence)."""
    subject, message = letter_words(evening, what, before)
    letter = Letter.objects.create(evening=evening, who=reminders.EVERYONE, subject=subject,
                                   message=message, written_by=request.user)
    people = reminders.recipients(evening, reminders.EVERYONE)
    outcome: club_mail.Outcome = reminders.deliver(request, letter, people.reachable)
    said = reminders.outcome_words(outcome)
    return said + [("info", text) for text in reminders.recipients_words(people)]
