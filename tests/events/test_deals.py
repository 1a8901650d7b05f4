"""An event's deal set (events/deals.py): chosen with the secure source, stored as cards, and
begun alike at every table of every game the site offers."""

from __future__ import annotations

import json
import random

import pytest

from events import deals
from events.deals import (
    DealSetError,
    choose_deals,
    deal_record,
    direction_of,
    from_document,
    is_partnership,
    results_of,
    start_deal,
    to_document,
)
from events.scoring import score_deal
from games import registry
from games.rules import NAMED_VARIANTS, game_module
from games.rules.records import replay_hand

GAMES = [(g.id, {}) for g in registry.all_games()] + [
    (game, rules) for game, rules in NAMED_VARIANTS if rules]


def stored_and_read_back(deal_set):
    """Through the database's JSON and back, as a table of the event would read it."""
    return from_document(json.loads(json.dumps(to_document(deal_set))))


@pytest.mark.parametrize(("game", "rules"), GAMES)
def test_two_tables_of_a_stored_deal_see_the_same_hands_in_the_same_seats(game, rules):
    seats = game_module(game).SEATS
    chosen = choose_deals(game, seats + 1, rules=rules)
    first, second = stored_and_read_back(chosen), stored_and_read_back(chosen)
    assert first == second == chosen
    for index in range(len(chosen)):
        table_1, record_1 = start_deal(first, index)
        table_2, record_2 = start_deal(second, index)
        assert record_1 == record_2
        # What nobody chooses is done at once, as at any table (Belgian Whist's trou round),
        # and the record holds it.
        assert table_1.complete or table_1.automatic_action() is None
        assert record_1["actions"] == [{"seat": s, "action": a} for s, a in table_1.history]
        assert table_1.dealer == table_2.dealer == index % seats
        assert (table_1.to_act, table_1.phase) == (table_2.to_act, table_2.phase)
        assert table_1.legal_actions() == table_2.legal_actions()
        for seat in range(seats):
            assert table_1.view(seat)["hand"] == table_2.view(seat)["hand"]
            assert sorted(table_1.dealt_hands[seat]) == sorted(chosen.deals[index].hands[seat])
        assert table_1.dealt_kitty == table_2.dealt_kitty
        assert table_1.rules == table_2.rules == game_module(game).Rules.from_overrides(rules)


@pytest.mark.parametrize(("game", "rules"), GAMES)
def test_the_same_play_at_two_tables_gives_the_same_result(game, rules):
    """Nothing but the players differs: the same actions replay to the same result, and a
    deal's tables score through the engine's own numbers."""
    chosen = stored_and_read_back(choose_deals(game, 1, rules=rules, rng=random.Random(5)))
    rng = random.Random(9)
    state, record = start_deal(chosen, 0)
    while not state.complete:
        action = state.random_action(rng)
        record["actions"].append({"seat": state.to_act, "action": action})
        state.apply(action)
    again = replay_hand(record)
    assert again.result() == state.result()
    results = results_of(state)
    assert len(results) == game_module(game).CHAIN.sides
    scores = score_deal({"table 1": results, "table 2": results})
    assert all(s.percent == 50 for column in scores.values() for s in column)


def test_deals_are_chosen_with_the_secure_source(monkeypatch):
    drawn = []

    class Recorded(random.SystemRandom):
        def random(self):
            drawn.append(True)
            return super().random()

    monkeypatch.setattr(deals.secrets, "SystemRandom", Recorded)
    choose_deals("solo_whist", 1)
    assert drawn
    assert choose_deals("bid_whist", 2) != choose_deals("bid_whist", 2)


def test_a_seeded_choice_is_the_same_and_stored_as_cards():
    one = choose_deals("cutthroat_bid_whist", 3, rng=random.Random(1))
    assert one == choose_deals("cutthroat_bid_whist", 3, rng=random.Random(1))
    document = to_document(one)
    assert document["format"] == "whistclub-deals/1"
    assert [d["dealer"] for d in document["deals"]] == [0, 1, 2]
    assert all(len(d["hands"]) == 3 and len(d["kitty"]) == 3 for d in document["deals"])
    assert deal_record(one, 2)["actions"] == [] and deal_record(one, 2)["dealer"] == 2


def test_the_house_rules_are_kept_with_the_deals():
    chosen = choose_deals("bid_whist", 1, rules={"kitty": "none"})
    assert chosen.rules == {"kitty": "none"}
    assert "kitty" not in to_document(chosen)["deals"][0]
    state, _record = start_deal(stored_and_read_back(chosen), 0)
    assert state.dealt_kitty is None


def test_a_changed_document_is_refused():
    document = to_document(choose_deals("bid_whist", 2, rng=random.Random(3)))
    twice = json.loads(json.dumps(document))
    twice["deals"][0]["hands"][0][0] = twice["deals"][0]["hands"][1][0]
    wrong_dealer = json.loads(json.dumps(document))
    wrong_dealer["deals"][1]["dealer"] = 0
    for bad in (twice, wrong_dealer, {**document, "game": "bridge"}, {**document, "x": 1},
                {**document, "rules": {"min_bid": 99}}, {**document, "format": "other"}):
        with pytest.raises(DealSetError):
            from_document(bad)


def test_directions_follow_the_engines_sides():
    assert is_partnership("bid_whist")
    assert not any(is_partnership(g) for g in ("solo_whist", "belgian_whist",
                                              "cutthroat_bid_whist"))
    assert [direction_of("bid_whist", seat) for seat in range(4)] == [0, 1, 0, 1]
    assert [direction_of("solo_whist", seat) for seat in range(4)] == [0, 1, 2, 3]
    assert [direction_of("cutthroat_bid_whist", seat) for seat in range(3)] == [0, 1, 2]
