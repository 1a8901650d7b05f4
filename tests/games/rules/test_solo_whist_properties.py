"""Solo Whist: thousands of random legal hands across house-rule combinations, checking invariants."""

from __future__ import annotations

import dataclasses
import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import solo_whist as solo
from games.rules.errors import IllegalAction

SEEDS = st.integers(min_value=0, max_value=2**32)
RULES = st.builds(
    lambda overrides: solo.Rules.from_overrides(overrides),
    st.fixed_dictionaries({
        "turn_up": st.booleans(),
        "eldest_may_cop_after_pass": st.booleans(),
        "prop_alone_may_solo": st.booleans(),
        "overtricks": st.booleans(),
        "stake_multiplier": st.sampled_from([1, 3, 2.0, 0.5, 0.1, 2.5]),
    }),
)
# the variant without the partnership bid (prop_and_cop off), every other house rule drawn as above
RULES_WITHOUT_PROP_AND_COP = RULES.map(lambda rules: dataclasses.replace(rules, prop_and_cop=False))
# "uniform" bids like a random player (high contracts, short hands); "cautious" passes often, so
# Prop and Cop, Solo, the late Cop and the proposer's solo option come up and hands run longer.
POLICIES = st.sampled_from(["uniform", "cautious"])

EVERY_ACTION = [*solo.AUCTION_ACTIONS, *solo.TRUMP_ACTIONS, *solo.PLAY_INFO,
                "plya AS", "play ZZ", "play BJ", "trump X", "solo please", "", None, 3, ["pass"]]


BIDS_LOW_TO_HIGH = ["cop", "prop", *(c.bid for c in solo.CONTRACT_TABLE[1:])]


def choose(hand: solo.SoloHand, rng: random.Random, policy: str) -> str:
    legal = hand.legal_actions()
    if policy == "cautious" and hand.phase == "auction":
        if "pass" in legal and rng.random() < 0.6:
            return "pass"
        lowest = [bid for bid in BIDS_LOW_TO_HIGH if bid in legal][:2]
        return rng.choice(lowest or legal)
    return rng.choice(legal)


def new_random_hand(rules: solo.Rules, dealer: int, rng: random.Random) -> solo.SoloHand:
    return solo.new_hand(rules, dealer, solo.deal(rules, dealer, rng).hands)


def plays_in(hand: solo.SoloHand) -> int:
    return sum(action.startswith("play ") for _, action in hand.history)


def result_is_certain(contract: solo.Contract, side: int, remaining: int) -> bool:
    return (side > contract.most or side + remaining < contract.goal
            or contract.goal <= side and side + remaining <= contract.most)


def check_complete_result(hand: solo.SoloHand) -> None:
    result = hand.result()
    units = result["units"]
    if hand.rules.stake_multiplier == int(hand.rules.stake_multiplier):
        assert all(type(u) is int for u in units) and sum(units) == 0
    else:
        assert sum(Fraction(str(u)) for u in units) == 0
    if result.get("redeal"):
        assert set(result) == {"complete", "redeal", "reason", "units"}
        assert result["reason"] in ("all_passed", "prop_not_accepted") and units == [0, 0, 0, 0]
        assert plays_in(hand) == 0
        return
    assert set(result) == {"complete", "contract", "declarer", "partner", "trump", "tricks",
                           "made", "units"}
    contract = solo.CONTRACTS[result["contract"]]
    tricks = result["tricks"]
    assert sum(tricks) <= 13 and plays_in(hand) == 4 * sum(tricks)
    side = tricks[result["declarer"]] + (tricks[result["partner"]] if result["partner"] is not None
                                         else 0)
    assert result["made"] == (contract.goal <= side <= contract.most)
    assert (result["partner"] is not None) == (contract.name == "prop_and_cop")
    assert (result["trump"] is None) == (contract.trump == solo.TRUMP_NONE)
    if hand.rules.turn_up and contract.trump == solo.TRUMP_TURN_UP:
        assert result["trump"] == hand.dealt_hands[hand.dealer][-1][1]
    if contract.name == "abundance" and hand.rules.turn_up:
        assert result["trump"] != hand.dealt_hands[hand.dealer][-1][1]
    if sum(tricks) < 13:
        assert not (hand.rules.overtricks and contract.pays_overtricks)
        assert result_is_certain(contract, side, 13 - sum(tricks))
    assert units == solo.score_hand(hand.rules, contract.name, result["declarer"],
                                    result["partner"], tricks)
    if result["made"]:
        assert units[result["declarer"]] > 0
    else:
        assert units[result["declarer"]] < 0


@pytest.mark.slow  # its own number of examples: `make test`, not test-quick
@settings(max_examples=250)
@given(seed=SEEDS, rules=RULES, policy=POLICIES)
def test_random_hands_keep_the_invariants_and_chain_into_a_session(seed, rules, policy):
    rng = random.Random(seed)
    session = solo.Session(rules, first_dealer=seed % 4)
    stored = []
    for _ in range(30):
        hand = new_random_hand(rules, session.next_dealer, rng)
        while not hand.complete:
            legal = hand.legal_actions()
            assert legal and legal == sorted(legal) and len(set(legal)) == len(legal)
            assert hand.to_act in (0, 1, 2, 3)
            hand.apply(choose(hand, rng, policy))
        assert hand.legal_actions() == [] and hand.to_act is None
        check_complete_result(hand)
        session.add_hand(hand)
        stored.append((hand.dealer, json.loads(json.dumps(hand.result()))))
    summary = session.summary()
    assert summary["hands"] == 30 and not summary["complete"]
    # Tables rebuild a session from each hand's stored dealer and result, not by replaying.
    rebuilt = solo.Session(rules, first_dealer=seed % 4)
    for dealer, result in stored:
        rebuilt.add_result(dealer, result)
    assert rebuilt.summary() == summary
    totals = [sum(Fraction(str(r["units"][seat])) for r in session.results) for seat in range(4)]
    assert [Fraction(str(b)) for b in summary["balances"]] == totals
    assert summary["leader"] == [s for s in range(4) if totals[s] == max(totals)]


def hidden_cards(hand: solo.SoloHand, seat: int | None) -> set[str]:
    """The cards ``seat`` may not see now, derived from the history alone."""
    if hand.complete:  # the deal is revealed at the end
        return set()
    played = {action[5:] for _, action in hand.history if action.startswith("play ")}
    dealer_played = any(s == hand.dealer and a.startswith("play ") for s, a in hand.history)
    spread = next((s for s, a in hand.history if a == "spread_misere"), None)
    exposed = (hand.contract is not None and hand.contract.name == "spread_misere"
               and plays_in(hand) >= 4)
    hidden = set()
    for other in range(4):
        if other == seat or exposed and other == spread:
            continue
        hidden.update(hand.dealt_hands[other])
    if hand.rules.turn_up and not dealer_played:
        hidden.discard(hand.dealt_hands[hand.dealer][-1])
    return hidden - played


def assert_views_hide_what_they_must(hand: solo.SoloHand) -> None:
    for seat in (None, 0, 1, 2, 3):
        view = hand.view(seat)
        text = json.dumps(view)
        for card in hidden_cards(hand, seat):
            assert f'"{card}"' not in text and f"play {card}" not in text, (seat, card)
        assert ("legal" in view) == (seat is not None and seat == hand.to_act)
        if seat is not None:
            assert len(view["hand"]) == view["hand_sizes"][seat]


def snapshot(hand: solo.SoloHand):
    return (hand.phase, hand.to_act, list(hand.history), list(hand.legal_actions()),
            json.dumps(hand.view(None)), json.dumps([hand.view(s) for s in range(4)]))


@given(seed=SEEDS, rules=RULES, policy=POLICIES)
def test_every_step_refuses_illegal_actions_and_views_never_leak(seed, rules, policy):
    rng = random.Random(seed)
    for dealer in range(2):
        hand = new_random_hand(rules, dealer, rng)
        while True:
            assert_views_hide_what_they_must(hand)
            before = snapshot(hand)
            legal = hand.legal_actions()
            for action in rng.sample(EVERY_ACTION, 6):
                if action in legal:
                    continue
                try:
                    hand.apply(action)
                except IllegalAction as error:
                    assert error.reason and error.template
                else:
                    raise AssertionError(f"{action!r} was accepted; legal: {legal}")
                assert snapshot(hand) == before
            if hand.complete:
                break
            other = (hand.to_act + rng.randrange(1, 4)) % 4
            try:
                hand.apply(legal[0], seat=other)
            except IllegalAction as error:
                assert "turn" in error.reason
            else:
                raise AssertionError("an action out of turn was accepted")
            assert snapshot(hand) == before
            hand.apply(choose(hand, rng, policy))
        check_complete_result(hand)


@pytest.mark.slow  # its own number of examples: `make test`, not test-quick
@settings(max_examples=150)
@given(seed=SEEDS, rules=RULES, policy=POLICIES)
def test_replaying_the_history_rebuilds_the_same_hand_and_copies_stay_independent(
        seed, rules, policy):
    rng = random.Random(seed)
    for dealer in range(4):
        hand = new_random_hand(rules, dealer, rng)
        branch_at = rng.randrange(0, 40)
        branch = None
        while not hand.complete:
            if len(hand.history) == branch_at:
                branch = (hand.copy(), snapshot(hand), rng.getstate())
            hand.apply(choose(hand, rng, policy))
        replay = solo.new_hand(rules, dealer, hand.dealt_hands)
        for seat, action in hand.history:
            replay.apply(action, seat=seat)
        assert replay.result() == hand.result()
        assert [replay.view(s) for s in (None, 0, 1, 2, 3)] == [
            hand.view(s) for s in (None, 0, 1, 2, 3)]
        if branch is not None:
            twin, seen, state = branch
            assert snapshot(twin) == seen
            replay_rng = random.Random()
            replay_rng.setstate(state)
            while not twin.complete:
                twin.apply(choose(twin, replay_rng, policy))
            assert twin.history == hand.history and twin.result() == hand.result()


# -- without Prop and Cop ------------------------------------------------------------------------


@given(seed=SEEDS, rules=RULES_WITHOUT_PROP_AND_COP, policy=POLICIES)
def test_a_session_without_prop_and_cop_never_offers_them_and_keeps_the_invariants(
        seed, rules, policy):
    rng = random.Random(seed)
    session = solo.Session(rules, first_dealer=seed % 4, deals=12)
    while not session.complete:
        hand = new_random_hand(rules, session.next_dealer, rng)
        watched = len(session.results) < 2  # every view of every step, in the first hands
        while not hand.complete:
            legal = hand.legal_actions()
            assert legal and not {"prop", "cop"} & set(legal)
            if watched:
                assert_views_hide_what_they_must(hand)
            hand.apply(choose(hand, rng, policy))
        check_complete_result(hand)
        result = hand.result()
        assert result.get("partner") is None and result.get("reason") != "prop_not_accepted"
        replay = solo.new_hand(rules, hand.dealer, hand.dealt_hands)
        for seat, action in hand.history:
            replay.apply(action, seat=seat)
        assert replay.result() == result and replay.view(None) == hand.view(None)
        session.add_hand(hand)
    balances = session.summary()["balances"]
    assert sum(Fraction(str(b)) for b in balances) == 0


# -- revokes (paper entry) -----------------------------------------------------------------------


@st.composite
def sheets(draw):
    """The facts of one played hand on a score sheet, a revoke by any seat, and the rules."""
    rules = draw(RULES)
    rules = dataclasses.replace(rules, prop_and_cop=draw(st.booleans()), revoke_penalty=draw(
        st.sampled_from(solo.REVOKE_PENALTIES)))
    names = [c.name for c in solo.CONTRACT_TABLE
             if (c.name != "prop_and_cop" or rules.prop_and_cop)
             and (c.name != "royal_abundance" or rules.turn_up)]
    contract = draw(st.sampled_from(names))
    declarer = draw(st.integers(0, 3))
    partner = None
    if contract == "prop_and_cop":
        partner = draw(st.sampled_from([s for s in range(4) if s != declarer]))
    played = draw(st.integers(0, 13))  # fewer than 13 when play stopped early
    cuts = sorted(draw(st.lists(st.integers(0, played), min_size=3, max_size=3)))
    tricks = [b - a for a, b in zip([0, *cuts], [*cuts, played], strict=True)]
    return rules, contract, declarer, partner, tricks, draw(st.integers(0, 3))


@pytest.mark.slow  # its own number of examples: `make test`, not test-quick
@settings(max_examples=500)
@given(sheet=sheets())
def test_a_revoke_keeps_units_zero_sum_and_never_helps_the_revoking_side(sheet):
    rules, contract, declarer, partner, tricks, revoker = sheet
    units = solo.score_hand(rules, contract, declarer, partner, tricks, revoker)
    assert sum(Fraction(str(u)) for u in units) == 0
    if type(rules.stake_multiplier) is int:
        assert all(type(u) is int for u in units)
    honest = solo.score_hand(rules, contract, declarer, partner, tricks)
    assert Fraction(str(units[revoker])) <= Fraction(str(honest[revoker]))
    if rules.revoke_penalty == "lose_deal":
        assert units[revoker] < 0  # the revoking side always loses the deal
    side = {declarer, partner} - {None}
    for seat in range(4):  # the revoking side pays together, the other side gains together
        if (seat in side) == (revoker in side):
            assert units[seat] == units[revoker]
        else:
            assert Fraction(str(units[seat])) >= Fraction(str(honest[seat]))
