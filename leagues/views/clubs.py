"""The club's pages: the list of clubs, a club's page and settings, its history, its invite links
and joining through one, its calendar."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render, resolve_url
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from leagues import access as acl
from leagues import edits, exports, history
from leagues.forms import ClubForm, InviteForm, first_error
from leagues.models import Club, Invite, upcoming_evenings
from leagues.views.common import form_page
from whistclub.accounts import guests
from whistclub.replicas import reads_from_replica


def club_list(request):
    mine = Club.objects.none()
    if request.user.is_authenticated:
        mine = Club.objects.filter(members__user=request.user)
    public = Club.objects.filter(is_public=True).exclude(pk__in=mine.values("pk"))
    return render(request, "leagues/club_list.html", {"mine": mine, "public": public})


@login_required
@guests.accounts_only
def club_create(request):
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        club = Club.create_with_organiser(request.user, **form.cleaned_data)
        messages.success(request, _("Your club is ready. You are its organiser."))
        return redirect(club)
    return form_page(request, form, _("New club"))


def club_detail(request, slug):
    access = acl.get_club_for_viewer(request, slug)
    leagues = access.club.leagues.prefetch_related("seasons")
    evenings = upcoming_evenings(club=access.club, cancelled=True)[:10]
    return render(request, "leagues/club.html", {"access": access, "club": access.club,
                                                 "leagues": leagues, "evenings": evenings})


@login_required
def club_edit(request, slug):
    access = acl.get_club_for_organiser(request, slug)
    form = ClubForm(request.POST or None, instance=access.club)
    if request.method == "POST" and form.is_valid():
        edits.change_club(access.club, form.cleaned_data, request.user)
        messages.success(request, _("Saved."))
        return redirect(access.club)
    return form_page(request, form, _("Club settings"), access.club)


def club_changes(request, slug):
    """The club's history of changes to its evenings, tables, seasons and people (members only:
    it names the club's people)."""
    access = acl.get_club_members(request, slug)
    return render(request, "leagues/club_changes.html", {
        "access": access, "club": access.club,
        "rows": history.club_change_rows(access.club, show_addresses=access.is_organiser)})


@reads_from_replica
def calendar(request, slug):
    access = acl.get_club_for_viewer(request, slug)
    return exports.calendar_ics(request, access.club)


@reads_from_replica
def member_calendar(request, slug, token):
    """The same feed at a member's secret address, for a calendar app that cannot sign in (a
    members-only club's evenings); 404 for any address that is not a member's current one."""
    return exports.calendar_ics(request, acl.get_club_by_calendar_token(slug, token))


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
        if guests.is_guest(request.user):
            return guests.sign_up_first(request)
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
