"""An event's page told of changes over its socket (docs/protocol.md, "An event's page"): the
socket carries only an element that makes the page fetch its changing part again, after a
delay of its own; what that part shows is the page's (the same hidden information); a
members-only club event's socket is its members' alone."""

import re

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from events import consumers, running
from events.routing import websocket_urlpatterns
from tests.events.conftest import new_event, play_round

pytestmark = pytest.mark.usefixtures("computer_players_wait")
router = URLRouter(websocket_urlpatterns)


async def connect(event, user=None):
    communicator = WebsocketCommunicator(router, f"/ws/events/{event.pk}/")
    communicator.scope["user"] = user or AnonymousUser()
    communicator.scope["session"] = {}
    connected, code = await communicator.connect()
    return communicator, connected, code


def refresh_url(message: str) -> str:
    """The address the swapped-in element fetches, and a check that it is only that."""
    match = re.fullmatch(r'<div id="event-live-refresh" hidden hx-get="([^"]+)" '
                         r'hx-trigger="load delay:(\d+)ms" hx-target="#event-live" '
                         r'hx-swap="innerHTML"></div>', message)
    assert match, message
    assert int(match.group(2)) <= consumers.MOST_DELAY_MS
    return match.group(1)


@pytest.mark.django_db(transaction=True)
async def test_registering_starting_and_a_round_ending_reach_the_page(make_people):
    org, ana, bob, cy, dee = await database_sync_to_async(make_people)(
        "org", "ana", "bob", "cy", "dee")
    event = await database_sync_to_async(new_event)(org, rounds=1, deals_per_round=1)
    page, connected, _ = await connect(event)
    assert connected
    url = refresh_url(await page.receive_from(timeout=5))  # the catch-up as it joins
    assert url == reverse("event_live", args=[event.pk])
    for person in (ana, bob, cy, dee):
        await database_sync_to_async(running.register)(event, person)
        refresh_url(await page.receive_from(timeout=5))
    await database_sync_to_async(running.withdraw)(event, dee)
    refresh_url(await page.receive_from(timeout=5))
    await database_sync_to_async(running.start)(event, org)
    refresh_url(await page.receive_from(timeout=5))
    await database_sync_to_async(play_round)(event, 1)
    refresh_url(await page.receive_from(timeout=5))  # the round over, the event finished
    assert await page.receive_nothing(timeout=0.3)
    await page.disconnect()


@pytest.mark.django_db
def test_the_pages_changing_part_is_the_pages_own(client, make_people):
    org, ana, bob, cy, dee = make_people("org", "ana", "bob", "cy", "dee")
    event = new_event(org, rounds=1, deals_per_round=1)
    for person in (ana, bob, cy):
        running.register(event, person)
    part = client.get(reverse("event_live", args=[event.pk])).content.decode()
    assert "3 people registered" in part and "ana" in part
    assert "<html" not in part and "event-live-refresh" not in part  # the part, not the page
    page = client.get(event.get_absolute_url()).content.decode()
    assert f'ws-connect="/ws/events/{event.pk}/"' in page and part.strip() in page
    running.register(event, dee)
    client.force_login(dee)
    mine = client.get(reverse("event_live", args=[event.pk])).content.decode()
    assert "You are registered." in mine and "4 people registered" in mine


@pytest.mark.django_db(transaction=True)
async def test_a_members_only_events_socket_is_its_members(make_people):
    from leagues.models import Club, Member

    def members_only_event():
        org, member, outsider = make_people("org", "mia", "otto")
        club = Club.create_with_organiser(org, name="The Crown")
        Member.objects.create(club=club, user=member, name="Mia")
        from club_events.models import ClubEvent

        event = new_event(org)
        ClubEvent.objects.create(event=event, club=club, members_only=True)
        return event, member, outsider

    event, member, outsider = await database_sync_to_async(members_only_event)()
    _socket, connected, _ = await connect(event)
    assert not connected
    _socket, connected, _ = await connect(event, outsider)
    assert not connected
    socket, connected, _ = await connect(event, member)
    assert connected
    refresh_url(await socket.receive_from(timeout=5))
    await socket.disconnect()
