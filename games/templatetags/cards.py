"""The words of the calls and the cards (``action_label``), and the card faces' tags for the
replay's template (``games.html.cards`` builds the faces)."""

from functools import lru_cache

from django import template
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext as _

from games.html import cards
from games.html.cards import RANK_LABELS, SUIT_SYMBOLS

register = template.Library()

# The words of the action grammar as players read them on buttons and in the bidding history.
# Contract names stay the game's own words where players use them as such (translators decide).
ACTION_WORDS = {
    "pass": pgettext_lazy("action", "pass"),
    "bid": pgettext_lazy("action", "bid"),
    "uptown": pgettext_lazy("action", "uptown"),
    "downtown": pgettext_lazy("action", "downtown"),
    # the words of the bid box's column and of the contract's sentence, not the engine's id
    "notrump": pgettext_lazy("action", "no trump"),
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

# Card faces for the replay's template (``games.html.cards`` builds them).
register.simple_tag(cards.card_face)
register.simple_tag(cards.card_faces)
register.simple_tag(cards.trick_spots)


@register.filter
def action_label(action: str) -> str:
    """A readable label for an action string (cards shown with their suit symbols)."""
    # Every call of the auction is labelled again in every fragment: remembered per language
    # (the active one, which the labels are in: it is the cache's key, not an input).
    return _action_label(get_language(), action)


@lru_cache(maxsize=8192)
def _action_label(language: str | None, action: str) -> str:
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
