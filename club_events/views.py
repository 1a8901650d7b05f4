"""A club's events page (its events coming, in play and finished, as the viewer may see them)
and an organiser's new event for the club, or for an evening of one of its league seasons
(``club_events.evenings``), and such an evening played at its tables instead.  Who may: ``leagues.access``; who sees each event and may
register: ``club_events.policy``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club_events import evenings
from club_events.forms import ClubEventForm
from club_events.models import ClubEvent
from events.models import Event
from games import registry
from games.forms import rules_in_words
from leagues import access as acl
from leagues.models import EntryError, Evening


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
                     for game in registry.all_games()],
        "evenings": ([(evenings.describe(evening),
                       reverse("club_events:new_for_evening", args=[access.club.slug, evening.pk]))
                      for evening in evenings.playable_evenings(access.club)]
                     if access.is_organiser else [])})


@login_required
def club_event_new(request, slug, game):
    access = acl.get_club_access(request, slug, acl.ORGANISER)
    description = registry.game_or_404(game)
    return _new(request, access.club, ClubEventForm(game, access.club, request.POST or None),
                description.label)


@login_required
def club_event_for_evening(request, slug, evening_id):
    """An event played as an evening of one of the club's league seasons: its league's game
    and house rules, on its day; refused in words for an evening that cannot be."""
    access = acl.get_club_access(request, slug, acl.ORGANISER)
    evening = (Evening.objects.filter(pk=evening_id, season__league__club=access.club)
               .select_related("season__league__club").first())
    if evening is None:
        raise Http404
    league = evening.season.league
    refusal = evenings.refusal(access.club, evening, league.game)
    if refusal and request.method != "POST":
        messages.error(request, refusal)
        return redirect(evening)
    form = ClubEventForm(league.game, access.club, request.POST or None, evening=evening)
    return _new(request, access.club, form, league.game_description.label, evening)


@login_required
@require_POST
def evening_at_tables(request, slug, evening_id):
    """The organiser plays an evening at its tables instead of as its event, before the event
    starts (``evenings.play_at_tables``); refused in words after."""
    access = acl.get_club_access(request, slug, acl.ORGANISER)
    evening = (Evening.objects.filter(pk=evening_id, season__league__club=access.club)
               .select_related("season__league__club").first())
    if evening is None:
        raise Http404
    try:
        event = evenings.play_at_tables(access.club, evening, request.user)
    except EntryError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _(
            "The evening is played at its tables again: draw them or add them when it comes. "
            "The event “%(event)s” stays an event of the club; its results will not be the "
            "evening's.") % {"event": event.name})
    return redirect(evening)


def _new(request, club, form: ClubEventForm, game_name: str, evening: Evening | None = None):
    event = None
    if request.method == "POST":
        with transaction.atomic():
            if evening is not None:
                # A draw or a table added at the same moment waits, and the form's refusal
                # sees its tables (the draw, once the event exists, sees it).
                Evening.objects.select_for_update().get(pk=evening.pk)
            if form.is_valid():
                event = form.create(request.user)
                ClubEvent.objects.create(event=event, club=club,
                                         members_only=form.is_members_only, evening=evening)
    if event is not None:
        messages.success(request, _("The event is created: people can register now."))
        return redirect(event)
    return render(request, "club_events/new.html", {
        "form": form, "game_name": game_name, "club": club, "evening": evening,
        "evening_words": evenings.describe(evening) if evening is not None else "",
        "house_rules": rules_in_words(evening.season.league.game, evening.season.house_rules)
        if evening is not None else []})
