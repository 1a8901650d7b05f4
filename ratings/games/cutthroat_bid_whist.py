"""Cutthroat Bid Whist: three players, each for themselves; only the declarer scores.  Every
seat is ranked by its points: a made bid puts the declarer ahead of the two others (who tie), a
set bid behind them (docs/ratings.md)."""

from ratings.games import individual_comparisons, individual_sides

UNIT = "ranked"


def seat_points(points) -> list[float]:
    return [float(p) for p in points]


sides = individual_sides
comparisons = individual_comparisons
