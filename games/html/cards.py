"""Card faces: a card code becomes rank + suit symbol, coloured by suit; rows of faces, the
backs of a hidden hand, and a trick's cards in front of the seats that played them."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from games.html.markup import EMPTY, Markup, html, joined

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_LABELS = {"T": "10"}
# The letters on a court card follow the reader's language, as on the cards they hold: a
# French player reads R, D, V (roi, dame, valet), a Dutch one H, V, B (heer, vrouw, boer).
# Only the face changes: ``data-card``, the engines and the records keep the English codes.
RANK_LETTERS = {
    "en": RANK_LABELS,
    "fr": RANK_LABELS | {"K": "R", "Q": "D", "J": "V"},
    "nl": RANK_LABELS | {"K": "H", "Q": "V", "J": "B"},
    "pt": RANK_LABELS | {"K": "R", "Q": "D", "J": "V"},
}
CARD_BACK = Markup('<span class="card back"></span>')
RANKS = "23456789TJQKA"
JOKERS = ("BJ", "LJ")


def rank_letters(language: str | None = None) -> dict[str, str]:
    """How the ranks are written in ``language`` (the active one when None): only the
    ranks that differ from their code."""
    language = (language or get_language() or "en")[:2]
    return RANK_LETTERS.get(language, RANK_LABELS)


def rank_label(rank: str, language: str | None = None) -> str:
    """A rank as it is written on the card in ``language`` ("Q" is "D" in French)."""
    return rank_letters(language).get(rank, rank)


def _face(code: str, letters: dict[str, str]) -> Markup:
    rank, suit = code[0], code[1]
    return html('<span class="card suit-%s" data-card="%s"><span class="rank">%s</span>'
                '<span class="suit">%s</span></span>',
                suit, code, letters.get(rank, rank), SUIT_SYMBOLS[suit])


def _joker(code: str) -> Markup:
    # The two jokers differ by a filled or an outlined star, which nobody reads at a glance:
    # each says which it is, in the reader's language.
    big = code == "BJ"
    return html('<span class="card joker" data-card="%s" title="%s"><span class="rank">%s</span>'
                '<span class="joker-size">%s</span></span>', code,
                _("Big joker") if big else _("Little joker"), "★" if big else "☆",
                pgettext("a joker, written on its card", "big") if big
                else pgettext("a joker, written on its card", "little"))


@lru_cache(maxsize=16)
def faces(language: str | None) -> dict[str, Markup]:
    """Every face in ``language`` (the cache's key: the rank letters and the jokers' words are
    in it), made once: a table fragment shows up to 60 cards and is rendered for each seat at
    each change."""
    letters = rank_letters(language)
    made = {rank + suit: _face(rank + suit, letters) for rank in RANKS for suit in SUIT_SYMBOLS}
    return made | {code: _joker(code) for code in JOKERS}


def card_face(code: str) -> Markup:
    """A face-up card; the only place a card code is written into HTML (``data-card``)."""
    face = faces(get_language()).get(code)
    return face if face is not None else _face(code, rank_letters())


def card_faces(codes: Iterable[str] | None) -> Markup:
    """A row of face-up cards."""
    return joined(card_face(code) for code in codes or ())


def card_backs(count: int | None) -> Markup:
    """A hidden hand: ``count`` card backs."""
    return CARD_BACK * max(0, int(count or 0))


def dimmed_card(code: str) -> Markup:
    """A card of the viewer's hand that they may not play now."""
    dimmed = _all_dimmed(get_language()).get(code)
    return dimmed if dimmed is not None else _dimmed(card_face(code))


def _dimmed(face: Markup) -> Markup:
    return html('<span class="card-disabled card-tap" aria-disabled="true">%s</span>', face)


@lru_cache(maxsize=16)
def _all_dimmed(language: str | None) -> dict[str, Markup]:
    """As the faces: most of a hand's cards are dimmed in every fragment but the one at its
    turn."""
    return {code: _dimmed(face) for code, face in faces(language).items()}


def trick_spots(spots: Iterable[dict[str, Any]] | None) -> Markup:
    """The cards of a trick, each in front of the seat that played it (one <li> a seat, empty
    for a seat still to play); drawn up to three times in every table fragment."""
    return joined(
        html('<li class="spot spot-%s%s%s" data-seat="%s"><span class="spot-name">%s</span>'
             '%s</li>', spot["position"], " winner" if spot.get("winner") else "",
             "" if spot.get("card") else " empty", spot["seat"], spot["name"],
             card_face(spot["card"]) if spot.get("card") else EMPTY)
        for spot in spots or ())
