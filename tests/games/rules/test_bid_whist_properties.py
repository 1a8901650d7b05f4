"""Bid Whist engine under random play: thousands of legal hands across house-rule combinations."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import bid_whist as bw
from games.rules.cards import JOKER_DECK
from games.rules.errors import IllegalAction

SEEDS = st.integers(min_value=0, max_value=2**32)
RULES = st.builds(
    bw.Rules,
    kitty=st.sampled_from(list(bw.KITTY_SHAPES)),
    kitty_shown=st.booleans(),
    min_bid=st.sampled_from([3, 4]),
    downtown_beats_uptown=st.booleans(),
    all_pass=st.sampled_from(["redeal", "stuck_dealer"]),
    downtown_ace=st.sampled_from(["high", "low"]),
    downtown_side_suits=st.sampled_from(["reversed", "normal"]),
    defenders_score_books=st.booleans(),
    notrump_double=st.booleans(),
    boston=st.sampled_from(["wins_game", "double", "normal"]),
    game_target=st.sampled_from([7, 11]),
)


def new_random_hand(rules, dealer, rng):
    deal = bw.deal(rules, dealer, rng)
    return bw.new_hand(rules, dealer, deal.hands, deal.kitty)


def replay(hand):
    again = bw.new_hand(hand.rules, hand.dealer, hand.dealt, hand.kitty)
    for seat, action in hand.history:
        again.apply(action, seat=seat)
    return again


def check_result(hand):
    result = hand.result()
    assert result["complete"] is True
    if result.get("redeal"):
        assert hand.rules.all_pass == "redeal" and result == {
            "complete": True, "redeal": True, "points": [0, 0]}
        return result
    assert sum(hand.tricks_won) == hand.rules.shape.tricks and sum(result["books"]) == 13
    team = hand.declarer % 2
    score = bw.score_hand(hand.rules, hand.bid, hand.mode, team, result["books"][team])
    assert result["points"] == score["points"] and result["boston"] == score["boston"]
    assert result["bid"] == f"{hand.bid} {hand.mode}"
    assert (result["trump"] is None) == (hand.mode == "notrump") == ("direction" in result)
    return result


@pytest.mark.slow  # its own number of examples: `make test`, not test-quick
@settings(max_examples=300)
@given(seed=SEEDS, rules=RULES)
def test_random_matches_keep_every_invariant(seed, rules):
    rng = random.Random(seed)
    match, totals = bw.Match(rules, first_dealer=seed % 4), [0, 0]
    for _ in range(20):
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
        assert match.next_dealer == (dealer + 1) % 4
        totals = [totals[0] + result["points"][0], totals[1] + result["points"][1]]
        summary = match.summary()
        assert summary["scores"] == totals
        if match.complete:
            target = rules.game_target
            boston_win = result.get("boston") and rules.boston == "wins_game"
            assert boston_win or max(totals) >= target or min(totals) <= -target
            assert summary["winner"] in (0, 1)
            match, totals = bw.Match(rules, first_dealer=match.next_dealer), [0, 0]


def tokens(value) -> set[str]:
    """Every word of every string in a JSON-ready value (cards appear as words)."""
    out: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.update(item.split())
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return out


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
    for other in range(4):
        cards = set(hand.dealt[other])
        if taken and other == hand.declarer:
            cards |= set(hand.kitty)
        held.append(cards - discards - played)
    hidden = set().union(*(held[o] for o in range(4) if o != seat))
    if not taken:
        hidden |= set(hand.kitty)
    if seat is None or seat != hand.declarer:
        hidden |= discards
    if hand.rules.kitty_shown:
        hidden -= set(hand.kitty)
    return hidden


def snapshot(hand):
    views = [hand.view(seat) for seat in (None, 0, 1, 2, 3)]
    return json.dumps(views, sort_keys=True), list(hand.history), hand.phase, hand.to_act


def illegal_candidates(hand, legal, rng):
    candidates = ["play " + c for c in JOKER_DECK] + [
        "pass", "bid 3 uptown", "bid 7 notrump", "bid 8 uptown", "trump S", "trump X",
        "direction uptown", "plya AS", "", None, 3, "discard " + " ".join(JOKER_DECK[:6]),
        "discard " + " ".join(rng.sample(JOKER_DECK, 6)),
    ]
    return [c for c in candidates if c not in legal]


@pytest.mark.slow  # its own number of examples: `make test`, not test-quick
@settings(max_examples=60)
@given(seed=SEEDS, rules=RULES)
def test_random_hands_never_leak_and_refuse_without_change(seed, rules):
    rng = random.Random(seed)
    hand = new_random_hand(rules, seed % 4, rng)
    copy_at, twin = rng.randrange(56), None
    while True:
        views = {seat: hand.view(seat) for seat in (None, 0, 1, 2, 3)}
        json.dumps(views)
        for seat, view in views.items():
            assert not tokens(view) & hidden_from(hand, seat), (seat, hand.phase)
            acting = seat is not None and seat == hand.to_act
            if hand.phase == "discard":
                # the 18,564 discards are not listed; the seat is told how many to choose
                assert "legal" not in view
                assert ("discard_count" in view) == acting
            else:
                assert ("legal" in view) == acting
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
        wrong_seat = (hand.to_act + 1) % 4
        try:
            hand.apply(legal[0], seat=wrong_seat)
            raise AssertionError("an action by the wrong seat was accepted")
        except IllegalAction:
            pass
        assert snapshot(hand) == before
        if len(hand.history) == copy_at:
            twin = hand.copy()
        hand.apply(hand.random_action(rng))
    again = replay(hand)
    assert again.result() == hand.result()
    for seat in (None, 0, 1, 2, 3):
        assert again.view(seat) == hand.view(seat)
    if twin is not None:
        # the copy did not move with the original, and the same actions finish it the same way
        assert len(twin.history) == copy_at
        for _, action in hand.history[copy_at:]:
            twin.apply(action)
        assert twin.result() == hand.result() and twin.view(None) == hand.view(None)
