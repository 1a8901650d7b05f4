"""The bidding so far as a grid (games.presentation.auction_grid): one column per seat, in
the order of play from the dealer's left, each call in its seat's column, a row per round."""

from games import words
from games.presentation import auction_grid

PLAYERS = [{"seat": s, "name": n} for s, n in enumerate(["Ana", "Bob", "Cy", "Dee"])]


def test_one_column_per_seat_from_the_dealers_left_and_a_row_per_round():
    hand = {"dealer": 1, "auction": [
        {"seat": 2, "action": "bid 3 uptown"}, {"seat": 3, "action": "pass"},
        {"seat": 0, "action": "bid 4 notrump"}, {"seat": 1, "action": "pass"},
        {"seat": 2, "action": "bid 5 downtown"}, {"seat": 0, "action": "pass"}]}
    grid = auction_grid(hand, words.Names(PLAYERS, 0), 4)
    assert grid["seats"] == ["Cy", "Dee", "You", "Bob"]  # clockwise, the first to speak first
    assert grid["rows"] == [
        ["bid 3 uptown", "pass", "bid 4 no trump", "pass"],
        ["bid 5 downtown", "", "pass", ""],  # Dee has passed out: her cell stays empty
    ]


def test_three_seats_and_a_round_that_starts_after_a_silent_seat():
    hand = {"dealer": 0, "auction": [
        {"seat": 1, "action": "bid 4 uptown"}, {"seat": 2, "action": "bid 5 uptown"},
        {"seat": 0, "action": "pass"}, {"seat": 2, "action": "bid 6 uptown"}]}
    grid = auction_grid(hand, words.Names(PLAYERS[:3], None), 3)
    assert grid["seats"] == ["Bob", "Cy", "Ana"]
    assert grid["rows"] == [["bid 4 uptown", "bid 5 uptown", "pass"],
                            ["", "bid 6 uptown", ""]]
