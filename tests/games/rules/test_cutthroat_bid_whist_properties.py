"""Cutthroat Bid Whist under random play: thousands of legal hands across house-rule
combinations (the deck is whole, 18 tricks add up, replays rebuild, views never leak)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import cutthroat_bid_whist as ct
from games.rules.cards import JOKER_DECK
from games.rules.errors import IllegalAction
from tests.games.rules.test_bid_whist_properties import tokens

SEEDS = st.integers(min_value=0, max_value=2**32)
RULES = st.builds(
    ct.Rules,
    kitty_shown=st.booleans(),
    min_bid=st.sampled_from([7, 9, 12]),
    downtown_beats_uptown=st.booleans(),
    all_pass=st.sampled_from(["redeal", "stuck_dealer"]),
    downtown_ace=st.sampled_from(["high", "low"]),
    downtown_side_suits=st.sampled_from(["reversed", "normal"]),
    notrump_double=st.booleans(),
    game_target=st.sampled_from([10, 30]),
)


def new_random_hand(rules, dealer, rng):
    deal = ct.deal(rules, dealer, rng)
    assert sorted(sum(deal.hands, []) + deal.kitty) == sorted(JOKER_DECK)
    return ct.new_hand(rules, dealer, deal.hands, deal.kitty)


def replay(hand):
    again = ct.new_hand(hand.rules, hand.dealer, hand.dealt, hand.kitty)
    for seat, action in hand.history:
        again.apply(action, seat=seat)
    return again


def check_result(hand):
    result = hand.result()
    assert result["complete"] is True
    if result.get("redeal"):
        assert hand.rules.all_pass == "redeal" and result == {
            "complete": True, "redeal": True, "points": [0, 0, 0]}
        return result
    assert sum(hand.tricks_won) == 17 and sum(result["books"]) == 18
    assert len(hand.view(None)["tricks"]) == 17
    declarer = hand.declarer
    score = ct.score_hand(hand.rules, hand.bid, hand.mode, declarer, result["books"][declarer])
    assert result["points"] == score["points"] and result["made"] == score["made"]
    assert [p for s, p in enumerate(result["points"]) if s != declarer] == [0, 0]
    assert result["bid"] == f"{hand.bid} {hand.mode}"
    assert (result["trump"] is None) == (hand.mode == "notrump") == ("direction" in result)
    return result


@pytest.mark.slow  # its own number of examples: `make test`, not test-quick
@settings(max_examples=200)
@given(seed=SEEDS, rules=RULES)
def test_random_matches_keep_every_invariant(seed, rules):
    rng = random.Random(seed)
    match, totals = ct.Match(rules, first_dealer=seed % 3), [0, 0, 0]
    for _ in range(15):
        hand = new_random_hand(rules, match.next_dealer, rng)
        while not hand.complete:
            legal = hand.legal_actions() if hand.phase != "discard" else None
            action = hand.random_action(rng)
            assert legal is None or (legal and action in legal)
            hand.apply(action)
        assert hand.legal_actions() == [] and hand.to_act is None
        result = check_result(hand)
        assert replay(hand).result() == result
        dealer = match.next_dealer
        match.add_hand(hand)
        assert match.next_dealer == (dealer + 1) % 3
        totals = [t + p for t, p in zip(totals, result["points"], strict=True)]
        summary = match.summary()
        assert summary["scores"] == totals
        if match.complete:
            assert max(totals) >= rules.game_target and totals.count(max(totals)) == 1
            assert summary["winner"] == totals.index(max(totals))
            match, totals = ct.Match(rules, first_dealer=match.next_dealer), [0, 0, 0]


def hidden_from(hand, seat) -> set[str]:
    """Cards ``seat`` may not see, computed from the history, not from the engine's state."""
    if hand.complete:
        return set()
    played = {a.split()[1] for _, a in hand.history if a.startswith("play ")}
    discards = set()
    for _, action in hand.history:
        if action.startswith("discard "):
            discards = set(action.split()[1:])
    taken = hand.phase != "auction"
    held = []
    for other in range(3):
        cards = set(hand.dealt[other])
        if taken and other == hand.declarer:
            cards |= set(hand.kitty)
        held.append(cards - discards - played)
    hidden = set().union(*(held[o] for o in range(3) if o != seat))
    if not taken:
        hidden |= set(hand.kitty)
    if seat is None or seat != hand.declarer:
        hidden |= discards
    if hand.rules.kitty_shown:
        hidden -= set(hand.kitty)
    return hidden


def snapshot(hand):
    views = [hand.view(seat) for seat in (None, 0, 1, 2)]
    return json.dumps(views, sort_keys=True), list(hand.history), hand.phase, hand.to_act


def illegal_candidates(hand, legal, rng):
    candidates = ["play " + c for c in JOKER_DECK] + [
        "pass", "bid 9 uptown", "bid 18 notrump", "bid 19 uptown", "bid 6 uptown", "trump S",
        "trump X", "direction uptown", "plya AS", "", None, 3,
        "discard " + " ".join(JOKER_DECK[:3]),
        "discard " + " ".join(sorted(rng.sample(JOKER_DECK, 3))),  # sorted: as legal lists it
        "discard " + " ".join(JOKER_DECK[:6]),
    ]
    return [c for c in candidates if c not in legal]


@pytest.mark.slow  # its own number of examples: `make test`, not test-quick
@settings(max_examples=60)
@given(seed=SEEDS, rules=RULES)
def test_random_hands_never_leak_and_refuse_without_change(seed, rules):
    rng = random.Random(seed)
    hand = new_random_hand(rules, seed % 3, rng)
    copy_at, twin = rng.randrange(58), None
    while True:
        views = {seat: hand.view(seat) for seat in (None, 0, 1, 2)}
        json.dumps(views)
        for seat, view in views.items():
            assert not tokens(view) & hidden_from(hand, seat), (seat, hand.phase)
            acting = seat is not None and seat == hand.to_act
            if hand.phase == "discard":
                assert "legal" not in view
                assert ("discard_count" in view) == acting
            else:
                assert ("legal" in view) == acting
            for key in ("hand_sizes", "tricks_won", "books"):
                assert len(view[key]) == 3
            if seat is not None:
                assert len(view["hand"]) == view["hand_sizes"][seat]
        if hand.complete:
            break
        legal = hand.legal_actions()
        assert legal and legal == sorted(legal)
        before = snapshot(hand)
        for action in rng.sample(illegal_candidates(hand, set(legal), rng), 6):
            try:
                hand.apply(action)
            except IllegalAction:
                continue
            raise AssertionError(f"{action!r} was accepted in phase {hand.phase}")
        try:
            hand.apply(legal[0], seat=(hand.to_act + 1) % 3)
            raise AssertionError("an action by the wrong seat was accepted")
        except IllegalAction:
            pass
        assert snapshot(hand) == before
        if len(hand.history) == copy_at:
            twin = hand.copy()
        hand.apply(hand.random_action(rng))
    again = replay(hand)
    assert again.result() == hand.result()
    for seat in (None, 0, 1, 2):
        assert again.view(seat) == hand.view(seat)
    if twin is not None:
        assert len(twin.history) == copy_at
        for _, action in hand.history[copy_at:]:
            twin.apply(action)
        assert twin.result() == hand.result() and twin.view(None) == hand.view(None)
