"""A club's people: the member list, adding one or many, a member's page, managing and merging
records, confirming addresses, and the e-mails about evenings a member turns off or on."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from leagues import access as acl
from leagues import charts, club_mail, confirmations, edits, history, reminders
from leagues.forms import (
    BulkMembersForm,
    MemberEmailForm,
    MemberForm,
    MergeForm,
    RenameForm,
    first_error,
    read_people,
    read_people_pairs,
)
from leagues.models import EntryError
from leagues.views.common import chart_view, say
from whistclub.replicas import reads_from_replica


def member_list(request, slug):
    access = acl.get_club_members(request, slug)
    form = MemberForm()
    members = list(access.club.members.filter(guest=False).select_related("user"))
    extra = {}
    if access.is_organiser:
        extra = history.invite_rows(access.club)
        asked = confirmations.last_asked(access.club)
        for member in members:
            member.asked_at = asked.get(member.pk)
            member.needs_asking = confirmations.needs_asking(member)
        unconfirmed = [m for m in members if m.needs_asking]
        extra.update(unconfirmed=unconfirmed, left_today=club_mail.left_today(access.club),
                     not_asked=len(confirmations.not_asked(access.club)) if unconfirmed else 0,
                     unconfirmed_words=confirmations.not_confirmed_words(unconfirmed)
                     if unconfirmed else "")
    return render(request, "leagues/members.html", {
        "access": access, "club": access.club, "form": form, **extra, "members": members})


@login_required
@require_POST
def member_add(request, slug):
    access = acl.get_club_for_organiser(request, slug)
    form = MemberForm(request.POST)
    if form.is_valid():
        member = edits.add_member(access.club, form.cleaned_data["name"],
                                  form.cleaned_data["role"], request.user,
                                  email=form.cleaned_data.get("email", ""))
        messages.success(request, _("%(name)s is now a member.") % {"name": member.name})
        say(request, confirmations.outcome_words(
            confirmations.ask(request, access.club, [member])))
    else:
        messages.error(request, first_error(form))
    return redirect("leagues:members", slug)


@login_required
def members_bulk(request, slug):
    """Many members at once: a list of names (or a CSV file) is read into a preview with the
    duplicates flagged; nothing is added until the organiser confirms the preview."""
    access = acl.get_club_for_organiser(request, slug)
    club = access.club
    if request.method == "POST" and request.POST.get("confirm"):
        names = request.POST.getlist("name")
        emails = request.POST.getlist("email")
        if not names or len(names) != len(emails):
            messages.error(request, _("The list was not received whole; nothing was added. "
                                      "Paste it again."))
            return redirect("leagues:members_bulk", slug)
        rows = read_people_pairs(names, emails, club)
        people = [(r["name"], r["email"]) for r in rows if not r["problem"]]
        added = edits.add_members(club, people, request.user)
        if added:
            messages.success(request, ngettext(
                "%(count)s member added: %(names)s.", "%(count)s members added: %(names)s.",
                len(added)) % {"count": len(added), "names": ", ".join(m.name for m in added)})
            # Nothing but the requests to confirm their addresses, within the daily limit.
            say(request, confirmations.outcome_words(confirmations.ask(request, club, added)))
        else:
            messages.info(request, _("Nobody was added: everyone on the list is already a "
                                     "member."))
        return redirect("leagues:members", slug)
    form = BulkMembersForm(request.POST or None, request.FILES or None)
    rows = None
    if request.method == "POST":
        if form.is_valid():
            rows = read_people(form.cleaned_data["lines"], club)
            # The list stays in the form under the preview, as pasted (a file's lines too),
            # to correct a line and check again, or to start again from it.
            form = BulkMembersForm(initial={"names": form.cleaned_data["text"]})
        else:
            messages.error(request, first_error(form))
    to_add = [r for r in rows or [] if not r["problem"]]
    return render(request, "leagues/members_bulk.html", {
        "access": access, "club": club, "form": form, "rows": rows, "to_add": to_add,
        "noted": sum(1 for r in to_add if r["note"]),
        "addresses": sum(1 for r in to_add if r["email"]),
        "left_today": club_mail.left_today(club)})


@reads_from_replica
def member_detail(request, slug, member_id):
    access, member = acl.get_member(request, slug, member_id)
    context = {"access": access, "club": access.club, "member": member,
               **history.member_history(member)}
    if access.member == member:
        # The address a calendar app follows: the club's own when it is public, else the
        # member's secret one (once they made it).
        if access.club.is_public:
            path = reverse("leagues:calendar", args=[access.club.slug])
        elif member.calendar_token:
            path = reverse("leagues:member_calendar",
                           args=[access.club.slug, member.calendar_token])
        else:
            path = ""
        # in the page's language: a calendar app asks for none (exports.calendar_ics)
        context["calendar_address"] = (request.build_absolute_uri(path)
                                       + f"?lang={translation.get_language()}") if path else ""
    return render(request, "leagues/member.html", context)


@chart_view
def member_chart(request, slug, member_id, league_id):
    """One league's chart of a member (their page shows one per league), for whoever may see
    the member's page."""
    access, member = acl.get_member(request, slug, member_id)
    league = get_object_or_404(access.club.leagues, pk=league_id)
    return charts.member_svg(member, league)


@login_required
def member_manage(request, slug, member_id):
    """An organiser renames a member, changes their role, retires or brings them back."""
    access, member = acl.get_member(request, slug, member_id, acl.ORGANISER)
    rename = RenameForm(request.POST if request.POST.get("action") == "rename" else None,
                        initial={"name": member.name})
    email = MemberEmailForm(request.POST if request.POST.get("action") == "email" else None,
                            initial={"email": member.email})
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "rename":
                if not rename.is_valid():
                    raise EntryError(first_error(rename))
                old = member.name
                edits.rename_member(member, rename.cleaned_data["name"], request.user)
                messages.success(request, _("%(before)s is now called %(after)s.")
                                 % {"before": old, "after": member.name})
            elif action == "email":
                if not email.is_valid():
                    raise EntryError(first_error(email))
                changed = edits.set_email(member, email.cleaned_data["email"], request.user)
                messages.success(request, _("Saved."))
                if changed:
                    say(request, confirmations.outcome_words(
                        confirmations.ask(request, access.club, [member])))
            elif action == "role":
                edits.set_role(member, request.POST.get("role", ""), request.user)
                member.refresh_from_db()
                messages.success(request, _("%(name)s is now an organiser.") % {
                    "name": member.name} if member.is_organiser else
                    _("%(name)s is now a member, no longer an organiser.") % {
                    "name": member.name})
            elif action in ("retire", "return"):
                edits.set_retired(member, action == "retire", request.user)
                messages.success(request, _("%(name)s is retired.") % {"name": member.name}
                                 if action == "retire" else
                                 _("%(name)s is back.") % {"name": member.name})
            else:
                raise EntryError(_("Choose what to change."))
        except EntryError as exc:
            messages.error(request, exc.message)
        return redirect("leagues:member_manage", slug, member.pk)
    return render(request, "leagues/member_manage.html", {
        "access": access, "club": access.club, "member": member, "rename": rename,
        "email": email, "merge": MergeForm(member)})


@login_required
def member_merge(request, slug, member_id):
    """Asks first (the other record chosen), then merges it into this member."""
    access, member = acl.get_member(request, slug, member_id, acl.ORGANISER)
    form = MergeForm(member, request.POST or request.GET or None)
    if not form.is_valid():
        messages.error(request, first_error(form) or _("Choose the member record to merge."))
        return redirect("leagues:member_manage", slug, member.pk)
    other = form.cleaned_data["other"]
    if request.method == "POST" and request.POST.get("confirm"):
        try:
            edits.merge_members(member, other, request.user)
        except EntryError as exc:
            messages.error(request, exc.message)
            return redirect("leagues:member_manage", slug, member.pk)
        messages.success(request, _("%(other)s is merged into %(kept)s.")
                         % {"other": other.name, "kept": member.name})
        return redirect(member)
    return render(request, "leagues/member_merge.html", {
        "access": access, "club": access.club, "member": member, "other": other,
        "seats": other.seats.count(), "answers": other.attendances.count()})


@login_required
@require_POST
def address_ask(request, slug, member_id):
    """An organiser sends a member's address the request to confirm it (again)."""
    access, member = acl.get_member(request, slug, member_id, acl.ORGANISER)
    if not confirmations.needs_asking(member):
        messages.info(request, _("%(name)s has nothing to confirm: no address, an address "
                                 "already confirmed, or they asked for no e-mails.")
                      % {"name": member.name})
    else:
        say(request, confirmations.outcome_words(
            confirmations.ask(request, access.club, [member])))
    return redirect("leagues:members", slug)


@login_required
@require_POST
def addresses_ask(request, slug):
    """An organiser sends the request to confirm to every address waiting for a yes that was
    never asked (what the daily limit held back is sent the next day)."""
    access = acl.get_club_for_organiser(request, slug)
    members = confirmations.not_asked(access.club)
    if not members:
        messages.info(request, _("Every address waiting for a yes has been asked once. Ask a "
                                 "member again from their line, at most once a day."))
    else:
        say(request, confirmations.outcome_words(
            confirmations.ask(request, access.club, members)))
    return redirect("leagues:members", slug)


def address_confirm(request, token):
    """The link in the request to confirm an address: says which club asks, and confirms on a
    button (a POST, so that a mail scanner following links says yes to nothing)."""
    member, problem = confirmations.read_token(token)
    if problem == confirmations.INVALID:
        return render(request, "leagues/address_confirm.html", {"invalid": True}, status=404)
    if problem is not None:
        return render(request, "leagues/address_confirm.html", {
            "member": member, "club": member.club, "problem": problem}, status=410)
    done = False
    if request.method == "POST":
        if not confirmations.confirm(member):
            return render(request, "leagues/address_confirm.html", {
                "member": member, "club": member.club, "problem": confirmations.CHANGED},
                status=410)
        done = True
    return render(request, "leagues/address_confirm.html", {
        "member": member, "club": member.club, "address": member.email_address, "done": done})


@login_required
@require_POST
def reminders_mine(request, slug, member_id):
    """A member turns the e-mails about evenings off or on from their own page: only the person
    the record belongs to (an organiser may not turn on what a member stopped)."""
    access, member = acl.get_own_member(request, slug, member_id)
    reminders.set_wanted(member, request.POST.get("reminders") == "on")
    messages.success(request, _("You will receive the e-mails about evenings.")
                     if member.reminders else _("You will receive no more e-mails about "
                                                "evenings."))
    return redirect(member)


@login_required
@require_POST
def calendar_address_mine(request, slug, member_id):
    """A member makes their secret calendar address, or a new one (the old one stops at once:
    a link they shared by mistake, a phone they lost): only the person the record is theirs."""
    access, member = acl.get_own_member(request, slug, member_id)
    replaced = bool(member.calendar_token)
    member.new_calendar_token()
    messages.success(request, _("Your new calendar address is below; the old one no longer "
                                "works.") if replaced else
                     _("Your calendar address is below: add it to your calendar app."))
    return redirect(member)


def reminders_stop(request, token):
    """The link at the foot of every e-mail about evenings: asks, then stops them (a POST, so
    that a mail scanner following links changes nothing)."""
    member, problem = reminders.member_of_stop_token(token)
    if problem == confirmations.INVALID:
        return render(request, "leagues/reminders_stop.html", {"invalid": True}, status=404)
    if problem == confirmations.CHANGED:
        return render(request, "leagues/reminders_stop.html", {"changed": True}, status=410)
    may_resume = reminders.may_resume(request, member)
    if request.method == "POST":
        resume = request.POST.get("action") == "resume"
        if resume and not may_resume:
            raise PermissionDenied
        reminders.set_wanted(member, resume)
        return render(request, "leagues/reminders_stop.html", {
            "member": member, "done": True, "may_resume": may_resume})
    return render(request, "leagues/reminders_stop.html", {"member": member,
                                                           "may_resume": may_resume})
