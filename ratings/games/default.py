"""A game's ratings unless its own module says otherwise (Solo, Belgian and Cutthroat Bid
Whist have none): a result's points per seat, every seat ranked by the points it won.  The
declaring side (a declarer alone, Prop and Cop's or an emballage's pair) finishes ahead of or
behind the defenders, who tie; measured against the declaring side as one team
(docs/ratings.md)."""

from ratings.core import DEFAULT_MODEL
from ratings.games import individual_comparisons, individual_sides

UNIT = "ranked"
MODEL = DEFAULT_MODEL
# openskill's performance spread: 8 rather than its default 25/6 predicted held-out deals
# better in the bench's second season and stayed below both baselines in the first, in Solo and
# Belgian Whist (docs/performance.md, "Ratings"): a deal's outcome owes much to the cards.  In
# Cutthroat (bench/ratings.py, seasons 1 and 2): tau after 1,000 deals 0.88 and 0.98 against
# the default's 0.78 and 0.98, held-out log-loss the same within 0.001.
BETA: float | None = 8.0


def seat_points(points) -> list[float]:
    return [float(p) for p in points]


sides = individual_sides
comparisons = individual_comparisons
