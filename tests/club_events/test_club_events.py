"""A club's events: an organiser creates one from the club's events page; a members-only one
is seen and joined by the club's members alone (a 404 for anyone else, its replays kept with
their players), an open one by anyone; the event's page names its club."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import timezone

from club_events.models import ClubEvent
from events import policies, running
from events.models import Event
from games.models import Table
from tests.events.conftest import play_round
from tests.events.test_pages import form_data

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_players_wait")]


def create(client, club, members_only: bool, game="solo_whist") -> Event:
    data = form_data(game, name="Crown duplicate")
    del data["visibility"]
    if members_only:
        data["members_only"] = "on"
    response = client.post(reverse("club_events:new", args=[club.slug, game]), data)
    event = Event.objects.get(name="Crown duplicate")
    assert response.status_code == 302 and response["Location"] == event.get_absolute_url()
    return event


def test_an_organiser_creates_a_members_only_event_for_the_club(as_organiser, club):
    page = as_organiser.get(reverse("club_events:list", args=[club.slug]))
    assert reverse("club_events:new", args=[club.slug, "solo_whist"]) in page.content.decode()
    event = create(as_organiser, club, members_only=True)
    link = ClubEvent.objects.get(event=event)
    assert link.club == club and link.members_only
    assert event.visibility == Event.Visibility.UNLISTED  # not on the site's list
    listed = as_organiser.get(reverse("club_events:list", args=[club.slug])).content.decode()
    assert "Crown duplicate" in listed
    page = as_organiser.get(event.get_absolute_url()).content.decode()
    assert "An event of The Crown Whist Club, for its members." in page


def test_a_members_only_event_is_the_members_alone(as_organiser, club, client, member_user,
                                                  outsider_user):
    club.is_public = True
    club.save()
    event = create(as_organiser, club, members_only=True)
    client.force_login(outsider_user)
    assert client.get(event.get_absolute_url()).status_code == 404
    assert client.post(reverse("event_register", args=[event.pk])).status_code == 404
    with pytest.raises(running.EventError, match="for the members of The Crown Whist Club"):
        running.register(event, outsider_user)
    listed = client.get(reverse("club_events:list", args=[club.slug])).content.decode()
    assert "Crown duplicate" not in listed
    client.logout()
    assert client.get(event.get_absolute_url()).status_code == 404
    client.force_login(member_user)
    assert client.get(event.get_absolute_url()).status_code == 200
    client.post(reverse("event_register", args=[event.pk]))
    assert [user.pk for user in running.registered(event)] == [member_user.pk]


def test_an_open_event_of_a_public_club_is_anyones(as_organiser, club, client, outsider_user):
    club.is_public = True
    club.save()
    event = create(as_organiser, club, members_only=False)
    assert event.visibility == Event.Visibility.PUBLIC
    client.force_login(outsider_user)
    page = client.get(event.get_absolute_url()).content.decode()
    assert "An event of The Crown Whist Club, open to everyone." in page
    client.post(reverse("event_register", args=[event.pk]))
    assert [user.pk for user in running.registered(event)] == [outsider_user.pk]
    assert "Crown duplicate" in client.get(reverse("events")).content.decode()


def test_a_members_only_club_offers_no_open_event(as_organiser, club):
    page = as_organiser.get(reverse("club_events:new", args=[club.slug, "solo_whist"]))
    assert "members_only" not in page.content.decode()
    event = create(as_organiser, club, members_only=False)  # the box is not there to untick
    assert ClubEvent.objects.get(event=event).members_only


def test_only_the_organisers_create_one(as_member, club):
    response = as_member.get(reverse("club_events:new", args=[club.slug, "solo_whist"]))
    assert response.status_code == 403
    page = as_member.get(reverse("club_events:list", args=[club.slug])).content.decode()
    assert reverse("club_events:new", args=[club.slug, "solo_whist"]) not in page


def test_a_members_only_events_replays_stay_with_their_players(as_organiser, club, member_user,
                                                              organiser_user):
    event = create(as_organiser, club, members_only=True)
    event.rounds = 1
    event.deals_per_round = 1
    event.save()
    running.register(event, member_user)
    running.register(event, organiser_user)
    running.start(event, organiser_user)
    play_round(event, 1)
    tables = Table.objects.filter(event_table__round__event=event)
    assert tables.exists() and all(table.is_private for table in tables)
    assert not policies.may_see(event, AnonymousUser())


def test_a_members_only_arenas_replays_stay_with_their_players(as_organiser, club, member_user,
                                                              organiser_user):
    from events import arena
    from tests.events.test_arena import arena_tables, finish, move_the_end

    event = create(as_organiser, club, members_only=True)
    Event.objects.filter(pk=event.pk).update(format=Event.Format.ARENA, rounds=1,
                                             deals_per_round=1, arena_minutes=60)
    event.refresh_from_db()
    running.register(event, member_user)
    running.register(event, organiser_user)
    running.start(event, organiser_user)
    (only,) = arena_tables(event)
    move_the_end(event, timezone.now() + timedelta(minutes=1))  # too little for another table
    finish(only)
    move_the_end(event, timezone.now() - timedelta(seconds=1))
    arena.step(event.pk)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    tables = Table.objects.filter(event_table__round__event=event)
    assert tables.exists() and all(table.is_private for table in tables)
