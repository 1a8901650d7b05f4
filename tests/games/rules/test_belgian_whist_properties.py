"""Belgian Whist property tests: thousands of random legal hands checked for invariants.

A uniformly random auction nearly always ends in a grand chelem (it outbids everything), so the
hands here are bid by a random player that prefers the cheaper calls and passes at a rate drawn
per hand: the auctions then end in every contract, several misère players and all-pass redeals.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import belgian_whist as bw
from games.rules.cards import STANDARD_DECK
from games.rules.errors import IllegalAction

RULES = bw.Rules()
CARD = re.compile(r"\b[AKQJT2-9][SHDC]\b")
seeds = st.integers(min_value=0, max_value=2**32)


def action_rank(action: str) -> int:
    """Roughly how high an auction action bids (proposing and emballing are cheapest)."""
    word, *rest = action.split()
    if word in bw.MISERES:
        return bw.contract_rank(word)
    if word in ("petit_chelem", "grand_chelem"):
        return bw.contract_rank(word)
    if word in ("solo", "abondance", "raise"):
        kind = "emballage" if word == "raise" else word
        return bw.contract_rank(kind, int(rest[0]), rest[1])
    return -1


def choose(state: bw.BelgianHand, rng: random.Random, pass_rate: float) -> str:
    """A random bidder that passes at its own rate and prefers the cheaper calls."""
    legal = state.legal_actions()
    if state.phase != "auction":
        return rng.choice(legal)
    calls = sorted((a for a in legal if a != "pass"), key=action_rank)
    if not calls or rng.random() < pass_rate:
        return "pass"
    return calls[min(int(rng.expovariate(0.4)), len(calls) - 1)]


def new_random_hand(seed: int) -> tuple[bw.BelgianHand, random.Random, float]:
    rng = random.Random(seed)
    dealer = rng.randrange(4)
    d = bw.deal(RULES, dealer, rng)
    return bw.new_hand(RULES, dealer, d.hands, d.kitty), rng, rng.uniform(0.05, 0.9)


def play_hand(seed: int) -> bw.BelgianHand:
    state, rng, pass_rate = new_random_hand(seed)
    steps = 0
    while not state.complete:
        assert state.legal_actions(), state.result()
        assert state.legal_actions() == sorted(state.legal_actions())
        state.apply(choose(state, rng, pass_rate))
        steps += 1
        assert steps < 400
    return state


def check_result(state: bw.BelgianHand) -> dict:
    result = state.result()
    assert result["complete"] is True and state.to_act is None
    assert state.legal_actions() == []
    assert sum(result["points"]) == 0
    if result["redeal"]:
        assert result["points"] == [0, 0, 0, 0]
        return result
    assert sum(result["tricks"]) == result["tricks_played"]
    assert result["tricks_played"] <= (12 if result["contract"] == "petite_misere" else 13)
    rescored = bw.score_hand(RULES, result["contract"], result["declarers"], result["tricks"],
                             result["level"])
    assert rescored["points"] == result["points"]
    if result["tricks_played"] < (12 if result["contract"] == "petite_misere" else 13):
        # stopped early: no distribution of the remaining tricks could change the points
        remaining = (12 if result["contract"] == "petite_misere" else 13) - result["tricks_played"]
        for entry in result["contracts"]:
            for extra in range(remaining + 1):
                tricks = list(result["tricks"])
                tricks[entry["declarers"][0]] += extra
                value = bw.contract_value(RULES, result["contract"], result["level"],
                                          entry["tricks"] + extra)
                assert value == entry["value"]
    return result


@pytest.mark.slow  # its own number of examples: `make test`, not test-quick
@settings(max_examples=2500)
@given(seeds)
def test_random_hands_are_zero_sum_and_never_stuck(seed):
    check_result(play_hand(seed))


def hidden_cards(state: bw.BelgianHand, seat: int | None) -> set[str]:
    """Cards ``seat`` may not see: others' unplayed cards (unless laid open) and discards."""
    played = {a.split()[1] for _, a in state.history if a.startswith("play ")}
    discards = {s: a.split()[1] for s, a in state.history if a.startswith("discard ")}
    exposed = set()
    if state.contract == "misere_etalee" and len(played) >= 5:
        exposed = set(state.declarers)
    hidden = set()
    for other in range(4):
        if other == seat:
            continue
        if other not in exposed:
            hidden |= set(state.dealt_hands[other]) - played - {discards.get(other)}
        if other in discards:
            hidden.add(discards[other])
    return hidden


def snapshot(state: bw.BelgianHand):
    return (json.dumps([state.view(s) for s in (None, 0, 1, 2, 3)]), list(state.history),
            list(state.legal_actions()), state.result())


def illegal_candidates(state: bw.BelgianHand, rng: random.Random) -> list:
    legal = set(state.legal_actions())
    pool = ["pass", "premier", "propose H", "emballer S", "raise 9 D", "maintain", "solo 6 S",
            "solo 8 H", "abondance 9 C", "petit_chelem NT", "grande_misere", "piccolo", "trou",
            "passe_trou", "trump H", "discard AS", "play AS", "play 2C", "play KD", "play",
            "solo 9 H", "raise 14 S", "", " pass", None, 7]
    pool += [f"play {c}" for c in rng.sample(STANDARD_DECK, 6)]
    return [a for a in pool if a not in legal]


@pytest.mark.slow  # its own number of examples: `make test`, not test-quick
@settings(max_examples=250)
@given(seeds)
def test_views_never_leak_refusals_change_nothing_and_history_replays(seed):
    state, rng, pass_rate = new_random_hand(seed)
    while True:
        for seat in (None, 0, 1, 2, 3):
            view = state.view(seat)
            text = json.dumps(view)
            if not state.complete:
                leaked = set(CARD.findall(text)) & hidden_cards(state, seat)
                assert not leaked, (seat, leaked, state.phase)
            if seat is not None:
                assert ("legal" in view) == (seat == state.to_act)
        if state.complete:
            break
        if rng.random() < 0.3:
            before = snapshot(state)
            for action in rng.sample(illegal_candidates(state, rng), 3):
                try:
                    state.apply(action)
                except IllegalAction as exc:
                    assert exc.reason and "Traceback" not in exc.reason
                else:
                    raise AssertionError(f"{action!r} was accepted")
                assert snapshot(state) == before
        if rng.random() < 0.1:  # a copy can be played on without touching the original
            before = snapshot(state)
            twin = state.copy()
            while not twin.complete:
                twin.apply(twin.random_action(rng))
            assert snapshot(state) == before
        state.apply(choose(state, rng, pass_rate))
    result = check_result(state)
    fresh = bw.new_hand(RULES, state.dealer, state.dealt_hands)
    for seat, action in state.history:
        fresh.apply(action, seat)
    assert fresh.result() == result
    if state.contract == "misere_etalee" and len(state.history) - state._auction_len >= 5:
        assert state.view(None)["exposed"]


def test_random_auctions_reach_every_contract():
    contracts = Counter()
    for seed in range(1500):
        result = play_hand(seed).result()
        contracts["redeal" if result["redeal"] else result["contract"]] += 1
        if len(result.get("declarers", [])) > 1 and result["contract"] in bw.MISERES:
            contracts["several misère players"] += 1
    for kind in (*bw.CONTRACTS, "redeal", "several misère players"):
        assert contracts[kind] > 0, contracts


def test_uniformly_random_hands_also_finish():
    rng = random.Random(7)
    for n in range(300):
        d = bw.deal(RULES, n % 4, rng)
        state = bw.new_hand(RULES, n % 4, d.hands)
        while not state.complete:
            state.apply(state.random_action(rng))
        assert sum(state.result()["points"]) == 0


@given(seed=seeds)
def test_a_session_rebuilt_from_stored_results_is_the_session_played(seed):
    """Tables rebuild a session from each hand's stored dealer and result (JSON), not by
    playing the hands again: both ways must give the same balances, dealer and end."""
    rng = random.Random(seed)
    played = bw.Session(RULES, first_dealer=seed % 4, deals=12)
    stored = []
    while not played.complete:
        dealer = played.next_dealer
        d = bw.deal(RULES, dealer, rng)
        hand = bw.new_hand(RULES, dealer, d.hands, d.kitty)
        pass_rate = rng.uniform(0.05, 0.9)
        while not hand.complete:
            hand.apply(choose(hand, rng, pass_rate))
        played.add_hand(hand)
        stored.append((dealer, json.loads(json.dumps(hand.result()))))
    rebuilt = bw.Session(RULES, first_dealer=seed % 4, deals=12)
    for dealer, result in stored:
        rebuilt.add_result(dealer, result)
    assert rebuilt.summary() == played.summary()
