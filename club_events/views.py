"""A club's events page (its events coming, in play and finished, as the viewer may see them)
and an organiser's new event for the club.  Who may: ``leagues.access``; who sees each event
and may register: ``club_events.policy``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from club_events.forms import ClubEventForm
from club_events.models import ClubEvent
from events.models import Event
from games import registry
from leagues import access as acl


def club_events(request, slug):
    access = acl.get_club_access(request, slug)
    links = ClubEvent.objects.filter(club=access.club).select_related("event")
    if not access.is_member:
        links = links.filter(members_only=False)
    events = [link.event for link in links]
    coming = sorted((e for e in events if e.status != Event.Status.FINISHED),
                    key=lambda e: (e.starts_at, e.pk))
    finished = sorted((e for e in events if e.status == Event.Status.FINISHED),
                      key=lambda e: (e.finished_at or e.starts_at, e.pk), reverse=True)[:20]
    return render(request, "club_events/list.html", {
        "access": access, "club": access.club, "coming": coming, "finished": finished,
        "organise": [(game.label, reverse("club_events:new", args=[access.club.slug, game.id]))
                     for game in registry.all_games()]})


@login_required
def club_event_new(request, slug, game):
    access = acl.get_club_access(request, slug, acl.ORGANISER)
    description = registry.game_or_404(game)
    form = ClubEventForm(game, access.club, request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            event = form.create(request.user)
            ClubEvent.objects.create(event=event, club=access.club,
                                     members_only=form.is_members_only)
        messages.success(request, _("The event is created: people can register now."))
        return redirect(event)
    return render(request, "club_events/new.html", {
        "form": form, "game_name": description.label, "club": access.club})
