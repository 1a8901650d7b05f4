"""`manage.py replay` and `manage.py deal` as a person runs them."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games import registry

pytestmark = pytest.mark.slow  # each test runs manage.py in a process of its own

ROOT = Path(__file__).resolve().parents[2]


def manage(*args, stdin=None):
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("game", registry.game_ids())
def test_deal_writes_a_record_that_replay_accepts(tmp_path, game):
    path = tmp_path / "hand.json"
    dealt = manage("deal", "--game", game, "--seed", "42", "--output", str(path))
    assert dealt.returncode == 0, dealt.stderr
    replayed = manage("replay", str(path))
    assert replayed.returncode == 0, replayed.stderr
    line = json.loads(replayed.stdout)
    assert line["file"] == str(path) and line["complete"] is True


def test_replay_prints_one_line_per_file_in_order_and_exits_2_on_a_bad_one(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(manage("deal", "--game", "solo_whist", "--seed", "1").stdout)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = manage("replay", str(good), str(bad), str(tmp_path / "missing.json"), str(good))
    assert result.returncode == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["file"] for line in lines] == [str(good), str(bad),
                                                str(tmp_path / "missing.json"), str(good)]
    assert lines[0]["complete"] is True and lines[3] == lines[0]
    assert lines[1]["error"].startswith("not valid JSON")
    assert lines[2]["error"].startswith("cannot read the file")
    assert f"{bad}: not valid JSON" in result.stderr
    assert "Traceback" not in result.stderr


def test_replay_reads_standard_input():
    record = manage("deal", "--game", "bid_whist", "--seed", "9").stdout
    result = manage("replay", "-", stdin=record)
    assert result.returncode == 0
    assert json.loads(result.stdout)["file"] == "-"


def test_replay_names_the_illegal_action_on_stderr(tmp_path):
    record = json.loads(manage("deal", "--game", "bid_whist", "--seed", "9").stdout)
    record["actions"][0]["action"] = "bid 12 uptown"
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(record))
    result = manage("replay", str(path))
    assert result.returncode == 2
    seat = record["actions"][0]["seat"]
    assert f"action 0 (seat {seat}, 'bid 12 uptown'): " in result.stderr
    assert json.loads(result.stdout)["error"].startswith("action 0 (seat")


def test_deal_refuses_bad_rules_with_a_message():
    result = manage("deal", "--game", "bid_whist", "--seed", "1", "--rules", '{"boston": "maybe"}')
    assert result.returncode != 0
    assert "house rule boston" in result.stderr and "Traceback" not in result.stderr


def test_deal_takes_rules_as_the_create_form_does():
    """A whole number written 4.0 is 4 (the form's number box sends it so); 4.5 is refused."""
    dealt = manage("deal", "--game", "bid_whist", "--seed", "2", "--rules", '{"min_bid": 5.0}')
    assert dealt.returncode == 0, dealt.stderr
    assert json.loads(dealt.stdout)["rules"] == {"min_bid": 5}
    refused = manage("deal", "--game", "bid_whist", "--seed", "2", "--rules", '{"min_bid": 4.5}')
    assert refused.returncode != 0 and "whole number" in refused.stderr


@pytest.mark.parametrize("kitty, size", [("4_no_jokers", 4), ("5_one_joker", 5), ("none", 0)])
def test_bid_whist_records_of_every_kitty_shape_deal_and_replay(tmp_path, kitty, size):
    dealt = manage("deal", "--game", "bid_whist", "--seed", "3", "--rules",
                   json.dumps({"kitty": kitty}))
    assert dealt.returncode == 0, dealt.stderr
    record = json.loads(dealt.stdout)
    assert record["rules"] == {"kitty": kitty} and len(record.get("kitty", [])) == size
    assert ("kitty" in record) == (size > 0)
    assert [len(h) for h in record["hands"]] == [12 if size else 13] * 4
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record))
    replayed = manage("replay", str(path))
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["complete"] is True
    record["rules"] = {}  # the default shape deals 12 each and a 6-card kitty
    path.write_text(json.dumps(record))
    refused = manage("replay", str(path))
    assert refused.returncode == 2
    assert f"{path}: deal: " in refused.stderr and "house rule kitty=6_two_jokers" in refused.stderr


def test_a_solo_record_keeps_its_revoke_penalty_through_deal_and_replay(tmp_path):
    penalty = "three_tricks"  # not the default: a record keeps the rules that differ
    path = tmp_path / "hand.json"
    dealt = manage("deal", "--game", "solo_whist", "--seed", "4", "--rules",
                   json.dumps({"revoke_penalty": penalty}), "--output", str(path))
    assert dealt.returncode == 0, dealt.stderr
    assert json.loads(path.read_text())["rules"] == {"revoke_penalty": penalty}
    replayed = manage("replay", str(path))
    assert replayed.returncode == 0, replayed.stderr


def test_deal_refuses_a_revoke_penalty_it_does_not_know():
    result = manage("deal", "--game", "solo_whist", "--seed", "4", "--rules",
                    '{"revoke_penalty": "a_fine"}')
    assert result.returncode != 0
    assert "revoke_penalty" in result.stderr and "Traceback" not in result.stderr
