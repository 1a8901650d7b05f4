"""Card faces for templates: a card code becomes rank + suit symbol, colour by suit."""

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext as _

register = template.Library()

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_LABELS = {"T": "10"}


@register.simple_tag
def card_face(code: str):
    """A face-up card; the only place a card code is written into HTML (``data-card``)."""
    if code in ("BJ", "LJ"):
        label = _("Big joker") if code == "BJ" else _("Little joker")
        return format_html('<span class="card joker" data-card="{}" title="{}">{}</span>',
                           code, label, "★" if code == "BJ" else "☆")
    rank, suit = code[0], code[1]
    return format_html(
        '<span class="card suit-{}" data-card="{}"><span class="rank">{}</span>'
        '<span class="suit">{}</span></span>',
        suit, code, RANK_LABELS.get(rank, rank), SUIT_SYMBOLS[suit])


@register.filter
def action_label(action: str) -> str:
    """A readable label for an action string (cards shown with their suit symbols)."""
    words = action.split()
    out = []
    for word in words:
        if len(word) == 2 and word[1] in SUIT_SYMBOLS and word not in ("BJ", "LJ"):
            out.append(RANK_LABELS.get(word[0], word[0]) + SUIT_SYMBOLS[word[1]])
        elif len(word) == 1 and word in SUIT_SYMBOLS:
            out.append(SUIT_SYMBOLS[word])
        else:
            out.append(_(word.replace("_", " ")))
    return " ".join(out)


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
