"""Talking at a table (games.chat): who may say what, who hears it, and what is kept."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from games import chat, tables
from games.models import ChatLine, Table
from tests.games.test_consumers import connect

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("computer_players_act_at_once", "fresh_limits")]

HOSTILE = '<script>alert(1)</script><img src=x onerror="alert(2)">&amp;'


@pytest.fixture
def people(django_user_model):
    def make(name):
        user = django_user_model.objects.create_user(name, f"{name}@example.org", "pw-long-enough")
        user.profile.display_name = name.capitalize()
        user.profile.save()
        return user
    return {name: make(name) for name in ("ana", "bob", "wendy", "walt")}


def table_of(people, *, full=True, chat_during_play=False) -> Table:
    """Ana in seat 0, Bob in seat 2, computer players in 1 and 3 (when ``full``)."""
    table = tables.create_table(people["ana"], "bid_whist", {},
                                chat_during_play=chat_during_play)
    tables.take_seat(table.pk, people["ana"], 0)
    tables.take_seat(table.pk, people["bob"], 2)
    if full:
        tables.add_computer_player(table.pk, people["ana"], 1)
        tables.add_computer_player(table.pk, people["ana"], 3)
    return Table.objects.get(pk=table.pk)


def begin_the_hand(table: Table) -> Table:
    """The first call of the hand made, by whoever is to act."""
    state = tables.current_state(table)
    seat = table.seats.get(position=state.to_act)
    if seat.computer_level:
        tables.play_for_computer(table.pk, state.to_act, state.legal_actions()[0], table.version)
    else:
        tables.play(table.pk, seat.user, state.legal_actions()[0], table.version)
    table = Table.objects.get(pk=table.pk)
    assert chat.hand_in_play(table)
    return table


def page_of(table, user) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/tables/{table.pk}/").content.decode()


def refusal(table, user, **said) -> str:
    with pytest.raises(chat.Refused) as refused:
        chat.say(table.pk, user, **said)
    return str(refused.value.message)


# -- who hears what ---------------------------------------------------------------------------


async def test_a_spectators_line_reaches_the_spectators_and_never_a_player(people, computer_players_wait):
    table = await database_sync_to_async(table_of)(people)
    sockets = {}
    for name in ("ana", "bob", "wendy", "walt"):
        sockets[name], connected = await connect(table.pk, people[name])
        assert connected
        await sockets[name].receive_json_from()  # the state
    await sockets["wendy"].send_json_to({"type": "say", "text": "Ana should lead trumps"})
    for name in ("wendy", "walt"):
        message = await sockets[name].receive_json_from()
        assert message["type"] == "chat"
        assert [(line["author"], line["text"], line["audience"]) for line in message["lines"]] \
            == [("Wendy", "Ana should lead trumps", "spectators")]
    for name in ("ana", "bob"):
        assert await sockets[name].receive_nothing(timeout=0.3)
    # a player's phrase is for everyone at the table, in each reader's language
    await sockets["bob"].send_json_to({"type": "say", "phrase": "good_luck"})
    for name in ("ana", "bob", "wendy", "walt"):
        line = (await sockets[name].receive_json_from())["lines"][0]
        assert (line["author"], line["kind"], line["phrase"], line["text"], line["seat"]) \
            == ("Bob", "preset", "good_luck", "Good luck", 2)
    for socket in sockets.values():
        await socket.disconnect()


def test_players_read_the_players_lines_on_reload_and_spectators_read_both(people, computer_players_wait):
    table = table_of(people, full=False)  # waiting for players: between hands
    chat.say(table.pk, people["ana"], text="Evening all, one more seat to fill")
    chat.say(table.pk, people["wendy"], text="Who is the spectator here?")
    chat.say(table.pk, people["bob"], phrase="thanks")
    pages = {name: page_of(table, people[name]) for name in ("bob", "wendy")}
    assert "Evening all, one more seat to fill" in pages["bob"]
    assert "Thanks" in pages["bob"]
    assert "Who is the spectator here?" not in pages["bob"]
    assert "Who is the spectator here?" in pages["wendy"]
    assert "Evening all, one more seat to fill" in pages["wendy"]
    # a visitor who is not signed in reads, and is told how to talk
    visitor = Client().get(f"/tables/{table.pk}/").content.decode()
    assert "Evening all" in visitor and "to talk at the table" in visitor
    assert 'name="text"' not in visitor


async def test_a_socket_that_opens_gets_the_lines_it_may_read(people, computer_players_wait):
    table = await database_sync_to_async(table_of)(people, full=False)
    await database_sync_to_async(chat.say)(table.pk, people["wendy"], text="from the rail")
    await database_sync_to_async(chat.say)(table.pk, people["ana"], phrase="sorry")
    ana, _ = await connect(table.pk, people["ana"])
    await ana.receive_json_from()
    lines = (await ana.receive_json_from())["lines"]
    assert [line["text"] for line in lines] == ["Sorry"]
    walt, _ = await connect(table.pk, people["walt"])
    await walt.receive_json_from()
    lines = (await walt.receive_json_from())["lines"]
    assert [line["text"] for line in lines] == ["from the rail", "Sorry"]
    await ana.disconnect()
    await walt.disconnect()


# -- what may be said, and when ---------------------------------------------------------------


def test_own_words_wait_for_the_end_of_the_hand_unless_the_table_allows_them(people, computer_players_wait):
    silent = table_of(people)
    chat.say(silent.pk, people["ana"], text="good luck partner, all set?")  # before the hand
    silent = begin_the_hand(silent)
    said = refusal(silent, people["ana"], text="lead a heart")
    assert "only the phrases" in said and "end of the hand" in said
    chat.say(silent.pk, people["ana"], phrase="well_played")  # a phrase at any time
    chat.say(silent.pk, people["wendy"], text="nice hand")  # spectators among themselves
    talkative = begin_the_hand(table_of(people, chat_during_play=True))
    chat.say(talkative.pk, people["bob"], text="lead a heart")
    kept = list(ChatLine.objects.values_list("table_id", "author__username", "text", "phrase"))
    assert kept == [(silent.pk, "ana", "good luck partner, all set?", ""),
                    (silent.pk, "ana", "", "well_played"),
                    (silent.pk, "wendy", "nice hand", ""),
                    (talkative.pk, "bob", "lead a heart", "")]


def test_the_create_form_offers_free_text_during_a_hand_off_by_default(people):
    client = Client()
    client.force_login(people["ana"])
    form = client.get("/tables/new/bid_whist/").content.decode()
    assert 'name="chat_during_play"' in form and "Free text during a hand" in form
    usual = {"rule_min_bid": 4, "rule_all_pass": "redeal", "rule_downtown_ace": "high",
             "rule_kitty": "6_two_jokers", "rule_downtown_side_suits": "reversed",
             "rule_boston": "wins_game", "rule_game_target": 7, "rule_notrump_double": "on"}
    client.post("/tables/new/bid_whist/", usual)
    client.post("/tables/new/bid_whist/", {**usual, "chat_during_play": "on"})
    assert list(Table.objects.order_by("pk").values_list("chat_during_play", flat=True)) \
        == [False, True]


@pytest.mark.parametrize("said, expected", [
    ({"text": "x" * 201}, "at most 200 characters; yours has 201"),
    ({"text": "   \n\t "}, "Write something to say."),
    ({"text": ["a", "list"]}, "Write your words as text."),
    ({"text": 42}, "Write your words as text."),
    ({"phrase": "lead_trumps"}, "That is not one of the phrases."),
    ({"phrase": 3}, "That is not one of the phrases."),
    ({"phrase": "thanks", "text": "hi"}, "not both at once"),
    ({}, "Write something to say."),
])
def test_a_line_that_cannot_be_said_is_refused_in_words(people, said, expected):
    table = table_of(people, full=False)
    assert expected in refusal(table, people["ana"], **said)
    assert not ChatLine.objects.exists()


def test_a_visitor_who_is_not_signed_in_only_reads(people):
    table = table_of(people, full=False)
    assert "Log in, or play as a guest" in refusal(table, AnonymousUser(), phrase="thanks")


def test_a_person_talking_too_fast_is_slowed_down_in_words(people, settings):
    settings.CHAT_BURST, settings.CHAT_LINES_PER_MINUTE = 5, 1
    table = table_of(people, full=False)
    for _ in range(5):
        chat.say(table.pk, people["ana"], phrase="thanks")
    assert "talking too fast" in refusal(table, people["ana"], phrase="thanks")
    chat.say(table.pk, people["bob"], phrase="thanks")  # each person has their own allowance
    assert ChatLine.objects.count() == 6


def test_words_are_kept_on_one_line_without_control_or_direction_characters(people):
    table = table_of(people, full=False)
    line = chat.say(table.pk, people["ana"], text="  well\n\n played\u202e gnol  \x07")
    assert line.text == "well played gnol"


async def test_a_refusal_over_the_socket_is_an_error_in_words(people, computer_players_wait):
    table = await database_sync_to_async(table_of)(people)
    await database_sync_to_async(begin_the_hand)(table)
    ana, _ = await connect(table.pk, people["ana"])
    await ana.receive_json_from()
    await ana.send_json_to({"type": "say", "text": "I have the ace of spades"})
    reply = await ana.receive_json_from()
    assert reply["type"] == "error" and "only the phrases" in reply["message"]
    assert await ana.receive_nothing(timeout=0.2)
    await ana.disconnect()


# -- escaped everywhere -----------------------------------------------------------------------


async def test_hostile_words_and_names_are_escaped_on_the_page_and_over_the_socket(people):
    hostile_name = '"><b onmouseover=alert(3)>Ana'
    ana = people["ana"]
    ana.profile.display_name = hostile_name
    await database_sync_to_async(ana.profile.save)()
    table = await database_sync_to_async(table_of)(people, full=False)
    bob, _ = await connect(table.pk, people["bob"], json_mode=False)
    await bob.receive_from()  # the table
    writer, _ = await connect(table.pk, ana, json_mode=False)
    await writer.receive_from()
    await writer.send_json_to({"type": "say", "text": HOSTILE})
    pushed = await bob.receive_from()
    await bob.disconnect()
    await writer.disconnect()
    page = await database_sync_to_async(page_of)(table, people["bob"])
    for html in (pushed, page):
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "<script>alert" not in html and "<img src=x" not in html
        assert "&amp;amp;" in html
        assert "<b onmouseover" not in html and "&lt;b onmouseover=alert(3)&gt;Ana" in html
    assert 'id="chat-lines" class="chat-lines" hx-swap-oob="beforeend"' in pushed


# -- a person's lines -------------------------------------------------------------------------


def test_a_persons_lines_are_in_their_download_and_go_with_their_account(people):
    from whistclub.accounts import personal_data
    table = table_of(people, full=False)
    chat.say(table.pk, people["ana"], text="hello there")
    chat.say(table.pk, people["bob"], phrase="thanks")
    download = personal_data.collect(people["ana"])
    assert [(line["table"], line["text"]) for line in download["chat_lines"]] \
        == [(table.pk, "hello there")]
    people["ana"].delete()
    assert list(ChatLine.objects.values_list("phrase", flat=True)) == ["thanks"]


async def test_on_the_page_a_refusal_shows_beside_the_box_until_a_line_is_said(people, computer_players_wait):
    table = await database_sync_to_async(table_of)(people)
    await database_sync_to_async(begin_the_hand)(table)
    ana, _ = await connect(table.pk, people["ana"], json_mode=False)
    await ana.receive_from()
    await ana.send_json_to({"type": "say", "text": "lead trumps"})
    refused = await ana.receive_from()
    assert 'id="chat-error"' in refused and "only the phrases" in refused
    assert 'id="table-error"' not in refused  # the table's own error line is left alone
    await ana.send_json_to({"type": "say", "phrase": "sorry"})
    said = await ana.receive_from()
    assert "Sorry" in said
    assert '<p id="chat-error" class="chat-error" role="alert" hx-swap-oob="true"></p>' in said
    await ana.disconnect()
