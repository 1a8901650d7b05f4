"""The ratings themselves, without Django: an ordered stream of results in, ratings out.

A result (:class:`Event`) is who sat in each seat and what each seat scored (higher is
better).  What one update of the ratings is made of (the *unit*) is the game's choice
(``ratings/games/<game>.py``):

- ``"sides"``: the seats that scored the same form one team (a Bid Whist partnership, a Solo
  declarer against the three defenders, Prop and Cop's two against two), teams ranked by score;
- ``"ranked"``: every seat is its own team, ranked by what it scored (ties share a rank).

Updates are openskill's (Plackett-Luce by default), never written by hand.  The same stream
always gives the same numbers: a rebuild and the incremental path (which starts from the
ratings stored at the end of an earlier day) do the same float operations in the same order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date

from openskill.models import PlackettLuce, ThurstoneMostellerFull

MODELS = {"plackett_luce": PlackettLuce, "thurstone_mosteller": ThurstoneMostellerFull}
DEFAULT_MODEL = "plackett_luce"

# The friendly scale: 1,500 for a newcomer, 20 points per unit of openskill's mu; the
# uncertainty shown is two sigmas (about 95%).  A newcomer reads 1,500 ± 333.
SCALE, CENTRE, MU0 = 20.0, 1500.0, 25.0


def display(mu: float, sigma: float) -> tuple[int, int]:
    """(rating, uncertainty) on the friendly scale: ``1,530 ± 120``."""
    return round(CENTRE + SCALE * (mu - MU0)), round(2 * SCALE * sigma)


def conservative(mu: float, sigma: float) -> float:
    """What lists are ordered by: the low end of the interval shown (a newcomer's few lucky
    results do not put them on top)."""
    return mu - 2 * sigma


@dataclass(frozen=True)
class Event:
    key: str  # the stream's total order (date, time, table, deal)
    day: date
    players: tuple  # per seat: a player id ("u:12", "m:7", "computer:easy") or None (nobody)
    points: tuple  # per seat, higher is better
    online: bool = False


# A computer level is one identity playing thousands of hands: its strength is well known, so
# its uncertainty stays pinned this low.  One result then moves it by a fraction of a point,
# and a few people throwing hands to it cannot carry it up a list (docs/ratings.md).
COMPUTER_SIGMA = 0.5
# How many different people a person must have played against (with an account, on another
# side) before the site's list shows them; a player remembers that many at most.
PEOPLE_TO_BE_LISTED = 5


# A computer player's rated identity: one per level, "computer:<level>".
COMPUTER = "computer:"


def computer_player(level: str) -> str:
    return COMPUTER + level


def computer_level(player: str) -> str:
    return player.removeprefix(COMPUTER)


def is_computer(player: str) -> bool:
    return player.startswith(COMPUTER)


def is_person_with_account(player: str | None) -> bool:
    return player is not None and player.startswith("u:")


@dataclass
class Standing:
    mu: float
    sigma: float
    results: int = 0
    online: int = 0
    # The first PEOPLE_TO_BE_LISTED people with an account met on another side, in the
    # stream's order (a rebuild and the incremental path remember the same ones).
    met: tuple = ()


def groups(event: Event, unit: str) -> tuple[list[list[str]], list[int]] | None:
    """The teams and ranks of one update, or None when it says nothing (everyone scored the
    same, fewer than two sides).  A player in several seats (two computer players of one
    level) counts once when those seats scored the same, and not at all otherwise."""
    by_player: dict[str, set] = {}
    for player, points in zip(event.players, event.points, strict=True):
        if player is not None:
            by_player.setdefault(player, set()).add(float(points))
    seats = [(player, next(iter(values))) for player, values in by_player.items()
             if len(values) == 1]
    values = sorted({points for _, points in seats}, reverse=True)
    if len(values) < 2:
        return None
    rank_of = {points: index for index, points in enumerate(values)}
    if unit == "sides":
        teams = [[p for p, points in seats if points == value] for value in values]
        return teams, list(range(len(values)))
    if unit == "ranked":
        return [[p] for p, _ in seats], [rank_of[points] for _, points in seats]
    raise ValueError(f"unknown unit {unit!r}")


@dataclass
class Rater:
    """Ratings as results come in, in the stream's order."""

    unit: str = "ranked"
    model_name: str = DEFAULT_MODEL
    state: dict[str, Standing] = field(default_factory=dict)
    beta: float | None = None  # openskill's performance spread (None: its default, 25/6)

    def __post_init__(self):
        model = MODELS[self.model_name]
        self.model = model() if self.beta is None else model(beta=self.beta)
        self._objects: dict = {}  # openskill's rating of a player, as the last update left it

    def rating(self, player: str):
        found = self._objects.get(player)
        if found is not None:
            return found
        standing = self.state.get(player)
        sigma = COMPUTER_SIGMA if is_computer(player) else None
        if standing is None:
            return self.model.rating(sigma=sigma)
        return self.model.rating(mu=standing.mu, sigma=sigma or standing.sigma)

    def apply(self, event: Event) -> list[str]:
        """Rates one result; returns the players whose ratings changed."""
        found = groups(event, self.unit)
        if found is None:
            return []
        teams, ranks = found
        rated = self.model.rate([[self.rating(p) for p in team] for team in teams], ranks=ranks)
        changed = []
        for index, (team, new_team) in enumerate(zip(teams, rated, strict=True)):
            others = [p for other, members in enumerate(teams) if other != index
                      for p in members if is_person_with_account(p)]
            for player, new in zip(team, new_team, strict=True):
                if is_computer(player):
                    new.sigma = COMPUTER_SIGMA
                self._objects[player] = new  # rate() copies what it is given: safe to reuse
                old = self.state.get(player)
                met = old.met if old else ()
                if is_person_with_account(player) and len(met) < PEOPLE_TO_BE_LISTED:
                    met = met + tuple(dict.fromkeys(
                        p for p in others if p not in met))[:PEOPLE_TO_BE_LISTED - len(met)]
                self.state[player] = Standing(
                    new.mu, new.sigma, (old.results if old else 0) + 1,
                    (old.online if old else 0) + (1 if event.online else 0), met)
                changed.append(player)
        return changed

    def win_chances(self, teams: list[list[str]]) -> list[float]:
        """Each team's chance of finishing on top, from the ratings (openskill's prediction)."""
        return self.model.predict_win([[self.rating(p) for p in team] for team in teams])

    def chance_ahead(self, ahead: list[str], behind: list[str]) -> float:
        return self.win_chances([ahead, behind])[0]


def kendall_tau(xs: list[float], ys: list[float]) -> float:
    """Kendall's tau-b between two orders (the bench: ratings against true strength)."""
    concordant = discordant = ties_x = ties_y = 0
    n = len(xs)
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    denominator = math.sqrt((concordant + discordant + ties_x) * (concordant + discordant + ties_y))
    return (concordant - discordant) / denominator if denominator else 0.0
