from django import template

from games import registry
from ratings import read

register = template.Library()


@register.simple_tag
def member_ratings(member):
    """``[(game, row)]``: a member's rating per game, for a section of their page."""
    found = read.member_ratings(member)
    return [(registry.game(g), found[g]) for g in sorted(found)]
