"""Bid Whist: two partnerships, seats 0 and 2 against 1 and 3 (the engine's teams).  A hand
(or a match entered as totals) is one update of two teams of two, the side with more points
ahead."""

from games.rules import bid_whist as engine

UNIT = "sides"
# Measured (bench/ratings.py): Plackett-Luce ranked the pairs as well but predicted held-out
# hands worse than each side's win share so far; Thurstone-Mosteller beat both baselines.
MODEL = "thurstone_mosteller"
BETA: float | None = None  # openskill's own
TEAMS = ((0, 2), (1, 3))


def seat_points(points) -> list[float]:
    """The two teams' points, as each seat's."""
    return [float(points[engine.team_of(seat)]) for seat in range(engine.SEATS)]


def sides(players) -> list[list[str]]:
    return [[players[s] for s in team] for team in TEAMS]


def comparisons(players, points) -> list[tuple[list[str], list[str]]]:
    first, second = sides(players)
    if points[0] == points[1]:
        return []
    return [(first, second)] if points[0] > points[1] else [(second, first)]
