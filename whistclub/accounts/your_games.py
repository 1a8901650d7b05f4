"""A person's own page: what they played online, game by game, and where they stand."""

from __future__ import annotations

from dataclasses import dataclass

from games import registry, words
from games.models import Hand, Table
from ratings.read import OwnRating, own_site_ratings


@dataclass
class GamePlayed:
    """One game as a person played it at online tables."""

    game: registry.GameDescription
    hands: int = 0  # hands played out (a hand dealt again is not one)
    declared: int = 0  # contracts they declared, alone or with a partner
    made: int = 0
    rating: OwnRating | None = None

    @property
    def made_share(self) -> int:
        """Of the contracts they declared, the share made, in percent."""
        return round(100 * self.made / self.declared) if self.declared else 0

    @property
    def not_counted(self) -> int:
        """Hands that count in no rating: those with no other person on another side (computer
        players only, or people only as partners), and, for a guest, every hand."""
        return max(0, self.hands - (self.rating.online if self.rating else 0))


def games_played(user) -> list[GamePlayed]:
    """Every game ``user`` played online, in the site's order of games."""
    played = {game.id: GamePlayed(game) for game in registry.all_games()}
    hands = (Hand.objects.filter(table__seats__user=user)
             .values_list("table__game", "result", "table__seats__position"))
    for game, result, seat in hands.iterator():
        line = played.get(game)
        if line is None or not result or result.get("redeal"):
            continue
        line.hands += 1
        for declarers, made in words.of(game).declared(result):
            if seat in declarers:
                line.declared += 1
                line.made += made
    for game, rating in own_site_ratings(user).items():
        if game in played:
            played[game].rating = rating
    return [line for line in played.values() if line.hands or line.rating]


def recent_tables(user, count: int = 10) -> list[Table]:
    """The tables ``user`` sat at, newest first."""
    return list(Table.objects.filter(seats__user=user).distinct().order_by("-pk")
                .prefetch_related("seats__user__profile")[:count])
