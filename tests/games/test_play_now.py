"""The home page's "Play now": one tap from the front door to a seat at a table with computer
players, the usual house rules, and the creation form one tap away."""

import pytest
from django.urls import reverse

from games import registry
from games.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(client, django_user_model):
    user = django_user_model.objects.create_user("nina", "nina@example.org", "pw-nina-123")
    client.force_login(user)
    return user


def test_the_home_page_offers_each_game_in_one_tap_and_its_house_rules_in_another(client):
    page = client.get("/").content.decode()
    for game in registry.all_games():
        assert f'action="{reverse("play_now", args=[game.id])}"' in page
        assert f'href="{reverse("new_table", args=[game.id])}"' in page
    assert "Welcome back" not in page


@pytest.mark.parametrize("game", [game.id for game in registry.all_games()])
def test_play_now_seats_you_with_computer_players_and_deals(client, player, game):
    response = client.post(reverse("play_now", args=[game]))
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert table.status == Table.Status.PLAYING and table.current is not None
    assert table.is_private  # nobody else comes to sit in a newcomer's game
    assert table.rules == {}  # the usual house rules
    seats = list(table.seats.order_by("position"))
    assert seats[0].user == player
    assert [seat.computer_level for seat in seats[1:]] == ["normal"] * (registry.game(game).seats - 1)
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'class="my-hand' in page


def test_your_table_in_play_is_on_the_home_page_one_tap_away(client, player):
    client.post(reverse("play_now", args=["solo_whist"]))
    table = Table.objects.get()
    page = client.get("/").content.decode()
    assert "Your tables in play" in page
    assert f'href="{table.get_absolute_url()}"' in page


def test_a_visitor_plays_at_once_as_a_guest(client):
    response = client.post(reverse("play_now", args=["bid_whist"]))
    table = Table.objects.get()
    assert response["Location"] == table.get_absolute_url()
    assert table.seats.get(position=0).user.profile.is_guest


def test_play_now_is_a_post_and_knows_only_the_sites_games(client, player):
    assert client.get(reverse("play_now", args=["bid_whist"])).status_code == 405
    assert client.post(reverse("play_now", args=["poker"])).status_code == 404
    assert not Table.objects.exists()
