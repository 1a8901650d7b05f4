"""CSV exports of standings and results, and the club's evenings as an iCalendar feed."""

from __future__ import annotations

import csv
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import icalendar
from django.conf import settings
from django.http import HttpResponse
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext as _

from leagues.models import Evening, EveningTable

# A spreadsheet reads a cell starting with one of these as a formula (OWASP, CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    """A cell that a spreadsheet shows as text, never runs: text starting like a formula gets a
    leading ``'``.  Numbers stay numbers (a score of -5 is written -5), so only non-numbers are
    turned into text and checked; a name or a venue is text whatever it looks like."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        value = str(value)
        if value.startswith(FORMULA_STARTS):
            return "'" + value
    return value


def csv_number(value):
    """A balance or score as a number cell: 12, -3, 1.5 (no trailing zeros, no exponent)."""
    if value is None:
        return ""
    value = Decimal(value)
    if value == value.to_integral():
        return int(value)
    return Decimal(format(value.normalize(), "f"))


class SafeWriter:
    """The csv writer of every export: each cell goes through :func:`csv_cell`."""

    def __init__(self, out):
        self._writer = csv.writer(out)

    def writerow(self, row):
        return self._writer.writerow([csv_cell(value) for value in row])


def _csv_response(filename: str):
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response, SafeWriter(response)


def standings_csv(season, rows):
    """The season's standings, in the columns of its kind of score."""
    response, out = _csv_response(f"{slugify(str(season))}-standings.csv")
    kind = season.league.score_kind
    out.writerow(kind.standings_columns_of(season.league))
    for row in rows:
        out.writerow(kind.standings_cells(row))
    return response


def results_csv(season):
    """One line per player (or pair) per table per evening."""
    response, out = _csv_response(f"{slugify(str(season))}-results.csv")
    out.writerow([_("Date"), _("Venue"), _("Table"), _("Player or pair"), _("Result"),
                  _("Provisional")])
    tables = (EveningTable.objects.filter(evening__season=season).exclude(entry="")
              .select_related("evening", "pair_0__first", "pair_0__second", "pair_1__first",
                              "pair_1__second")
              .prefetch_related("seats__member").order_by("evening__date", "number"))
    kind = season.league.score_kind
    for table in tables:
        for who, total in kind.sides(table):
            out.writerow([table.evening.date.isoformat(), table.evening.venue, table.number, who,
                          csv_number(total), _("yes") if table.is_provisional else ""])
    return response


def _ical_text(value: str) -> str:
    """Text for the calendar: any line break (CRLF, LF or a bare CR) is one line break, which
    the library writes escaped as ``\\n``; it escapes ``\\``, ``,`` and ``;`` too."""
    return value.replace("\r\n", "\n").replace("\r", "\n")


def _evening_times(evening) -> tuple | None:
    """When an evening starts and ends in a calendar: three hours from its time (in UTC), or
    the whole day when it has none.  None for a date at the edge of what dates can hold (an
    evening stored before the forms refused 9999-12-31): it is left out of the calendar, which
    stays readable."""
    try:
        if evening.start_time:
            start = timezone.make_aware(datetime.combine(evening.date, evening.start_time))
            start_utc = start.astimezone(UTC)
            return start_utc, start_utc + timedelta(hours=3)
        return evening.date, evening.date + timedelta(days=1)
    except OverflowError:
        return None


def calendar_ics(request, club):
    """The club's evenings (RFC 5545, written by the icalendar library: escaping and line
    folding are right by construction); an evening without a time is an all-day event.  In the
    language the address names (``?lang=fr``: the pages give it the reader's, since a calendar
    app sends none), so that a French club's cancelled evening reads "Annulée : …"."""
    language = request.GET.get("lang", "")
    if language in dict(settings.LANGUAGES):
        with translation.override(language):
            return _calendar_ics(request, club)
    return _calendar_ics(request, club)


def _calendar_ics(request, club):
    stamp = timezone.now().astimezone(UTC).replace(microsecond=0)
    host = request.get_host().split(":")[0]
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//whistclub//leagues//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", _ical_text(club.name))
    evenings = Evening.objects.filter(season__league__club=club).select_related("season__league")
    for evening in evenings:
        times = _evening_times(evening)
        if times is None:
            continue
        event = icalendar.Event()
        event.add("uid", f"evening-{evening.pk}@{host}")
        event.add("dtstamp", stamp)
        event.add("dtstart", times[0])
        event.add("dtend", times[1])
        summary = f"{club.name}: {evening.season.league.name}"
        if evening.is_cancelled:
            # Kept in the feed, marked so: a calendar that had it shows it cancelled.
            event.add("status", "CANCELLED")
            summary = _("Cancelled: %(what)s") % {"what": summary}
        event.add("summary", _ical_text(summary))
        if evening.venue:
            event.add("location", _ical_text(evening.venue))
        event.add("url", request.build_absolute_uri(evening.get_absolute_url()))
        calendar.add_component(event)
    response = HttpResponse(calendar.to_ical(), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{club.slug}.ics"'
    return response
