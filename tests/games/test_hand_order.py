"""A hand sorted as a player holds it (games.presentation.held_in_order): jokers first, the
suits alternating black and red as far as the hand allows, the trump suit at the left end once
it is known, each suit from high to low."""

import random

from hypothesis import given
from hypothesis import strategies as st

from games.presentation import RED, held_in_order
from games.rules.cards import RANKS

DECK = [r + s for s in "SHDC" for r in RANKS]


def suits_in_order(cards):
    order = []
    for card in cards:
        if card[1:] and card[1] in "SHDC" and card[1] not in order:
            order.append(card[1])
    return order


def test_the_trump_suit_comes_first_once_known():
    hand = ["2C", "AH", "KS", "3D", "QC", "5H"]
    assert suits_in_order(held_in_order(hand)) == ["S", "H", "C", "D"]
    assert suits_in_order(held_in_order(hand, trump="D"))[0] == "D"
    assert suits_in_order(held_in_order(hand, trump="C"))[0] == "C"
    assert held_in_order(hand, trump="X") == held_in_order(hand)  # no trump (no trump mode)


@given(st.integers(0, 2**32), st.integers(1, 13), st.sampled_from([None, "S", "H", "D", "C"]))
def test_any_hand_is_every_card_once_trumps_first_colours_alternating(seed, size, trump):
    hand = random.Random(seed).sample(DECK, size)
    held = held_in_order(hand, trump)
    assert sorted(held) == sorted(hand)
    for suit in "SHDC":  # each suit from high to low
        ranks = [c[0] for c in held if c[1] == suit]
        assert ranks == sorted(ranks, key=RANKS.index)
    order = suits_in_order(held)
    if trump in order:
        assert order[0] == trump
    # each suit together, and two suits of one colour side by side only when forced
    assert len(order) == len({c[1] for c in hand})
    same = sum((a in RED) == (b in RED) for a, b in zip(order, order[1:], strict=False))
    reds = sum(s in RED for s in order)
    blacks = len(order) - reds
    forced = max(0, abs(reds - blacks) - 1)
    if trump in order:  # the trump's place first can cost one more pair at most
        forced += 1
    assert same <= forced


def test_a_misere_is_held_without_a_trump_suit_though_a_card_was_turned_up():
    """Solo Whist's turn-up names the trumps of most contracts, but a misère has none: once it
    is the contract the hand is sorted as in no trump, not with the turn-up suit first."""
    from games.presentation import for_template

    hand = ["2C", "AH", "KS", "3D", "QC", "5H", "9D", "JS"]
    view = {"game": "solo_whist", "seat": 0, "players": [
        {"seat": s, "name": n, "computer": None, "free": False, "away": False}
        for s, n in enumerate(["Ana", "Bob", "Cy", "Dee"])],
        "hand": {"phase": "play", "hand": hand, "turn_up_suit": "D", "trump": None,
                 "contract": {"name": "misere", "declarer": 0, "partner": None, "trump": None,
                              "goal": 0, "stake": 3},
                 "dealer": 3, "to_act": 0, "hand_sizes": [8, 8, 8, 8], "auction": []}}
    shown = [c["card"] for c in for_template(view)["my_cards"]]
    assert shown == held_in_order(hand)
    # while the auction lasts the turn-up suit is the likely trump: it comes first
    auction = view | {"hand": view["hand"] | {"phase": "auction", "contract": None}}
    assert suits_in_order([c["card"] for c in for_template(auction)["my_cards"]])[0] == "D"
