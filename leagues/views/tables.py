"""An evening's tables: adding, changing and deleting one, and the printed score sheet of the
evening's tables (a table's results: ``leagues.views.entry``)."""

from __future__ import annotations

from functools import partial

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from leagues import access as acl
from leagues import edits, history, played_elsewhere
from leagues.views.common import changes_a_table, changes_an_evening, form_page, made, refused


@login_required
@changes_an_evening
def table_create(request, access, evening):
    if refused(request, evening.refuse_if_cancelled,
               partial(played_elsewhere.refuse_if_playing, evening)):
        return redirect(evening)
    form = _table_form(access, evening, request.POST or None)
    if request.method == "POST" and form.is_valid():
        seats, pairs = form.who_sits()
        made(request, lambda: edits.add_table(evening, seats, pairs, request.user),
             lambda table: _("Table %(number)s added.") % {"number": table.number})
        return redirect(evening)
    return form_page(request, form, _("New table"), access.club)


def _table_form(access, evening, data, table=None):
    """Who sits at a table of ``evening``: the two pairs of a match, or a member in each of the
    game's seats (the kind of score's form); ``table``: the table changed, its players shown
    first."""
    return evening.season.league.score_kind.table_form(access.club, evening, data, table)


@login_required
@changes_a_table(acl.get_table, acl.ORGANISER)
def table_edit(request, access, table):
    form = _table_form(access, table.evening, request.POST or None, table)
    if request.method == "POST" and form.is_valid():
        seats, pairs = form.who_sits()
        made(request, lambda: edits.edit_table(table, seats, pairs, request.user),
             lambda changed: _("Table saved.") if changed else _("Nothing changed."))
        return redirect(table)
    heading = (_("Change table %(number)s of round %(round)s") if table.evening.in_rounds
               else _("Change table %(number)s")) % {"number": table.number, "round": table.round}
    return form_page(request, form, heading, access.club,
                     intro=_("The table's deals and totals stay; they count for whoever sits in "
                             "each seat.") if table.entry else "")


@login_required
@changes_a_table(acl.get_table, acl.ORGANISER)
def table_delete(request, access, table):
    evening = table.evening
    if request.method == "POST":
        deleted = made(request, lambda: edits.delete_table(table, request.user),
                       (_("Table %(number)s of round %(round)s is deleted.")
                        if evening.in_rounds else _("Table %(number)s is deleted."))
                       % {"number": table.number, "round": table.round})
        return redirect(evening if deleted else table)
    sheet = history.table_sheet(table)
    return render(request, "leagues/confirm_delete.html", {
        "access": access, "club": access.club, "table": table, "names": table.sides(),
        "sheet": sheet, "sides": list(zip(table.sides(), sheet["totals"], strict=False)),
        "cancel": table.get_absolute_url()})


def score_sheet(request, slug, evening_id):
    access, evening = acl.get_evening(request, slug, evening_id)
    return render(request, "leagues/score_sheet.html", {
        "club": access.club, "evening": evening, "league": evening.season.league,
        "tables": history.evening_tables(evening),
        "lines": range(1, min(evening.deals_per_round or 30, 30) + 1)})
