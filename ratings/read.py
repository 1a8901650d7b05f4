"""What the pages show: ratings on the friendly scale, for a club, for the site, for one
member, and the expected outcome of a table before it starts.  Scopes keep each club's
visibility: a members-only club's ratings are read from its own scope only, and only the pages
that already show that club's people show them."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Case, CharField, OuterRef, Subquery, Value, When
from django.db.models.functions import Cast, Concat
from django.utils.formats import number_format
from django.utils.translation import gettext

from games import registry
from games.computer_names import LEVEL_WORDS
from leagues.models import Member
from ratings import core, games
from ratings.core import PEOPLE_TO_BE_LISTED, Standing, conservative, display
from ratings.events import SITE, player_of_member, scope_of
from ratings.models import Rating, RatingPoint

# The site-wide list shows a person once they have played this many hands online.
MIN_ONLINE_HANDS = getattr(settings, "RATINGS_MIN_ONLINE_HANDS", 20)


@dataclass
class Row:
    name: str
    value: int
    plus_minus: int
    results: int
    key: float  # the order of a list
    member: object = None
    computer: bool = False

    @property
    def text(self) -> str:
        # grouped as the reader's language writes numbers: 1,500 / 1 500 / 1.500
        return f"{number_format(self.value, force_grouping=True)} ± {self.plus_minus}"


def row(name, rating: Rating | RatingPoint, **kwargs) -> Row:
    value, plus_minus = display(rating.mu, rating.sigma)
    return Row(name, value, plus_minus, rating.results, conservative(rating.mu, rating.sigma),
               **kwargs)


@dataclass(frozen=True)
class OwnRating:
    """A person's rating in one game on the site's list, as their own page tells it."""

    row: Row
    online: int  # hands at online tables among people that counted
    met: int  # different people with an account met on another side (at most the threshold)

    @property
    def provisional(self) -> bool:
        return self.online < MIN_ONLINE_HANDS

    @property
    def listed(self) -> bool:
        return not self.provisional and self.met >= PEOPLE_TO_BE_LISTED


def own_site_ratings(user) -> dict[str, OwnRating]:
    """``user``'s site ratings by game, listed or not yet."""
    name = getattr(getattr(user, "profile", None), "name", "") or user.get_username()
    return {r.game: OwnRating(row(name, r), r.online, len(r.met))
            for r in Rating.objects.filter(scope=SITE, player=f"u:{user.pk}")}


def ratings_of_members(club, game: str, member_ids) -> dict[int, Row]:
    """``{member id: Row}`` for the members rated in ``game``, in one query (the standings
    page keeps its fixed number of queries)."""
    key = Case(When(user__isnull=False, then=Concat(Value("u:"), Cast("user_id", CharField()))),
               default=Concat(Value("m:"), Cast("pk", CharField())), output_field=CharField())
    ratings = Rating.objects.filter(scope=scope_of(club), game=game, player=OuterRef("key"))
    found = (Member.objects.filter(pk__in=list(member_ids)).annotate(key=key)
             .annotate(mu=Subquery(ratings.values("mu")[:1]),
                       sigma=Subquery(ratings.values("sigma")[:1]),
                       results=Subquery(ratings.values("results")[:1]))
             .filter(mu__isnull=False).values_list("pk", "name", "mu", "sigma", "results"))
    rows = {}
    for pk, name, mu, sigma, results in found:
        value, plus_minus = display(mu, sigma)
        rows[pk] = Row(name, value, plus_minus, results, conservative(mu, sigma))
    return rows


def mean_row(name: str, rows: list[Row]) -> Row:
    """A pair's rating as shown: its players' mean (the uncertainties' too)."""
    count = len(rows)
    return Row(name, round(sum(r.value for r in rows) / count),
               round(sum(r.plus_minus for r in rows) / count), min(r.results for r in rows),
               sum(r.key for r in rows) / count)


def club_rows(club, game: str) -> list[Row]:
    """The club's members with a rating in ``game``, best first."""
    members = {player_of_member(m): m for m in club.members.all()}
    ratings = Rating.objects.filter(scope=scope_of(club), game=game, player__in=list(members))
    rows = [row(members[r.player].name, r, member=members[r.player]) for r in ratings]
    return sorted(rows, key=lambda r: (-r.key, r.name))


def member_ratings(member, club=None) -> dict[str, Row]:
    """A member's rating per game (the scope of their club)."""
    club = club or member.club
    found = Rating.objects.filter(scope=scope_of(club), player=player_of_member(member))
    return {r.game: row(member.name, r) for r in found}


def member_history(member) -> list[dict]:
    """Per game: the rating at the end of each day the member played."""
    points = RatingPoint.objects.filter(scope=scope_of(member.club),
                                        player=player_of_member(member)).order_by("game", "day")
    history: dict[str, list] = {}
    for point in points:
        history.setdefault(point.game, []).append((point.day, row(member.name, point)))
    return [{"game": registry.game(g), "points": days} for g, days in history.items()]


def site_rows(game: str, min_hands: int = MIN_ONLINE_HANDS,
              min_people: int = PEOPLE_TO_BE_LISTED) -> list[Row]:
    """The site's list for online play: people with at least ``min_hands`` hands played at
    online tables against at least ``min_people`` different people with an account (one
    person with a few accounts of their own does not make a list), and the computer players of
    each level."""
    ratings = list(Rating.objects.filter(scope=SITE, game=game, online__gte=min_hands)
                   .exclude(player__startswith="m:"))
    users = get_user_model().objects.in_bulk(
        [int(r.player[2:]) for r in ratings if r.player.startswith("u:")])
    rows = []
    for r in ratings:
        if core.is_computer(r.player):
            level = core.computer_level(r.player)
            rows.append(row(gettext("Computer player (%(level)s)")
                            % {"level": LEVEL_WORDS.get(level, level)}, r,
                            computer=True))
        elif int(r.player[2:]) in users and len(r.met) >= min_people:
            user = users[int(r.player[2:])]
            name = getattr(getattr(user, "profile", None), "name", "") or user.get_username()
            rows.append(row(name, r))
    return sorted(rows, key=lambda r: (-r.key, r.name))


def expected_outcome(club, game: str, members: list) -> list[dict]:
    """Before a table plays: each side's chance of finishing a deal on top, from the ratings
    (openskill's prediction; unrated people count as newcomers)."""
    if len(members) != registry.game(game).seats:
        return []
    players = [player_of_member(m) for m in members]
    by_player = {m_player: m for m_player, m in zip(players, members, strict=True)}
    stored = Rating.objects.filter(scope=scope_of(club), game=game, player__in=players)
    rater = games.rater(game, {r.player: Standing(r.mu, r.sigma) for r in stored})
    sides = games.of(game).sides(players)
    chances = rater.win_chances(sides)
    return [{"names": [by_player[p].name for p in side], "percent": round(100 * chance)}
            for side, chance in zip(sides, chances, strict=True)]
