"""Card faces for templates: a card code becomes rank + suit symbol, colour by suit."""

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

register = template.Library()

# The words of the action grammar as players read them on buttons and in the bidding history.
# Contract names stay the game's own words where players use them as such (translators decide).
ACTION_WORDS = {
    "pass": pgettext_lazy("action", "pass"),
    "bid": pgettext_lazy("action", "bid"),
    "uptown": pgettext_lazy("action", "uptown"),
    "downtown": pgettext_lazy("action", "downtown"),
    "notrump": pgettext_lazy("action", "notrump"),
    "discard": pgettext_lazy("action", "discard"),
    "trump": pgettext_lazy("action", "trumps"),
    "direction": pgettext_lazy("action", "direction"),
    "play": pgettext_lazy("action", "play"),
    "prop": pgettext_lazy("action", "prop"),
    "cop": pgettext_lazy("action", "cop"),
    "solo": pgettext_lazy("action", "solo"),
    "misere": pgettext_lazy("action", "misère"),
    "abundance": pgettext_lazy("action", "abundance"),
    "royal_abundance": pgettext_lazy("action", "royal abundance"),
    "spread_misere": pgettext_lazy("action", "spread misère"),
    "abundance_declared": pgettext_lazy("action", "abundance declared"),
    "trou": pgettext_lazy("action", "trou"),
    "passe_trou": pgettext_lazy("action", "no trou"),
    "premier": pgettext_lazy("action", "wait (premier)"),
    "propose": pgettext_lazy("action", "propose"),
    "emballer": pgettext_lazy("action", "emballer"),
    "raise": pgettext_lazy("action", "raise to"),
    "maintain": pgettext_lazy("action", "maintain"),
    "abondance": pgettext_lazy("action", "abondance"),
    "petit_chelem": pgettext_lazy("action", "petit chelem"),
    "grand_chelem": pgettext_lazy("action", "grand chelem"),
    "petite_misere": pgettext_lazy("action", "petite misère"),
    "grande_misere": pgettext_lazy("action", "grande misère"),
    "misere_etalee": pgettext_lazy("action", "misère étalée"),
    "piccolo": pgettext_lazy("action", "piccolo"),
    "NT": pgettext_lazy("action", "no trumps"),
}

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
        elif word in ACTION_WORDS:
            out.append(str(ACTION_WORDS[word]))
        else:
            out.append(word)
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


@register.filter
def computer_player(seat) -> str:
    """A computer player's name and level, for a seat of the lobby: "Otter (computer, normal)"."""
    from games.computer_names import computer_name, level_badge

    return _("%(name)s (%(badge)s)") % {
        "name": computer_name(seat.table_id, seat.position, seat.bot_level),
        "badge": level_badge(seat.bot_level)}


@register.filter
def house_rules_in_words(table) -> str:
    """A table's house rules as its players read them: "Score to win: 11, Lowest bid: 4"."""
    from games.forms import rules_in_words

    return ", ".join(rules_in_words(table.game, table.rules))
