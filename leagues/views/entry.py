"""A table's results: the table's page with its score sheet, entering, correcting and confirming
deals and totals, and playing the table online (adding, changing and deleting a table:
``leagues.views.tables``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from leagues import access as acl
from leagues import guests, history, online
from leagues.forms import (
    OnlineTableForm,
    SubstituteForm,
    TotalsForm,
    deal_entry_form,
    deal_form,
    deal_form_class,
)
from leagues.models import (
    DuplicateDeal,
    EndsTheMatch,
    EntryError,
    EveningTable,
    OnlineFixture,
    ResultChange,
)
from leagues.views.common import (
    changes_a_table,
    closed,
    made,
    refused,
)


def table_detail(request, slug, table_id):
    access, table = acl.get_table(request, slug, table_id)
    return render_table(request, access, table)


def render_table(request, access, table, *, form=None, entered=None, ends_the_match=False,
                 totals_form=None, substitute_form=None):
    """The table's page: its score sheet, and the next deal's form for those who may enter one
    (``form``: the one just sent, with its errors and what was typed; ``entered``: the sentence
    saying which deal was just entered, shown beside the form; ``substitute_form``: the
    substitute refused, as typed, with what is wrong)."""
    may_enter = acl.may_enter_results(access, table)
    names = table.sides()
    fixture = _online_fixture(table)
    # While the online table plays, its hands are the table's deals: no paper entry meanwhile.
    may_enter = may_enter and not (fixture and not fixture.is_complete)
    sheet = history.table_sheet(table)
    if not (may_enter and table.entry != EveningTable.Entry.TOTALS):
        form = None
    elif form is None and table.sheet.accepts_another_hand(
            table, list(table.deals.order_by("number").values_list("facts", flat=True))):
        # Its buttons name whoever plays the next deal: a substitute from their deal on.
        number = len(sheet["rows"]) + 1
        form = deal_entry_form(table.league, table.names_at(number), number=number,
                               sits_out=_next_sitter(sheet, names))
    plan = _deal_plan(table, len(sheet["rows"])) if form is not None else None
    # The next deal is typed at once; not a deal more than the round has, folded behind a word.
    if entered and form is not None and not (plan and plan["done"]):
        next(iter(form.visible_fields())).field.widget.attrs["autofocus"] = True
    substitutes = _substitutes_context(access, table, names, fixture, substitute_form)
    return render(request, "leagues/table.html", {
        "entered": entered, "ends_the_match": ends_the_match, "plan": plan,
        "totals_by_name": _totals_by_name(names, sheet, substitutes["spells"]),
        "access": access, "club": access.club, "table": table, "league": table.league,
        "names": names, "sheet": sheet, "form": form, "may_enter": may_enter,
        # a match's winner: a pair or a player, by its column on the sheet
        "winner": names[table.winner] if table.league.score_kind.has_a_winner
        and table.winner is not None else None,
        **_provisional_context(access, table, sheet),
        "undo": _undo(request, access, table),
        "correctable": access.is_organiser and not table.evening.season.is_closed,
        # ``totals_form``: the totals just sent and refused, as typed, with what is wrong
        "totals_form": (totals_form or TotalsForm(names, initial=_totals_entered(table)))
        if may_enter and not table.deals.exists() else None,
        **_online_context(request, access, table, fixture),
        **substitutes})


def _totals_entered(table) -> dict | None:
    """A table entered as totals: its totals in their form, to correct one (a total typed in
    the wrong player's box, which still adds up) without typing them all again."""
    if table.entry != EveningTable.Entry.TOTALS:
        return None
    return {f"total_{index}": format(total.normalize(), "f")
            for index, total in enumerate(table.league.score_kind.totals(table))
            if total is not None}


def _deal_plan(table, entered: int) -> dict | None:
    """Where the table is in its round's deals (``Evening.deals_per_round``), for a kind of
    score played to a number of deals (a match is played to its target): the form's heading
    ("Deal 2 of 3"), and once they are all entered what the page says instead of offering the
    next deal ("Round 1 done: 3 of 3 deals", what comes next, and a deal more behind a word)."""
    evening = table.evening
    planned = evening.deals_per_round
    if not planned or not table.league.score_kind.asks_number_of_deals:
        return None
    plan = {"planned": planned, "next": entered + 1, "done": entered >= planned,
            "in_rounds": evening.in_rounds}
    params = {"round": table.round, "count": entered, "planned": planned,
              "more": entered - planned, "next": table.round + 1, "number": entered + 1}
    if not plan["done"]:
        plan["heading"] = _("Deal %(number)s of %(planned)s") % params
        return plan
    if evening.in_rounds and entered == planned:
        heading = ngettext("Round %(round)s done: %(count)s of %(planned)s deal",
                           "Round %(round)s done: %(count)s of %(planned)s deals", planned)
    elif evening.in_rounds:
        heading = ngettext("Round %(round)s done: %(count)s deals, %(more)s more than the "
                           "round's %(planned)s",
                           "Round %(round)s done: %(count)s deals, %(more)s more than the "
                           "round's %(planned)s", entered - planned)
    elif entered == planned:
        heading = ngettext("Table done: %(count)s of %(planned)s deal",
                           "Table done: %(count)s of %(planned)s deals", planned)
    else:
        heading = ngettext("Table done: %(count)s deals, %(more)s more than the %(planned)s "
                           "planned",
                           "Table done: %(count)s deals, %(more)s more than the %(planned)s "
                           "planned", entered - planned)
    if evening.in_rounds and table.round < evening.rounds:
        next_step = _("Players change tables for round %(next)s: the evening's page lists "
                      "its tables once it is drawn.")
    elif evening.in_rounds:
        next_step = _("That was the evening's last round: its results and prizes are on the "
                      "evening's page once every table is entered.")
    else:
        next_step = _("The evening's results and prizes are on its page once every table is "
                      "entered.")
    if evening.in_rounds:
        more = ngettext("Every table of the round plays %(planned)s deal: enter another only "
                        "if this table played it. It counts in the standings like the others.",
                        "Every table of the round plays %(planned)s deals: enter another only "
                        "if this table played it. It counts in the standings like the others.",
                        planned)
    else:
        more = ngettext("Every table plays %(planned)s deal this evening: enter another only "
                        "if this table played it. It counts in the standings like the others.",
                        "Every table plays %(planned)s deals this evening: enter another only "
                        "if this table played it. It counts in the standings like the others.",
                        planned)
    plan.update(heading=heading % params, next_step=next_step % params,
                more=_("The table played a deal more? Enter deal %(number)s") % params,
                more_help=more % params)
    return plan


def _totals_by_name(names, sheet, spells) -> list[tuple[str, object]]:
    """"Totals so far", a name and a balance each: a seat a substitute took is split between
    its players by the deals each played, as the standings count them."""
    if spells is None:
        return list(zip(names, sheet["totals"], strict=False))
    return [(spell["member"].name, spell["total"]) for seat in spells for spell in seat]


def _next_sitter(sheet, names) -> int:
    """At a five-seat table, who the next deal's form offers as sitting out: the dealer, the
    seat after the last deal's (the deal passes to the left); seat 1 deals the first deal."""
    last = sheet["rows"][-1]["sits_out"] if sheet["rows"] else None
    return 0 if last is None else (last + 1) % len(names)


def offers_substitutes(access, table, fixture=None) -> bool:
    """Whether the table's page offers this viewer the substitute's form: an organiser, a
    running balance entered deal by deal, an open season, not while it plays online."""
    fixture = _online_fixture(table) if fixture is None else fixture
    return (access.is_organiser and table.league.score_kind.takes_substitutes
            and not table.evening.season.is_closed
            and table.entry != EveningTable.Entry.TOTALS
            and not (fixture and not fixture.is_complete))


def _substitutes_context(access, table, names, fixture, form=None) -> dict:
    """Who played each seat when a substitute took one (the sheet's headings say so), and the
    organisers' form to name a substitute (a running balance entered deal by deal, not while
    it plays online; ``form``: the one just refused)."""
    spells = guests.seat_players(table) if table.substitutes.exists() else None
    # a line each: the seat's player, then "→ Sam (from deal 3)" for each substitute
    headings = [[name] if spells is None else [name] + ["→ " + _(
        "%(name)s (from deal %(number)s)") % {"name": p["member"].name,
                                             "number": p["from_deal"]} for p in spells[i][1:]]
        for i, name in enumerate(names)]
    takes = offers_substitutes(access, table, fixture)
    return {"spells": spells, "headings": headings,
            "spell_lines": [history.seat_spells_line(guests.spells_json(seat))
                            for seat in spells or () if len(seat) > 1],
            "substitutes": list(table.substitutes.select_related("member")) if spells else [],
            "substitute_form": (form or SubstituteForm(
                table, guests.free_to_substitute(table, access.club))) if takes else None}


def _undo(request, access, table) -> ResultChange | None:
    """Right after a deletion (``?undo=<change>``), the organiser's "Undo": the deletion, if it
    is this table's and the deal is not back yet."""
    change_id = request.GET.get("undo", "")
    if not (access.is_organiser and change_id.isdigit() and len(change_id) < 12):
        return None
    return ResultChange.objects.filter(table=table, pk=int(change_id), action="delete",
                                       restored_by__isnull=True).first()


def _numbers(numbers) -> str:
    return ", ".join(str(n) for n in numbers)


def _provisional_context(access, table, sheet) -> dict:
    """Which results wait for a confirmation, who entered each, and what this viewer's confirm
    button confirms, in plain words.  Adds a ``provisional_note`` to each waiting deal's row."""
    if not table.is_provisional:
        return {"confirm": None}
    viewer = access.member
    mine = table.confirmable(viewer)
    members = table.seat_members()

    def note(author, by_you: str, by_other: str, params: dict) -> str:
        # Each sentence in a _() call of its own: makemessages does not look inside f-strings.
        if author is not None and viewer is not None and author.pk == viewer.pk:
            return by_you % params + " " + _("An opponent of yours confirms it.")
        name = author.identity if author else _("a member no longer in the club")
        text = by_other % {**params, "name": name}
        if viewer is not None and table.may_confirm_entry(author, viewer, members):
            return text + " " + _("You may confirm it.")
        return text + " " + _("An opponent of theirs, or an organiser, confirms it.")

    totals_note = None
    if table.entry == EveningTable.Entry.TOTALS:
        totals_note = note(table.totals_entered_by,
                           _("The totals are provisional, entered by you."),
                           _("The totals are provisional, entered by %(name)s."), {})
    else:
        for row in sheet["rows"]:
            deal = row["deal"]
            if deal.provisional:
                row["provisional_note"] = note(
                    deal.entered_by_member,
                    _("Deal %(number)s is provisional, entered by you."),
                    _("Deal %(number)s is provisional, entered by %(name)s."),
                    {"number": deal.number})
    button = explain = None
    if mine.totals:
        button = _("Confirm the totals")
    elif mine.deals:
        button = ngettext("Confirm deal %(numbers)s", "Confirm deals %(numbers)s",
                          len(mine.deals)) % {"numbers": _numbers(mine.deals)}
    if button:
        if access.is_organiser:
            explain = _("As an organiser you may confirm every provisional result here; "
                        "confirmed results count in the standings.")
        else:
            explain = _("This confirms only what an opponent of yours entered; confirmed "
                        "results count in the standings.")
    return {"confirm": {"button": button, "explain": explain, "totals_note": totals_note}}


def _online_fixture(table) -> OnlineFixture | None:
    return OnlineFixture.objects.select_related("game_table").filter(table=table).first()


def _online_context(request, access, table, fixture) -> dict:
    """The online table of this evening table: its state and who plays each seat for everyone
    who can see the table; the link for members; the start form for organisers."""
    if fixture is None:
        may_start = access.is_organiser and not table.entry and (
            len(table.seat_members()) <= table.league.game_description.seats)  # not of five
        return {"online": None, "online_form": OnlineTableForm(
            table, table.seat_members()) if may_start else None}
    game_table = fixture.game_table
    invite_url = None
    if access.is_member:
        invite_url = request.build_absolute_uri(
            reverse("table_invite", args=[game_table.pk, game_table.invite_token]))
    return {"online": fixture, "online_table": game_table, "online_invite_url": invite_url,
            "online_seats": online.seat_infos(fixture, table.seat_members()),
            "online_problems": fixture.hands.exclude(error="").select_related("hand")
            if access.is_organiser else []}


@login_required
@changes_a_table(acl.get_table, acl.ORGANISER)
def online_start(request, access, table):
    """Organisers' "Play this table online": a private online table with the house rules."""
    # Not ``request.POST or None``: a form of checkboxes only may well post nothing at all.
    form = OnlineTableForm(table, table.seat_members(),
                           request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            fixture = online.start_online(
                table, request.user, deals_limit=form.cleaned_data.get("deals"),
                computer_seats=form.computer_seats,
                computer_level=form.cleaned_data.get("computer_level") or "normal")
        except EntryError as exc:
            messages.error(request, exc.message)
            return redirect(table)
        messages.success(request, _("Online table #%(number)s is open; its hands are recorded "
                                    "here as they finish.") % {"number": fixture.game_table_id})
        return redirect(table)
    return render(request, "leagues/online_form.html", {
        "form": form, "club": access.club, "table": table,
        "heading": _("Play table %(number)s online") % {"number": table.number}})


@login_required
@require_POST
def deal_add(request, slug, table_id):
    access, table = acl.get_table_for_entry(request, slug, table_id)
    if refused(request, table.refuse_while_online, table.evening.season.refuse_if_closed):
        return redirect(table)
    number = request.POST.get("number", "")
    names = table.names_at(int(number)) if number.isdigit() and len(number) < 6 else (
        table.sides())
    form = deal_entry_form(table.league, names, request.POST)
    if form.is_valid():
        try:
            deal = table.add_deal(form.facts, request.user, access.member,
                                  number=form.cleaned_data["number"],
                                  may_end_the_match=bool(request.POST.get("ends_the_match")))
        except EndsTheMatch:
            return render_table(request, access, table, form=form, ends_the_match=True)
        except DuplicateDeal as exc:
            return _entered(request, access, table, exc.message)
        except EntryError as exc:
            form.add_error(None, exc.message)  # the engine's refusal, above the fields
        else:
            return _entered(request, access, table,
                            _("Deal %(number)s entered.") % {"number": deal.number})
    elif "number" in form.errors:
        form.add_error(None, _("This deal form is out of date: reload the table page and "
                               "enter the deal again."))
    # The form comes back as it was sent, each error beside its field; nothing was entered.
    # (A 200, as every form of the site answers, and the one status htmx swaps in.)
    return render_table(request, access, table, form=form)


def _entered(request, access, table, said: str):
    """After a deal: from the page's script, the sheet and a fresh form in place (no reload);
    without it, the table's page again, as after any form."""
    if request.htmx:
        # The entry wrote the table's scores and winner on a locked copy of its row: read them
        # again, or the Total row and the match's end lag one hand behind the sheet.
        table.refresh_from_db()
        return render_table(request, access, table, entered=said)
    messages.success(request, said)
    return redirect(table)


@login_required
def deal_edit(request, slug, table_id, number):
    access, table = acl.get_table(request, slug, table_id, acl.ORGANISER)
    deal = get_object_or_404(table.deals, number=number)
    if closed(request, table.evening.season):
        return redirect(table)
    names = table.names_at(number)  # whoever played this deal, a substitute's seat theirs
    form = deal_form(table.league, names, request.POST or None,
                     initial=deal_form_class(table.league.game).initial_from(deal.facts))
    if request.method == "POST" and request.POST.get("delete"):
        # Deleting asks first, on a page of its own (a form of an older page lands there).
        return redirect("leagues:deal_delete", slug, table.pk, number)
    if request.method == "POST":
        try:
            if form.is_valid():
                table.change_deal(number, form.facts, request.user, access.member)
                messages.success(request, _("Deal %(number)s corrected.") % {"number": number})
                return redirect(table)
        except EntryError as exc:
            messages.error(request, exc.message)
    return render(request, "leagues/deal_edit.html", {
        "club": access.club, "table": table, "deal": deal, "form": form})


@login_required
def deal_delete(request, slug, table_id, number):
    """"Delete deal 4 of table 2?": the deal in words, and a button; the deletion can be undone
    (the table's page right after, or the club's history)."""
    access, table = acl.get_table(request, slug, table_id, acl.ORGANISER)
    deal = get_object_or_404(table.deals, number=number)
    if closed(request, table.evening.season):
        return redirect(table)
    if request.method == "POST":
        expected = request.POST.get("deal", "")
        try:
            change = table.change_deal(number, None, request.user, access.member,
                                       expected=int(expected) if expected.isdigit()
                                       and len(expected) < 12 else -1)
        except EntryError as exc:
            messages.error(request, exc.message)
            return redirect(table)
        # Said by the table's page, beside its Undo button.
        return redirect(reverse("leagues:table", args=[slug, table.pk]) + f"?undo={change.pk}")
    names = table.names_at(number)
    return render(request, "leagues/deal_delete.html", {
        "club": access.club, "table": table, "deal": deal,
        "line": history.describe_deal(table.league.game, deal.facts, names),
        "points": [{"name": name, "points": p} for name, p in zip(
            names, history.table_sheet_points(deal), strict=False)]})


@login_required
@require_POST
@changes_a_table(acl.get_table, acl.ORGANISER)
def deal_restore(request, access, table, change_id):
    """Undoes a deal's deletion: the deal back as it was (from the table's page right after the
    deletion, or from the deletion's line in the club's history)."""
    made(request, lambda: table.restore_deal(change_id, request.user),
         lambda deal: _("Deal %(number)s restored.") % {"number": deal.number})
    return redirect(table)


@login_required
@require_POST
@changes_a_table(acl.get_table_for_entry)
def totals(request, access, table):
    if request.POST.get("clear"):
        if not access.is_organiser:
            raise PermissionDenied
        table.clear_totals(request.user)
        messages.success(request, _("Totals cleared."))
        return redirect(table)
    if refused(request, table.refuse_while_online):
        return redirect(table)
    form = TotalsForm(table.sides(), request.POST)
    if not form.is_valid():
        form.add_error(None, _("Enter a number for every total."))
    else:
        try:
            table.set_totals(form.totals, request.user, access.member)
        except EntryError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Totals saved."))
            return redirect(table)
    # Refused: the page again with the totals as typed and what is wrong above them (nothing
    # was saved); a redirect would have lost the four numbers.
    return render_table(request, access, table, totals_form=form)


@login_required
@require_POST
@changes_a_table(acl.get_table_for_confirming)
def table_confirm(request, access, table):
    try:
        done = table.confirm(request.user, access.member)
    except EntryError as exc:
        messages.error(request, exc.message)
        return redirect(table)
    if done.totals:
        messages.success(request, _("Totals confirmed."))
    else:
        messages.success(request, ngettext("Deal %(numbers)s confirmed.",
                                           "Deals %(numbers)s confirmed.", len(done.deals))
                         % {"numbers": _numbers(done.deals)})
    return redirect(table)


def table_changes(request, slug, table_id):
    access, table = acl.get_table(request, slug, table_id)
    return render(request, "leagues/changes.html", {"club": access.club, "table": table,
                                                    "rows": history.change_rows(table),
                                                    "access": access})
