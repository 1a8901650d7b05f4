"""Positions where a club player would agree on the right card or call, run against every level.

Each position in ``computer_positions.json`` is a partial hand record (``docs/hand-records.md``: the
whole deal, the actions up to the decision) with the answers a club player accepts
(``acceptable``), or for a discard the cards it must keep (``keep``).  They come from the
promises clubs agree a call makes (docs/rules/) and the habits partners expect (docs/computer-players.md, "Positions").

A level that does not find a position yet says so in the position's ``not_yet``, with why: the
test then expects it to fail, strictly, so a level that learns it makes the test fail until the
note is removed.  Each level answers from three seeds, without the thinking deadline (the
answer depends on the view and the seed only).
"""

from __future__ import annotations

import random

import pytest

from games.rules import records
from games.rules.computer import LEVELS, choose_action

from .conftest import POSITIONS

SEEDS = (0, 1, 2)


def cases():
    for position in POSITIONS:
        for level in LEVELS:
            why = position.get("not_yet", {}).get(level)
            marks = [pytest.mark.xfail(strict=True, reason=why)] if why else []
            yield pytest.param(position, level, marks=marks, id=f"{position['name']}-{level}")


def acceptable(position, action: str) -> bool:
    if "acceptable" in position:
        return action in position["acceptable"]
    kept = set(position["keep"])
    return action.startswith("discard ") and not kept & set(action.split()[1:])


def decision_view(position) -> dict:
    """The view of the seat to act where the position's record stops (a hand still in play)."""
    state = records.replay_hand(position["record"])
    assert not state.complete, position["name"]
    return state.view(state.to_act)


@pytest.mark.parametrize(("position", "level"), list(cases()))
@pytest.mark.usefixtures("no_thinking_deadline")
def test_a_club_player_would_agree(position, level):
    view = decision_view(position)
    answers = {choose_action(view, level, random.Random(seed)) for seed in SEEDS}
    wrong = sorted(a for a in answers if not acceptable(position, a))
    assert not wrong, f"{position['habit']} {level} chose {', '.join(wrong)}"


def test_every_position_is_a_real_decision_with_a_legal_answer():
    """The set itself: names unique, every record replays to a seat that must choose among
    several actions, and every acceptable answer is one of them."""
    assert len({p["name"] for p in POSITIONS}) == len(POSITIONS)
    for position in POSITIONS:
        view = decision_view(position)
        assert ("acceptable" in position) != ("keep" in position), position["name"]
        assert set(position.get("not_yet", {})) <= set(LEVELS), position["name"]
        if "acceptable" in position:
            assert len(view["legal"]) > 1, position["name"]
            assert set(position["acceptable"]) <= set(view["legal"]), position["name"]
            assert set(position["acceptable"]) != set(view["legal"]), position["name"]
        else:
            assert view.get("discard_count"), position["name"]
            assert set(position["keep"]) <= set(view["hand"]), position["name"]


# Positions a level that does not keep a rule breaks, so that they tell it from one that does.
# What a partnership call promises the partner: the candidates that call from the figures
# measured among computer players break each one (docs/computer-players.md, "A partner's
# promise").  The rule texts' advice on what a call needs (the convention "advice",
# games/rules/computer/bidding.py): normal and strong as they were before it break each one.
PROMISES = ("solo_whist/prop_promises_four_tricks", "belgian_whist/propose_promises_five_tricks",
            "belgian_whist/no_emballage_without_tricks")
ADVICE = ("solo_whist/no_spread_misere_with_a_long_middle_suit",
          "solo_whist/no_spread_misere_with_a_card_that_can_be_caught",
          "belgian_whist/no_etalee_with_a_card_that_can_be_caught",
          "bid_whist/low_cards_without_an_ace_pass", "bid_whist/no_ace_no_joker_pass",
          "bid_whist/no_notrump_with_one_ace")
BROKEN_BY = [*((name, level) for name in PROMISES for level in ("normal_auctions", "strong_auctions")),
             *((name, level) for name in ADVICE for level in ("normal_v7", "strong_v8"))]


@pytest.mark.parametrize(("name", "level"), BROKEN_BY)
@pytest.mark.usefixtures("no_thinking_deadline")
def test_a_level_without_the_rule_breaks_its_positions(name, level):
    position = next(p for p in POSITIONS if p["name"] == name)
    view = decision_view(position)
    assert not acceptable(position, choose_action(view, level, random.Random(0)))


@pytest.mark.parametrize("level", ["normal_v4", "strong_v4"])
@pytest.mark.usefixtures("no_thinking_deadline")
def test_the_solo_measured_against_passing_skips_the_prop(level):
    """Before Solo's solo was measured against the prop, normal and strong called a solo with
    about four tricks (their solo figure, measured against passing, came before the prop's):
    the position tells them from today's, which prop."""
    position = next(p for p in POSITIONS if p["name"] == "solo_whist/prop_with_four_tricks")
    assert choose_action(decision_view(position), level, random.Random(0)) == "solo"


@pytest.mark.parametrize("level", ["normal_v5", "strong_v6"])
@pytest.mark.usefixtures("no_thinking_deadline")
def test_before_an_opening_four_said_the_joker_the_jokerless_hand_opened_four(level):
    """Before an opening bid of 4 in a suit said a joker, normal and strong opened 4 with five
    trumps and two aces and no joker: the position tells them from today's, which open 3."""
    position = next(p for p in POSITIONS
                    if p["name"] == "bid_whist/five_trumps_two_aces_no_joker_bid_three")
    assert choose_action(decision_view(position), level, random.Random(0)) == "bid 4 uptown"


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_a_dealer_stuck_with_the_bid_bids_its_best_without_an_ace(level):
    """Where the house makes the dealer bid after three passes, a hand without an ace or a
    joker still bids, and the bid its cards play best (♠KQJ9 and side queens: uptown), not
    the first legal one."""
    position = next(p for p in POSITIONS if p["name"] == "bid_whist/no_ace_no_joker_pass")
    record = {**position["record"], "rules": {"all_pass": "stuck_dealer"}, "dealer": 1,
              "actions": [{"seat": 2, "action": "pass"}, {"seat": 3, "action": "pass"},
                          {"seat": 0, "action": "pass"}]}
    view = decision_view({"name": "stuck dealer", "record": record})
    assert view["seat"] == 1 and "pass" not in view["legal"]
    assert choose_action(view, level, random.Random(0)) == "bid 3 uptown"
