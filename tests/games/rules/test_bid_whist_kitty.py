"""Bid Whist's house rule ``kitty``: the four kitty shapes (docs/rules/bid_whist.md, "Kitty
shapes").  Property tests per shape, then examples."""

from __future__ import annotations

import json
import random
from math import comb

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules import bid_whist as bw
from games.rules.cards import JOKER_DECK, STANDARD_DECK
from games.rules.errors import DealError, IllegalAction, RulesError, WhistError
from games.rules.records import record_of, replay_document, replay_hand

from .test_bid_whist_properties import hidden_from, tokens

SHAPES = list(bw.KITTY_SHAPES)
SEEDS = st.integers(min_value=0, max_value=2**32)
# the deck, the cards per seat and the kitty of each shape, written out apart from the engine
EXPECTED = {
    "6_two_jokers": (sorted(JOKER_DECK), 12, 6),
    "4_no_jokers": (sorted(STANDARD_DECK), 12, 4),
    "5_one_joker": (sorted([*STANDARD_DECK, "BJ"]), 12, 5),
    "none": (sorted(STANDARD_DECK), 13, 0),
}
OTHER_RULES = st.fixed_dictionaries({
    "kitty_shown": st.booleans(), "all_pass": st.sampled_from(["redeal", "stuck_dealer"]),
    "downtown_ace": st.sampled_from(["high", "low"]), "min_bid": st.sampled_from([3, 4]),
})


def rules_for(kitty: str, **others) -> bw.Rules:
    return bw.Rules.from_overrides({"kitty": kitty, **others})


def dealt(rules, dealer, rng):
    deal = bw.deal(rules, dealer, rng)
    return bw.new_hand(rules, dealer, deal.hands, deal.kitty)


def to_discard(kitty: str, **others):
    """Seat 0 (dealer 3) bids 4 uptown and the others pass."""
    hand = dealt(rules_for(kitty, **others), 3, random.Random(5))
    for action in ("bid 4 uptown", "pass", "pass", "pass"):
        hand.apply(action)
    return hand


def refusal(hand, action) -> str:
    with pytest.raises(IllegalAction) as info:
        hand.apply(action)
    return info.value.reason


# -- properties, for each shape ------------------------------------------------------------------


@pytest.mark.parametrize("kitty", SHAPES)
@given(seed=SEEDS, others=OTHER_RULES)
def test_the_cards_dealt_are_the_deck_of_the_shape(kitty, seed, others):
    deck, hand_size, kitty_size = EXPECTED[kitty]
    rules = rules_for(kitty, **others)
    deal = bw.deal(rules, seed % 4, random.Random(seed))
    assert [len(h) for h in deal.hands] == [hand_size] * 4
    assert (deal.kitty is None) == (kitty_size == 0)
    assert sorted(sum(deal.hands, []) + (deal.kitty or [])) == deck
    hand = bw.new_hand(rules, seed % 4, deal.hands, deal.kitty)
    assert hand.view(None)["hand_sizes"] == [hand_size] * 4


@pytest.mark.parametrize("kitty", SHAPES)
@given(seed=SEEDS, others=OTHER_RULES)
def test_every_hand_has_13_books_and_legal_actions_until_the_end(kitty, seed, others):
    deck, hand_size, kitty_size = EXPECTED[kitty]
    rules = rules_for(kitty, **others)
    rng = random.Random(seed)
    match = bw.Match(rules, first_dealer=seed % 4)
    for _ in range(6):
        hand = dealt(rules, match.next_dealer, rng)
        phases = []
        while not hand.complete:
            phases.append(hand.phase)
            if hand.phase == "discard":
                view = hand.view(hand.to_act)
                assert view["discard_count"] == kitty_size and "legal" not in view
                assert len(view["hand"]) == hand_size + kitty_size
                action = hand.random_action(rng)
                assert len(action.split()) == kitty_size + 1
            else:
                legal = hand.legal_actions()
                assert legal and legal == sorted(legal)
                action = hand.random_action(rng)
                assert action in legal
            hand.apply(action)
        assert hand.legal_actions() == [] and hand.to_act is None
        result = hand.result()
        if result.get("redeal"):
            assert phases == ["auction"] * 4
        else:
            assert ("discard" in phases) == (kitty_size > 0)
            assert phases.count("play") == 4 * hand_size
            assert sum(hand.tricks_won) == hand_size and sum(result["books"]) == 13
            team = hand.declarer % 2
            score = bw.score_hand(rules, hand.bid, hand.mode, team, result["books"][team])
            assert result["points"] == score["points"]
        match.add_hand(hand)
        if match.complete:
            break


@pytest.mark.parametrize("kitty", SHAPES)
@given(seed=SEEDS, others=OTHER_RULES, stop=st.integers(0, 70))
def test_the_record_replays_to_the_same_state(kitty, seed, others, stop):
    rules = rules_for(kitty, **others)
    rng = random.Random(seed)
    hand = dealt(rules, seed % 4, rng)
    for _ in range(stop):
        if hand.complete:
            break
        hand.apply(hand.random_action(rng))
    record = json.loads(json.dumps(record_of(hand)))
    assert ("kitty" in record) == (kitty != "none")
    again = replay_hand(record)
    assert again.history == hand.history and again.result() == hand.result()
    for seat in (None, 0, 1, 2, 3):
        assert again.view(seat) == hand.view(seat)
    assert replay_document(record) == hand.result()


@pytest.mark.parametrize("kitty", SHAPES)
@given(seed=SEEDS, others=OTHER_RULES)
def test_a_view_never_shows_another_seats_cards_or_an_unshown_kitty(kitty, seed, others):
    rules = rules_for(kitty, **others)
    rng = random.Random(seed)
    hand = dealt(rules, seed % 4, rng)
    while True:
        for seat in (None, 0, 1, 2, 3):
            view = hand.view(seat)
            json.dumps(view)
            assert not tokens(view) & hidden_from(hand, seat), (seat, hand.phase)
            if kitty == "none":
                assert "kitty" not in view and "discards" not in view
        if hand.complete:
            break
        hand.apply(hand.random_action(rng))


# -- the deal, per shape -------------------------------------------------------------------------


def shape_deal(kitty: str) -> tuple[list[list[str]], list[str]]:
    deck, hand_size, _kitty_size = EXPECTED[kitty]
    hands = [deck[i * hand_size:(i + 1) * hand_size] for i in range(4)]
    return hands, deck[4 * hand_size:]


def test_a_4_no_jokers_deal_given_a_6_card_kitty_is_refused_naming_the_counts():
    hands, _kitty = shape_deal("4_no_jokers")
    with pytest.raises(DealError) as info:
        bw.new_hand(rules_for("4_no_jokers"), 0, hands, ["2C", "3C", "4C", "5C", "BJ", "LJ"])
    assert str(info.value) == ("the kitty has 6 cards; Bid Whist deals a 4-card kitty "
                               "(house rule kitty=4_no_jokers)")
    assert info.value.params == {"count": 6, "expected": 4, "shape": "4_no_jokers"}


@pytest.mark.parametrize("kitty, change, message", [
    ("4_no_jokers", lambda h, k: h[0].__setitem__(0, "BJ"),
     "'BJ' is not a card of the 52-card Bid Whist deck (house rule kitty=4_no_jokers)"),
    ("5_one_joker", lambda h, k: k.__setitem__(0, "LJ"),
     "'LJ' is not a card of the 53-card Bid Whist deck (house rule kitty=5_one_joker)"),
    ("5_one_joker", lambda h, k: k.pop(),
     "the kitty has 4 cards; Bid Whist deals a 5-card kitty (house rule kitty=5_one_joker)"),
    ("6_two_jokers", lambda h, k: h[2].pop(),
     "seat 2 has 11 cards; Bid Whist deals 12 to each seat (house rule kitty=6_two_jokers)"),
    ("none", lambda h, k: h[1].pop(),
     "seat 1 has 12 cards; Bid Whist deals 13 to each seat (house rule kitty=none)"),
    ("none", lambda h, k: k.append(h[3].pop()),
     "seat 3 has 12 cards; Bid Whist deals 13 to each seat (house rule kitty=none)"),
])
def test_a_deal_of_another_shape_is_refused_with_the_right_counts(kitty, change, message):
    hands, kitty_cards = shape_deal(kitty)
    change(hands, kitty_cards)
    with pytest.raises(DealError) as info:
        bw.new_hand(rules_for(kitty), 0, hands, kitty_cards)
    assert str(info.value) == message


def test_a_missing_kitty_is_refused_with_its_size():
    hands, _kitty = shape_deal("5_one_joker")
    with pytest.raises(DealError, match="needs its 5-card kitty"):
        bw.new_hand(rules_for("5_one_joker"), 0, hands)


def test_without_a_kitty_the_deal_takes_none_or_empty_and_refuses_cards():
    hands, kitty = shape_deal("none")
    assert kitty == []
    rules = rules_for("none")
    for empty in (None, []):
        assert bw.new_hand(rules, 0, hands, empty).dealt_kitty is None
    with pytest.raises(DealError) as info:
        bw.new_hand(rules, 0, hands, ["BJ", "LJ"])
    assert str(info.value) == ("the kitty has 2 cards; with house rule kitty=none Bid Whist "
                               "deals no kitty")


def test_the_one_joker_is_the_big_joker_and_the_top_trump():
    rules = rules_for("5_one_joker")
    assert [c for c in rules.shape.deck if c in ("BJ", "LJ")] == ["BJ"]
    assert bw.card_order(rules, "S", "uptown", "S")[:3] == ["BJ", "AS", "KS"]
    for kitty in ("4_no_jokers", "none"):
        order = bw.card_order(rules_for(kitty), "H", "downtown", "H")
        assert order[:2] == ["AH", "2H"] and len(order) == 13


# -- the discard phase ---------------------------------------------------------------------------


@pytest.mark.parametrize("kitty, count", [("4_no_jokers", 4), ("5_one_joker", 5),
                                          ("6_two_jokers", 6)])
def test_the_declarer_discards_as_many_cards_as_the_kitty_has(kitty, count):
    hand = to_discard(kitty)
    view = hand.view(0)
    assert view["discard_count"] == count and len(view["hand"]) == 12 + count
    assert set(view["kitty"]) <= set(view["hand"])
    legal = hand.legal_actions()
    assert len(legal) == comb(12 + count, count) == len(set(legal)) and legal == sorted(legal)
    rng = random.Random(1)
    assert all(hand.random_action(rng) in legal for _ in range(50))
    assert hand.result() == {"complete": False, "phase": "discard", "to_act": 0,
                             "discard_count": count}
    other = 6 if count != 6 else 4
    cards = view["hand"]
    assert refusal(hand, "discard " + " ".join(cards[:other])) == (
        f"discard exactly {count} cards, not {other}")
    assert refusal(hand, "play " + cards[0]) == (
        f"seat 0 must first discard {count} cards (discard{' C' * count})")
    hand.apply("discard " + " ".join(hand.kitty))
    assert hand.phase == "declare" and hand.books() == [1, 0]
    assert hand.view(0)["hand_sizes"] == [12] * 4


def test_without_a_kitty_there_is_no_discard_phase():
    hand = to_discard("none")
    assert hand.phase == "declare" and hand.to_act == 0
    view = hand.view(0)
    assert "discard_count" not in view and "kitty" not in view
    assert view["legal"] == ["trump C", "trump D", "trump H", "trump S"]
    assert len(view["hand"]) == 13 and hand.books() == [0, 0]
    assert refusal(hand, "discard " + " ".join(view["hand"][:4])) == (
        "there is no kitty (house rule kitty=none): nothing is discarded")
    assert "discard" not in refusal(hand, "shuffle")
    hand.apply("trump S")
    rng = random.Random(4)
    while not hand.complete:
        hand.apply(hand.random_action(rng))
    assert sum(hand.tricks_won) == 13 and len(hand.view(None)["tricks"]) == 13
    assert not any(a.startswith("discard") for _, a in hand.history)
    assert "kitty" not in hand.view(None) and "kitty" not in record_of(hand)


def test_a_joker_absent_from_the_deck_is_refused_as_such():
    hand = to_discard("4_no_jokers")
    hand.apply("discard " + " ".join(hand.kitty))
    hand.apply("trump S")
    assert refusal(hand, "play BJ") == (
        "BJ is not in the 52-card deck of house rule kitty=4_no_jokers")


# -- scoring -------------------------------------------------------------------------------------


def test_without_a_kitty_the_declaring_team_may_take_no_book():
    rules = rules_for("none")
    assert bw.score_hand(rules, 3, "uptown", 0, 0) == {
        "books": [0, 13], "points": [-3, 0], "boston": False, "made": False}
    assert bw.score_hand(rules, 4, "uptown", 1, 13)["boston"]
    with pytest.raises(WhistError) as info:
        bw.score_hand(rules, 3, "uptown", 0, 14)
    assert str(info.value) == "without a kitty the declaring team's books are from 0 to 13, not 14"
    for kitty in ("6_two_jokers", "4_no_jokers", "5_one_joker"):
        with pytest.raises(WhistError, match="the kitty book included"):
            bw.score_hand(rules_for(kitty), 3, "uptown", 0, 0)


def test_the_kitty_rule_refuses_unknown_shapes_and_is_stored_when_not_the_default():
    with pytest.raises(RulesError, match="one of 6_two_jokers, 4_no_jokers, 5_one_joker, none"):
        bw.Rules.from_overrides({"kitty": "3_jokers"})
    assert bw.Rules().kitty == "6_two_jokers" and bw.Rules().overrides() == {}
    assert rules_for("none").overrides() == {"kitty": "none"}


def test_a_record_of_another_shape_is_refused_with_the_deal_message():
    rng = random.Random(3)
    record = record_of(dealt(rules_for("6_two_jokers"), 0, rng))
    record["rules"] = {"kitty": "4_no_jokers"}
    with pytest.raises(WhistError) as info:
        replay_hand(record)
    assert str(info.value) == ("deal: the kitty has 6 cards; Bid Whist deals a 4-card kitty "
                               "(house rule kitty=4_no_jokers)")
