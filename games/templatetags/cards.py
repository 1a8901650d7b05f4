"""Card faces for templates: a card code becomes rank + suit symbol, colour by suit."""

import html

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

register = template.Library()

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
    htmx, or posted without script; its ``label`` the play in words), the others dimmed."""
    csrf = csrf_input(context)
    act_url, version = esc(str(act_url)), esc(str(version))
    return mark_safe("\n".join(
        f'<form method="post" action="{act_url}" ws-send class="inline card-form card-tap">'
        f'{csrf}'
        f'<input type="hidden" name="action" value="{esc(c["action"])}">'
        f'<input type="hidden" name="version" value="{version}">'
        f'<button type="submit" class="card-button" aria-label="{esc(c["label"])}">'
        f'{card_face(c["card"])}</button></form>'
        if c["action"] else
        f'<span class="card-disabled card-tap" aria-disabled="true">{card_face(c["card"])}</span>'
        for c in cards or ()))


@register.filter
def card_backs(count) -> str:
    """A hidden hand: ``count`` card backs, as one string (no template loop per card)."""
    return mark_safe('<span class="card back"></span>' * max(0, int(count or 0)))


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
