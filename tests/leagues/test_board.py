"""An evening's board for the venue's screen (leagues/board.py): who may open it (public club,
secret link, wrong link, members-only without it), what it never shows, and its socket, which
sends the board again after each entry."""

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from leagues import board_feed
from leagues.models import Attendance, Club
from leagues.routing import websocket_urlpatterns
from tests.leagues.conftest import solo

router = URLRouter(websocket_urlpatterns)


def board_url(evening, token=None):
    club = evening.season.league.club
    if token is None:
        return reverse("leagues:board", args=[club.slug, evening.pk])
    return reverse("leagues:board_secret", args=[club.slug, evening.pk, token])


def make_public(club):
    Club.objects.filter(pk=club.pk).update(is_public=True)
    club.refresh_from_db()


@pytest.mark.django_db
def test_a_public_clubs_board_is_open_to_anyone(client, club, solo_table):
    make_public(club)
    page = client.get(board_url(solo_table.evening))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'class="board-table-number"' in html and "Nell" in html and "Mike" in html
    assert f'ws-connect="/ws/boards/{solo_table.evening.pk}/"' in html
    assert 'http-equiv="refresh" content="30"' in html  # without JavaScript


@pytest.mark.django_db
def test_a_members_only_board_opens_through_its_secret_link_alone(client, club, solo_table,
                                                                  as_outsider):
    evening = solo_table.evening
    assert not club.is_public
    assert client.get(board_url(evening)).status_code == 404  # signed in, not a member
    client.logout()
    assert client.get(board_url(evening)).status_code == 404
    assert client.get(board_url(evening, "guessed")).status_code == 404  # no link made yet
    token = evening.new_board_token()
    page = client.get(board_url(evening, token))
    assert page.status_code == 200 and "Nell" in page.content.decode()
    assert page["Referrer-Policy"] == "no-referrer"
    assert f"/ws/boards/{evening.pk}/{token}/" in page.content.decode()
    wrong = client.get(board_url(evening, token[:-1] + ("A" if token[-1] != "A" else "B")))
    assert wrong.status_code == 404
    # A new link: the old one answers as any wrong one does.
    evening.new_board_token()
    old = client.get(board_url(evening, token))
    assert old.status_code == 404


@pytest.mark.django_db
def test_a_member_opens_the_board_without_the_link(club, solo_table, as_member):
    assert as_member.get(board_url(solo_table.evening)).status_code == 200


@pytest.mark.django_db
def test_the_organiser_makes_and_replaces_the_link(club, solo_table, as_organiser):
    evening = solo_table.evening
    link = reverse("leagues:board_link", args=[club.slug, evening.pk])
    page = as_organiser.get(evening.get_absolute_url()).content.decode()
    assert "Make the secret link" in page
    as_organiser.post(link)
    evening.refresh_from_db()
    first = evening.board_token
    assert first and board_url(evening, first) in as_organiser.get(
        evening.get_absolute_url()).content.decode()
    as_organiser.post(link)
    evening.refresh_from_db()
    assert evening.board_token and evening.board_token != first


@pytest.mark.django_db
def test_only_an_organiser_makes_the_link(club, solo_table, as_member):
    link = reverse("leagues:board_link", args=[club.slug, solo_table.evening.pk])
    assert as_member.post(link).status_code == 403
    solo_table.evening.refresh_from_db()
    assert solo_table.evening.board_token is None


@pytest.mark.django_db
def test_the_board_shows_the_tables_and_the_evenings_sums_and_nothing_of_the_clubs_people(
        client, club, solo_table, organiser, organiser_user, member):
    make_public(club)
    evening = solo_table.evening
    absent = club.members.create(name="Zelda Notcoming", email="zelda@example.org")
    Attendance.objects.create(evening=evening, member=absent, coming=False)
    solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    html = client.get(board_url(evening)).content.decode()
    assert "Zelda" not in html  # who answers is the members' business
    for secret in ("@example.org", "Sitting out"):  # no address, nobody sitting out
        assert secret not in html
    assert "Tonight" in html and 'class="board-standings-list"' in html
    # The standings are the evening's sums: the declarer of the solo first.
    standings = html.split('class="board-standings-list"')[1]
    first = standings.split("</li>")[0]
    assert str(organiser.name) in first


async def connect(path, user=None):
    communicator = WebsocketCommunicator(router, path)
    communicator.scope["user"] = user or AnonymousUser()
    communicator.scope["session"] = {}
    connected, code = await communicator.connect()
    return communicator, connected, code


@pytest.mark.django_db(transaction=True)
async def test_the_board_is_sent_again_over_the_socket_after_an_entry(club, solo_table,
                                                                      organiser_user):
    await database_sync_to_async(make_public)(club)
    evening = solo_table.evening
    board, connected, _ = await connect(f"/ws/boards/{evening.pk}/")
    assert connected
    first = await board.receive_from(timeout=5)  # the catch-up render as it joins
    assert 'id="board"' in first and 'hx-swap-oob="true"' in first
    assert "No result entered yet" in first
    await database_sync_to_async(solo_table.add_deal)(solo("solo", 0, 6), organiser_user)
    html = await board.receive_from(timeout=5)
    assert 'id="board"' in html and 'class="board-standings-list"' in html
    # A bare round trip over the same socket (the bench's floor).
    await board.send_json_to({"type": "ping", "id": 7})
    assert await board.receive_json_from(timeout=5) == {"type": "pong", "id": 7}
    await board.disconnect()
    await database_sync_to_async(board_feed.wait_until_idle)()


@pytest.mark.django_db(transaction=True)
async def test_a_members_only_boards_socket_needs_the_evenings_token(club, solo_table):
    evening = solo_table.evening
    _board, connected, code = await connect(f"/ws/boards/{evening.pk}/")
    assert not connected
    _board, connected, code = await connect(f"/ws/boards/{evening.pk}/wrong-token/")
    assert not connected
    token = await database_sync_to_async(evening.new_board_token)()
    board, connected, _ = await connect(f"/ws/boards/{evening.pk}/{token}/")
    assert connected
    assert 'id="board"' in await board.receive_from(timeout=5)
    # The link replaced: the socket open with the old one closes at the next change.
    await database_sync_to_async(evening.new_board_token)()
    await database_sync_to_async(solo_table.add_deal)(solo("solo", 0, 6), None)
    closed = await board.receive_output(timeout=5)
    assert closed["type"] == "websocket.close"
    await database_sync_to_async(board_feed.wait_until_idle)()


@pytest.mark.django_db(transaction=True)
async def test_a_table_drawn_and_a_deal_deleted_reach_the_board(club, solo_table, organiser,
                                                                organiser_user):
    from tests.leagues.conftest import add_members, make_solo_table

    await database_sync_to_async(make_public)(club)
    evening = solo_table.evening
    await database_sync_to_async(solo_table.add_deal)(solo("solo", 0, 6), organiser_user)
    board, connected, _ = await connect(f"/ws/boards/{evening.pk}/")
    assert connected
    await board.receive_from(timeout=5)  # the catch-up render

    def draw_another():
        make_solo_table(evening, add_members(club, ["Quentin", "Rita", "Sam", "Tess"]), 2)

    await database_sync_to_async(draw_another)()
    assert "Quentin" in await board.receive_from(timeout=5)
    await database_sync_to_async(solo_table.change_deal)(1, None, organiser_user)
    assert "No result entered yet" in await board.receive_from(timeout=5)
    await board.disconnect()
    await database_sync_to_async(board_feed.wait_until_idle)()


@pytest.mark.django_db(transaction=True)
async def test_a_public_board_closes_when_its_club_is_made_members_only(club, solo_table):
    import datetime

    from django.db import transaction

    from leagues import result_events
    from leagues.models import Evening

    evening = solo_table.evening
    await database_sync_to_async(Evening.objects.filter(pk=evening.pk).update)(
        date=datetime.date.today())
    await database_sync_to_async(make_public)(club)
    board, connected, _ = await connect(f"/ws/boards/{evening.pk}/")
    assert connected
    await board.receive_from(timeout=5)

    def members_only():
        with transaction.atomic():
            Club.objects.filter(pk=club.pk).update(is_public=False)
            club.refresh_from_db()
            result_events.visibility_switched(club)

    await database_sync_to_async(members_only)()
    assert (await board.receive_output(timeout=5))["type"] == "websocket.close"
    await database_sync_to_async(board_feed.wait_until_idle)()


@pytest.mark.django_db
def test_making_replacing_and_removing_the_link_are_in_the_club_history(club, solo_table,
                                                                        as_organiser, client):
    evening = solo_table.evening
    link = reverse("leagues:board_link", args=[club.slug, evening.pk])
    history_url = reverse("leagues:club_changes", args=[club.slug])

    def history():
        return " ".join(as_organiser.get(history_url).content.decode().split())

    as_organiser.post(link)
    assert "Board link of 7 Jan 2030 (Tuesday Solo) made by olga" in history()
    evening.refresh_from_db()
    first = evening.board_token
    as_organiser.post(link)
    assert "Board link of 7 Jan 2030 (Tuesday Solo) replaced by olga" in history()
    assert "The previous link no longer works." in history()
    evening.refresh_from_db()
    token = evening.board_token
    assert token != first
    page = as_organiser.post(link, {"remove": "1"}, follow=True).content.decode()
    assert "The board link was removed: it no longer works." in page
    assert "Make the secret link" in page
    assert "Board link of 7 Jan 2030 (Tuesday Solo) removed by olga" in history()
    evening.refresh_from_db()
    assert evening.board_token is None
    assert client.get(board_url(evening, token)).status_code == 404
    # Removing a link the evening no longer has: said in words, nothing changed.
    lines = club.changes.count()
    page = as_organiser.post(link, {"remove": "1"}, follow=True).content.decode()
    assert "This evening has no secret board link: nothing was removed." in page
    assert club.changes.count() == lines
