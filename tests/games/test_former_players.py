"""A deleted account at the live tables (``games.seating.account_deleted``): its sockets close,
its seat shows a former player and a computer plays it while the game goes on, a table still
waiting gets the seat back, and tables it opened close.  The account's side:
tests/whistclub/test_leaving.py."""

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import tables
from games.models import Hand, HandReview, Seat, Table, computer_plays, lobby_tables
from games.snapshots import table_view
from tests.games.test_limits import logged_in_client, session_socket
from tests.ratings.test_pages_and_visibility import play_online_hand

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("computer_players_act_at_once")]


@pytest.fixture
def ana_and_bob(django_user_model):
    ana = django_user_model.objects.create_user("ana", "ana@example.org", "pw-long-enough")
    bob = django_user_model.objects.create_user("bob", "bob@example.org", "pw-long-enough")
    return ana, bob


def anas_table(ana, bob, game="solo_whist"):
    """Ana opened it and sits at seat 0, Bob at seat 1, computer players at 2 and 3; the
    computers have played up to a person's turn."""
    table = tables.create_table(ana, game, {})
    tables.take_seat(table.pk, ana, 0)
    tables.take_seat(table.pk, bob, 1)
    tables.fill_seats(table.pk, ana)
    return Table.objects.get(pk=table.pk)


def to_act(table):
    table.refresh_from_db()
    return tables.current_state(table).to_act


def bob_played_since(table, actions_before):
    table.refresh_from_db()
    actions = (table.current or {}).get("actions", [])[actions_before:]
    return any(a["seat"] == 1 for a in actions) or table.hands.exists()


def test_a_game_in_progress_goes_on_with_a_computer_for_the_former_player(ana_and_bob):
    ana, bob = ana_and_bob
    table = anas_table(ana, bob)
    # Ana plays until it is Bob's turn: his turn is then the one a computer must take.
    for _ in range(60):
        if to_act(table) == 1:
            break
        state = tables.current_state(table)
        tables.play(table.pk, ana, state.legal_actions()[0], table.version)
    assert to_act(table) == 1
    actions_before = len(table.current["actions"])
    finished = play_online_hand(table, 1, seed=3)
    HandReview.objects.create(hand=finished, seat=1, status=HandReview.Status.READY, result={})
    HandReview.objects.create(hand=finished, seat=0, status=HandReview.Status.READY, result={})

    bob.delete()

    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING  # Ana opened it: it goes on
    seat = Seat.objects.select_related("table").get(table=table, position=1)
    assert seat.user_id is None and seat.former_player and not seat.is_free
    assert computer_plays(seat, seat.table.grace_seconds)
    assert bob_played_since(table, actions_before), "nobody played the former player's seat"
    players = table_view(table, 0)["players"]
    assert players[1]["name"] == "former player" and players[1]["free"] is False
    # Bob's review went with him; Ana's stays.
    assert list(HandReview.objects.filter(hand=finished).values_list("seat", flat=True)) == [0]
    # The lobby names the former player and counts no free seat there.
    assert "former player" in Client().get("/tables/").content.decode()
    assert [t.free_seats for t in lobby_tables(None) if t.pk == table.pk] == [0]


def test_a_table_still_waiting_gets_the_seat_back_and_tables_opened_close(ana_and_bob):
    ana, bob = ana_and_bob
    waiting = tables.create_table(ana, "bid_whist", {})
    tables.take_seat(waiting.pk, ana, 0)
    tables.take_seat(waiting.pk, bob, 2)
    bobs = anas_table(bob, ana)  # opened by Bob, Ana playing there
    assert Hand.objects.filter(table=bobs).count() == 0

    bob.delete()

    waiting.refresh_from_db()
    assert waiting.status == Table.Status.WAITING
    assert waiting.seats.get(position=2).is_free  # free again, as if he had left
    bobs.refresh_from_db()
    assert bobs.status == Table.Status.FINISHED and bobs.created_by_id is None
    assert bobs.seats.get(position=0).former_player
    assert bobs.seats.get(position=1).user_id == ana.pk


async def test_deleting_an_account_closes_its_live_table_sockets(ana_and_bob):
    ana, bob = ana_and_bob
    table = await database_sync_to_async(anas_table)(ana, bob)
    browser = await database_sync_to_async(logged_in_client)(bob)
    other = await database_sync_to_async(logged_in_client)(bob)
    anas_browser = await database_sync_to_async(logged_in_client)(ana)
    bobs = await session_socket(table.pk, bob, browser.session.session_key)
    bobs_other = await session_socket(table.pk, bob, other.session.session_key)
    anas = await session_socket(table.pk, ana, anas_browser.session.session_key)

    def delete_bobs_account():
        return browser.post("/accounts/profile/delete/", {"confirmation": "pw-long-enough"})

    response = await database_sync_to_async(delete_bobs_account)()
    assert response.status_code == 302
    for socket in (bobs, bobs_other):
        closed = None
        for _ in range(50):  # a state or two (his seat changed hands) before the close
            message = await socket.receive_output(timeout=5)
            if message["type"] == "websocket.close":
                closed = message
                break
        assert closed == {"type": "websocket.close", "code": 4401}
    # Ana's socket stays, and sees the former player.
    message = None
    for _ in range(50):
        message = await anas.receive_json_from(timeout=5)
        if message.get("type") == "state" and message["state"]["players"][1]["name"] == \
                "former player":
            break
    assert message["state"]["players"][1]["name"] == "former player"
    await anas.disconnect()
