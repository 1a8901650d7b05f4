"""A season's calendar: its evenings created as a series, with a preview of the dates before
anything is saved, and an evening cancelled (kept on the calendar, marked so) or brought
back, the members told by e-mail."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from leagues import history, season_calendar
from leagues.forms import SeriesForm
from leagues.models import EntryError
from leagues.views.common import changes_a_season, changes_an_evening, say


def _initial(season) -> dict:
    """A series starts from the season's last evening: its day of the week, time and venue."""
    today = timezone.localdate()
    last = season.evenings.order_by("-date", "-start_time").first()
    if last is None:
        return {"weekday": today.weekday(), "first": today, "every_weeks": 1}
    return {"weekday": last.date.weekday(), "first": max(today, last.date
                                                          + datetime.timedelta(days=1)),
            "start_time": last.start_time, "venue": last.venue, "every_weeks": 1}


@login_required
@changes_a_season
def evening_series(request, access, season):
    """Organisers: a series of evenings.  "Show the dates" previews them, each a box to untick
    (a holiday); "Create N evenings" saves the ticked ones (days with an evening already are
    left as they are)."""
    form = SeriesForm(request.POST or None, initial=_initial(season))
    preview = None
    if request.method == "POST" and form.is_valid():
        dates = form.dates()
        taken = season_calendar.taken_dates(season, dates)
        if "create" in request.POST:
            ticked = set(request.POST.getlist("date"))
            if not ticked <= {d.isoformat() for d in dates}:
                messages.error(request, _("The dates changed since the preview: check them "
                                          "again. Nothing was added."))
            elif not ticked - {d.isoformat() for d in taken}:
                messages.error(request, _("Tick at least one date that has no evening yet. "
                                          "Nothing was added."))
            else:
                chosen = [d for d in dates if d.isoformat() in ticked and d not in taken]
                try:
                    new = season_calendar.create_series(
                        season, chosen, form.cleaned_data["start_time"],
                        form.cleaned_data["venue"].strip(), request.user)
                except EntryError as exc:
                    messages.error(request, exc.message)
                else:
                    messages.success(request, ngettext(
                        "%(count)s evening added to %(season)s.",
                        "%(count)s evenings added to %(season)s.", len(new))
                        % {"count": len(new), "season": season.name})
                    return redirect(season)
            ticked_dates = ticked
        else:
            ticked_dates = {d.isoformat() for d in dates}
        preview = [{"date": d, "taken": d in taken, "ticked": d.isoformat() in ticked_dates}
                   for d in dates]
    return render(request, "leagues/evening_series.html", {
        "access": access, "club": access.club, "season": season, "league": season.league,
        "form": form, "preview": preview,
        "new_count": sum(1 for p in preview or () if not p["taken"] and p["ticked"])})


@login_required
@changes_an_evening
def evening_cancel(request, access, evening):
    """Organisers: a page that says what cancelling does, then the cancellation (and the
    members told, when the box stays ticked)."""
    if request.method == "POST":
        try:
            removed = season_calendar.cancel_evening(evening, request.user)
        except EntryError as exc:
            messages.error(request, exc.message)
            return redirect(evening)
        evening.refresh_from_db()
        messages.success(request, _("The evening is cancelled. It stays on the calendar, "
                                    "marked cancelled."))
        if removed:
            messages.info(request, ngettext(
                "Its drawn table (no result yet) was removed.",
                "Its %(count)s drawn tables (no result yet) were removed.", len(removed))
                % {"count": len(removed)})
        if request.POST.get("tell_members") and not evening.is_past:
            say(request, season_calendar.tell_members(request, evening,
                                                      season_calendar.CANCELLED))
        return redirect(evening)
    tables = history.evening_tables(evening)
    return render(request, "leagues/evening_cancel.html", {
        "access": access, "club": access.club, "evening": evening,
        "league": evening.season.league, "tables": tables,
        "with_results": [t for t in tables if t["table"].entry],
        "cancel": evening.get_absolute_url()})


@login_required
@require_POST
@changes_an_evening
def evening_uncancel(request, access, evening):
    try:
        season_calendar.bring_back(evening, request.user)
    except EntryError as exc:
        messages.error(request, exc.message)
        return redirect(evening)
    evening.refresh_from_db()
    messages.success(request, _("The evening is on again."))
    if request.POST.get("tell_members") and not evening.is_past:
        say(request, season_calendar.tell_members(request, evening, season_calendar.BACK))
    return redirect(evening)
