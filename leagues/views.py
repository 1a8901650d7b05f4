"""Club and league pages.  Every object comes through :mod:`leagues.access`; every change of a
result goes through a model method that locks, checks, writes and audits."""

from __future__ import annotations

import csv
import io

from csp.decorators import csp_update
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from games.forms import rules_in_words
from leagues import access as acl
from leagues import (
    charts,
    club_mail,
    confirmations,
    draw,
    edits,
    exports,
    history,
    online,
    reminders,
)
from leagues.forms import (
    AttendanceForm,
    BidTableForm,
    BulkMembersForm,
    CloseSeasonForm,
    ClubForm,
    EveningEmailForm,
    EveningForm,
    HouseRulesForm,
    InviteForm,
    LeagueForm,
    MemberEmailForm,
    MemberForm,
    MergeForm,
    OnlineTableForm,
    PartnershipForm,
    PlayersTableForm,
    RenameForm,
    SeasonForm,
    TotalsForm,
    deal_entry_form,
    deal_form,
    deal_form_class,
    first_error,
    read_people,
)
from leagues.models import (
    Attendance,
    Club,
    DuplicateDeal,
    EntryError,
    Evening,
    EveningTable,
    Invite,
    Letter,
    OnlineFixture,
)
from leagues.standings import season_standings
from whistclub.replicas import reads_from_replica


def club_list(request):
    mine = Club.objects.none()
    if request.user.is_authenticated:
        mine = Club.objects.filter(members__user=request.user)
    public = Club.objects.filter(is_public=True).exclude(pk__in=mine.values("pk"))
    return render(request, "leagues/club_list.html", {"mine": mine, "public": public})


@login_required
def club_create(request):
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        club = Club.create_with_organiser(request.user, **form.cleaned_data)
        messages.success(request, _("Your club is ready. You are its organiser."))
        return redirect(club)
    return render(request, "leagues/form.html", {"form": form, "heading": _("New club")})


def club_detail(request, slug):
    access = acl.get_club_for_viewer(request, slug)
    leagues = access.club.leagues.prefetch_related("seasons")
    evenings = _upcoming_evenings(access.club)[:10]
    return render(request, "leagues/club.html", {"access": access, "club": access.club,
                                                 "leagues": leagues, "evenings": evenings})


def _upcoming_evenings(club):
    return (Evening.objects.filter(season__league__club=club, date__gte=timezone.localdate())
            .select_related("season__league").order_by("date", "start_time"))


@login_required
def club_edit(request, slug):
    access = acl.get_club_for_organiser(request, slug)
    form = ClubForm(request.POST or None, instance=access.club)
    if request.method == "POST" and form.is_valid():
        edits.change_club(access.club, form.cleaned_data, request.user)
        messages.success(request, _("Saved."))
        return redirect(access.club)
    return render(request, "leagues/form.html", {"form": form, "heading": _("Club settings"),
                                                 "club": access.club})


def member_list(request, slug):
    access = acl.get_club_members(request, slug)
    form = MemberForm()
    members = list(access.club.members.select_related("user"))
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


def _say(request, said: list[tuple[str, str]]) -> None:
    for level, text in said:
        getattr(messages, level)(request, text)


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
        _say(request, confirmations.outcome_words(
            confirmations.ask(request, access.club, [member])))
    else:
        messages.error(request, first_error(form))
    return redirect("leagues:members", slug)


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
        _say(request, confirmations.outcome_words(
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
        _say(request, confirmations.outcome_words(
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
def invite_create(request, slug):
    """A club-wide join link, or (with ``member``) a link that claims that member's record."""
    access = acl.get_club_for_organiser(request, slug)
    form = InviteForm(access.club, request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("leagues:members", slug)
    member = form.cleaned_data["member"]
    invite = Invite.objects.create(club=access.club, member=member, created_by=request.user)
    link = request.build_absolute_uri(invite.get_absolute_url())
    messages.success(request, _("Invite link: %(link)s") % {"link": link})
    return redirect("leagues:members", slug)


@login_required
def invite_renew(request, slug, invite_id):
    """Asks first (GET), then revokes the link and makes a new one for the same purpose."""
    return _invite_change(request, slug, invite_id, renew=True)


@login_required
def invite_revoke(request, slug, invite_id):
    """Asks first (GET), then the link stops working."""
    return _invite_change(request, slug, invite_id, renew=False)


def _invite_change(request, slug, invite_id, renew: bool):
    access, invite = acl.get_invite(request, slug, invite_id)
    if not invite.is_usable:
        messages.error(request, _("This invite link is no longer valid: it was already revoked, "
                                  "renewed or used."))
        return redirect("leagues:members", slug)
    if request.method != "POST":
        return render(request, "leagues/invite_confirm.html", {
            "access": access, "club": access.club, "invite": invite, "renew": renew})
    try:
        if renew:
            new = invite.renew(request.user)
        else:
            invite.revoke(request.user)
    except ValidationError as exc:
        messages.error(request, exc.messages[0])
        return redirect("leagues:members", slug)
    if renew:
        link = request.build_absolute_uri(new.get_absolute_url())
        messages.success(request, _("The old link no longer works. New invite link: %(link)s")
                         % {"link": link})
    else:
        messages.success(request, _("The invite link no longer works."))
    return redirect("leagues:members", slug)


def join(request, token):
    invite = Invite.objects.select_related("club", "member").filter(token=token).first()
    if invite is None:
        # Said in words: a mistyped or cut link should not look like a broken site.
        return render(request, "leagues/join.html", {"invite": None, "unknown": True},
                      status=404)
    if invite.is_revoked:
        return render(request, "leagues/join.html", {"invite": invite, "revoked": True},
                      status=410)
    if not invite.is_usable:
        return render(request, "leagues/join.html", {"invite": invite, "used": True}, status=410)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{_login_url()}?next={request.path}")
        try:
            invite.accept(request.user)
        except ValidationError as exc:
            messages.error(request, exc.messages[0])
            return redirect("leagues:join", token)
        messages.success(request, _("Welcome to %(club)s!") % {"club": invite.club.name})
        return redirect(invite.club)
    return render(request, "leagues/join.html", {"invite": invite})


def _login_url():
    return resolve_url(settings.LOGIN_URL)


# An SVG shown as an image runs no script; pygal styles it with its own <style>, allowed on
# these responses only.
SVG_POLICY = {"style-src": ["'unsafe-inline'"]}


def svg_response(text: str) -> HttpResponse:
    response = HttpResponse(text, content_type="image/svg+xml; charset=utf-8")
    response["Cache-Control"] = "private, no-cache"
    return response


@csp_update(SVG_POLICY)
@reads_from_replica
def member_chart(request, slug, member_id, league_id):
    """One league's chart of a member (their page shows one per league), for whoever may see
    the member's page."""
    access, member = acl.get_member(request, slug, member_id)
    league = get_object_or_404(access.club.leagues, pk=league_id)
    return svg_response(charts.member_svg(member, league))


@csp_update(SVG_POLICY)
@reads_from_replica
def pair_chart(request, slug, pair_id):
    """A pair's score in each match, for whoever may see the pair's page."""
    access, pair = acl.get_partnership(request, slug, pair_id)
    return svg_response(charts.pair_svg(pair))


@csp_update(SVG_POLICY)
@reads_from_replica
def season_chart(request, slug, season_id):
    """The season's totals by evening, for whoever may see the season."""
    access, season = acl.get_season(request, slug, season_id)
    return svg_response(charts.season_svg(season))


@reads_from_replica
def member_detail(request, slug, member_id):
    access, member = acl.get_member(request, slug, member_id)
    context = {"access": access, "club": access.club, "member": member,
               **history.member_history(member)}
    return render(request, "leagues/member.html", context)


# -- leagues and seasons ----------------------------------------------------------------------


@login_required
def league_create(request, slug):
    access = acl.get_club_for_organiser(request, slug)
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        league = form.save(commit=False)
        league.club = access.club
        league.save()
        messages.success(request, _("League created. Check its house rules."))
        return redirect("leagues:league_rules", slug, league.pk)
    return render(request, "leagues/form.html", {"form": form, "heading": _("New league"),
                                                 "club": access.club})


@reads_from_replica
def league_detail(request, slug, league_id):
    access, league = acl.get_league(request, slug, league_id)
    return render(request, "leagues/league.html", {
        "access": access, "club": access.club, "league": league,
        "seasons": league.seasons.all(), "rules": rules_in_words(league.game, league.rules)})


@login_required
def league_edit(request, slug, league_id):
    access, league = acl.get_league(request, slug, league_id, acl.ORGANISER)
    form = LeagueForm(request.POST or None, instance=league)
    if request.method == "POST" and form.is_valid():
        edits.change_league(league, form.cleaned_data, request.user)
        messages.success(request, _("Saved."))
        return redirect(league)
    return render(request, "leagues/form.html", {"form": form, "heading": league.name,
                                                 "club": access.club})


@login_required
def league_rules(request, slug, league_id):
    access, league = acl.get_league(request, slug, league_id, acl.ORGANISER)
    form = HouseRulesForm(league.game, league.rules, request.POST or None)
    if request.method == "POST" and form.is_valid():
        edits.change_house_rules(league, form.overrides, request.user)
        messages.success(request, _("House rules saved."))
        return redirect(league)
    return render(request, "leagues/form.html", {
        "form": form, "heading": _("House rules of %(league)s") % {"league": league.name},
        "club": access.club})


@login_required
def season_create(request, slug, league_id):
    access, league = acl.get_league(request, slug, league_id, acl.ORGANISER)
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        season = form.save(commit=False)
        season.league = league
        season.save()
        return redirect(season)
    return render(request, "leagues/form.html", {"form": form, "heading": _("New season"),
                                                 "club": access.club})


@reads_from_replica
def season_detail(request, slug, season_id):
    access, season = acl.get_season(request, slug, season_id)
    league = season.league
    # A closed season played with rules the league has changed since says which they were.
    closed_rules = (rules_in_words(league.game, season.house_rules)
                    if season.is_closed and season.house_rules != league.rules else None)
    return render(request, "leagues/season.html", {
        "access": access, "club": access.club, "season": season, "league": league,
        "options": season.standings_options, "closed_rules": closed_rules,
        "rows": season_standings(season), "evenings": season.evenings.all(),
        "chart_caption": charts.season_caption(season)})


@reads_from_replica
def standings_csv(request, slug, season_id):
    access, season = acl.get_season(request, slug, season_id)
    return exports.standings_csv(season, season_standings(season))


@reads_from_replica
def results_csv(request, slug, season_id):
    access, season = acl.get_season(request, slug, season_id)
    return exports.results_csv(season)


@login_required
def partnership_create(request, slug, season_id):
    access, season = acl.get_season(request, slug, season_id, acl.ORGANISER)
    form = PartnershipForm(access.club, request.POST or None)
    if request.method == "POST" and form.is_valid():
        pair = form.save(commit=False)
        pair.season = season
        pair.save()
        messages.success(request, _("Pair %(pair)s registered.") % {"pair": pair})
        return redirect(season)
    return render(request, "leagues/form.html", {"form": form, "heading": _("Register a pair"),
                                                 "club": access.club})


@reads_from_replica
def pair_detail(request, slug, pair_id):
    access, pair = acl.get_partnership(request, slug, pair_id)
    return render(request, "leagues/pair.html", {"access": access, "club": access.club,
                                                 "pair": pair, **history.pair_history(pair)})


@reads_from_replica
def head_to_head(request, slug, season_id):
    access, season = acl.get_season(request, slug, season_id)
    context = history.head_to_head(season, request.GET.get("a"), request.GET.get("b"))
    return render(request, "leagues/head_to_head.html", {
        "access": access, "club": access.club, "season": season, **context})


# -- evenings -----------------------------------------------------------------------------------


@login_required
def evening_create(request, slug, season_id):
    access, season = acl.get_season(request, slug, season_id, acl.ORGANISER)
    if _closed(request, season):
        return redirect(season)
    form = EveningForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        evening = form.save(commit=False)
        evening.season = season
        evening.save()
        return redirect(evening)
    return render(request, "leagues/form.html", {"form": form, "heading": _("New evening"),
                                                 "club": access.club})


def evening_detail(request, slug, evening_id):
    access, evening = acl.get_evening(request, slug, evening_id)
    attendances = evening.attendances.select_related("member").order_by("-coming", "member__name")
    if not access.sees_members:  # who comes, when and where: the club's members only
        attendances = attendances.none()
    if evening.is_past:
        attendances = attendances.filter(coming=True).order_by("member__name")
    mine = None
    if access.member:
        mine = next((a for a in attendances if a.member_id == access.member.pk), None)
    return render(request, "leagues/evening.html", {
        "access": access, "club": access.club, "evening": evening,
        "league": evening.season.league, "attendances": attendances, "my_attendance": mine,
        "tables": history.evening_tables(evening)})


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
            _say(request, reminders.outcome_words(
                reminders.deliver(request, letter, reminders.waiting(letter))))
        return redirect("leagues:evening_email", slug, evening.pk)
    form = EveningEmailForm(request.POST or None, initial=reminders.suggested(evening))
    if request.method == "POST" and form.is_valid():
        outcome, people = reminders.send(request, evening, form.cleaned_data["who"],
                                         form.cleaned_data["subject"],
                                         form.cleaned_data["message"])
        said = reminders.outcome_words(outcome)
        said += [("info", text) for text in reminders.recipients_words(people)]
        _say(request, said)
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


def _whole_number(value: str) -> int | None:
    return int(value) if value.isdigit() and len(value) < 12 else None


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
        member.reminders = resume
        member.save(update_fields=["reminders"])
        return render(request, "leagues/reminders_stop.html", {
            "member": member, "done": True, "may_resume": may_resume})
    return render(request, "leagues/reminders_stop.html", {"member": member,
                                                           "may_resume": may_resume})


@login_required
@require_POST
def reminders_mine(request, slug, member_id):
    """A member turns the e-mails about evenings off or on from their own page: only the person
    the record belongs to (an organiser may not turn on what a member stopped)."""
    access, member = acl.get_member(request, slug, member_id)
    if access.member != member:
        raise PermissionDenied
    member.reminders = request.POST.get("reminders") == "on"
    member.save(update_fields=["reminders"])
    messages.success(request, _("You will receive the e-mails about evenings.")
                     if member.reminders else _("You will receive no more e-mails about "
                                                "evenings."))
    return redirect(member)


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
    coming = form.cleaned_data["coming"] == "yes"
    Attendance.objects.update_or_create(evening=evening, member=member,
                                        defaults={"coming": coming})
    messages.success(request, _("%(name)s is coming.") % {"name": member.name} if coming else
                     _("%(name)s is not coming.") % {"name": member.name})
    return redirect(evening)


@login_required
def table_create(request, slug, evening_id):
    access, evening = acl.get_evening(request, slug, evening_id, acl.ORGANISER)
    if _closed(request, evening.season):
        return redirect(evening)
    league = evening.season.league
    if league.is_partnership_match:
        form = BidTableForm(evening.season, request.POST or None)
    else:
        form = PlayersTableForm(access.club, league.game_description.seats, request.POST or None)
    if request.method == "POST" and form.is_valid():
        seats, pairs = form.who_sits()
        try:
            table = edits.add_table(evening, seats, pairs, request.user)
        except EntryError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Table %(number)s added.") % {"number": table.number})
        return redirect(evening)
    return render(request, "leagues/form.html", {"form": form, "heading": _("New table"),
                                                 "club": access.club})


@login_required
@require_POST
def evening_draw(request, slug, evening_id):
    access, evening = acl.get_evening(request, slug, evening_id, acl.ORGANISER)
    if _closed(request, evening.season):
        return redirect(evening)
    try:
        tables, sitting_out = draw.draw_evening(evening)
    except EntryError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(count)s table(s) drawn.") % {"count": tables})
        if sitting_out:
            messages.info(request, _("Sitting out: %(names)s") % {
                "names": ", ".join(str(m) for m in sitting_out)})
    return redirect(evening)


def score_sheet(request, slug, evening_id):
    access, evening = acl.get_evening(request, slug, evening_id)
    return render(request, "leagues/score_sheet.html", {
        "club": access.club, "evening": evening, "league": evening.season.league,
        "tables": history.evening_tables(evening), "lines": range(1, 31)})


@reads_from_replica
def calendar(request, slug):
    access = acl.get_club_for_viewer(request, slug)
    return exports.calendar_ics(request, access.club)


# -- result entry ------------------------------------------------------------------------------


def table_detail(request, slug, table_id):
    access, table = acl.get_table(request, slug, table_id)
    return render_table(request, access, table)


def render_table(request, access, table, *, form=None, entered=None):
    """The table's page: its score sheet, and the next deal's form for those who may enter one
    (``form``: the one just sent, with its errors and what was typed; ``entered``: the sentence
    saying which deal was just entered, shown beside the form)."""
    may_enter = _may_enter(access, table)
    names = table.sides()
    fixture = _online_fixture(table)
    # While the online table plays, its hands are the table's deals: no paper entry meanwhile.
    may_enter = may_enter and not (fixture and not fixture.is_complete)
    sheet = history.table_sheet(table)
    if not (may_enter and table.entry != EveningTable.Entry.TOTALS):
        form = None
    elif form is None and table.sheet.accepts_another_hand(
            table, list(table.deals.order_by("number").values_list("facts", flat=True))):
        form = deal_entry_form(table.league, names, number=len(sheet["rows"]) + 1)
    if entered and form is not None:  # the next deal is typed at once
        next(iter(form.visible_fields())).field.widget.attrs["autofocus"] = True
    return render(request, "leagues/table.html", {
        "entered": entered, "totals_by_name": list(zip(names, sheet["totals"], strict=False)),
        "access": access, "club": access.club, "table": table, "league": table.league,
        "names": names, "sheet": sheet, "form": form, "may_enter": may_enter,
        # a match's winner: a pair or a player, by its column on the sheet
        "winner": names[table.winner] if table.league.game_description.is_match
        and table.winner is not None else None,
        **_provisional_context(access, table, sheet),
        "totals_form": TotalsForm(names) if may_enter and not table.deals.exists() else None,
        **_online_context(request, access, table, fixture)})


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
        may_start = access.is_organiser and not table.entry
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
def online_start(request, slug, table_id):
    """Organisers' "Play this table online": a private online table with the house rules."""
    access, table = acl.get_table(request, slug, table_id, acl.ORGANISER)
    if _closed(request, table.evening.season):
        return redirect(table)
    # Not ``request.POST or None``: a form of checkboxes only may well post nothing at all.
    form = OnlineTableForm(table, table.seat_members(),
                           request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            fixture = online.start_online(
                table, request.user, deals_limit=form.cleaned_data.get("deals"),
                computer_seats=form.computer_seats,
                bot_level=form.cleaned_data.get("bot_level") or "normal")
        except EntryError as exc:
            messages.error(request, exc.message)
            return redirect(table)
        messages.success(request, _("Online table #%(number)s is open; its hands are recorded "
                                    "here as they finish.") % {"number": fixture.game_table_id})
        return redirect(table)
    return render(request, "leagues/online_form.html", {
        "form": form, "club": access.club, "table": table,
        "heading": _("Play table %(number)s online") % {"number": table.number}})


def _deal_form(table, names, data=None, initial=None):
    return deal_form(table.league, names, data, initial=initial)


def _may_enter(access, table) -> bool:
    if access.is_organiser:
        return True
    return bool(access.member and table.league.players_enter_results
                and access.member in table.seat_members())


@login_required
@require_POST
def deal_add(request, slug, table_id):
    access, table = acl.get_table_for_entry(request, slug, table_id)
    if _refuse_while_online(request, table) or _closed(request, table.evening.season):
        return redirect(table)
    form = deal_entry_form(table.league, table.sides(), request.POST)
    if form.is_valid():
        try:
            deal = table.add_deal(form.facts, request.user, access.member,
                                  number=form.cleaned_data["number"])
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
        return render_table(request, access, table, entered=said)
    messages.success(request, said)
    return redirect(table)


@login_required
def deal_edit(request, slug, table_id, number):
    access, table = acl.get_table(request, slug, table_id, acl.ORGANISER)
    deal = get_object_or_404(table.deals, number=number)
    if _closed(request, table.evening.season):
        return redirect(table)
    names = table.sides()
    form = _deal_form(table, names, request.POST or None,
                      initial=deal_form_class(table.league.game).initial_from(deal.facts))
    if request.method == "POST":
        try:
            if request.POST.get("delete"):
                table.change_deal(number, None, request.user, access.member)
                messages.success(request, _("Deal %(number)s deleted.") % {"number": number})
                return redirect(table)
            if form.is_valid():
                table.change_deal(number, form.facts, request.user, access.member)
                messages.success(request, _("Deal %(number)s corrected.") % {"number": number})
                return redirect(table)
        except EntryError as exc:
            messages.error(request, exc.message)
    return render(request, "leagues/deal_edit.html", {
        "club": access.club, "table": table, "deal": deal, "form": form})


@login_required
@require_POST
def totals(request, slug, table_id):
    access, table = acl.get_table_for_entry(request, slug, table_id)
    if _closed(request, table.evening.season):
        return redirect(table)
    if request.POST.get("clear"):
        if not access.is_organiser:
            raise PermissionDenied
        table.clear_totals(request.user)
        messages.success(request, _("Totals cleared."))
        return redirect(table)
    if _refuse_while_online(request, table):
        return redirect(table)
    form = TotalsForm(table.sides(), request.POST)
    if not form.is_valid():
        messages.error(request, _("Enter a number for every total."))
        return redirect(table)
    try:
        table.set_totals(form.totals, request.user, access.member)
    except EntryError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Totals saved."))
    return redirect(table)


def _refuse_while_online(request, table) -> bool:
    try:
        table.refuse_while_online()
    except EntryError as exc:
        messages.error(request, exc.message)
        return True
    return False


@login_required
@require_POST
def table_confirm(request, slug, table_id):
    access, table = acl.get_table(request, slug, table_id, acl.MEMBER)
    # Organisers and the players of the table confirm; anyone else has no business here.
    if not access.is_organiser and access.member not in table.seat_members():
        raise PermissionDenied
    if _closed(request, table.evening.season):
        return redirect(table)
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



# -- editing after the fact: evenings, tables, seasons, members (leagues.edits) ---------------


def _closed(request, season) -> bool:
    """Says so and returns True when the season is closed (nothing in it changes any more)."""
    try:
        season.refuse_if_closed()
    except EntryError as exc:
        messages.error(request, exc.message)
        return True
    return False


@login_required
def evening_edit(request, slug, evening_id):
    access, evening = acl.get_evening(request, slug, evening_id, acl.ORGANISER)
    if _closed(request, evening.season):
        return redirect(evening)
    form = EveningForm(request.POST or None, instance=evening)
    if request.method == "POST" and form.is_valid():
        fields = {k: form.cleaned_data[k] for k in ("date", "start_time", "venue")}
        evening.refresh_from_db()  # the form wrote its values on the instance
        try:
            changed = edits.edit_evening(evening, fields, request.user)
        except EntryError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Evening saved.") if changed else _("Nothing changed."))
        return redirect(evening)
    return render(request, "leagues/form.html", {"form": form, "heading": _("Change the evening"),
                                                 "club": access.club})


@login_required
def evening_delete(request, slug, evening_id):
    access, evening = acl.get_evening(request, slug, evening_id, acl.ORGANISER)
    season = evening.season
    if _closed(request, season):
        return redirect(evening)
    if request.method == "POST":
        try:
            edits.delete_evening(evening, request.user)
        except EntryError as exc:
            messages.error(request, exc.message)
            return redirect(evening)
        messages.success(request, _("The evening is deleted."))
        return redirect(season)
    tables = history.evening_tables(evening)
    return render(request, "leagues/confirm_delete.html", {
        "access": access, "club": access.club, "evening": evening, "tables": tables,
        "with_results": [t for t in tables if t["table"].entry],
        "answers": evening.attendances.count(), "cancel": evening.get_absolute_url()})


def _table_form(access, table, data=None):
    league = table.league
    if league.is_partnership_match:
        return BidTableForm(table.evening.season, data,
                            initial={"pair_0": table.pair_0, "pair_1": table.pair_1})
    members = table.seat_members()
    return PlayersTableForm(access.club, len(members), data,
                            initial={f"seat_{i}": m for i, m in enumerate(members)})


@login_required
def table_edit(request, slug, table_id):
    access, table = acl.get_table(request, slug, table_id, acl.ORGANISER)
    if _closed(request, table.evening.season):
        return redirect(table)
    form = _table_form(access, table, request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if table.league.is_partnership_match:
                changed = edits.edit_table(table, None, [data["pair_0"], data["pair_1"]],
                                           request.user)
            else:
                changed = edits.edit_table(
                    table, [data[f"seat_{i}"] for i in range(form.seat_count)], None,
                    request.user)
        except EntryError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Table saved.") if changed else _("Nothing changed."))
        return redirect(table)
    return render(request, "leagues/form.html", {
        "form": form, "club": access.club,
        "heading": _("Change table %(number)s") % {"number": table.number},
        "intro": _("The table's deals and totals stay; they count for whoever sits in each "
                   "seat.") if table.entry else ""})


@login_required
def table_delete(request, slug, table_id):
    access, table = acl.get_table(request, slug, table_id, acl.ORGANISER)
    evening = table.evening
    if _closed(request, evening.season):
        return redirect(table)
    if request.method == "POST":
        try:
            edits.delete_table(table, request.user)
        except EntryError as exc:
            messages.error(request, exc.message)
            return redirect(table)
        messages.success(request, _("Table %(number)s is deleted.") % {"number": table.number})
        return redirect(evening)
    sheet = history.table_sheet(table)
    return render(request, "leagues/confirm_delete.html", {
        "access": access, "club": access.club, "table": table, "names": table.sides(),
        "sheet": sheet, "sides": list(zip(table.sides(), sheet["totals"], strict=False)),
        "cancel": table.get_absolute_url()})


@login_required
def season_close(request, slug, season_id):
    access, season = acl.get_season(request, slug, season_id, acl.ORGANISER)
    if season.is_closed:
        messages.error(request, _("The season %(season)s is already closed.")
                       % {"season": season.name})
        return redirect(season)
    form = CloseSeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            following = edits.close_season(season, request.user,
                                           form.cleaned_data["next_name"].strip())
        except EntryError as exc:
            messages.error(request, exc.message)
            return redirect(season)
        messages.success(request, _("The season is closed; its standings are final."))
        return redirect(following or season)
    return render(request, "leagues/form.html", {
        "form": form, "club": access.club,
        "heading": _("Close the season %(season)s") % {"season": season.name},
        "intro": _("Its standings stay as they are and are still shown; no evening, table or "
                   "result can be added or changed in it any more."),
        "submit": _("Close the season")})


def club_changes(request, slug):
    """The club's history of changes to its evenings, tables, seasons and people (members only:
    it names the club's people)."""
    access = acl.get_club_members(request, slug)
    return render(request, "leagues/club_changes.html", {
        "access": access, "club": access.club,
        "rows": history.club_change_rows(access.club, show_addresses=access.is_organiser)})


# -- members: manage one, merge two, add many -------------------------------------------------


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
                    _say(request, confirmations.outcome_words(
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
            _say(request, confirmations.outcome_words(confirmations.ask(request, club, added)))
        else:
            messages.info(request, _("Nobody was added: everyone on the list is already a "
                                     "member."))
        return redirect("leagues:members", slug)
    form = BulkMembersForm(request.POST or None, request.FILES or None)
    rows = None
    if request.method == "POST":
        if form.is_valid():
            rows = read_people(form.cleaned_data["lines"], club)
        else:
            messages.error(request, first_error(form))
    to_add = [r for r in rows or [] if not r["problem"]]
    return render(request, "leagues/members_bulk.html", {
        "access": access, "club": club, "form": form, "rows": rows, "to_add": to_add,
        "addresses": sum(1 for r in to_add if r["email"]),
        "left_today": club_mail.left_today(club)})


def read_people_pairs(names, emails, club) -> list[dict]:
    """The confirmed preview read again, so a member added meanwhile is not added twice."""
    out = io.StringIO()
    writer = csv.writer(out)
    for name, email in zip(names, emails, strict=True):
        writer.writerow([name, email] if email else [name])
    return read_people(out.getvalue().splitlines(), club)


# -- attendance on one screen -------------------------------------------------------------------


def _attendance_rows(evening, members=None) -> list[dict]:
    answers = {a.member_id: a.coming for a in evening.attendances.all()}
    members = members if members is not None else evening.season.league.club.members.filter(
        Q(retired=False) | Q(pk__in=list(answers)))
    return [{"member": m, "coming": answers.get(m.pk), "answered": m.pk in answers}
            for m in members]


@login_required
def attendance_sheet(request, slug, evening_id):
    """Organisers: every member with a tick box.  Each tick is saved at once (htmx posts to
    :func:`attendance_row`); without JavaScript the Save button posts them all."""
    access, evening = acl.get_evening(request, slug, evening_id, acl.ORGANISER)
    if request.method == "POST":
        rows = _attendance_rows(evening)
        shown = {str(r["member"].pk) for r in rows}
        ticked = set(request.POST.getlist("coming"))
        listed = set(request.POST.getlist("shown"))
        if not ticked <= shown or not listed <= shown:
            messages.error(request, _("Choose members of this club; nothing was saved."))
            return redirect("leagues:attendance_sheet", slug, evening.pk)
        with transaction.atomic():
            for row in rows:
                pk = str(row["member"].pk)
                if pk not in listed:
                    continue
                if pk in ticked or row["answered"]:
                    _set_attendance(evening, row["member"], pk in ticked)
        messages.success(request, ngettext("Saved: %(count)s member coming.",
                                           "Saved: %(count)s members coming.", len(ticked))
                         % {"count": len(ticked)})
        return redirect(evening)
    rows = _attendance_rows(evening)
    return render(request, "leagues/attendance.html", {
        "access": access, "club": access.club, "evening": evening,
        "league": evening.season.league, "rows": rows,
        "coming": sum(1 for r in rows if r["coming"])})


def _set_attendance(evening, member, coming: bool) -> None:
    Attendance.objects.update_or_create(evening=evening, member=member,
                                        defaults={"coming": coming})


@login_required
@require_POST
def attendance_row(request, slug, evening_id, member_id):
    """One tick box saved (htmx): answers the member's updated row."""
    access, evening = acl.get_evening(request, slug, evening_id, acl.ORGANISER)
    member = access.club.members.filter(pk=member_id).first()
    if member is None:
        return HttpResponse(_("Choose a member of this club."), status=404)
    if member.retired and not evening.attendances.filter(member=member).exists():
        return HttpResponse(_("%(name)s is retired.") % {"name": member.name}, status=400)
    coming = str(member.pk) in request.POST.getlist("coming")
    _set_attendance(evening, member, coming)
    return render(request, "leagues/_attendance_row.html", {
        "club": access.club, "evening": evening, "saved": True,
        "row": {"member": member, "coming": coming, "answered": True}})
