from django import template

from games import registry
from ratings import read

register = template.Library()


@register.simple_tag
def member_ratings(member):
    """``[(game, row)]``: a member's rating per game, for a section of their page."""
    found = read.member_ratings(member)
    return [(registry.game(g), found[g]) for g in sorted(found)]


@register.simple_tag(takes_context=True)
def rated_standings(context, rows, league):
    """The standings' rows, each with ``rating`` (a Row or None: a pair's is its two players'
    mean), ordered by rating when the page asks (``?order=rating``).  One query."""
    rows = list(rows)
    ids = set()
    for each in rows:
        pair = getattr(each, "pair", None)
        ids.update((pair.first_id, pair.second_id) if pair is not None else (each.member_id,))
    found = read.ratings_of_members(league.club, league.game, ids)
    for each in rows:
        pair = getattr(each, "pair", None)
        if pair is None:
            each.rating = found.get(each.member_id)
        else:
            both = [found.get(pair.first_id), found.get(pair.second_id)]
            each.rating = read.mean_row(str(pair), both) if all(both) else None
    request = context.get("request")
    if request is not None and request.GET.get("order") == "rating":
        rows.sort(key=lambda each: -each.rating.key if each.rating else float("inf"))
    return rows


@register.simple_tag
def ratings_key(rows):
    """The ratings of ``rows`` (from ``rated_standings``) in their order, as text: what a page
    keeping its rendered standings varies them on besides the rows' own key."""
    return "|".join(each.rating.text if each.rating else "" for each in rows)


@register.simple_tag
def expected_outcome(table):
    """The sides of an evening table and each one's chance of finishing a deal on top."""
    try:
        members = table.seat_members()
    except AttributeError:  # a match whose pairs are not chosen yet
        return []
    return read.expected_outcome(table.league.club, table.league.game, members)
