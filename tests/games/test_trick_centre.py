"""The trick in the middle of the table: each card in front of the seat that played it, a
finished trick shown whole with its winner, the last trick one tap away."""

from __future__ import annotations

import random
from html.parser import HTMLParser

import pytest
from django.template.loader import render_to_string

from games.presentation import for_template
from games.rules import game_module
from tests.games.test_table_words import table_dict

SPOT_LAYERS = ("trick-now", "trick-finished", "last-trick-panel")


class Spots(HTMLParser):
    """(layer, position, seat, card) of every card spot in the centre and the last-trick panel."""

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, str | None]] = []
        self.spots: list[list] = []
        self.classes: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        layer = next((c for c in classes if c in SPOT_LAYERS), None)
        if attrs.get("id"):
            self.classes[attrs["id"]] = attrs.get("class") or ""
        if "spot" in classes:
            position = next(c[5:] for c in classes if c.startswith("spot-"))
            outer = next(label for _tag, label in reversed(self.stack) if label)
            self.spots.append([outer, position, int(attrs["data-seat"]), None,
                               "winner" in classes])
        if attrs.get("data-card") and self.spots and self.spots[-1][3] is None:
            self.spots[-1][3] = attrs["data-card"]
        if tag not in ("br", "img", "input"):
            self.stack.append((tag, layer))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break


def render(view):
    return render_to_string("games/partials/table_state.html",
                            {"view": view, "ui": for_template(view)})


def spots_of(html: str, layer: str) -> dict[int, tuple[str, str | None, bool]]:
    parser = Spots()
    parser.feed(html)
    return {seat: (position, card, winner) for outer, position, seat, card, winner
            in parser.spots if outer == layer}


def centre_classes(html: str) -> str:
    parser = Spots()
    parser.feed(html)
    return parser.classes.get("trick-centre", "")


def play_until(game: str, seed: int, done):
    """Random play of ``game`` up to the first state where ``done(view)``."""
    module = game_module(game)
    rules = module.Rules()
    for attempt in range(seed, seed + 50):  # a hand passed out has no trick: deal again
        rng = random.Random(attempt)
        dealt = module.deal(rules, 0, rng)
        state = module.new_hand(rules, 0, dealt.hands, getattr(dealt, "kitty", None))
        while not state.complete and not done(state.view(None)):
            state.apply(state.random_action(rng))
        if not state.complete:
            return state
    raise AssertionError("no hand reached that point")


AROUND = {3: ("south", "west", "east"), 4: ("south", "west", "north", "east")}


@pytest.mark.parametrize("game, seats", [("bid_whist", 4), ("cutthroat_bid_whist", 3),
                                         ("solo_whist", 4)])
@pytest.mark.parametrize("seat", [0, 1, None])
def test_each_card_of_the_trick_lies_in_front_of_the_seat_that_played_it(game, seats, seat):
    state = play_until(game, 3, lambda v: v["phase"] == "play" and len(v["trick"]) == 2
                       and v["tricks"])
    hand = state.view(seat)
    html = render(table_dict(game, hand, seat=seat))
    spots = spots_of(html, "trick-now")
    first = seat or 0
    expected = {(first + i) % seats: AROUND[seats][i] for i in range(seats)}
    assert {s: position for s, (position, _card, _w) in spots.items()} == expected
    played = {p["seat"]: p["card"] for p in hand["trick"]}
    assert {s: card for s, (_p, card, _w) in spots.items() if card} == played
    # the trick before it is one tap away, laid out the same way, its winner marked
    last = hand["tricks"][-1]
    panel = spots_of(html, "last-trick-panel")
    assert {s: card for s, (_p, card, _w) in panel.items()} == {
        p["seat"]: p["card"] for p in last["cards"]}
    assert [s for s, (_p, _c, winner) in panel.items() if winner] == [last["winner"]]
    assert 'for="last-trick-toggle"' in html and "just-finished" not in centre_classes(html)


@pytest.mark.parametrize("game, seats", [("bid_whist", 4), ("cutthroat_bid_whist", 3)])
@pytest.mark.parametrize("seat", [2, None])
def test_a_trick_just_finished_is_in_the_centre_whole_with_its_winner(game, seats, seat):
    state = play_until(game, 4, lambda v: v["phase"] == "play" and not v["trick"]
                       and len(v["tricks"]) == 2)
    hand = state.view(seat)
    view = table_dict(game, hand, seat=seat)
    html = render(view)
    last = hand["tricks"][-1]
    assert len(last["cards"]) == seats
    finished = spots_of(html, "trick-finished")
    first = seat or 0
    assert {s: (position, card) for s, (position, card, _w) in finished.items()} == {
        p["seat"]: (AROUND[seats][(p["seat"] - first) % seats], p["card"]) for p in last["cards"]}
    assert [s for s, (_p, _c, winner) in finished.items() if winner] == [last["winner"]]
    winner = "you" if last["winner"] == seat else view["players"][last["winner"]]["name"]
    assert f"won by {winner}" in html
    assert "just-finished" in centre_classes(html)
    assert 'data-trick-key="1-2"' in html  # hand 1, trick 2: newer than what a page showed
    assert 'data-trick-pause="' in html


def test_the_last_trick_of_a_hand_is_shown_when_the_next_hand_is_dealt():
    from games.snapshots import finished_hand_view

    state = play_until("bid_whist", 5, lambda v: v["phase"] == "play" and not v["trick"]
                       and len(v["tricks"]) == 1)
    while not state.complete:
        state.apply(state.random_action(random.Random(1)))
    last = finished_hand_view(1, state)
    module = game_module("bid_whist")
    dealt = module.deal(module.Rules(), 1, random.Random(2))
    new = module.new_hand(module.Rules(), 1, dealt.hands, dealt.kitty)
    html = render(table_dict("bid_whist", new.view(0), seat=0, last_hand=last, hands_played=1))
    finished = spots_of(html, "trick-finished")
    assert {s: card for s, (_p, card, _w) in finished.items()} == {
        p["seat"]: p["card"] for p in last["tricks"][-1]["cards"]}
    assert 'data-trick-key="1-12"' in html or 'data-trick-key="1-13"' in html
    assert "just-finished" in centre_classes(html)


def test_five_seats_do_not_break_the_centre():
    players = [{"seat": p, "name": f"P{p}", "computer": None, "free": False, "away": False}
               for p in range(5)]
    hand = {"phase": "play", "hand": ["2C"], "hand_sizes": [3] * 5, "tricks_won": [0] * 5,
            "trick": [{"seat": 3, "card": "AS"}], "tricks": [
                {"leader": 0, "winner": 2, "cards": [{"seat": s, "card": c} for s, c in
                                                     zip(range(5), ["2S", "3S", "KS", "4S", "5S"], strict=True)]}]}
    view = {"seat": 4, "version": 3, "status": "playing", "table": 1, "created_by": 0,
            "hands_played": 0, "players": players, "hand": hand}
    spots = spots_of(render(view), "trick-now")
    assert spots[3] == ("east", "AS", False) and spots[0] == ("west", None, False)
    assert spots[1][0] == "north-west" and spots[2][0] == "north-east"
