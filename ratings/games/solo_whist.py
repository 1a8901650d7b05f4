"""Solo Whist: a deal's units per seat.  Every seat is ranked by the units it won: the
declarer (or Prop and Cop's pair) ahead of or behind the defenders, who tie.  Measured against
the declaring side as one team (docs/ratings.md)."""

from ratings.games import individual_comparisons, individual_sides

UNIT = "ranked"


def seat_points(points) -> list[float]:
    return [float(p) for p in points]


sides = individual_sides
comparisons = individual_comparisons
