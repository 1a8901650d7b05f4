"""Duplicate scoring (events/scoring.py): matchpoints, percentages and differences of a deal
played at several tables."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from events.scoring import (
    DirectionScore,
    adjusted,
    differences,
    matchpoints,
    overall_percent,
    percentages,
    positions,
    relative,
    score_deal,
    total_difference,
)

results = st.dictionaries(st.integers(0, 30), st.integers(-20, 20), max_size=12)


@given(results)
def test_matchpoints_of_a_direction_add_up_to_n_times_n_minus_one(field):
    """Each comparison of two tables gives 2 in all: 2 to one, or 1 to each."""
    n = len(field)
    assert sum(matchpoints(field).values()) == n * (n - 1)


@given(results)
def test_matchpoints_count_results_beaten_and_tied(field):
    points = matchpoints(field)
    for key, value in field.items():
        beaten = sum(1 for other, v in field.items() if other != key and v < value)
        tied = sum(1 for other, v in field.items() if other != key and v == value)
        assert points[key] == 2 * beaten + tied


@given(results)
def test_percentages_lie_between_0_and_100_and_ties_share(field):
    percent = percentages(field)
    assert all(0 <= p <= 100 for p in percent.values())
    for a, b in ((a, b) for a in field for b in field):
        if field[a] == field[b]:
            assert percent[a] == percent[b]
        elif field[a] > field[b]:
            assert percent[a] > percent[b]
    if field:
        assert math.isclose(sum(percent.values()) / len(field), 50)


def test_a_field_of_one_scores_50_percent():
    assert percentages({"table 1": 7}) == {"table 1": 50.0}
    [score] = score_deal({"table 1": [4, 0]})["table 1"][:1]
    assert score.percent == 50 and score.top == 0 and score.difference == 0


@given(results)
def test_differences_add_up_to_zero_before_the_cap(field):
    assert math.isclose(sum(differences(field).values()), 0, abs_tol=1e-9)


@given(results, st.integers(0, 10))
def test_differences_stay_within_the_cap(field, cap):
    capped = differences(field, cap)
    uncapped = differences(field)
    for key in field:
        assert -cap <= capped[key] <= cap
        if abs(uncapped[key]) <= cap:
            assert capped[key] == uncapped[key]


def test_the_worked_example_of_the_docs():
    """docs/events.md, "Scoring": a Bid Whist deal at four tables."""
    tables = {"A": [4, 0], "B": [0, 3], "C": [-3, 0], "D": [4, 0]}
    scores = score_deal(tables, cap=6)
    side_0 = {t: s[0] for t, s in scores.items()}
    assert {t: s.result for t, s in side_0.items()} == {"A": 4, "B": -3, "C": -3, "D": 4}
    assert {t: s.matchpoints for t, s in side_0.items()} == {"A": 5, "B": 1, "C": 1, "D": 5}
    assert {t: round(s.percent, 1) for t, s in side_0.items()} == \
        {"A": 83.3, "B": 16.7, "C": 16.7, "D": 83.3}
    assert {t: s.difference for t, s in side_0.items()} == \
        {"A": 3.5, "B": -3.5, "C": -3.5, "D": 3.5}
    side_1 = {t: s[1] for t, s in scores.items()}
    assert {t: s.matchpoints for t, s in side_1.items()} == {"A": 1, "B": 5, "C": 5, "D": 1}
    assert {t: s.difference for t, s in side_1.items()} == \
        {"A": -3.5, "B": 3.5, "C": 3.5, "D": -3.5}
    assert overall_percent([side_0["A"], side_1["B"]]) == 100 * 10 / 12


@given(st.integers(1, 4).flatmap(lambda d: st.dictionaries(
    st.integers(0, 9), st.lists(st.integers(-30, 30), min_size=d, max_size=d), max_size=8)))
def test_a_deal_scores_each_direction_apart(tables):
    scores = score_deal(tables)
    for table, values in tables.items():
        assert len(scores[table]) == len(values)
    if tables:
        n = len(tables)
        for direction in range(len(next(iter(tables.values())))):
            column = [scores[t][direction] for t in tables]
            assert sum(s.matchpoints for s in column) == n * (n - 1)
            assert math.isclose(sum(s.difference for s in column), 0, abs_tol=1e-9)
            assert all(s.top == 2 * (n - 1) for s in column)


def test_tables_with_other_directions_are_refused():
    try:
        score_deal({1: [4, 0], 2: [1, 2, 3]})
    except ValueError:
        return
    raise AssertionError("accepted")


@given(st.lists(st.integers(-30, 30), min_size=2, max_size=4))
def test_relative_counts_the_other_directions_against_each(values):
    rel = relative(values)
    n = len(values)
    for i, v in enumerate(values):
        assert math.isclose(rel[i], v - (sum(values) - v) / (n - 1))
    if sum(values) == 0:  # a zero-sum table: the order is the raw numbers'
        assert sorted(range(n), key=lambda i: rel[i]) == sorted(range(n), key=lambda i: values[i])


def test_overall_percent_weighs_each_deal_by_its_top():
    assert overall_percent([]) == 50
    assert overall_percent([DirectionScore(0, 6, 6, 100, 0), DirectionScore(0, 0, 2, 0, 0)]) == 75


@given(st.lists(st.lists(st.integers(-6, 6), min_size=4, max_size=4), min_size=2, max_size=5))
def test_results_equal_once_made_relative_tie_exactly(tables):
    """A direction's number compared is its result minus the others' average: two tables
    whose numbers are equal as fractions tie, whatever the rounding of a division by three."""
    from fractions import Fraction

    scores = score_deal(dict(enumerate(tables)))
    for direction in range(4):
        exact = {t: Fraction(v[direction]) - Fraction(sum(v) - v[direction], 3)
                 for t, v in enumerate(tables)}
        for a in exact:
            for b in exact:
                if exact[a] == exact[b]:
                    assert scores[a][direction].matchpoints == scores[b][direction].matchpoints
                    assert scores[a][direction].difference == scores[b][direction].difference


deal_tables = st.integers(1, 4).flatmap(lambda d: st.dictionaries(
    st.integers(0, 9), st.lists(st.integers(-40, 40), min_size=d, max_size=d), min_size=1,
    max_size=8))


@given(deal_tables, st.integers(1, 40))
def test_a_deals_differences_of_one_direction_add_up_to_zero_and_capped_stay_within_the_cap(
        tables, cap):
    """A difference event's deal: before the cap, what one table gains over the field in a
    direction the others lose; after it, nobody moves more than the cap either way, and a
    difference within the cap is left as it was."""
    uncapped = score_deal(tables)
    capped = score_deal(tables, cap=cap)
    for direction in range(len(next(iter(tables.values())))):
        assert math.isclose(sum(uncapped[t][direction].difference for t in tables), 0,
                            abs_tol=1e-9)
        for table in tables:
            before, after = uncapped[table][direction].difference, capped[table][direction]
            assert -cap <= after.difference <= cap
            if abs(before) <= cap:
                assert after.difference == before
            else:
                assert after.difference == math.copysign(cap, before)


totals = st.dictionaries(st.integers(0, 30), st.integers(-200, 200).map(lambda n: n / 4),
                         max_size=12)


@given(totals)
def test_a_ranking_by_difference_follows_the_totals(field):
    """A higher total ranks above, equal totals share a place, and a place is one more than
    the number of totals above it (1, 2, 2, 4)."""
    places = positions(field)
    for a in field:
        assert places[a] == 1 + sum(1 for b in field if field[b] > field[a])
        for b in field:
            if field[a] > field[b]:
                assert places[a] < places[b]
            elif field[a] == field[b]:
                assert places[a] == places[b]


@given(st.lists(st.integers(-60, 60), max_size=10))
def test_a_players_total_is_the_sum_of_their_capped_differences(values):
    scores = [DirectionScore(0, 0, 2, 50, value / 3) for value in values]
    assert math.isclose(total_difference(scores), sum(value / 3 for value in values),
                        abs_tol=1e-9)


def test_totals_equal_as_fractions_share_a_place():
    """Thirds added in floating point differ in the last digit; the ranking does not."""
    assert positions({"ana": 0.1 + 0.2, "bo": 0.3, "cy": 0.4}) == {"ana": 2, "bo": 2, "cy": 1}


def test_average_minus_in_a_difference_event_is_a_fifth_of_the_cap_below_the_field():
    """40% of the top, between -cap (0%) and +cap (100%): -cap/5; none without a cap."""
    assert adjusted(40, 5, cap=7).difference == -1.4
    assert adjusted(40, 5, cap=20).difference == -4
    assert adjusted(40, 5).difference == 0
