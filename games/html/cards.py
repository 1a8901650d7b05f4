"""Card faces: a card code becomes rank + suit symbol, coloured by suit; rows of faces, the
backs of a hidden hand, and a trick's cards in front of the seats that played them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _

from games.html.markup import EMPTY, Markup, html, joined

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_LABELS = {"T": "10"}
CARD_BACK = Markup('<span class="card back"></span>')


def _face(code: str) -> Markup:
    rank, suit = code[0], code[1]
    return html('<span class="card suit-%s" data-card="%s"><span class="rank">%s</span>'
                '<span class="suit">%s</span></span>',
                suit, code, RANK_LABELS.get(rank, rank), SUIT_SYMBOLS[suit])


# Every face but the jokers' (whose title is in the reader's language), made once: a table
# fragment shows up to 60 cards and is rendered for each seat at each change.
FACES = {rank + suit: _face(rank + suit) for rank in "23456789TJQKA" for suit in SUIT_SYMBOLS}


def card_face(code: str) -> Markup:
    """A face-up card; the only place a card code is written into HTML (``data-card``)."""
    face = FACES.get(code)
    if face is not None:
        return face
    if code in ("BJ", "LJ"):
        label = _("Big joker") if code == "BJ" else _("Little joker")
        return html('<span class="card joker" data-card="%s" title="%s">%s</span>',
                    code, label, "★" if code == "BJ" else "☆")
    return _face(code)


def card_faces(codes: Iterable[str] | None) -> Markup:
    """A row of face-up cards."""
    return joined(card_face(code) for code in codes or ())


def card_backs(count: int | None) -> Markup:
    """A hidden hand: ``count`` card backs."""
    return CARD_BACK * max(0, int(count or 0))


def dimmed_card(code: str) -> Markup:
    """A card of the viewer's hand that they may not play now."""
    dimmed = DIMMED.get(code)
    return dimmed if dimmed is not None else _dimmed(card_face(code))


def _dimmed(face: Markup) -> Markup:
    return html('<span class="card-disabled card-tap" aria-disabled="true">%s</span>', face)


# As the faces: most of a hand's cards are dimmed in every fragment but the one at its turn.
DIMMED = {code: _dimmed(face) for code, face in FACES.items()}


def trick_spots(spots: Iterable[dict[str, Any]] | None) -> Markup:
    """The cards of a trick, each in front of the seat that played it (one <li> a seat, empty
    for a seat still to play); drawn up to three times in every table fragment."""
    return joined(
        html('<li class="spot spot-%s%s%s" data-seat="%s"><span class="spot-name">%s</span>'
             '%s</li>', spot["position"], " winner" if spot.get("winner") else "",
             "" if spot.get("card") else " empty", spot["seat"], spot["name"],
             card_face(spot["card"]) if spot.get("card") else EMPTY)
        for spot in spots or ())
