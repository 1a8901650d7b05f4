"""Each game's calls in a bid box of its own (games/words/<game>.py, ``bid_box``): every legal
call once and enabled, nothing else enabled, in the order the game's players think of them."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string

from games import registry
from games.presentation import for_template
from tests.games.test_table_words import dealt_hand, table_dict

GAMES = [each.id for each in registry.all_games()]
CARD = re.compile(r"^(play|discard) \S\S$")


def calls_of(game: str, seeds=range(8), passing: bool = False):
    """(view of the seat to act, legal non-card actions) at every call of random hands (or of
    hands where everyone passes when they may: a Belgian trou then comes to naming trumps)."""
    for seed in seeds:
        rng, state = dealt_hand(game, seed)
        while not state.complete:
            calls = [a for a in state.legal_actions()
                     if not CARD.match(a) and not a.startswith("discard ")]
            if calls:
                yield table_dict(game, state.view(state.to_act), seat=state.to_act), calls
            state.apply("pass" if passing and "pass" in calls else state.random_action(rng))


def cells(box):
    return [c for g in box["groups"] for r in g["rows"] for c in r["cells"]]


def enabled(box):
    return [c["action"] for c in cells(box) if c["enabled"]]


def html_calls(view) -> tuple[list[str], list[str]]:
    html = render_to_string("games/partials/table_state.html",
                            {"view": view, "ui": for_template(view)})
    box = html[html.index('class="action-buttons bid-box'):]
    posted = re.findall(r'name="action" value="([^"]+)"', box)
    shown = re.findall(r'<button type="submit" data-action="([^"]+)"', box)
    assert len(re.findall(r"<button[^>]*disabled", box)) == len(re.findall(
        r'<button type="button" class="unavailable[^"]*" disabled aria-disabled="true"', box))
    return posted, shown


@pytest.mark.parametrize("game", GAMES)
def test_the_box_offers_exactly_the_legal_calls_once_each(game):
    phases = set()
    for number, (view, calls) in enumerate(calls_of(game)):
        box = for_template(view)["bid_box"]
        assert box, view["hand"]["phase"]
        offered = enabled(box)
        assert sorted(offered) == sorted(calls), (offered, calls)  # none missing, no more
        assert len(offered) == len(set(offered))
        for c in cells(box):
            assert c["enabled"] == (c["action"] is not None)  # a disabled call posts nothing
        if number % 7 == 0:
            posted, shown = html_calls(view)
            assert sorted(posted) == sorted(calls) == sorted(shown)
        phases.add(view["hand"]["phase"])
    assert "auction" in phases


@pytest.mark.parametrize("game", GAMES)
def test_pass_comes_first(game):
    for view, calls in calls_of(game, range(3)):
        if "pass" in calls:
            assert enabled(for_template(view)["bid_box"])[0] == "pass"


@pytest.mark.parametrize("game", ["bid_whist", "cutthroat_bid_whist"])
def test_bid_whist_is_a_grid_of_numbers_ascending_by_mode(game):
    for view, calls in calls_of(game, range(4)):
        if not any(a.startswith("bid ") for a in calls):
            continue
        box = for_template(view)["bid_box"]
        grid = next(g for g in box["groups"] if g["columns"])
        assert grid["columns"] == ["Uptown", "Downtown", "No trump"]
        numbers = []
        for r in grid["rows"]:
            actions = [c["name"] for c in r["cells"]]
            number = int(actions[0].split()[1])
            assert actions == [f"bid {number} {m}" for m in ("uptown", "downtown", "no trump")]
            numbers.append(number)
        assert numbers == sorted(numbers) and numbers[-1] == max(
            int(a.split()[1]) for a in calls if a.startswith("bid "))


def test_solo_whist_is_the_ladder_with_goal_and_stake():
    ladder = ["prop", "solo", "misere", "abundance", "royal_abundance", "spread_misere",
              "abundance_declared"]
    seen_cop = False
    for view, calls in calls_of("solo_whist", range(20)):
        if view["hand"]["phase"] != "auction" or calls == ["pass"]:
            continue
        box = for_template(view)["bid_box"]
        rungs = next(g for g in box["groups"] if g.get("ladder"))["rows"]
        names = [r["cells"][0]["name"] for r in rungs]
        first = "cop" if "cop" in calls else "prop"
        seen_cop |= first == "cop"
        expected = [first] + ladder[1:]
        assert [n.split(":")[0].lower().replace(" ", "_").replace("è", "e") for n in names] \
            == expected
        solo = rungs[1]["cells"][0]
        assert solo["label"] == "Solo" and solo["detail"] == "5 tricks to take, 3 units a player"
    assert seen_cop


BELGIAN_GROUPS = [None, "Emballage", "Solo", "Abondance", "Misères and piccolo", "Chelems"]


def test_belgian_whist_is_grouped_a_contract_a_row_and_its_suits():
    first_calls = 0
    for view, calls in calls_of("belgian_whist", range(12)):
        if view["hand"]["phase"] != "auction":
            continue
        box = for_template(view)["bid_box"]
        titles = [g["title"] for g in box["groups"]]
        assert titles == [t for t in BELGIAN_GROUPS if t in titles], titles
        for g in box["groups"]:
            for r in g["rows"]:
                assert len(r["cells"]) <= 5  # never 40 buttons in one list
                suits = [c["label"] for c in r["cells"] if c["label"] in "♠♥♦♣"]
                assert suits in ([], ["♠", "♥", "♦", "♣"])
        if len(calls) >= 25:  # a typical first call: most of the auction is open
            first_calls += 1
            assert sum(len(g["rows"]) for g in box["groups"]) <= 13
    assert first_calls


def test_belgian_suits_have_accessible_names():
    for view, _calls in calls_of("belgian_whist", range(3)):
        for c in cells(for_template(view)["bid_box"]):
            if c["label"] in "♠♥♦♣":
                assert c["name"].split()[-1] in ("spades", "hearts", "diamonds", "clubs")


@pytest.mark.parametrize("game", GAMES)
def test_trumps_are_offered_spades_hearts_diamonds_clubs(game):
    seen = False
    for view, calls in calls_of(game, range(40), passing=game == "belgian_whist"):
        if all(a.startswith("trump ") for a in calls):
            box = for_template(view)["bid_box"]
            row = next(r for g in box["groups"] for r in g["rows"]
                       if r["cells"][0]["name"].endswith("spades"))
            assert [c["label"] for c in row["cells"]] == ["♠", "♥", "♦", "♣"]
            assert sorted(enabled(box)) == sorted(calls)
            seen = True
    assert seen
