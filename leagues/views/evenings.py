"""An evening: its page, changing or deleting it, who is coming (one answer, or the organisers'
sheet of three answers a member), the draw of its tables, and the organisers' e-mail about it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Q
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy
from django.views.decorators.http import require_POST

from leagues import access as acl
from leagues import (
    club_mail,
    confirmations,
    draw,
    edits,
    history,
    played_elsewhere,
    prizes,
    reminders,
    season_calendar,
    sit_outs,
)
from leagues.forms import (
    AttendanceForm,
    EveningChangeForm,
    EveningEmailForm,
    EveningForm,
    first_error,
)
from leagues.models import ClubChange, EntryError, Letter
from leagues.views.board import board_address
from leagues.views.common import (
    changes_a_season,
    changes_an_evening,
    closed,
    form_page,
    made,
    refused,
    say,
)


@login_required
@changes_a_season
def evening_create(request, access, season):
    league = season.league  # a new evening starts with the league's rounds
    form = EveningForm(request.POST or None, initial={
        "rounds": league.rounds, "deals_per_round": league.deals_per_round})
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            evening = form.save(commit=False)
            evening.season = season
            evening.save()
            # In the club's history as a series of one is.
            ClubChange.record(access.club, request.user, "evenings_add", None, {
                "season": season.name, "league": league.name,
                "dates": [evening.date.isoformat()],
                "time": evening.start_time.strftime("%H:%M") if evening.start_time else None,
                "venue": evening.venue})
        return redirect(evening)
    return form_page(request, form, _("New evening"), access.club)


def evening_detail(request, slug, evening_id):
    access, evening = acl.get_evening(request, slug, evening_id)
    attendances = evening.attendances.select_related("member").order_by("-coming", "member__name")
    if not access.sees_members:  # who comes, when and where: the club's members only
        attendances = attendances.none()
    if evening.is_past or evening.season.is_closed:  # "Who came": those who said no are not
        attendances = attendances.filter(coming=True).order_by("member__name")
    tables = history.evening_tables(evening)
    credits = sit_outs.evening_credits(evening)  # each round's, for a sit-out
    mine = None
    if access.member:
        mine = next((a for a in attendances if a.member_id == access.member.pk), None)
    return render(request, "leagues/evening.html", {
        "access": access, "club": access.club, "evening": evening,
        "league": evening.season.league, "attendances": attendances, "my_attendance": mine,
        "my_answer": "none" if mine is None else "yes" if mine.coming else "no",
        "answers": MY_ANSWER_BUTTONS,
        "head_count": sum(1 for a in attendances if a.coming),
        "counts": evening.attendance_counts() if access.sees_members else None,
        "tables": tables,
        "sitting_out": draw.sitting_out(evening) if access.sees_members else [],
        "sit_out_credits": credits,
        "sit_out_credit": credits.get(1, None) if credits else None,
        "may_draw_again": access.is_organiser and draw.may_draw_again(evening),
        # Played as an online event, say: no draw, no table by hand, while it is on.
        "played_elsewhere": played_elsewhere.playing(evening) if access.is_organiser else None,
        # Pairs: whoever is coming and cannot be drawn (a partner away), said in words.
        "not_drawn": draw.not_drawn(evening)
        if access.sees_members and not evening.is_cancelled else [],
        "board_address": board_address(request, evening) if access.is_organiser else "",
        **_prizes_context(access, evening),
        **(_rounds_context(access, evening, tables, credits) if evening.in_rounds else {})})


def _prizes_context(access, evening) -> dict:
    """The evening's prizes and its results, once every table has one (``leagues.prizes``)."""
    if (not access.sees_members  # who came is the club's members'
            or not prizes.offers_prizes(evening.season.league) or not evening.tables.exists()):
        return {}
    rounds_left = prizes.rounds_to_play(evening)
    waiting = prizes.waiting_tables(evening)
    if rounds_left or waiting:
        return {"prizes_waiting": True, "prizes_rounds_left": rounds_left,
                "prizes_waiting_tables": waiting}
    lines = prizes.evening_lines(evening)
    return {"prizes": prizes.prizes(evening, lines), "evening_lines": lines,
            "results_done": True, "results_sent": prizes.times_sent(evening),
            "results_reachable": len(reminders.recipients(
                evening, reminders.EVERYONE).reachable) if access.is_organiser else 0}


def _rounds_context(access, evening, tables, credits) -> dict:
    """An evening in rounds: its rounds, and what the organiser may draw next."""
    rounds = draw.rounds_of(evening, sees_members=access.sees_members, tables=tables)
    for item in rounds:
        item["credit"] = credits.get(item["number"])
    last = rounds[-1] if rounds else None
    waiting = [item["table"] for item in last["tables"] if not item["table"].entry] if last else []
    return {
        "rounds": rounds,
        "next_round": len(rounds) + 1 if len(rounds) < evening.rounds else None,
        "last_round": last["number"] if last else 0,
        "may_draw_round_again": bool(access.is_organiser and last
                                     and draw.may_draw_again(evening, last["number"])),
        "waiting_tables": waiting,
        "here": draw.players_here(evening) if access.sees_members else None,
        "left": evening.attendances.filter(left=True).select_related("member")
        if access.sees_members else []}


@login_required
@changes_an_evening
def evening_edit(request, access, evening):
    form = EveningChangeForm(request.POST or None, instance=evening)
    if request.method == "POST" and form.is_valid():
        fields = {k: form.cleaned_data[k]
                  for k in ("date", "start_time", "venue", "rounds", "deals_per_round")}
        evening.refresh_from_db()  # the form wrote its values on the instance
        before = edits.evening_facts(evening)
        try:
            changed = edits.edit_evening(evening, fields, request.user)
        except EntryError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Evening saved.") if changed else _("Nothing changed."))
            if ("date" in changed and form.cleaned_data["tell_members"]
                    and not evening.is_cancelled and not evening.is_past):
                say(request, season_calendar.tell_members(request, evening,
                                                          season_calendar.MOVED, before))
        return redirect(evening)
    return form_page(request, form, _("Change the evening"), access.club)


@login_required
@changes_an_evening
def evening_delete(request, access, evening):
    season = evening.season
    if request.method == "POST":
        deleted = made(request, lambda: edits.delete_evening(evening, request.user),
                       _("The evening is deleted."))
        return redirect(season if deleted else evening)
    tables = history.evening_tables(evening)
    return render(request, "leagues/confirm_delete.html", {
        "access": access, "club": access.club, "evening": evening, "tables": tables,
        "with_results": [t for t in tables if t["table"].entry],
        "answers": evening.attendances.count(), "cancel": evening.get_absolute_url()})


@login_required
@require_POST
def attendance(request, slug, evening_id):
    access, evening = acl.get_evening(request, slug, evening_id, acl.MEMBER)
    form = AttendanceForm(access.club, request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect(evening)
    member = access.member
    if access.is_organiser and form.cleaned_data["member"]:
        # Only organisers answer for someone else; a member's "member" field is ignored.
        member = form.cleaned_data["member"]
    if evening.is_past and not access.is_organiser:
        messages.error(request, _("This evening is over: an organiser keeps the list of who "
                                  "came."))
        return redirect(evening)
    if evening.is_cancelled:
        messages.error(request, _("This evening is cancelled: there is nothing to answer."))
        return redirect(evening)
    coming = form.answer
    try:
        evening.set_attendance(member, coming)
    except EntryError as exc:
        messages.error(request, exc.message)
        return redirect(evening)
    params = {"name": member.name}
    messages.success(request, _("%(name)s is coming.") % params if coming else
                     _("%(name)s is not coming.") % params if coming is False else
                     _("%(name)s has no answer.") % params)
    return redirect(evening)


# The three answers, one tap each: the value posted, and the words of its button.
ANSWER_BUTTONS = [("yes", gettext_lazy("Coming")), ("no", gettext_lazy("Not coming")),
                  ("none", gettext_lazy("No answer"))]


# The same three, on a member's own answer ("Are you coming?"): in the first person where a
# language says so ("Je viens", not "Vient").
MY_ANSWER_BUTTONS = [("yes", pgettext_lazy("my own answer", "Coming")),
                     ("no", pgettext_lazy("my own answer", "Not coming")),
                     ("none", pgettext_lazy("my own answer", "No answer"))]


def _answer(coming: bool | None) -> str:
    return "none" if coming is None else "yes" if coming else "no"


def _attendance_rows(evening, members=None) -> list[dict]:
    rows = {a.member_id: a for a in evening.attendances.all()}
    # Gone home between rounds: they came, and are not coming to the next rounds.
    answers = {pk: False if a.left else a.coming for pk, a in rows.items()}
    members = members if members is not None else evening.season.league.club.members.filter(
        Q(retired=False, guest=False) | Q(pk__in=list(answers)))
    return [{"member": m, "coming": answers.get(m.pk), "answered": m.pk in answers,
             "left": m.pk in rows and rows[m.pk].left,
             "answer": _answer(answers.get(m.pk))} for m in members]


@login_required
def attendance_sheet(request, slug, evening_id):
    """Organisers: every member with three answers, coming / not coming / no answer, one tap
    each.  Each tap is saved at once (htmx posts to :func:`attendance_row`); without
    JavaScript the Save button posts them all (all saved, or none when one is refused)."""
    access, evening = acl.get_evening(request, slug, evening_id, acl.ORGANISER)
    if evening.is_cancelled:
        messages.error(request, _("This evening is cancelled: there is nothing to answer."))
        return redirect(evening)
    if closed(request, evening.season):  # its answers are final (set_attendance refuses)
        return redirect(evening)
    if request.method == "POST":
        rows = _attendance_rows(evening)
        shown = {str(r["member"].pk) for r in rows}
        listed = set(request.POST.getlist("shown"))
        answers = {pk: request.POST.get(f"answer-{pk}") for pk in listed}
        if not listed <= shown or any(a not in (None, *AttendanceForm.ANSWERS)
                                      for a in answers.values()):
            messages.error(request, _("Choose members of this club; nothing was saved."))
            return redirect("leagues:attendance_sheet", slug, evening.pk)
        try:
            with transaction.atomic():
                for row in rows:
                    answer = answers.get(str(row["member"].pk))
                    if answer is not None and answer != row["answer"]:
                        evening.set_attendance(row["member"], AttendanceForm.ANSWERS[answer])
        except EntryError as exc:
            messages.error(request, exc.message + " " + _("Nothing was saved."))
            return redirect("leagues:attendance_sheet", slug, evening.pk)
        counts = evening.attendance_counts()
        messages.success(request, ngettext("Saved: %(count)s member coming.",
                                           "Saved: %(count)s members coming.", counts["coming"])
                         % {"count": counts["coming"]})
        return redirect(evening)
    rows = _attendance_rows(evening)
    return render(request, "leagues/attendance.html", {
        "access": access, "club": access.club, "evening": evening,
        "league": evening.season.league, "rows": rows, "answers": ANSWER_BUTTONS,
        "counts": evening.attendance_counts()})


@login_required
@require_POST
def attendance_row(request, slug, evening_id, member_id):
    """One answer saved (htmx): answers the member's updated row, and the head count."""
    access, evening = acl.get_evening(request, slug, evening_id, acl.ORGANISER)
    member = access.club.members.filter(pk=member_id).first()
    if member is None:
        return HttpResponse(_("Choose a member of this club."), status=404)
    if evening.is_cancelled:
        return HttpResponse(_("This evening is cancelled: there is nothing to answer."),
                            status=400)
    if member.retired and not evening.attendances.filter(member=member).exists():
        return HttpResponse(_("%(name)s is retired.") % {"name": member.name}, status=400)
    answer = request.POST.get(f"answer-{member.pk}")
    if answer not in AttendanceForm.ANSWERS:
        return HttpResponse(_("Say whether you are coming: yes or no."), status=400)
    refused = ""
    try:
        evening.set_attendance(member, AttendanceForm.ANSWERS[answer])
    except EntryError as exc:
        refused = exc.message
    row = _attendance_rows(evening, [member])[0]
    return render(request, "leagues/_attendance_row.html", {
        "club": access.club, "evening": evening, "saved": not refused, "refused": refused,
        "answers": ANSWER_BUTTONS, "row": row, "counts": evening.attendance_counts(),
        "oob": True})


@login_required
@require_POST
@changes_an_evening
def evening_draw(request, access, evening):
    if refused(request, evening.refuse_if_cancelled):
        return redirect(evening)
    again = bool(request.POST.get("again"))
    try:
        if evening.in_rounds:
            number = _whole_number(request.POST.get("round", ""))
            if number is None:
                raise EntryError(_("Say which round to draw; nothing was drawn."))
            tables, sitting_out = draw.draw_round(evening, request.user, number, again=again)
        else:
            tables, sitting_out = draw.draw_evening(
                evening, again_by=request.user if again else None)
    except EntryError as exc:
        messages.error(request, exc.message)
    else:
        if evening.in_rounds:
            messages.success(request, ngettext(
                "Round %(round)s: %(count)s table drawn.",
                "Round %(round)s: %(count)s tables drawn.", tables)
                % {"round": number, "count": tables})
        else:
            messages.success(request, _("%(count)s table(s) drawn.") % {"count": tables})
        fives = draw.five_seat_tables(evening, number if evening.in_rounds else None)
        if fives:
            messages.info(request, ngettext(
                "%(count)s table of five: the dealer sits out each deal.",
                "%(count)s tables of five: at each, the dealer sits out each deal.", fives)
                % {"count": fives})
        if sitting_out:
            messages.info(request, _("Sitting out: %(names)s") % {
                "names": ", ".join(str(m) for m in sitting_out)})
        for item in draw.not_drawn(evening):
            messages.info(request, item["words"])
            if evening.season.league.draws_five_seat_tables:
                messages.info(request, _("Tables of four and five cannot seat everyone here, so "
                                         "some sit out."))
    return redirect(evening)


def table_cards(request, slug, evening_id):
    """The evening's tables as cards to print and put on the tables: the round, the table's
    number, who sits there and the deals to play (``?round=2``: that round's alone)."""
    access, evening = acl.get_evening(request, slug, evening_id)
    number = _whole_number(request.GET.get("round", ""))
    if evening.in_rounds:
        rounds = draw.rounds_of(evening, sees_members=access.sees_members)
        if number is not None:
            rounds = [r for r in rounds if r["number"] == number]
    else:
        rounds = [{"number": 1, "tables": history.evening_tables(evening), "sitting_out": []}]
    return render(request, "leagues/table_cards.html", {
        "club": access.club, "evening": evening, "league": evening.season.league,
        "rounds": rounds, "back": evening.get_absolute_url()})


@login_required
def evening_email(request, slug, evening_id):
    """An organiser writes to the members about an evening (those coming, or everyone): the
    page suggests when, where and the draw; each member may stop these e-mails."""
    access, evening = acl.get_evening(request, slug, evening_id, acl.ORGANISER)
    if request.method == "POST" and "rest" in request.POST:
        # The rest of an e-mail the daily limit held back (or that members confirmed since).
        letter = Letter.objects.filter(evening=evening,
                                       pk=_whole_number(request.POST["rest"])).first()
        if letter is None:
            messages.error(request, _("This e-mail is not one of this evening's."))
        else:
            say(request, reminders.outcome_words(
                reminders.deliver(request, letter, reminders.waiting(letter))))
        return redirect("leagues:evening_email", slug, evening.pk)
    form = EveningEmailForm(request.POST or None, initial=reminders.suggested(evening))
    if request.method == "POST" and form.is_valid():
        outcome, people = reminders.send(request, evening, form.cleaned_data["who"],
                                         form.cleaned_data["subject"],
                                         form.cleaned_data["message"])
        said = reminders.outcome_words(outcome)
        said += [("info", text) for text in reminders.recipients_words(people)]
        say(request, said)
        return redirect(evening)
    people = {who: reminders.recipients(evening, who)
              for who in (reminders.COMING, reminders.EVERYONE)}
    unconfirmed = people[reminders.EVERYONE].unconfirmed
    return render(request, "leagues/evening_email.html", {
        "access": access, "club": access.club, "evening": evening, "form": form,
        "reachable": {who: len(p.reachable) for who, p in people.items()},
        "unconfirmed_words": confirmations.not_confirmed_words(unconfirmed)
        if unconfirmed else "",
        "waiting": reminders.waiting_letters(evening),
        "left_today": club_mail.left_today(access.club)})


@login_required
@require_POST
def evening_results_send(request, slug, evening_id):
    """The organiser sends the evening's results and prizes to the members, once every table
    has a result (``leagues.prizes``); refused in words otherwise, nothing sent."""
    access, evening = acl.get_evening(request, slug, evening_id, acl.ORGANISER)
    try:
        outcome, people = reminders.send_results(
            request, evening, _whole_number(request.POST.get("seen", "")))
    except EntryError as exc:
        messages.error(request, exc.message)
        return redirect(evening)
    said = reminders.outcome_words(outcome)
    said += [("info", text) for text in reminders.recipients_words(people)]
    say(request, said)
    return redirect(evening)


def _whole_number(value: str) -> int | None:
    return int(value) if value.isdigit() and len(value) < 12 else None
