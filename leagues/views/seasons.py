"""Leagues and their seasons: a league's settings and house rules, a season's standings, pairs,
head-to-head, exports and charts, closing a season."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from games.forms import rules_in_words
from leagues import access as acl
from leagues import charts, edits, exports, history
from leagues.forms import CloseSeasonForm, HouseRulesForm, LeagueForm, PartnershipForm, SeasonForm
from leagues.models import ClubChange, EntryError
from leagues.standings import KEPT_FOR, kept_key, shown_standings
from leagues.views.common import chart_of, form_page, made
from whistclub.replicas import reads_from_replica


@login_required
def league_create(request, slug):
    access = acl.get_club_for_organiser(request, slug)
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            league = form.save(commit=False)
            league.club = access.club
            league.save()
            ClubChange.record(access.club, request.user, "league_create", None,
                              {"league": league.name, "game": league.game})
        messages.success(request, _("League created. Check its house rules."))
        return redirect("leagues:league_rules", slug, league.pk)
    return form_page(request, form, _("New league"), access.club)


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
        try:
            edits.change_league(league, form.cleaned_data, request.user)
        except EntryError as exc:  # a pair made meanwhile (the form checked before it)
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Saved."))
            return redirect(league)
    return form_page(request, form, league.name, access.club)


@login_required
def league_rules(request, slug, league_id):
    access, league = acl.get_league_house_rules(request, slug, league_id)
    form = HouseRulesForm(league.game, league.rules, request.POST or None)
    heading = _("House rules of %(league)s") % {"league": league.name}
    if not acl.may_change_house_rules(access):
        # Read only: every rule with its value and what it means, no box to change.
        for field in form.fields.values():
            field.disabled = True
        return render(request, "leagues/house_rules.html", {
            "form": form, "heading": heading, "club": access.club, "league": league,
            "access": access})
    if request.method == "POST" and form.is_valid():
        edits.change_house_rules(league, form.overrides, request.user)
        messages.success(request, _("House rules saved."))
        return redirect(league)
    return form_page(request, form, heading, access.club)


@login_required
def season_create(request, slug, league_id):
    access, league = acl.get_league(request, slug, league_id, acl.ORGANISER)
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            season = form.save(commit=False)
            season.league = league
            season.save()
            ClubChange.record(access.club, request.user, "season_create", None,
                              {"season": season.name, "league": league.name})
        return redirect(season)
    return form_page(request, form, _("New season"), access.club)


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
        "rows": shown_standings(season), "evenings": season.evenings.all(),
        "standings_template": league.score_kind.standings_template_of(league),
        "kept_key": kept_key(season), "kept_for": KEPT_FOR,
        "chart_caption": charts.season_caption(season)})


@reads_from_replica
def standings_csv(request, slug, season_id):
    access, season = acl.get_season(request, slug, season_id)
    return exports.standings_csv(season, shown_standings(season))


@reads_from_replica
def results_csv(request, slug, season_id):
    access, season = acl.get_season(request, slug, season_id)
    return exports.results_csv(season)


# The season's totals by evening, for whoever may see the season.
season_chart = chart_of(acl.get_season, charts.season_svg)


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
        # What became of its evenings still to come, as the club's history says it.
        record = ClubChange.objects.filter(club=access.club, action="season_close",
                                           before__season=season.name).latest("pk")
        for sentence in history.season_close_evenings(record.after):
            messages.info(request, sentence)
        return redirect(following or season)
    to_cancel, to_remove = edits.planned_evenings(season)
    return render(request, "leagues/season_close.html", {
        "form": form, "club": access.club,
        "heading": _("Close the season %(season)s") % {"season": season.name},
        "intro": _("Its standings stay as they are and are still shown; no evening, table, "
                   "answer or result can be added or changed in it any more."),
        "submit": _("Close the season"), "to_cancel": to_cancel, "to_remove": to_remove,
        "planned": len(to_cancel) + len(to_remove)})


@login_required
def partnership_create(request, slug, season_id):
    access, season = acl.get_season(request, slug, season_id, acl.ORGANISER)
    try:
        edits.refuse_registered_pairs(season)
    except EntryError as exc:
        messages.error(request, exc.message)
        return redirect(season)
    form = PartnershipForm(access.club, request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            pair = edits.register_pair(season, data["first"], data["second"], data["name"],
                                       request.user)
        except EntryError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Pair %(pair)s registered.") % {"pair": pair})
            return redirect(season)
    return form_page(request, form, _("Register a pair"), access.club)


@login_required
def partnership_edit(request, slug, pair_id):
    """Rename a pair, or change its players before it has played; retire it or bring it back."""
    access, pair = acl.get_partnership(request, slug, pair_id, acl.ORGANISER)
    if request.method == "POST" and "retired" in request.POST:
        made(request, lambda: edits.set_pair_retired(pair, request.POST["retired"] == "1",
                                                      request.user), _("Saved."))
        return redirect(pair)
    form = PartnershipForm(access.club, request.POST or None, instance=pair)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            edits.change_pair(pair, data["first"], data["second"], data["name"], request.user)
        except EntryError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Saved."))
            return redirect(pair)
    return form_page(request, form, _("Change the pair"), access.club)


@reads_from_replica
def pair_detail(request, slug, pair_id):
    access, pair = acl.get_partnership(request, slug, pair_id)
    return render(request, "leagues/pair.html", {"access": access, "club": access.club,
                                                 "pair": pair, **history.pair_history(pair)})


# A pair's score in each match, for whoever may see the pair's page.
pair_chart = chart_of(acl.get_partnership, charts.pair_svg)


@reads_from_replica
def head_to_head(request, slug, season_id):
    access, season = acl.get_season(request, slug, season_id)
    context = history.head_to_head(season, request.GET.get("a"), request.GET.get("b"))
    return render(request, "leagues/head_to_head.html", {
        "access": access, "club": access.club, "season": season, **context})
