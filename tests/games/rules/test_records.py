"""Hand records and match documents: replay, refusals naming the action, random records."""

import json

import pytest

from games.rules import GAME_MODULES, game_module
from games.rules.records import (
    RecordError,
    random_record,
    record_of,
    replay_document,
    replay_hand,
)

GAMES = sorted(GAME_MODULES)


@pytest.mark.parametrize("game", GAMES)
def test_a_random_record_replays_to_a_complete_result(game):
    record = random_record(game, 11)
    assert record["format"] == "whistclub-hand/1" and record["game"] == game
    result = replay_document(record)
    assert result["complete"] is True
    assert json.loads(json.dumps(record)) == record


@pytest.mark.parametrize("game", GAMES)
def test_the_same_seed_gives_the_same_record(game):
    assert random_record(game, 5) == random_record(game, 5)
    assert random_record(game, 5) != random_record(game, 6)


@pytest.mark.parametrize("game", GAMES)
def test_record_of_a_replayed_hand_is_the_record(game):
    record = random_record(game, 8)
    assert record_of(replay_hand(record)) == record


@pytest.mark.parametrize("game", GAMES)
def test_a_record_that_stops_mid_hand_reports_phase_turn_and_sorted_legal_actions(game):
    record = random_record(game, 3)
    record["actions"] = record["actions"][:2]
    result = replay_document(record)
    assert result["complete"] is False
    assert result["to_act"] in (0, 1, 2, 3)
    assert result["legal"] == sorted(result["legal"]) and result["legal"]


def test_an_illegal_action_is_named_by_index_seat_and_text():
    record = random_record("bid_whist", 4)
    plays = [i for i, a in enumerate(record["actions"]) if a["action"].startswith("play ")]
    index = plays[1]  # the second card of the first trick
    seat = record["actions"][index]["seat"]
    hand = replay_hand({**record, "actions": record["actions"][:index]}).view(seat)["hand"]
    led = record["actions"][plays[0]]["action"][-1]
    off_suit = [c for c in hand if c[-1] != led and c not in ("BJ", "LJ")]
    if len(off_suit) == len(hand):
        pytest.skip("this seat is void in the led suit")
    record["actions"][index]["action"] = f"play {off_suit[0]}"
    with pytest.raises(RecordError) as caught:
        replay_document(record)
    message = str(caught.value)
    assert message.startswith(f"action {index} (seat {seat}, 'play {off_suit[0]}'): ")
    assert "follow" in message


def test_an_action_out_of_turn_is_refused_with_whose_turn_it_is():
    record = random_record("solo_whist", 2)
    first = record["actions"][0]
    record["actions"][0] = {"seat": (first["seat"] + 1) % 4, "action": first["action"]}
    with pytest.raises(RecordError, match=r"action 0 \(seat \d, .*\): it is seat \d's turn"):
        replay_document(record)


@pytest.mark.parametrize("change, expected", [
    (lambda r: r.pop("format"), "format must be"),
    (lambda r: r.update(game="bridge"), "unknown game 'bridge'"),
    (lambda r: r.update(rules={"min_bid": 9}), "rules: house rule min_bid"),
    (lambda r: r.update(rules={"jokers": 3}), "unknown house rule 'jokers'"),
    (lambda r: r.update(dealer=4), "dealer must be a seat number 0 to 3"),
    (lambda r: r.update(hands=[["AS"]]), "hands must be a list of 4 lists"),
    (lambda r: r["hands"][0].__setitem__(0, r["hands"][1][0]), "deal: "),
    (lambda r: r.update(actions="pass"), "actions must be a list"),
    (lambda r: r["actions"].__setitem__(0, {"seat": 1}), "action 0: each action must be"),
    (lambda r: r.update(colour="red"), "unknown key(s) in hand record: colour"),
])
def test_malformed_records_are_refused_with_a_clear_message(change, expected):
    record = random_record("bid_whist", 1)
    change(record)
    with pytest.raises(RecordError) as caught:
        replay_document(record)
    assert expected in str(caught.value)


def test_a_bid_whist_match_document_adds_running_scores_and_the_winner():
    module = game_module("bid_whist")
    match = module.Match(module.Rules())
    hands = []
    seed = 0
    while not match.complete and len(hands) < 200:
        record = random_record("bid_whist", seed, dealer=match.next_dealer)
        seed += 1
        match.add_hand(replay_hand(record))
        hands.append({k: v for k, v in record.items() if k not in ("format", "game", "rules")})
    result = replay_document({"format": "whistclub-match/1", "game": "bid_whist", "hands": hands})
    assert result["complete"] is True and result["winner"] in (0, 1)
    assert result["scores"] == match.summary()["scores"]
    assert len(result["results"]) == len(hands)
    assert result["results"][-1]["scores"] == result["scores"]


def test_a_match_document_refuses_the_wrong_dealer():
    first = random_record("solo_whist", 1, dealer=0)
    second = random_record("solo_whist", 2, dealer=3)  # should be 1: the deal rotates
    with pytest.raises(RecordError, match="hand 1: "):
        replay_document({"format": "whistclub-match/1", "game": "solo_whist",
                         "hands": [first, second]})
