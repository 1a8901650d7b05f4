"""While a round is played, nobody learns a deal's cards or results from another table: a
player of table A (who has finished every deal of the round), a visitor, or a player of
another event gets nothing of table B from the event's pages, table B's pages, its state, its
hands or its socket.  Once every table has played the round, the travellers show it all."""

import random

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.test import Client

from events import running
from games import followups, tables, words
from games.models import Table
from games.routing import websocket_urlpatterns
from tests.events.conftest import new_event, play_table

router = URLRouter(websocket_urlpatterns)



def started_event(make_people, prefix="p", count=8):
    org, *players = make_people(f"{prefix}org", *(f"{prefix}{i}" for i in range(count)))
    event = new_event(org, rounds=2, deals_per_round=2)
    for person in players:
        running.register(event, person)
    running.start(event, org)
    event.refresh_from_db()
    table_a, table_b = (each.table for each in event.event_rounds.get(number=1).tables.all())
    return event, table_a, table_b


def seated(table):
    return next(seat.user for seat in table.seats.all() if seat.user_id)


def table_b_addresses(table):
    return [f"/tables/{table.pk}/", f"/tables/{table.pk}/state/",
            f"/tables/{table.pk}/hands/", f"/tables/{table.pk}/hands/1/",
            f"/tables/{table.pk}/hands/1.json", f"/tables/{table.pk}/hands/1/review/"]


def event_addresses(event):
    return [f"/events/{event.pk}/", f"/events/{event.pk}/standings/", "/events/",
            *(f"/events/{event.pk}/deals/{n}/" for n in (1, 2, 3, 4))]


def assert_nothing_of_the_deals(text, event):
    assert "data-card" not in text
    assert "joker" not in text
    for deal in event.deals["deals"]:
        for hand in deal["hands"]:
            for card in hand:
                if card not in ("BJ", "LJ"):
                    assert words.action_label(card) not in text, card
    assert "Matchpoints" not in text and "Replay this table" not in text


@pytest.mark.django_db
@pytest.mark.usefixtures("computer_players_wait")
def test_nothing_of_table_b_reaches_anyone_else_while_the_round_is_played(make_people):
    event, table_a, table_b = started_event(make_people)
    play_table(table_a, random.Random(2))  # table A has played every deal of the round
    play_table(table_b, random.Random(3), hands=1)  # table B has played the first only...
    rng = random.Random(4)
    for _ in range(3):  # ...and is in the middle of the second
        table_b.refresh_from_db()
        state = tables.current_state(table_b)
        seat = table_b.seats.get(position=state.to_act)
        if seat.user_id:
            tables.play(table_b.pk, seat.user, state.random_action(rng), table_b.version)
        else:
            tables.play_for_computer(table_b.pk, seat.position, state.random_action(rng),
                                     table_b.version)
    running.advance(event.pk)  # nothing: table B plays on
    _other_event, other_a, _other_b = started_event(make_people, prefix="q")

    at_a, elsewhere = Client(), Client()
    at_a.force_login(seated(table_a))
    elsewhere.force_login(seated(other_a))
    for client in (at_a, Client(), elsewhere):
        for address in table_b_addresses(table_b):
            assert client.get(address).status_code == 404, address
        for address in event_addresses(event):
            response = client.get(address)
            assert response.status_code in (200, 404)
            assert_nothing_of_the_deals(response.content.decode(), event)
        traveller = client.get(f"/events/{event.pk}/deals/1/").content.decode()
        assert "This deal's results are shown when every table has played it." in traveller

    # Once table B has played its deals too, the round is over for everyone.
    play_table(table_b, random.Random(5))
    followups.process_due()
    traveller = at_a.get(f"/events/{event.pk}/deals/1/").content.decode()
    assert "Table 1" in traveller and "Table 2" in traveller and "Matchpoints" in traveller
    for card in event.deals["deals"][0]["hands"][0]:
        assert (words.action_label(card) if card not in ("BJ", "LJ") else "joker") in traveller
    # ...but not round 2's deals, which round 2 plays now.
    assert "shown when every table" in at_a.get(f"/events/{event.pk}/deals/3/").content.decode()
    assert Table.objects.get(pk=table_b.pk).is_private is False


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("computer_players_wait")
async def test_table_b_socket_refuses_a_player_of_table_a_and_a_stranger(make_people):
    event, table_a, table_b = await database_sync_to_async(started_event)(make_people)
    player_a = await database_sync_to_async(seated)(table_a)
    player_b = await database_sync_to_async(seated)(table_b)
    for user, allowed in ((player_a, False), (player_b, True)):
        communicator = WebsocketCommunicator(router, f"/ws/tables/{table_b.pk}/?format=json")
        communicator.scope["user"] = user
        communicator.scope["session"] = {}
        connected, _code = await communicator.connect()
        assert connected is allowed
        await communicator.disconnect()


# -- the arena: a deal is seen by those who have played it, and by everyone at the end -------


def started_arena(make_people, prefix="r", count=8):
    from events.models import Event

    org, *players = make_people(f"{prefix}org", *(f"{prefix}{i}" for i in range(count)))
    event = new_event(org, format=Event.Format.ARENA, rounds=1, deals_per_round=2,
                      arena_minutes=60)
    for person in players:
        running.register(event, person)
    running.start(event, org)
    event.refresh_from_db()
    return event


def arena_tables(event):
    from events.models import EventTable

    return [each.table for each in EventTable.objects.filter(round__event=event)
            .select_related("table").order_by("number")]


def arena_pages(event, deals=4):
    return [f"/events/{event.pk}/", f"/events/{event.pk}/standings/", "/events/",
            *(f"/events/{event.pk}/deals/{n}/" for n in range(1, deals + 1))]


def in_the_middle_of_a_hand(table, moves, seed):
    rng = random.Random(seed)
    for _ in range(moves):
        table.refresh_from_db()
        state = tables.current_state(table)
        seat = table.seats.get(position=state.to_act)
        if seat.user_id:
            tables.play(table.pk, seat.user, state.random_action(rng), table.version)
        else:
            tables.play_for_computer(table.pk, seat.position, state.random_action(rng),
                                     table.version)


NOT_PLAYED = "This deal's results are shown to those who have played it"


@pytest.mark.django_db
@pytest.mark.usefixtures("computer_players_wait")
def test_in_an_arena_nobody_sees_a_deal_before_playing_it(make_people):
    from datetime import timedelta

    from django.utils import timezone

    from events import arena
    from events.models import EventRound

    event = started_arena(make_people, count=7)  # a computer player at table B
    table_a, table_b = arena_tables(event)
    assert table_b.seats.filter(user__isnull=True).count() == 1
    play_table(table_a, random.Random(2))  # table A has played deals 1 and 2 ...
    followups.process_due()  # ... and its people sit at table C, playing deals 3 and 4
    table_c = arena_tables(event)[2]
    assert set(table_c.preset_deals[0]["hands"][0]) == set(event.deals["deals"][2]["hands"][0])
    play_table(table_b, random.Random(3), hands=1)  # table B has played deal 1 only ...
    in_the_middle_of_a_hand(table_b, 3, seed=4)  # ... and is in the middle of deal 2
    other_event = started_arena(make_people, prefix="q")

    at_a, at_b, visitor, elsewhere = Client(), Client(), Client(), Client()
    at_a.force_login(seated(table_a))
    at_b.force_login(seated(table_b))
    elsewhere.force_login(seated(arena_tables(other_event)[0]))

    # Nobody gets a table they do not sit at, nor a finished one (its later deals are others'
    # to play), nor table C, which plays on.
    for client, foreign in ((at_a, [table_b]), (at_b, [table_a, table_c]),
                            (visitor, [table_a, table_b, table_c]),
                            (elsewhere, [table_a, table_b, table_c])):
        for table in foreign:
            for address in table_b_addresses(table):
                assert client.get(address).status_code == 404, address

    # A visitor and a player of another arena: nothing of any deal, anywhere.
    for client in (visitor, elsewhere):
        for address in arena_pages(event):
            response = client.get(address)
            assert response.status_code in (200, 404)
            assert_nothing_of_the_deals(response.content.decode(), event)
        assert NOT_PLAYED in client.get(f"/events/{event.pk}/deals/1/").content.decode()

    # B's player has played deal 1 (theirs and A's line), not deal 2, which they play now.
    first = at_b.get(f"/events/{event.pk}/deals/1/").content.decode()
    assert "Table 1" in first and "Table 2" in first and "Matchpoints" in first
    assert "Replay this table" not in first  # the tables stay private while the arena runs
    for address in [f"/events/{event.pk}/", f"/events/{event.pk}/standings/",
                    *(f"/events/{event.pk}/deals/{n}/" for n in (2, 3, 4))]:
        assert_nothing_of_the_deals(at_b.get(address).content.decode(), event)
    assert NOT_PLAYED in at_b.get(f"/events/{event.pk}/deals/2/").content.decode()

    # A's player has played deals 1 and 2 (deal 2: A's line alone so far), not 3 and 4.
    second = at_a.get(f"/events/{event.pk}/deals/2/").content.decode()
    assert "Table 1" in second and "Table 2" not in second
    for number in (3, 4):
        page = at_a.get(f"/events/{event.pk}/deals/{number}/").content.decode()
        assert NOT_PLAYED in page
        assert_nothing_of_the_deals(page, event)

    # At the end, everyone sees every deal played, with each table's replay.  (Too little
    # time is left for another table: B and C finish, nobody is seated again.)
    def the_end_is_in(delta):
        EventRound.objects.filter(event=event).update(ends_at=timezone.now() + delta)
        Table.objects.filter(event_table__round__event=event).update(
            time_up_at=timezone.now() + delta)

    the_end_is_in(timedelta(minutes=3))
    for table in (table_b, table_c):
        play_table(table, random.Random(6))
    followups.process_due()
    assert len(arena_tables(event)) == 3
    the_end_is_in(-timedelta(seconds=1))
    arena.step(event.pk)
    event.refresh_from_db()
    assert event.status == "finished"
    for client in (visitor, elsewhere, at_b):
        page = client.get(f"/events/{event.pk}/deals/2/").content.decode()
        assert "Table 1" in page and "Table 2" in page and "Replay this table" in page
    assert client.get(table_b_addresses(table_a)[0]).status_code == 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("computer_players_wait")
async def test_an_arena_tables_socket_refuses_everyone_but_its_players(make_people):
    def arena_in_play():
        event = started_arena(make_people)
        table_a, table_b = arena_tables(event)
        play_table(table_a, random.Random(2))
        followups.process_due()  # A's people at table C, playing deals B has not played
        return table_b, arena_tables(event)[2]

    table_b, table_c = await database_sync_to_async(arena_in_play)()
    player_b = await database_sync_to_async(seated)(table_b)
    player_c = await database_sync_to_async(seated)(table_c)
    for user, allowed in ((player_b, False), (player_c, True)):
        communicator = WebsocketCommunicator(router, f"/ws/tables/{table_c.pk}/?format=json")
        communicator.scope["user"] = user
        communicator.scope["session"] = {}
        connected, _code = await communicator.connect()
        assert connected is allowed
        await communicator.disconnect()
