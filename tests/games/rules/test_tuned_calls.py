"""Calls tuned by self-play (bench/tune_calls.py): the thresholds a level bids from, and how the
bench picks them."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.tuning import calls as tune_calls
from bench.tuning import tuned_file
from bench.tuning.thresholds import best_threshold
from games.rules import GAME_MODULES
from games.rules.computer import bid_whist as bid_computers
from games.rules.computer import bidding, choose_action, search
from games.rules.computer import hooks as computer_hooks
from games.rules.computer import solo_whist as solo_computers

from .conftest import (
    first_bid_whist_opening,
    first_solo_state,
    first_solo_view,
    measured_file,
    position_record,
)


def test_a_level_with_tuned_calls_bids_from_the_measured_thresholds(monkeypatch):
    """A hand between a measured solo threshold and today's: the tuned level calls solo, the
    first strong (hand-set thresholds) only proposes."""
    measured = bidding.overlay(solo_computers.THRESHOLDS, {"solo": 4.5})
    strong_calls = search.SEARCH_LEVELS["strong"].calls
    monkeypatch.setitem(bidding._tuned, ("solo_whist", strong_calls), measured)
    assert search.SEARCH_LEVELS["strong"].tuned_calls
    assert not search.SEARCH_LEVELS["strong_v1"].tuned_calls

    def between(view):
        tricks = bidding.plain_tricks(view["hand"], view["turn_up_suit"])
        return (4.6 <= tricks < 5.3 and bidding.misere_risk(view["hand"]) > 1.5
                and bidding.best_trump(view["hand"], exclude=view["turn_up_suit"])[0] < 8)

    view = first_solo_view(between)
    assert choose_action(view, "strong", random.Random(1)) == "solo"
    assert choose_action(view, "strong_v1", random.Random(1)) == "prop"


def test_measured_thresholds_overlay_the_hand_set_ones(tmp_path, monkeypatch):
    """A call that never gained in the sample is never made; the proposer's own solo follows
    the measured solo; names the computer players do not know are ignored; the rest stays as set; a level
    without tuned calls keeps the hand-set ones."""
    measured_file(tmp_path, monkeypatch, {"solo_whist": {"solo": 4.8, "misere": None,
                                                        "abundance": None, "deals": 4000},
                                          "belgian_whist": {"solo 6": 5.9}})
    solo = bidding.thresholds({"game": "solo_whist"}, "tuned")
    assert solo["solo"] == solo["solo_after_prop"] == 4.8
    assert solo["misere"] < 0 and solo["abundance"] > 13  # no hand reaches them
    assert "deals" not in solo
    assert solo["cop"] == solo_computers.THRESHOLDS["cop"]
    assert bidding.thresholds({"game": "belgian_whist"}, "tuned")["solo 6"] == 5.9
    assert bidding.thresholds({"game": "bid_whist"}, "tuned") == bid_computers.THRESHOLDS
    assert bidding.thresholds({"game": "solo_whist"}, "hand") is solo_computers.THRESHOLDS


def test_the_measured_books_model_is_the_candidates_alone(tmp_path, monkeypatch):
    """Bid Whist's measured books model is held back from the tuned levels until a duplicate
    match decides: strong opens on the hand-set model, while the candidate strong_books, given
    a model in which no hand makes a contract, passes the same hand."""
    model = {"base": 5.0, "per_trick": 0.2, "sd": 1.0, "notrump": -0.3, "hands": 400}
    measured_file(tmp_path, monkeypatch, {"bid_whist": {"books": model}})
    assert bidding.thresholds({"game": "bid_whist"}, "tuned")["books"] \
        == bid_computers.THRESHOLDS["books"]
    assert bidding.thresholds({"game": "bid_whist"}, "tuned+books")["books"] == model
    assert search.SEARCH_LEVELS["strong_books"].calls == "tuned+books"
    view = first_bid_whist_opening("strong")
    assert choose_action(view, "strong_books", random.Random(1)) == "pass"


def test_the_shipped_measurements_name_only_calls_the_computer_players_make():
    """The figures name only thresholds the computer players call from; how they were measured is apart,
    under the bench that measured them."""
    shipped = json.loads(bidding.TUNED_FILE.read_text())
    assert shipped["version"] == bidding.TUNED_VERSION
    for game, figures in shipped["thresholds"].items():
        assert set(figures) <= set(computer_hooks.of(game).THRESHOLDS), game
    for game, benches in shipped["provenance"].items():
        assert set(benches) <= {tuned_file.CALLS, tuned_file.BIDS, tuned_file.AUCTIONS}, game


@pytest.mark.slow  # its own number of examples: `make test`, not test-quick
@settings(max_examples=200)
@given(st.lists(st.tuples(st.sampled_from([x / 4 for x in range(20)]),
                          st.integers(-9, 9).map(float)), min_size=1, max_size=40),
       st.sampled_from(["up", "down"]))
def test_the_bench_picks_the_threshold_that_gains_most_over_its_sample(points, direction):
    threshold, total, calls = best_threshold(points, direction)

    def calling(t):
        return [v for f, v in points if (f >= t if direction == "up" else f <= t)]

    best_possible = max([0.0] + [sum(calling(f)) for f, _v in points])
    assert total == pytest.approx(best_possible)
    if threshold is None:
        assert best_possible <= 0 and calls == 0
    else:
        assert sum(calling(threshold)) == pytest.approx(total) and len(calling(threshold)) == calls


def test_a_contract_tried_first_is_not_tuned_over_a_later_one_worth_more():
    """Hands that gain 2 as a spread misère and 5 as a misère (tried after it): the tuning
    lets misère have them instead of stretching the spread misère to reach them."""
    hands = {hand: {"spread_misere": (1.0, 2.0), "misere": (1.0, 5.0)} for hand in range(100)}
    tuned = tune_calls.tune_thresholds("solo_whist", hands, {"spread_misere", "misere"})
    assert tuned["misere"] >= 1.0
    assert tuned["spread_misere"] is None or tuned["spread_misere"] < 1.0
    assert tune_calls.total("solo_whist", hands, tuned) == 500


def test_the_auction_weighting_models_the_other_seats_with_the_levels_own_thresholds(monkeypatch):
    """A seat called solo with a hand only the measured thresholds call solo on: on the true
    deal, the level that bids from them finds that call fits; a level with the hand-set ones
    (which would have proposed) counts it as one call that does not."""
    from games.rules.cards import mask_of
    from games.rules.computer import knowledge

    measured = bidding.overlay(solo_computers.THRESHOLDS, {"solo": 4.5})
    monkeypatch.setitem(bidding._tuned, ("solo_whist", "tuned"), measured)

    def between(view):
        tricks = bidding.plain_tricks(view["hand"], view["turn_up_suit"])
        return (4.6 <= tricks < 5.3 and bidding.misere_risk(view["hand"]) > 1.5
                and bidding.best_trump(view["hand"], exclude=view["turn_up_suit"])[0] < 8)

    state = first_solo_state(between)
    caller = state.to_act
    state.apply("solo", caller)
    while state.phase == "auction":
        state.apply("pass", state.to_act)
    state.apply(state.view(caller)["legal"][0], caller)  # the caller leads
    view = state.view(state.to_act)
    assert view["phase"] == "play" and view["seat"] != caller
    know = knowledge.read(view)
    hands = [mask_of(state.view(s)["hand"]) for s in range(4)]
    piles = [0] * len(know.piles)
    by_hand = knowledge.calls_misfit(view, know, hands, piles, "hand")
    by_measured = knowledge.calls_misfit(view, know, hands, piles, "tuned")
    assert by_hand == by_measured + 1



@pytest.mark.parametrize("tuned", [True, False])
def test_the_search_weights_its_deals_by_the_thresholds_of_its_own_level(tuned, monkeypatch):
    """The level that weights its sampled deals by the auction models the other seats' calls
    with the thresholds it bids from itself."""
    import dataclasses

    from games.rules import records
    from games.rules.computer import knowledge

    monkeypatch.setitem(search.SEARCH_LEVELS, "strong_calls", dataclasses.replace(
        search.SEARCH_LEVELS["strong_calls"], tuned_calls=tuned))
    asked = []
    real = knowledge.calls_misfit

    def recording(view, know, hands, piles, calls="hand"):
        asked.append(calls)
        return real(view, know, hands, piles, calls)

    monkeypatch.setattr(knowledge, "calls_misfit", recording)
    state = records.replay_hand(position_record("bid_whist/take_the_trick_last"))
    choose_action(state.view(state.to_act), "strong_calls", random.Random(1))
    assert asked and set(asked) == {search.SEARCH_LEVELS["strong_calls"].calls if tuned
                                    else "hand"}


def test_the_hand_set_solo_over_a_prop_is_the_solo():
    """The levels with hand-set calls solo from one figure, whether or not the hand could prop
    (the solo's own figure against a prop is measured, and taken by normal and strong only)."""
    assert solo_computers.THRESHOLDS["solo_over_partnership"] == solo_computers.THRESHOLDS["solo"]


def test_rewriting_the_contracts_alone_keeps_the_figures_measured_in_auctions(tmp_path,
                                                                              monkeypatch):
    """bench/tune_calls.py --write rewrites a game's figures with its own and keeps those the
    auction benches measured, every group of them, and how they were measured."""
    measured = {"prop": 2.2, "solo_over_partnership": 4.55, "solo": 1.0}
    auctions = {"tune_auctions": {"prop": {"deals": 7}}}
    saved = measured_file(tmp_path, monkeypatch, {"solo_whist": measured},
                          {"solo_whist": auctions})
    tune_calls.main(["--deals", "2", "--games", "solo_whist", "--play", "easy", "--write"])
    written = json.loads(saved.read_text())
    assert list(written) == ["version", "thresholds", "provenance"]
    kept = written["thresholds"]["solo_whist"]
    assert (kept["prop"], kept["solo_over_partnership"]) == (2.2, 4.55)
    assert "solo" not in kept  # too few hands in 2 deals: the bench measured no solo
    assert written["provenance"]["solo_whist"] == {
        **auctions, "tune_calls": {"deals": 2, "seed": 1, "play": "easy"}}


LEVEL_THRESHOLDS = Path(__file__).with_name("level_thresholds.json")


def every_levels_thresholds() -> dict:
    """What every level (the benches' included, and their oracle) calls from in every game
    with thresholds: level -> game -> thresholds."""
    games = [game for game in GAME_MODULES if hasattr(computer_hooks.of(game), "THRESHOLDS")]
    levels = {**search.SEARCH_LEVELS, "oracle": search.ORACLE}
    return {name: {game: bidding.thresholds({"game": game}, level.calls) for game in games}
            for name, level in sorted(levels.items())}


def test_every_level_calls_from_the_thresholds_it_called_from_before():
    """The figures every level calls from, read from the file as the computer players read it, are those
    it called from when the file took its present layout (tuned_calls.json version 2, the
    benches' levels moved to bench/levels.py): the same calls at every level.  A tuning
    bench's --write changes them on purpose; then save the new ones with
    ``.venv/bin/python -m tests.games.rules.test_tuned_calls`` and say why in the commit."""
    assert json.loads(json.dumps(every_levels_thresholds())) \
        == json.loads(LEVEL_THRESHOLDS.read_text())


def test_the_site_offers_no_level_of_the_benches():
    """Without a bench, the computer players know the levels a player can choose, and refuse the benches'
    (a new process: this one's tests register them)."""
    script = ("import random; from games.rules.computer import choose_action, search\n"
              "print(sorted(search.SEARCH_LEVELS))\n"
              "try:\n"
              "    choose_action({'game': 'solo_whist', 'legal': ['pass', 'solo'],"
              " 'phase': 'auction'}, 'strong_v1')\n"
              "except ValueError as error:\n"
              "    print(error)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).resolve().parents[3])
    assert done.stdout.splitlines() == [
        "['normal', 'strong']",
        "unknown computer player level 'strong_v1' (known: random, easy, normal, strong)"]


if __name__ == "__main__":  # save the thresholds every level calls from today
    LEVEL_THRESHOLDS.write_text(json.dumps(every_levels_thresholds(), indent=1,
                                           sort_keys=True) + "\n")
