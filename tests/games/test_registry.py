"""The registry of games is where the site learns what a game is."""

from django.test import Client

from games import registry
from games.rules import GAME_MODULES


def test_every_engine_is_a_registered_game_and_back():
    assert [g.id for g in registry.all_games()] == list(GAME_MODULES)
    for description in registry.all_games():
        assert description.engine.GAME == description.id
        assert description.seats == description.engine.SEATS
        assert registry.MIN_SEATS <= description.seats <= registry.MAX_SEATS
        assert description.rules_class.describe()


def test_a_game_has_three_to_five_seats():
    import pytest

    cutthroat = registry.game("cutthroat_bid_whist")
    assert cutthroat.seats == 3 and not cutthroat.is_partnership_match and cutthroat.is_match

    class SixHanded(registry.GameDescription):
        seats = 6  # what an engine with SEATS = 6 would say

    with pytest.raises(ValueError, match="3 to 5"):
        registry.register(SixHanded("six_handed", "Six", registry.RUNNING_BALANCE))
    assert "six_handed" not in [each.id for each in registry.all_games()]


def test_a_game_is_registered_once():
    import pytest

    with pytest.raises(ValueError):
        registry.register(registry.game("solo_whist"))


def test_only_running_balance_games_offer_a_number_of_deals(db, django_user_model):
    client = Client()
    client.force_login(django_user_model.objects.create_user("reg", "r@example.org", "pw-x-long"))
    for description in registry.all_games():
        page = client.get(f"/tables/new/{description.id}/").content.decode()
        assert ('name="deals_limit"' in page) == description.plays_a_number_of_deals
        assert str(description.label) in page
    assert client.get("/tables/new/chess/").status_code == 404


def test_the_home_page_presents_every_game_the_registry_offers(db):
    page = Client().get("/").content.decode()
    for description in registry.all_games():
        assert f"<h3>{description.label}</h3>" in page
        assert str(description.summary).split(":")[0] in page
