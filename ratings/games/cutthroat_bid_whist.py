"""Cutthroat Bid Whist: three players, each for themselves; only the declarer scores.  Every
seat is ranked by its points: a made bid puts the declarer ahead of the two others (who tie), a
set bid behind them (docs/ratings.md)."""

from ratings.games import individual_comparisons, individual_sides

UNIT = "ranked"
# openskill's performance spread: 8, as in Solo and Belgian Whist (a hand owes much to the
# cards). Measured (bench/ratings.py, seasons 1 and 2): tau after 1,000 deals 0.88 and 0.98
# against the default's 0.78 and 0.98, held-out log-loss the same within 0.001.
BETA = 8.0


def seat_points(points) -> list[float]:
    return [float(p) for p in points]


sides = individual_sides
comparisons = individual_comparisons
