"""The ratings' pages: a club's list, a member's ratings over time, the expected outcome of an
evening table, and the site's list for online play.  Access is the leagues' own rules
(``leagues.access``): a members-only club is invisible to outsiders, its people are for its
members."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render

from games import registry
from leagues import access
from leagues.views.common import chart_view
from ratings import read
from ratings.charts import member_rating_svg
from ratings.templatetags.ratings import expected_outcome
from whistclub.replicas import reads_from_replica


def _game(request, choices) -> registry.GameDescription:
    ids = [g.id for g in choices]
    wanted = request.GET.get("game") or (ids[0] if ids else None)
    if wanted is None or wanted not in ids:
        raise Http404("No such game")
    return registry.game(wanted)


@reads_from_replica
def club_ratings(request, slug):
    club_access = access.get_club_members(request, slug)
    club = club_access.club
    played = sorted(set(club.leagues.values_list("game", flat=True)))
    choices = [registry.game(g) for g in played]
    game = _game(request, choices) if choices else None
    return render(request, "ratings/club.html", {
        "club": club, "access": club_access, "games": choices, "game": game,
        "rows": read.club_rows(club, game.id) if game else []})


@reads_from_replica
def member_ratings(request, slug, member_id):
    club_access, member = access.get_member(request, slug, member_id)
    access.check_members_visible(club_access)
    return render(request, "ratings/member.html", {
        "club": club_access.club, "access": club_access, "member": member,
        "ratings": read.member_ratings(member), "history": read.member_history(member)})


@chart_view
def member_rating_chart(request, slug, member_id, game):
    """One game's chart of a member's rating, for whoever may see their ratings page."""
    club_access, member = access.get_member(request, slug, member_id)
    access.check_members_visible(club_access)
    if game not in {each.id for each in registry.all_games()}:
        raise Http404
    return member_rating_svg(member, game)


@reads_from_replica
def table_expectation(request, slug, table_id):
    club_access, table = access.get_table(request, slug, table_id)
    return render(request, "ratings/table.html", {
        "club": club_access.club, "access": club_access, "table": table, "league": table.league,
        "sides": expected_outcome(table)})


@reads_from_replica
def online_ratings(request):
    game = _game(request, registry.all_games())
    return render(request, "ratings/online.html", {
        "games": registry.all_games(), "game": game, "rows": read.site_rows(game.id),
        "min_hands": read.MIN_ONLINE_HANDS, "min_people": read.PEOPLE_TO_BE_LISTED})
