"""The engine contract (games/rules/base.py) holds for every game module: the names the site
calls, a chain under one name, copies that stay apart, and views whose keys are the typed
HandView's (the JSON a browser gets)."""

from __future__ import annotations

import random
import typing

import pytest

from games.rules import GAME_MODULES, game_module
from games.rules.base import Chain, HandState, HandView
from games.rules.errors import IllegalAction
from games.rules.house_rules import BaseRules

pytestmark = pytest.mark.engine

GAMES = sorted(GAME_MODULES)
# (base.py's annotations are strings: read NotRequired from the evaluated hints)
HINTS = typing.get_type_hints(HandView, include_extras=True)
VIEW_KEYS = set(HINTS)
REQUIRED_VIEW_KEYS = {key for key, hint in HINTS.items()
                      if typing.get_origin(hint) is not typing.NotRequired}


@pytest.mark.parametrize("game", GAMES)
def test_every_game_module_exposes_the_contract(game):
    module = game_module(game)
    assert module.GAME == game
    assert 3 <= module.SEATS <= 5
    assert issubclass(module.Rules, BaseRules)
    assert issubclass(module.CHAIN, Chain)
    assert module.CHAIN.hand_type is not HandState and issubclass(module.CHAIN.hand_type, HandState)
    chain = module.CHAIN(module.Rules(), first_dealer=0)
    assert chain.next_dealer == 0 and not chain.complete
    assert chain.summary()["hands"] == 0


def _hands(game, seeds):
    module = game_module(game)
    rules = module.Rules()
    for seed in seeds:
        rng = random.Random(seed)
        deal = module.deal(rules, seed % module.SEATS, rng)
        yield module.new_hand(rules, seed % module.SEATS, deal.hands, deal.kitty), rng


@pytest.mark.parametrize("game", GAMES)
def test_a_copy_goes_its_own_way(game):
    for state, rng in _hands(game, range(3)):
        before = state.view(None)
        other = state.copy()
        assert type(other) is type(state)
        while not other.complete:
            other.apply(other.random_action(rng), other.to_act)
        assert state.view(None) == before
        assert state.history == [] and not state.complete


@pytest.mark.parametrize("game", GAMES)
def test_apply_refuses_a_seat_out_of_turn(game):
    state, _rng = next(_hands(game, [1]))
    seat = state.to_act
    other = (seat + 1) % game_module(game).SEATS
    with pytest.raises(IllegalAction):
        state.apply(state.legal_actions()[0], other)
    state.apply(state.legal_actions()[0], seat)
    assert state.history[0][0] == seat


@pytest.mark.parametrize("game", GAMES)
def test_every_view_has_the_typed_keys_and_no_other(game):
    seats = game_module(game).SEATS
    for state, rng in _hands(game, range(6)):
        while True:
            for seat in [None, *range(seats)]:
                view = state.view(seat)
                assert REQUIRED_VIEW_KEYS <= set(view), (state.phase, REQUIRED_VIEW_KEYS - set(view))
                assert set(view) <= VIEW_KEYS - {"rules"}, (state.phase, set(view) - VIEW_KEYS)
            if state.complete:
                break
            state.apply(state.random_action(rng), state.to_act)


def test_the_view_keys_every_game_has_are_the_required_ones():
    assert REQUIRED_VIEW_KEYS == {"game", "seat", "dealer", "phase", "to_act", "hand_sizes",
                                  "auction", "contract", "trump", "leader", "trick", "tricks",
                                  "tricks_won"}
