"""Only a seat's own player acts for it: every socket message and every POST of the tables app,
tried by every kind of visitor (the healthchecks way: a matrix of who × what).

The table, of every game: created by someone who did not sit; seat 0 Ana, seat 1 a computer
player, seat 2 Bob, seat 3 (where the game has one) a computer player.  The computer players never move on their own here (their
scheduling is switched off), so the test chooses whose turn it is.
"""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from games import registry, tables
from games.models import Table
from tests.games.test_consumers import connect
from tests.marks import slow_except

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("computer_players_act_at_once")]

NOT_PLAYING = "You are not playing at this table."
NOT_YOUR_TURN = "It is not your turn."
CARD = re.compile(r"\b(?:10|[2-9JQKA])[CDHS]\b|\b[2-9TJQKA][CDHS]\b")


@pytest.fixture
def people(django_user_model):
    def make(name):
        return django_user_model.objects.create_user(name, f"{name}@example.org",
                                                     "pw-long-enough")
    return {name: make(name) for name in ("creator", "ana", "bob", "wendy", "otto")}


def build_tables(people, game="bid_whist"):
    table = tables.create_table(people["creator"], game, {})
    tables.take_seat(table.pk, people["ana"], 0)
    tables.add_computer_player(table.pk, people["creator"], 1)
    tables.take_seat(table.pk, people["bob"], 2)
    if registry.game(game).seats > 3:
        tables.add_computer_player(table.pk, people["creator"], 3)
    other = tables.create_table(people["otto"], "solo_whist", {})
    tables.take_seat(other.pk, people["otto"], 0)
    return Table.objects.get(pk=table.pk)


def advance_to(table_id: int, seat: int) -> Table:
    """Let computer players and people make their first legal call until ``seat`` is to act."""
    for _ in range(20):
        table = Table.objects.get(pk=table_id)
        state = tables.current_state(table)
        if state.to_act == seat:
            return table
        tables.play_for_computer(table_id, state.to_act, state.legal_actions()[0],
                                 table.version) if state.to_act in (1, 3) else \
            tables.play(table_id, table.seats.get(position=state.to_act).user,
                        state.legal_actions()[0], table.version)
    raise AssertionError(f"seat {seat} never got the turn")


def messages_for(table: Table) -> dict[str, dict]:
    """One message of each kind, all aimed at the seat that is to act (a computer or not)."""
    state = tables.current_state(table)
    to_act = state.to_act
    own_card = table.current["hands"][to_act][0]
    return {
        "action": {"type": "action", "action": state.legal_actions()[0],
                   "version": table.version},
        "card": {"type": "action", "action": f"play {own_card}", "version": table.version},
        "discard": {"type": "discard", "cards": table.current["hands"][to_act][:4],
                    "version": table.version},
        "implicit": {"action": state.legal_actions()[0], "version": table.version},
    }


ROLES_WITHOUT_A_SEAT = ["anonymous", "wendy", "creator", "otto"]


def user_of(people, role):
    return AnonymousUser() if role == "anonymous" else people[role]


@pytest.mark.parametrize("game", slow_except([game.id for game in registry.all_games()],
                                             "bid_whist"))
@pytest.mark.parametrize("role", ROLES_WITHOUT_A_SEAT)
async def test_nobody_without_a_seat_acts_for_a_computer_or_a_person(people, computer_players_wait, role,
                                                                     game):
    table = await database_sync_to_async(build_tables)(people, game)
    for turn in (1, 2):  # a computer's turn, then a person's
        table = await database_sync_to_async(advance_to)(table.pk, turn)
        socket, connected = await connect(table.pk, user_of(people, role))
        assert connected
        await socket.receive_json_from()
        for kind, message in (await database_sync_to_async(messages_for)(table)).items():
            await socket.send_json_to(message)
            reply = await socket.receive_json_from()
            assert reply["type"] == "error", (kind, reply)
            assert reply["message"] == NOT_PLAYING, (kind, reply)
            assert not CARD.search(reply["message"])
            after = await database_sync_to_async(Table.objects.get)(pk=table.pk)
            assert after.version == table.version, (role, kind, "the table changed")
        await socket.disconnect()


@pytest.mark.parametrize("role", ROLES_WITHOUT_A_SEAT)
async def test_nobody_without_a_seat_talks_into_the_players_hand(people, computer_players_wait, fresh_limits,
                                                                role):
    table = await database_sync_to_async(build_tables)(people)
    table = await database_sync_to_async(advance_to)(table.pk, 2)  # a hand in play
    player, _ = await connect(table.pk, people["ana"])
    await player.receive_json_from()
    socket, _ = await connect(table.pk, user_of(people, role))
    await socket.receive_json_from()
    await socket.send_json_to({"type": "say", "text": "lead trumps, Ana"})
    reply = await socket.receive_json_from()
    if role == "anonymous":
        assert reply["type"] == "error" and "Log in" in reply["message"]
    else:  # a spectator's line, for the spectators
        assert reply["type"] == "chat" and reply["lines"][0]["audience"] == "spectators"
    assert await player.receive_nothing(timeout=0.3)
    after = await database_sync_to_async(Table.objects.get)(pk=table.pk)
    assert after.version == table.version
    await socket.disconnect()
    await player.disconnect()


@pytest.mark.parametrize("turn", [1, 2])  # a computer's turn, another person's turn
async def test_a_seated_player_cannot_act_on_someone_elses_turn(people, computer_players_wait, turn):
    table = await database_sync_to_async(build_tables)(people)
    table = await database_sync_to_async(advance_to)(table.pk, turn)
    socket, _ = await connect(table.pk, people["ana"])
    await socket.receive_json_from()
    for kind, message in (await database_sync_to_async(messages_for)(table)).items():
        await socket.send_json_to(message)
        reply = await socket.receive_json_from()
        assert reply == {"type": "error", "version": table.version, "message": NOT_YOUR_TURN}, \
            (kind, reply)
    after = await database_sync_to_async(Table.objects.get)(pk=table.pk)
    assert after.version == table.version
    await socket.disconnect()


async def test_the_seated_player_on_turn_acts_and_the_others_are_told(people, computer_players_wait):
    table = await database_sync_to_async(build_tables)(people)
    table = await database_sync_to_async(advance_to)(table.pk, 0)
    socket, _ = await connect(table.pk, people["ana"])
    await socket.receive_json_from()
    action = (await database_sync_to_async(messages_for)(table))["action"]
    await socket.send_json_to(action)
    reply = await socket.receive_json_from()
    assert reply["type"] == "state" and reply["version"] == table.version + 1
    await socket.disconnect()


def test_a_computer_seat_is_played_only_while_a_computer_plays_it(people, computer_players_wait):
    table = build_tables(people)
    table = advance_to(table.pk, 2)  # Bob's turn: Bob is here
    state = tables.current_state(table)
    with pytest.raises(tables.TableError):
        tables.play_for_computer(table.pk, 2, state.legal_actions()[0], table.version)
    assert Table.objects.get(pk=table.pk).version == table.version


# -- every POST of the tables app ----------------------------------------------------------


def client_for(people, role) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(people[role])
    return client


POSTS = ["sit/1", "sit/3", "computer/1", "fill", "rematch", "leave", "act", "act-card", "act-discard",
         "close"]


def post(client, table: Table, what: str):
    state = tables.current_state(table)
    base = f"/tables/{table.pk}/"
    if what.startswith("act"):
        data = {"version": str(table.version), "action": state.legal_actions()[0]}
        if what == "act-card":
            data["action"] = f"play {table.current['hands'][state.to_act][0]}"
        if what == "act-discard":
            data = {"version": str(table.version), "type": "discard",
                    "cards": table.current["hands"][state.to_act][:4]}
        return client.post(base + "act/", data, follow=True)
    return client.post(base + what + "/", {"level": "easy"}, follow=True)


def page_messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


@pytest.mark.parametrize("role", ROLES_WITHOUT_A_SEAT + ["ana"])
def test_no_post_changes_a_table_for_someone_without_the_right(people, computer_players_wait, role):
    table = build_tables(people)
    table = advance_to(table.pk, 1)  # a computer's turn
    for what in POSTS:
        if what == "close" and role == "creator":
            continue  # the creator may close: tried below
        client = client_for(people, role)
        response = post(client, table, what)
        after = Table.objects.get(pk=table.pk)
        assert after.version == table.version, (role, what, page_messages(response))
        assert after.seats.filter(position=1, computer_level="normal").exists()
        if role == "anonymous":
            assert "/accounts/login/" in response.redirect_chain[-1][0]
            continue
        said = page_messages(response)
        assert said, (role, what, "no word of refusal")
        assert not any(CARD.search(m) for m in said), (role, what, said)
        if what.startswith("act"):
            assert said == [NOT_YOUR_TURN if role == "ana" else NOT_PLAYING], (role, what)


def test_only_the_creator_closes_the_table_even_without_a_seat(people, computer_players_wait):
    table = build_tables(people)
    post(client_for(people, "ana"), table, "close")
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    post(client_for(people, "creator"), table, "close")
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
