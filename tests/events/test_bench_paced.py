"""The helpers of the paced event bench (bench/events.py --paced): its clients wait for the
people's sockets only (a computer player's seat has none), and its figure
``duplicate_deals_equal`` reads every table's deals back and notices one that differs."""

import json
import math

import pytest

from bench import ws_setup
from bench.events import round_keys
from bench.ws_load import BenchTable, ClientRun
from events.models import Event
from games.models import Hand
from tests.events.conftest import new_event, play_round


def client_run():
    run = ClientRun({"floor": False, "pace": 2.0, "seed": 1, "pad": 0})
    run.window = (0.0, math.inf)
    return run


def state(version, status="playing"):
    return json.dumps({"type": "state", "version": version,
                       "state": {"status": status, "hand": {"to_act": None}}})


def test_an_action_is_complete_once_every_persons_socket_has_it():
    run = client_run()
    # Seats 1 and 3 are computer players': no socket of theirs to wait for.
    table = BenchTable(run, 7, [object(), None, object(), None])
    table.pending.append((5, 100.0, 0, 0))
    table.on_message(0, state(5), 100.010)
    assert run.latencies == []  # seat 2's socket has not got it yet
    table.on_message(2, state(5, status="finished"), 100.025)
    assert run.latencies == [pytest.approx(25.0)] and not table.pending
    assert table.finished


@pytest.mark.django_db
@pytest.mark.usefixtures("computer_players_wait")
def test_the_deals_compared_are_the_events_and_a_table_dealt_otherwise_is_found(make_people):
    people = make_people(*(f"p{i}" for i in range(6)))
    event = new_event(people[0], rounds=2, deals_per_round=2)
    for person in people:
        Event.objects.get(pk=event.pk).registrations.create(user=person)
    started = ws_setup.start_event(event.pk)
    assert started["round_start_s"] >= started["start_s"] > 0 and started["pairing_ms"] > 0
    seated = [uid for _table, seats in started["tables"] for uid in seats]
    assert len(started["tables"]) == 2 and seated.count(None) == 2  # computers' seats
    assert sorted(uid for uid in seated if uid) == sorted(p.pk for p in people)
    sessions = {str(p.pk): f"key{p.pk}" for p in people}
    assert [keys.count(None) for _table, keys in round_keys(started["tables"], sessions)] == [
        seats.count(None) for _table, seats in started["tables"]]
    # Each table's first deal in play, as the event's set has it.
    assert ws_setup.compare_deals(event.pk) == {"equal": True, "hands": 2, "differ": []}
    play_round(Event.objects.get(pk=event.pk), 1)
    compared = ws_setup.compare_deals(event.pk)
    assert compared["equal"] and compared["hands"] == 2 * 2 + 2  # round 2's first deals
    # One table's second deal with two seats' cards exchanged: no longer the same deal.
    hand = Hand.objects.filter(table__event_table__round__number=1, number=2).first()
    hand.record["hands"][0], hand.record["hands"][1] = (hand.record["hands"][1],
                                                        hand.record["hands"][0])
    hand.save(update_fields=["record"])
    assert ws_setup.compare_deals(event.pk) == {
        "equal": False, "hands": 6, "differ": [[hand.table_id, "deal 2 differs"]]}
