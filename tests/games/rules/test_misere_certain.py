"""A spread misère (misère étalée) only from a hand certain to lose every trick
(``bidding.misere_certain``, the convention "advice"), checked against the play itself: in a
misère, where there are no trumps and the declarer who never wins never leads, each suit is a
game of its own, played out here card by card by defenders who see every card."""

from __future__ import annotations

from functools import cache
from itertools import product

from hypothesis import given
from hypothesis import strategies as st

from games.rules.computer.bidding import misere_certain

RANKS = "23456789TJQKA"
SUITS = "SHDC"


@cache
def caught(mine: frozenset[int], others: tuple[frozenset[int], ...]) -> bool:
    """Whether defenders who see every card can make the declarer win a trick of one suit.

    ``mine`` and each of ``others`` are ranks (2 to 14).  The defenders lead the suit whenever
    they like, any of them (the lead passes among them through the other suits); the declarer
    plays second, the hardest place (the defenders after it see its card), and must follow while
    it holds the suit; a defender without the suit plays none of it."""
    if not mine:
        return False
    for leader, led_from in enumerate(others):
        for led in led_from:
            followers = [i for i in range(len(others)) if i != leader]
            if not any(escapes(mine, others, leader, led, followers, mine_card)
                       for mine_card in mine):
                return True
    return False


def escapes(mine, others, leader, led, followers, mine_card) -> bool:
    """Whether the declarer, playing ``mine_card`` to ``led``, loses this trick and every later
    one, whatever cards the defenders after it play."""
    choices = [sorted(others[i]) or [None] for i in followers]
    for responses in product(*choices):
        played = [led, *(r for r in responses if r is not None)]
        if mine_card > max(played):
            return False  # the declarer's card wins the trick
        left = list(others)
        left[leader] = left[leader] - {led}
        for i, r in zip(followers, responses, strict=True):
            if r is not None:
                left[i] = left[i] - {r}
        if caught(mine - {mine_card}, tuple(left)):
            return False
    return True


def ranks_of(cards: list[str], suit: str) -> frozenset[int]:
    return frozenset(RANKS.index(c[0]) + 2 for c in cards if c[1] == suit)


def others_all_with_one(mine: frozenset[int]) -> tuple[frozenset[int], ...]:
    """One defender holds every other card of the suit, the other two none."""
    return (frozenset(range(2, 15)) - mine, frozenset(), frozenset())


# Hands of the eight lowest ranks: there the question is close (a spread misère is a low hand)
low_hands = st.lists(st.sampled_from([r + s for s in SUITS for r in RANKS[:8]]), min_size=13,
                     max_size=13, unique=True)


@given(hand=low_hands)
def test_a_hand_is_certain_exactly_when_no_defender_can_catch_a_card(hand):
    """``misere_certain`` says yes exactly when in no
    suit can the defenders catch a card, with one of them holding the rest of the suit (the
    layout that catches a card with too many of the others' cards under it)."""
    catchable = any(caught(ranks_of(hand, s), others_all_with_one(ranks_of(hand, s)))
                    for s in SUITS)
    assert misere_certain(hand) is not catchable


@st.composite
def certain_hands(draw):
    """Hands whose k-th lowest card of each suit (from 0) is at most 2 + 2k, every such hand
    possible: the suits' lengths, then each suit's cards from the lowest up."""
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=13, max_size=13))
    hand = []
    for suit in SUITS:
        length, rank = suits.count(suit), 1
        for k in range(length):
            rank = draw(st.integers(rank + 1, min(2 + 2 * k, 14 - (length - 1 - k))))
            hand.append(RANKS[rank - 2] + suit)
    return hand


@given(hand=certain_hands(), deal=st.lists(st.integers(0, 2), min_size=39, max_size=39))
def test_a_certain_hand_is_caught_by_no_layout_of_the_others(hand, deal):
    """Whatever the others hold of each suit, a hand ``misere_certain`` passes loses every trick
    of it."""
    assert misere_certain(hand)
    rest = [r + s for s in SUITS for r in RANKS if r + s not in hand]
    holders = [[c for c, who in zip(rest, deal, strict=True) if who == i] for i in range(3)]
    for suit in SUITS:
        mine = ranks_of(hand, suit)
        others = tuple(ranks_of(h, suit) for h in holders)
        assert not caught(mine, others), suit


def test_the_hands_of_the_positions():
    """The positions' hands (tests/games/rules/computer_positions.json): the ♣2 3 4 9 is caught
    when one defender holds every other club, not when the others can cover the 9 (it goes
    under their high clubs); ♠4 6 8 9 T loses its 4 to a lone 2 or 3."""
    assert not misere_certain("2S 3S 4S 2H 3H 4H 2D 3D 5D 2C 3C 4C 9C".split())
    assert caught(frozenset({2, 3, 4, 9}), others_all_with_one(frozenset({2, 3, 4, 9})))
    assert not caught(frozenset({2, 3, 4, 9}), (frozenset({5, 6, 7, 8}), frozenset({10, 11}),
                                               frozenset({12, 13, 14})))
    assert caught(frozenset({4, 6, 8, 9, 10}), (frozenset({2}), frozenset(), frozenset()))
    assert not misere_certain("4S 6S 8S 9S TS 2H 3H 5H 2D 3D 2C 3C 4C".split())
    assert misere_certain("2S 3S 4S 2H 3H 2D 3D 4D 5D 2C 3C 4C 6C".split())
