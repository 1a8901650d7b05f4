from datetime import date

from ratings import games
from ratings.core import Event, Rater, display, groups, kendall_tau


def event(players, points, key="k"):
    return Event(key, date(2030, 1, 1), tuple(players), tuple(points))


def test_sides_make_teams_of_equal_scores_and_ranked_ranks_each_seat():
    made_solo = event(["a", "b", "c", "d"], [3, -1, -1, -1])
    assert groups(made_solo, "sides") == ([["a"], ["b", "c", "d"]], [0, 1])
    assert groups(made_solo, "ranked") == ([["a"], ["b"], ["c"], ["d"]], [0, 1, 1, 1])
    assert groups(event(["a", "b", "c", "d"], [0, 0, 0, 0]), "ranked") is None


def test_a_computer_player_in_several_seats_counts_once_or_not_at_all():
    same_side = event(["computer:easy", "x", "computer:easy", "y"], [4, -4, 4, -4])
    assert groups(same_side, "sides") == ([["computer:easy"], ["x", "y"]], [0, 1])
    both_sides = event(["computer:easy", "computer:easy", "x", "y"], [3, -1, -1, -1])
    assert groups(both_sides, "ranked") is None  # x and y tie: nothing left to rate


def test_bid_whist_rates_two_partnerships():
    module = games.of("bid_whist")
    points = module.seat_points([0, -14])
    assert points == [0.0, -14.0, 0.0, -14.0]
    assert groups(event(["a", "b", "c", "d"], points), module.UNIT) == ([["a", "c"], ["b", "d"]],
                                                                        [0, 1])


def test_winners_go_up_and_the_scale_is_friendly():
    rater = Rater(unit="ranked")
    for _ in range(20):
        rater.apply(event(["a", "b", "c", "d"], [3, -1, -1, -1]))
    assert rater.state["a"].mu > 25 > rater.state["b"].mu
    assert rater.state["a"].results == 20
    assert display(25.0, 25 / 3) == (1500, 333)
    assert rater.chance_ahead(["a"], ["b"]) > 0.8


def test_kendall_tau():
    assert kendall_tau([1, 2, 3], [10, 20, 30]) == 1.0
    assert kendall_tau([1, 2, 3], [30, 20, 10]) == -1.0


def test_a_rater_from_the_games_module_uses_its_unit():
    assert games.rater("bid_whist").unit == "sides"
    assert games.rater("solo_whist").unit == "ranked"
