"""The card faces' tags for the replay's template (``games.html.cards`` builds the faces), and
the filters of the lobby and the table's pages."""

from django import template
from django.utils.translation import gettext as _

from games.html import cards

register = template.Library()

register.simple_tag(cards.card_face)
register.simple_tag(cards.card_faces)
register.simple_tag(cards.trick_spots)


@register.filter
def seat_name(players, position):
    for player in players or []:
        if player["seat"] == position:
            return player["name"] or _("empty seat")
    return ""


@register.filter
def get_item(mapping, key):
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return None


@register.filter
def computer_player(seat) -> str:
    """A computer player's name and level, for a seat of the lobby: "Otter (computer, normal)"."""
    from games.computer_names import computer_name, level_badge

    return _("%(name)s (%(badge)s)") % {
        "name": computer_name(seat.table.computer_names_key, seat.position, seat.computer_level),
        "badge": level_badge(seat.computer_level)}


@register.filter
def house_rules_in_words(table) -> str:
    """A table's house rules as its players read them: "Score to win: 11, Lowest bid: 4"."""
    from games.forms import rules_in_words

    return ", ".join(rules_in_words(table.game, table.rules))
