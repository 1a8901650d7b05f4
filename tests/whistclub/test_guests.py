"""A visitor plays at once as a guest; signing up keeps what they played; guests cannot reach
other people outside a table, are never rated, are counted per address and are forgotten."""

import random
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from games import tables
from games.models import Seat, Table
from leagues.models import Club, Invite, Member
from ratings.events import online_events
from whistclub.management.commands.forget_guests import forget_guests

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery"


def play_now(client, game="solo_whist", address="203.0.113.7"):
    return client.post(f"/tables/play/{game}/", REMOTE_ADDR=address)


def guest_of(client):
    return get_user_model().objects.get(pk=client.session["_auth_user_id"])


def test_a_visitor_taps_play_now_and_plays_as_a_guest(client):
    response = play_now(client)
    table = Table.objects.get()
    assert response["Location"] == table.get_absolute_url()
    guest = guest_of(client)
    assert guest.profile.is_guest and not guest.has_usable_password()
    assert Seat.objects.get(table=table, position=0).user == guest
    page = client.get(table.get_absolute_url()).content.decode()
    assert re.search(r"Guest \d{4}", page)
    assert 'href="/accounts/signup/"' in page and "Log out" not in page  # the header


def test_a_guest_passes_on_no_invite_link(client):
    play_now(client)
    table = Table.objects.get()
    response = client.get(table.get_absolute_url())
    assert response.context["invite_url"] is None
    assert table.invite_token not in response.content.decode()


def test_one_address_starts_a_few_guests_an_hour_and_then_is_told_why(client, settings):
    settings.GUESTS_PER_ADDRESS_PER_HOUR = 2
    for _ in range(2):
        assert play_now(Client(), address="198.51.100.1")["Location"].startswith("/tables/")
    refused = Client().post("/tables/play/solo_whist/", REMOTE_ADDR="198.51.100.1", follow=True)
    assert "Too many guests were started from your network" in refused.content.decode()
    assert get_user_model().objects.filter(profile__is_guest=True).count() == 2
    assert play_now(Client(), address="198.51.100.2")["Location"].startswith("/tables/")


def test_a_guest_keeps_a_few_tables_in_play(client, settings):
    settings.GUEST_TABLES_IN_PLAY = 2
    play_now(client)
    play_now(client, "bid_whist")
    refused = play_now(client, "belgian_whist")
    assert refused["Location"] == "/"
    assert Table.objects.count() == 2
    assert "As a guest you can have 2 tables in play" in client.get("/").content.decode()


def test_a_guest_is_sent_to_sign_up_to_open_or_join_a_club(client, django_user_model):
    play_now(client)
    response = client.get("/clubs/new/")
    assert response["Location"] == "/accounts/signup/?next=%2Fclubs%2Fnew%2F"
    assert "Create your account to do this" in client.get(response["Location"]).content.decode()
    olga = django_user_model.objects.create_user("olga", "olga@example.org", PASSWORD)
    club = Club.create_with_organiser(olga, name="The Crown")
    invite = Invite.objects.create(club=club)
    response = client.post(f"/clubs/join/{invite.token}/")
    assert response["Location"].startswith("/accounts/signup/?next=")
    assert not Member.objects.filter(club=club, user=guest_of(client)).exists()


def test_signing_up_turns_the_guest_into_an_account_that_keeps_its_tables(client):
    play_now(client)
    guest = guest_of(client)
    table = Table.objects.get()
    page = client.get("/accounts/signup/").content.decode()
    assert "You are playing as" in page
    assert guest.username not in page  # the site's name for a guest is not theirs to keep
    response = client.post("/accounts/signup/", {
        "username": "nina", "email": "nina@example.org", "password1": PASSWORD,
        "password2": PASSWORD})
    assert response["Location"] == "/accounts/signup/sent/"
    guest.refresh_from_db()
    assert guest.profile.is_guest  # until the address's owner follows the link
    (message,) = mail.outbox
    link = re.search(r"https?://[^/\s]+(/accounts/signup/confirm/\S*)", message.body).group(1)
    response = client.post(link, follow=True)
    nina = get_user_model().objects.get(username="nina")
    assert nina.pk == guest.pk and not nina.profile.is_guest and nina.is_active
    assert response.context["user"] == nina
    assert Seat.objects.get(table=table, position=0).user == nina
    assert "Log out" in client.get("/").content.decode()
    assert Client().login(username="nina", password=PASSWORD)


def test_hands_with_a_guest_at_the_table_are_never_rated(client, django_user_model):
    play_now(client, "solo_whist")
    guest = guest_of(client)
    bob = django_user_model.objects.create_user("bob", "bob@example.org", PASSWORD)
    table = tables.create_table(bob, "solo_whist", {})
    tables.take_seat(table.pk, bob, 0)
    tables.take_seat(table.pk, guest, 1)
    tables.fill_seats(table.pk, bob)
    for game_table in Table.objects.all():
        for _ in range(400):
            game_table.refresh_from_db()
            if game_table.hands.exists():
                break
            state = tables.current_state(game_table)
            seat = Seat.objects.get(table=game_table, position=state.to_act)
            action = state.random_action(random.Random(1))
            if seat.user_id:
                tables.play(game_table.pk, seat.user, action, game_table.version)
            else:
                tables.play_for_computer(game_table.pk, seat.position, action,
                                         game_table.version)
    assert all(t.hands.exists() for t in Table.objects.all())
    assert online_events("solo_whist") == []


def test_guests_not_seen_for_a_month_are_forgotten(client, django_user_model, settings):
    settings.GUEST_DAYS = 30
    play_now(client)
    old = guest_of(client)
    get_user_model().objects.filter(pk=old.pk).update(
        date_joined=timezone.now() - timedelta(days=40))
    Seat.objects.filter(user=old).update(seen_at=timezone.now() - timedelta(days=35))
    recent = Client()
    play_now(recent, address="192.0.2.9")
    signed_up = django_user_model.objects.create_user("ann", "ann@example.org", PASSWORD)
    get_user_model().objects.filter(pk=signed_up.pk).update(
        date_joined=timezone.now() - timedelta(days=400))
    assert forget_guests() == 1
    assert not get_user_model().objects.filter(pk=old.pk).exists()
    assert get_user_model().objects.filter(pk=guest_of(recent).pk).exists()
    assert get_user_model().objects.filter(pk=signed_up.pk).exists()
    call_command("forget_guests")  # the command runs, and finds nobody else
