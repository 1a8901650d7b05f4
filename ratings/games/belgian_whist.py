"""Belgian Whist: a deal's points per seat (one line per settlement on paper, the whole hand
online).  Every seat is ranked by the points it won: the declarer (or the emballage or trou
pair) ahead of or behind the defenders, who tie.  Measured against the declaring side as one
team (docs/ratings.md)."""

from ratings.games import individual_comparisons, individual_sides

UNIT = "ranked"
# openskill's performance spread: 8 rather than its default 25/6 predicted held-out deals
# better in the bench's second season and stayed below both baselines in the first
# (docs/performance.md, "Ratings"): a deal's outcome owes much to the cards.
BETA = 8.0


def seat_points(points) -> list[float]:
    return [float(p) for p in points]


sides = individual_sides
comparisons = individual_comparisons
