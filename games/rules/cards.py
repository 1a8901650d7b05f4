"""Cards, suits and the bit encoding shared by every engine.

A card is a two-character string: rank + suit (``AS``, ``TD``, ``2C``), or a Bid Whist joker
(``BJ`` big, ``LJ`` little).  Engines that need speed work on bitmasks: card ``c`` is bit
``CARD_INDEX[c]``.  The indices follow the *sorted order of the card strings*, so iterating the
set bits of a mask from low to high yields cards -- and therefore ``play XX`` actions -- already
sorted, as the hand-record format demands, without a sort call on the hot path.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.rules.errors import N_

SUITS = "SHDC"
RANKS = "AKQJT98765432"  # high to low, the uptown order
JOKERS = ("BJ", "LJ")
# English names in messages; the site translates them with the message (N_ marks them).
SUIT_NAMES = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}

STANDARD_DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)  # 52 cards
JOKER_DECK: tuple[str, ...] = STANDARD_DECK + JOKERS  # 54 cards, Bid Whist

# Bit order = sorted string order (see the module docstring).
ALL_CARDS: tuple[str, ...] = tuple(sorted(JOKER_DECK))
CARD_INDEX: dict[str, int] = {card: i for i, card in enumerate(ALL_CARDS)}
CARD_BIT: dict[str, int] = {card: 1 << i for i, card in enumerate(ALL_CARDS)}

SUIT_MASK: dict[str, int] = {
    s: sum(CARD_BIT[r + s] for r in RANKS) for s in SUITS
}
JOKER_MASK = CARD_BIT["BJ"] | CARD_BIT["LJ"]
STANDARD_MASK = sum(SUIT_MASK.values())

# rank strength, 14 = ace ... 2 = deuce; jokers 16 (big) and 15 (little)
RANK_VALUE = {r: 14 - i for i, r in enumerate(RANKS)}
CARD_RANK: tuple[int, ...] = tuple(
    16 if c == "BJ" else 15 if c == "LJ" else RANK_VALUE[c[0]] for c in ALL_CARDS
)
CARD_SUIT: tuple[str | None, ...] = tuple(None if c in JOKERS else c[1] for c in ALL_CARDS)


def is_card(text: object, *, jokers: bool = False) -> bool:
    if not isinstance(text, str):
        return False
    return text in CARD_INDEX and (jokers or text not in JOKERS)


def mask_of(cards: Iterable[str]) -> int:
    mask = 0
    for card in cards:
        mask |= CARD_BIT[card]
    return mask


def cards_of(mask: int) -> list[str]:
    """The cards of ``mask`` in sorted string order."""
    return names_of(mask, ALL_CARDS)


def names_of(mask: int, names: Sequence[str]) -> list[str]:
    """``names[i]`` for each set bit ``i`` of ``mask``, low to high: with names indexed like
    ``ALL_CARDS`` (``play`` actions, say), sorted as the cards are."""
    out = []
    while mask:
        low = mask & -mask
        out.append(names[low.bit_length() - 1])
        mask ^= low
    return out


def sort_for_display(cards: Iterable[str], suit_order: str = "SHDC") -> list[str]:
    """A hand as a player holds it: by suit, high to low, jokers first."""

    def key(card: str) -> tuple[int, int]:
        if card in JOKERS:
            return (-1, -CARD_RANK[CARD_INDEX[card]])
        return (suit_order.index(card[1]), -RANK_VALUE[card[0]])

    return sorted(cards, key=key)
