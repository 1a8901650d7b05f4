"""The double-dummy solver (games.rules.computer.double_dummy) and the contract's result in a hand's
review: the same count as a plain minimax over every card, and the review's figure says what it
is."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import records
from games.rules.computer import knowledge, played_record
from games.rules.computer.double_dummy import OutOfTime, Solver
from games.rules.computer.kernel import WIN, Position, bits, legal_mask, play
from games.rules.computer.review import contract_bound, contract_double_dummy
from tests.games.test_replay import a_record

pytestmark = pytest.mark.slow  # double-dummy searches of whole hands


def spec_and_deck(game: str):
    """The search kernel's rules of the play (trumps, card order, sides) of a played hand, and
    the cards of the game's deck."""
    record = a_record(game)
    _module, state, actions = records.start_hand(record)
    for entry in actions:
        if entry["action"].startswith("play "):
            break
        state.apply(entry["action"], entry["seat"])
    view = state.view(state.to_act)
    return knowledge.read(view).spec, bits(knowledge.hooks(view).deck(state.rules))


def plain_minimax(spec, pos: Position, side: int, maximises: bool) -> int:
    """Every legal card tried, no table, no cut: the side's tricks from ``pos``."""
    if pos.left == 0:
        return 0
    results = []
    for card in bits(legal_mask(spec, pos)):
        child = pos.copy()
        play(spec, child, card)
        took = 1 if child.count == 0 and spec.side[child.to_act] == side else 0
        results.append(took + plain_minimax(spec, child, side, maximises))
    wants_more = (spec.side[pos.to_act] == side) == maximises
    return max(results) if wants_more else min(results)


SPECS = {game: spec_and_deck(game) for game in ("bid_whist", "solo_whist", "cutthroat_bid_whist")}


@settings(max_examples=40)
@given(game=st.sampled_from(sorted(SPECS)), seed=st.integers(0, 10**6),
       tricks=st.integers(1, 3), wants_tricks=st.booleans())
def test_the_solver_counts_the_tricks_a_plain_minimax_counts(game, seed, tricks, wants_tricks):
    spec, deck = SPECS[game]
    rng = random.Random(seed)
    seats = spec.seats  # Cutthroat's three, its fourth hand empty
    cards = rng.sample(deck, seats * tricks)
    hands = [sum(1 << c for c in cards[s * tricks:(s + 1) * tricks]) for s in range(seats)]
    hands += [0] * (4 - seats)
    pos = Position(hands, rng.randrange(seats), 0, -1, -1, -1, [0, 0, 0, 0], tricks)
    side = spec.side[rng.randrange(seats)]
    expected = plain_minimax(spec, pos, side, wants_tricks)
    solver = Solver(spec, side, wants_tricks)
    guess = rng.randrange(tricks + 1)
    assert solver.side_tricks(pos.copy(), guess, float("inf")) == expected


def test_a_search_past_its_deadline_says_so():
    spec, deck = SPECS["bid_whist"]
    rng = random.Random(3)
    cards = rng.sample(deck, 48)
    hands = [sum(1 << c for c in cards[s * 12:(s + 1) * 12]) for s in range(4)]
    pos = Position(hands, 0, 0, -1, -1, -1, [0, 0, 0, 0], 12)
    with pytest.raises(OutOfTime):
        Solver(spec, spec.side[0]).side_tricks(pos, 6, time.perf_counter())


@pytest.mark.parametrize("game", ["bid_whist", "solo_whist"])
def test_the_review_gives_the_contracts_result_with_every_card_seen(game):
    record = a_record(game)
    found = contract_double_dummy(record, seconds=30.0)
    final = records.replay_hand(record).view(0)
    assert found["settled"], found
    assert found["of"] == (12 if game == "bid_whist" else 13)
    if found["tricks"] is None:  # only the contract's question settled, from the first trick
        assert found["from_trick"] == 1 and found["contract_made"] in (True, False), found
    else:
        assert 0 <= found["tricks"] <= found["of"], found
    assert found["made"] == sum(final["tricks_won"][s] for s in found["declarers"])
    assert found["from_trick"] >= 1


def test_without_time_for_the_whole_hand_the_review_starts_later_and_other_games_have_none():
    hurried = contract_double_dummy(a_record("bid_whist"), seconds=0.0)
    # (the contract's question alone may settle within the first nodes searched)
    assert not hurried["settled"] or hurried["from_trick"] > 1 or hurried["tricks"] is None, \
        hurried
    assert contract_double_dummy(a_record("belgian_whist")) is None


def test_the_review_page_says_the_result_in_words():
    from games.views.hand_pages import _double_dummy_words

    settled = {"settled": True, "declarers": [1, 3], "from_trick": 1, "tricks": 9, "made": 8,
               "all_played": True, "of": 12, "wants_tricks": True}
    assert _double_dummy_words({"double_dummy": settled}) == (
        "With every card seen and best play on both sides, the declaring side would have "
        "taken 9 of the 12 tricks. It took 8.")
    later = settled | {"from_trick": 4, "all_played": False}
    assert "from trick 4 on" in _double_dummy_words({"double_dummy": later})
    assert "stopped once the result was certain" in _double_dummy_words({"double_dummy": later})
    assert "could not be worked out" in _double_dummy_words({"double_dummy": {"settled": False}})
    assert _double_dummy_words({}) is None  # a game without it, or a review from before it
    assert _double_dummy_words({"double_dummy": settled | {"contract_made": True}}).endswith(
        "tricks. Enough for its contract. It took 8.")
    assert "Not enough for its contract." in _double_dummy_words(
        {"double_dummy": settled | {"contract_made": False}})
    question = settled | {"tricks": None, "contract_made": True}
    assert _double_dummy_words({"double_dummy": question}) == (
        "With every card seen and best play on both sides, the declaring side would have made "
        "its contract. It took 8.")
    assert "could not have made its contract" in _double_dummy_words(
        {"double_dummy": question | {"contract_made": False}})


def declaring_side(record: dict):
    """The kernel's rules of the play from the first declarer's own view, its side, and whether
    it wants tricks; None when nobody declared."""
    _module, state, actions = records.start_hand(record)
    plays = [i for i, entry in enumerate(actions) if entry["action"].startswith("play ")]
    if not plays:
        return None
    for entry in actions[:plays[0]]:
        state.apply(entry["action"], entry["seat"])
    view = state.view(state.to_act)
    hooks = knowledge.hooks(view)
    declarers = [s for s in range(4) if hooks.declaring(view, s)]
    spec = knowledge.read(state.view(declarers[0])).spec
    return spec, spec.side[declarers[0]], spec.aim[declarers[0]] == WIN, declarers


@settings(max_examples=60)
@given(game=st.sampled_from(["bid_whist", "solo_whist"]), seed=st.integers(0, 10**6))
def test_the_contracts_bound_says_what_the_engine_says_was_made(game, seed):
    """The tricks a contract needs, read from the score, against the engine's own verdict on
    hands bid and played by the easy computer players (their contracts are made about as often
    as not; a random hand's almost never): the side took at least the bound exactly when its
    contract was made (a misère: at most the bound)."""
    record = played_record(game, seed)
    if record is None:  # everybody passed
        return
    result = records.replay_hand(record).result()
    found = None if result.get("redeal") else declaring_side(record)
    if found is None:
        return
    spec, side, wants_tricks, declarers = found
    bound = contract_bound(spec, side, wants_tricks)
    if game == "bid_whist":
        team = declarers[0] & 1
        took = result["books"][team] - 1  # the kitty is a book
        made = result["points"][team] > result["points"][1 - team]
    else:
        took = sum(result["tricks"][s] for s in range(4) if spec.side[s] == side)
        made = result["made"]
    assert (took >= bound if wants_tricks else took <= bound) == made, (result, bound)


def test_where_the_count_does_not_settle_the_contracts_question_may(monkeypatch):
    """A hand whose count from the first trick runs out of time (as a Solo hand's 13 tricks
    often do): the review still says whether the contract could have been made, as the full
    count says it."""
    record = a_record("bid_whist")
    full = contract_double_dummy(record, seconds=30.0)
    assert full["settled"] and full["from_trick"] == 1, full
    real_count = Solver.side_tricks

    def count_out_of_time(self, pos, guess, deadline):
        if pos.left == full["of"]:
            raise OutOfTime
        return real_count(self, pos, guess, deadline)

    monkeypatch.setattr(Solver, "side_tricks", count_out_of_time)
    answered = contract_double_dummy(record, seconds=30.0)
    assert answered["tricks"] is None and answered["from_trick"] == 1, answered
    assert answered["contract_made"] == full["contract_made"] is not None
