"""Who fills the seats of a waiting table (the host), a seated person standing up, which side
an empty seat is on before anyone sits there, and the grace countdown seen by everyone."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import tables
from games.models import Seat, Table
from tests.games.test_table_management import logged_in, said

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_players_act_at_once")]


def ana_and_bob_waiting(people, game="bid_whist") -> Table:
    """Ana opened the table and sits in seat 0; Bob, a guest she invited, in seat 1."""
    table = tables.create_table(people["ana"], game, {})
    tables.take_seat(table.pk, people["ana"], 0)
    tables.take_seat(table.pk, people["bob"], 1)
    return Table.objects.get(pk=table.pk)


ONLY_THE_HOST = "Only the host (who opened the table) can add computer players."


def test_a_guest_cannot_fill_the_hosts_empty_seats_and_is_told_why(people):
    table = ana_and_bob_waiting(people)
    bob = logged_in(people["bob"])
    for what in ("fill", "computer/2"):
        response = bob.post(f"/tables/{table.pk}/{what}/", {"level": "easy"}, follow=True)
        assert said(response) == [ONLY_THE_HOST], what
    after = Table.objects.get(pk=table.pk)
    assert after.version == table.version and after.status == Table.Status.WAITING
    page = bob.get(f"/tables/{table.pk}/").content.decode()
    assert "Fill the empty seats" not in page and "Add a computer player" not in page
    host_page = logged_in(people["ana"]).get(f"/tables/{table.pk}/").content.decode()
    assert "Fill the empty seats" in host_page and "Add a computer player" in host_page


def test_once_the_hosts_account_is_gone_any_seated_player_fills_the_seats(people):
    table = ana_and_bob_waiting(people)
    Table.objects.filter(pk=table.pk).update(created_by=None)
    assert "Fill the empty seats" in logged_in(people["bob"]).get(
        f"/tables/{table.pk}/").content.decode()
    assert tables.fill_seats(table.pk, people["bob"], "easy") == 2
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_a_seated_person_stands_up_and_the_seat_is_free_again(people):
    table = ana_and_bob_waiting(people)
    bob = logged_in(people["bob"])
    page = bob.get(f"/tables/{table.pk}/").content.decode()
    assert f'action="/tables/{table.pk}/leave/"' in page and "Stand up" in page
    assert "Stand up" not in logged_in(people["olga"]).get(
        f"/tables/{table.pk}/").content.decode()  # a watcher has no seat to leave
    bob.post(f"/tables/{table.pk}/leave/", follow=True)
    seat = Seat.objects.get(table=table, position=1)
    assert seat.is_free and seat.seen_at is None
    # The host may stand up too: the table stays theirs (they still fill it and close it).
    ana = logged_in(people["ana"])
    ana.post(f"/tables/{table.pk}/leave/", follow=True)
    assert Seat.objects.get(table=table, position=0).is_free
    assert "Fill the empty seats" in ana.get(f"/tables/{table.pk}/").content.decode()


def test_a_game_in_play_offers_no_stand_up(people):
    table = ana_and_bob_waiting(people)
    tables.fill_seats(table.pk, people["ana"], "easy")
    assert "Stand up" not in logged_in(people["bob"]).get(
        f"/tables/{table.pk}/").content.decode()


def test_before_sitting_each_empty_seat_says_whose_partner_it_is(people):
    table = tables.create_table(people["ana"], "bid_whist", {})
    tables.take_seat(table.pk, people["ana"], 0)
    page = logged_in(people["olga"]).get(f"/tables/{table.pk}/").content.decode()
    assert page.count("ana&#39;s partner") == 1
    assert page.count("against ana") == 2
    tables.take_seat(table.pk, people["bob"], 1)
    page = logged_in(people["olga"]).get(f"/tables/{table.pk}/").content.decode()
    # Each empty seat names its partner once there is one, rather than its opponents.
    assert "bob&#39;s partner" in page and "ana&#39;s partner" in page
    assert "against" not in page


def test_a_game_without_partners_says_nothing_of_sides(people):
    table = tables.create_table(people["ana"], "solo_whist", {})
    tables.take_seat(table.pk, people["ana"], 0)
    page = logged_in(people["olga"]).get(f"/tables/{table.pk}/").content.decode()
    assert "partner" not in page.lower().replace("partner-badge", "")
    assert "against ana" not in page


def test_a_spectator_sees_the_countdown_of_a_player_who_dropped_off(people):
    table = ana_and_bob_waiting(people)
    tables.fill_seats(table.pk, people["ana"], "easy")
    Seat.objects.filter(table=table, position=1).update(
        away_since=timezone.now() - timedelta(seconds=10))
    tables.changed_in_admin(table.pk)  # a new version shows it
    for viewer in (logged_in(people["olga"]), Client()):
        state = viewer.get(f"/tables/{table.pk}/state/").content.decode()
        assert "a computer plays for bob in" in state, state
        assert "data-countdown-to=" in state
