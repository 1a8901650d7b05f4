"""Computer players never play on in people's names from one hand to the next: a table whose
people have all gone stops at the next deal and goes on when one of them comes back."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import computer_players, presence, tables
from games.models import Seat, Table
from games.rules import game_module

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_players_act_at_once")]


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user("ana", "ana@example.org", "pw-long-enough")


def solo_table_with_computers(ana) -> Table:
    """Ana and three computer players at a Solo table with no number of deals (it would go on
    for ever); Ana makes her first call, then goes, and stays away past the grace period."""
    table = tables.create_table(ana, "solo_whist", {}, grace_seconds=10)
    tables.take_seat(table.pk, ana, 0)
    tables.fill_seats(table.pk, ana, "normal")
    computer_players.run_computer_players(table.pk, 0)  # the computers call up to Ana's turn
    table.refresh_from_db()
    state = tables.current_state(table)
    assert state.to_act == 0
    tables.play(table.pk, ana, "pass" if "pass" in state.legal_actions()
                else state.legal_actions()[0], table.version)
    Seat.objects.filter(table=table, position=0).update(
        away_since=timezone.now() - timedelta(hours=1))
    Table.objects.filter(pk=table.pk).update(computer_turn=True)
    return table


def test_computers_finish_the_hand_for_an_absent_person_then_the_table_waits(ana, client):
    table = solo_table_with_computers(ana)
    computer_players.run_computer_players(table.pk, 0)
    table.refresh_from_db()
    assert table.hands.count() == 1, "the hand in play was finished, and no other"
    assert table.status == Table.Status.PLAYING and table.current["actions"] == []
    assert not table.computer_turn  # nothing for a restarted process to pick up either
    assert computer_players.resume_stalled(table.pk) == []
    client.force_login(ana)
    assert "Paused until a player comes back" in client.get(
        f"/tables/{table.pk}/state/").content.decode()


def test_the_table_goes_on_when_its_person_comes_back(ana, monkeypatch):
    table = solo_table_with_computers(ana)
    computer_players.run_computer_players(table.pk, 0)
    # The computers wake on a thread of their own in a server; here, at once.
    monkeypatch.setattr(computer_players, "schedule_computer_players",
                        lambda table_id, own_thread=False: computer_players.run_computer_players(table_id, 0))
    presence.connected(table.pk, ana, "tab-1")
    table.refresh_from_db()
    state = tables.current_state(table)
    assert table.current["actions"] or state.to_act == 0, "the deal goes on, or waits for Ana"
    assert Seat.objects.get(table=table, position=0).away_since is None


def test_a_table_of_computer_players_only_plays_on(ana):
    table = tables.create_table(ana, "solo_whist", {}, deals_limit=2)
    tables.fill_seats(table.pk, ana, "normal")
    computer_players.run_computer_players(table.pk, 0)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED


def test_a_table_of_preset_deals_plays_on_for_its_absent_people(ana, client):
    """An event's table (``Table.preset_deals``) never pauses between deals: the other tables
    of its round wait for it.  Computer players play Ana's seat until she comes back."""
    module = game_module("solo_whist")
    rules = module.Rules.from_overrides({})
    rng = random.Random(3)
    deals = [{"dealer": i % 4, "hands": [list(h) for h in module.deal(rules, i % 4, rng).hands]}
             for i in range(2)]
    table = tables.open_preset_table("solo_whist", {}, deals, [ana, None, None, None],
                                     grace_seconds=10)
    Seat.objects.filter(table=table, position=0).update(
        away_since=timezone.now() - timedelta(hours=1))
    Table.objects.filter(pk=table.pk).update(computer_turn=True)
    computer_players.run_computer_players(table.pk, 0)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.hands.count() == 2
