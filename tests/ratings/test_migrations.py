"""A computer player's rated identity is renamed in place: its rating, its days and the players
each met keep their figures under ``computer:<level>``."""

import datetime

import pytest

from tests.leagues import test_migrations as leagues_migrations
from tests.leagues.test_migrations import migrate

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("ratings", "0003_met_people_and_last_key")]
AFTER = [("ratings", "0004_computer_player_ids")]
back_to_latest = leagues_migrations.back_to_latest  # the fixture: the latest migration after


def test_computer_players_keep_their_ratings_under_their_new_name(back_to_latest):
    apps = migrate(BEFORE)
    Rating, RatingPoint = apps.get_model("ratings", "Rating"), apps.get_model("ratings", "RatingPoint")
    day = datetime.date(2026, 11, 1)
    common = {"scope": "site", "game": "solo_whist", "sigma": 2.0, "results": 3, "online": 3}
    Rating.objects.create(player="bot:easy", mu=24.5, met=[], day=day, **common)
    Rating.objects.create(player="u:1", mu=26.0, met=["bot:easy", "u:2"], day=day, **common)
    RatingPoint.objects.create(player="bot:easy", mu=24.5, met=[], day=day, **common)
    apps = migrate(AFTER)
    Rating, RatingPoint = apps.get_model("ratings", "Rating"), apps.get_model("ratings", "RatingPoint")
    assert {(r.player, r.mu, tuple(r.met)) for r in Rating.objects.all()} == {
        ("computer:easy", 24.5, ()), ("u:1", 26.0, ("computer:easy", "u:2"))}
    assert [p.player for p in RatingPoint.objects.all()] == ["computer:easy"]
