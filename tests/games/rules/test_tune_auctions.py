"""Solo and Belgian Whist's calls measured in real auctions (bench/tune_auctions.py): how the
bench finds the calls a threshold decides, how it picks the figures, and who calls from them."""

from __future__ import annotations

import json
import random

import pytest

from bench import levels
from bench.tuning import auctions as tune_auctions
from games.rules import solo_whist
from games.rules.computer import belgian_whist as belgian_computers
from games.rules.computer import bidding, choose_action, search
from games.rules.computer import solo_whist as solo_computers

from .conftest import first_solo_view, measured_file


def record(deal, name, figure, gain):
    return {"deal": deal, "name": name, "figure": figure, "called": "x", "other": "pass",
            "gain": gain}


def test_the_bench_calls_from_where_calling_starts_to_gain():
    """A prop gains from 3.5 tricks up and loses below; a piccolo gains up to a risk of 0.8
    and loses above it; a cop seen a few times keeps today's figure."""
    solo = [record(i, "prop", 2.2 + 4.0 * i / 199, 1.0 if 2.2 + 4.0 * i / 199 >= 3.5 else -1.0)
            for i in range(200)]
    solo += [record(500 + i, "cop", 3.0, 5.0) for i in range(10)]
    today = {name: solo_computers.THRESHOLDS[name] for name in tune_auctions.DECISIONS["solo_whist"]}
    rule, lines, measured = tune_auctions.tune("solo_whist", solo, today)
    assert 3.5 <= rule["prop"] < 3.53 and measured == {"prop"}  # the cop: too few calls
    assert rule["cop"] == today["cop"]
    assert any("cop: 10 calls, today's" in line for line in lines)
    # a run that sets the prop alone (the cop then measured against the new props)
    solo += [record(700 + i, "cop", 1.0 + i / 20, 2.0) for i in range(100)]
    assert tune_auctions.tune("solo_whist", solo, today)[0]["cop"] < today["cop"]
    rule, _lines, measured = tune_auctions.tune("solo_whist", solo, today, names={"prop"})
    assert measured == {"prop"}
    assert rule["cop"] == today["cop"] and 3.5 <= rule["prop"] < 3.53

    belgian = [record(i, "piccolo", 1.5 * i / 99, 2.0 if 1.5 * i / 99 <= 0.8 else -3.0)
               for i in range(100)]
    today = {name: belgian_computers.THRESHOLDS[name] for name in tune_auctions.DECISIONS["belgian_whist"]}
    rule, lines, _measured = tune_auctions.tune("belgian_whist", belgian, today)
    assert 0.78 < rule["piccolo"] <= 0.8
    assert not any("edge" in line for line in lines)  # the risks played reach 1.5
    assert rule["propose"] == today["propose"]  # nothing measured


def test_a_threshold_at_the_edge_of_what_was_played_is_flagged():
    """Calling gains at every figure the window played: the threshold is the lowest figure,
    and the bench says that the best may lie lower still."""
    records = [record(i, "prop", 2.2 + i / 50, 1.0) for i in range(100)]
    today = {name: solo_computers.THRESHOLDS[name] for name in tune_auctions.DECISIONS["solo_whist"]}
    rule, lines, _measured = tune_auctions.tune("solo_whist", records, today)
    assert rule["prop"] == 2.2
    assert any(line.startswith("  prop:") and "edge" in line for line in lines)


def test_a_call_that_never_gains_is_never_made_and_the_held_out_deals_say_so():
    records = [record(i, "emballer", 2.0 + i / 50, -4.0) for i in range(100)]
    today = {name: belgian_computers.THRESHOLDS[name] for name in tune_auctions.DECISIONS["belgian_whist"]}
    rule, _lines, _measured = tune_auctions.tune("belgian_whist", records, today)
    assert rule["emballer"] is None
    merged = bidding.overlay(belgian_computers.THRESHOLDS, {"emballer": None})
    assert merged["emballer"] == bidding.NEVER_TRICKS
    # tuned on the even deals, never calling gains 4 points on every odd deal today called
    line = tune_auctions.held_out("belgian_whist", records, today)[0]
    gain = float(line.split(" it gains ")[1].split()[0])
    assert gain > 0


def test_each_branch_is_a_call_the_threshold_decides_played_both_ways():
    """Every record's two calls are what the threshold decides: the call it names (a prop,
    a proposal, joining one) against the rule's next choice; the hand was played out to a
    score both ways (the engine refuses an illegal call), and a second run of the same deal
    gives the same figures."""
    names = set()
    for game in tune_auctions.GAMES:
        for index in range(5):
            records = tune_auctions.deal_records((game, index, 1, "easy"))
            assert records == tune_auctions.deal_records((game, index, 1, "easy"))
            for r in records:
                assert isinstance(r["gain"], float) and abs(r["gain"]) < 200
                names.add((game, r["name"]))
                if r["name"] == "prop":
                    assert (r["called"], r["other"]) == ("prop", "pass")
                elif r["name"] in ("propose", "emballer"):
                    assert r["called"].startswith(r["name"] + " ")
                    assert not r["other"].startswith(r["name"] + " ")
    assert ("solo_whist", "prop") in names
    assert ("belgian_whist", "propose") in names


def test_the_calls_measured_in_auctions_wait_for_a_table(tmp_path, monkeypatch):
    """The group "auctions" is held back: a level takes its figures only when its calls name
    the group; the levels offered at a table and the earlier ones keep the hand-set ones."""
    measured_file(tmp_path, monkeypatch, {"belgian_whist": {"propose": 50.0, "solo 6": 6.0},
                                          "solo_whist": {"prop": 50.0, "solo": 4.0}})
    plain = bidding.thresholds({"game": "belgian_whist"}, "tuned")
    assert plain["propose"] == belgian_computers.THRESHOLDS["propose"] and plain["solo 6"] == 6.0
    assert bidding.thresholds({"game": "belgian_whist"}, "tuned+auctions")["propose"] == 50.0
    solo = bidding.thresholds({"game": "solo_whist"}, "tuned+auctions")
    assert solo["prop"] == 50.0
    assert solo["solo_after_prop"] == 4.0  # not measured: the same hand as a solo
    kept = ["normal", "strong", *(level for level in levels.COMPARED_LEVELS if "_v" in level)]
    assert {"normal_v3", "strong_v3"} <= set(kept)
    for level in kept:
        assert "auctions" not in search.SEARCH_LEVELS[level].calls.split("+"), level
    # measured in its own right, the proposer's last word no longer follows the solo
    measured_file(tmp_path, monkeypatch, {"solo_whist": {"solo": 4.0, "solo_after_prop": 6.0}})
    solo = bidding.thresholds({"game": "solo_whist"}, "tuned+auctions")
    assert (solo["solo"], solo["solo_after_prop"]) == (4.0, 6.0)
    assert bidding.thresholds({"game": "solo_whist"}, "tuned")["solo_after_prop"] == 4.0


def first_solo_prop_chance(level: str) -> dict:
    """The view of the first seat to act, in seeded Solo deals, that may prop and that
    ``level`` does not prop, nor call anything else (passes)."""
    return first_solo_view(lambda view: "prop" in view["legal"]
                           and choose_action(view, level, random.Random(1)) == "pass")


def test_the_candidates_prop_from_the_measured_figures_and_the_offered_levels_do_not(
        tmp_path, monkeypatch):
    """The figures measured in real auctions reach the bench's candidates only: given a prop
    from no tricks at all, both candidates prop a hand that normal passes, and strong (which
    calls from the same figures as normal) passes it too."""
    measured_file(tmp_path, monkeypatch, {"solo_whist": {"prop": -5.0}})
    view = first_solo_prop_chance("normal")
    assert choose_action(view, "normal_auctions", random.Random(1)) == "prop"
    assert choose_action(view, "strong_auctions", random.Random(1)) == "prop"
    assert choose_action(view, "strong", random.Random(1)) == "pass"


def test_the_shipped_figures_call_a_partnership_with_less_than_the_promise():
    """What the auctions measured, as shipped: the candidates prop a Solo hand, propose and
    emballer a Belgian suit with fewer tricks than the hand-set figures (the promise clubs
    agree it makes to the partner: docs/rules/) ask for, which is why no level offered at a table takes them."""
    measured = search.SEARCH_LEVELS["normal_auctions"].calls
    solo = bidding.thresholds({"game": "solo_whist"}, measured)
    belgian = bidding.thresholds({"game": "belgian_whist"}, measured)
    assert solo["prop"] < solo_computers.THRESHOLDS["prop"]
    assert belgian["propose"] < belgian_computers.THRESHOLDS["propose"]
    assert belgian["emballer"] < belgian_computers.THRESHOLDS["emballer"]
    for level in ("normal", "strong"):  # easy calls by its own rule of thumb
        calls = search.SEARCH_LEVELS[level].calls
        offered = bidding.thresholds({"game": "belgian_whist"}, calls)
        assert offered["propose"] == belgian_computers.THRESHOLDS["propose"], level
        assert offered["emballer"] == belgian_computers.THRESHOLDS["emballer"], level
        offered = bidding.thresholds({"game": "solo_whist"}, calls)
        assert offered["prop"] == solo_computers.THRESHOLDS["prop"], level


@pytest.mark.slow  # plays hands out
def test_a_solo_from_a_hand_that_could_prop_is_played_out_against_the_prop():
    """The solo of a hand that could prop or cop instead: each branch is that solo against
    the partnership call the hand would make otherwise (never against a pass), from a hand
    that reaches the level's solo; only the decisions asked for are played out."""
    solo_from = bidding.thresholds({"game": "solo_whist"}, search.SEARCH_LEVELS["normal"].calls)
    records = []
    for index in range(40):
        records += tune_auctions.deal_records(("solo_whist", index, 1, "normal",
                                       {"solo_over_partnership"}))
    assert len(records) >= 5
    for r in records:
        assert r["name"] == "solo_over_partnership"
        assert r["called"] == "solo" and r["other"] in ("prop", "cop")
        assert r["figure"] >= solo_from["solo"]


def test_the_solo_over_a_partnership_is_its_own_group(tmp_path, monkeypatch):
    """Measured, the solo's figure for a hand that could prop reaches only the levels whose
    calls name the group "partnership"; the others solo from the solo's own figure.  A hand
    between the two figures props with it, and solos where no prop is offered."""
    measured_file(tmp_path, monkeypatch,
                  {"solo_whist": {"solo": 4.0, "solo_over_partnership": 9.0}})
    assert bidding.thresholds({"game": "solo_whist"}, "tuned")["solo_over_partnership"] == 4.0
    assert bidding.thresholds({"game": "solo_whist"},
                              "tuned+partnership")["solo_over_partnership"] == 9.0
    rules = solo_whist.Rules()

    def five_tricks_may_prop(view):
        tricks = bidding.turn_up_tricks(view["hand"], view["turn_up_suit"])
        return "prop" in view["legal"] and 5.0 <= tricks < 6.0 \
            and bidding.misere_risk(view["hand"]) > 2

    view = first_solo_view(five_tricks_may_prop)
    assert bidding.solo_call(view, rules, "tuned") == "solo"
    assert bidding.solo_call(view, rules, "tuned+partnership") == "prop"
    alone = {**view, "legal": [a for a in view["legal"] if a not in ("prop", "cop")]}
    assert bidding.solo_call(alone, rules, "tuned+partnership") == "solo"


def test_the_gains_are_printed_by_band_of_the_figure():
    """Each band of half a trick holds the figures from its floor up to the next: 4.5 opens
    the second band; a band's interval is the sample's own."""
    points = [(4.3, 1.0), (4.49, 3.0), (4.5, -2.0), (4.99, -2.0), (5.0, 7.0)]
    bands = tune_auctions.gain_by_band(points)
    assert [(low, n, mean) for low, n, mean, _ci in bands] == [(4.0, 2, 2.0), (4.5, 2, -2.0),
                                                                (5.0, 1, 7.0)]
    assert bands[0][3] > 0 and bands[1][3] == 0.0 and bands[2][3] == float("inf")


def test_a_records_file_answers_only_for_the_calls_it_played_out(tmp_path, capsys):
    """A run that played out one call saves which; tuning another from the same file is
    refused in plain words instead of reporting no calls."""
    records = tmp_path / "records.json"
    tune_auctions.main(["--games", "solo_whist", "--deals", "3", "--workers", "1", "--play", "easy",
                "--tune", "prop", "--records", str(records)])
    assert json.loads(records.read_text())["solo_whist"]["decisions"] == ["prop"]
    with pytest.raises(SystemExit):
        tune_auctions.main(["--games", "solo_whist", "--tune", "cop", "--records", str(records)])
    assert "holds no calls of cop" in capsys.readouterr().err
