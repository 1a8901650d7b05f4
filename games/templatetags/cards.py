"""Card faces for templates: a card code becomes rank + suit symbol, colour by suit."""

import html
from functools import lru_cache

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext as _

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

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_LABELS = {"T": "10"}


def _face(code: str) -> str:
    rank, suit = code[0], code[1]
    return format_html(
        '<span class="card suit-{}" data-card="{}"><span class="rank">{}</span>'
        '<span class="suit">{}</span></span>',
        suit, code, RANK_LABELS.get(rank, rank), SUIT_SYMBOLS[suit])


# Every face but the jokers' (whose title is in the reader's language), made once: a table
# fragment shows up to 60 cards and is rendered for each seat at each change.
FACES = {rank + suit: _face(rank + suit) for rank in "23456789TJQKA" for suit in SUIT_SYMBOLS}

# The tags below build their HTML with the standard library's escape: Django's ``escape`` and
# ``format_html`` check every argument for a lazy string first, which was the largest single
# cost of rendering a table for each seat at each change (bench/ws_load.py, html scenario).
esc = html.escape


def csrf_input(context) -> str:
    """The CSRF field of a form built by a tag: what the template's ``{% csrf_token %}``
    writes (nothing where the context has no token, as a fragment sent over a socket)."""
    token = context.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return ""
    return f'<input type="hidden" name="csrfmiddlewaretoken" value="{esc(str(token))}">'


@register.simple_tag
def card_face(code: str):
    """A face-up card; the only place a card code is written into HTML (``data-card``)."""
    face = FACES.get(code)
    if face is not None:
        return face
    if code in ("BJ", "LJ"):
        label = _("Big joker") if code == "BJ" else _("Little joker")
        return format_html('<span class="card joker" data-card="{}" title="{}">{}</span>',
                           code, label, "★" if code == "BJ" else "☆")
    return _face(code)


@register.simple_tag
def card_faces(codes):
    """A row of face-up cards, in one call."""
    return mark_safe("".join(card_face(code) for code in codes or ()))


@register.simple_tag
def trick_spots(spots):
    """The cards of a trick, each in front of the seat that played it (one <li> a seat, empty
    for a seat still to play); drawn up to three times in every table fragment."""
    return mark_safe("".join(
        f'<li class="spot spot-{spot["position"]}{" winner" if spot.get("winner") else ""}'
        f'{"" if spot.get("card") else " empty"}" data-seat="{spot["seat"]}"><span '
        f'class="spot-name">{esc(str(spot["name"]))}</span>'
        f'{card_face(spot["card"]) if spot.get("card") else ""}</li>' for spot in spots or ()))


@register.simple_tag(takes_context=True)
def hand_cards(context, cards, act_url, version):
    """The viewer's hand: each card it may play a form of its own (sent over the socket by
    htmx, or posted without script), the others dimmed."""
    csrf = csrf_input(context)
    act_url, version = esc(str(act_url)), esc(str(version))
    return mark_safe("\n".join(
        f'<form method="post" action="{act_url}" ws-send class="inline card-form card-tap">'
        f'{csrf}'
        f'<input type="hidden" name="action" value="{esc(c["action"])}">'
        f'<input type="hidden" name="version" value="{version}">'
        f'<button type="submit" class="card-button" aria-label="{esc(action_label(c["action"]))}">'
        f'{card_face(c["card"])}</button></form>'
        if c["action"] else
        f'<span class="card-disabled card-tap" aria-disabled="true">{card_face(c["card"])}</span>'
        for c in cards or ()))


@register.filter
def card_backs(count) -> str:
    """A hidden hand: ``count`` card backs, as one string (no template loop per card)."""
    return mark_safe('<span class="card back"></span>' * max(0, int(count or 0)))


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
        "name": computer_name(seat.table.computer_names_key, seat.position, seat.bot_level),
        "badge": level_badge(seat.bot_level)}


@register.filter
def house_rules_in_words(table) -> str:
    """A table's house rules as its players read them: "Score to win: 11, Lowest bid: 4"."""
    from games.forms import rules_in_words

    return ", ".join(rules_in_words(table.game, table.rules))
