"""Versions a process holds (games.snapshots) and the one-statement play built on them.

A process keeps the snapshots of the table versions its sockets were sent and plays the common
action on them with one UPDATE; whatever it holds must always be exactly what the database
says that version is, also when another process moved the table on in between.
"""

import random

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import registry, tables
from games.models import Table
from games.snapshots import (
    build_snapshot,
    cached_snapshot,
    forget_snapshots,
    peek_snapshot,
    remember_snapshot,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("computer_players_act_at_once")]


@pytest.fixture
def players(django_user_model):
    return [django_user_model.objects.create_user(name, f"{name}@example.org", "pw-long-enough")
            for name in ("ana", "bo", "cy", "di")]


def full_table(players, game="bid_whist", rules=None) -> Table:
    table = tables.create_table(players[0], game, rules or {})
    for position, user in enumerate(players[:registry.game(game).seats]):
        tables.take_seat(table.pk, user, position)
    return Table.objects.get(pk=table.pk)


def views(snapshot):
    """Every seat's view and a spectator's, without ``move_in``: the seconds left to the move's
    deadline, counted from the moment each view is made (the deadline itself is compared)."""
    return [{key: value for key, value in snapshot.view(seat).items() if key != "move_in"}
            for seat in (*range(registry.game(snapshot.game).seats), None)]


def views_from_database(table_id):
    return views(build_snapshot(Table.objects.get(pk=table_id)))


def next_action(table_id, rng):
    """(user's seat, action) for whoever is to act now, read from the database."""
    table = Table.objects.get(pk=table_id)
    state = tables.current_state(table)
    return state.to_act, state.random_action(rng), table.version


def test_a_play_on_a_version_the_process_holds_is_one_statement(players):
    table = full_table(players)
    cached_snapshot(table.pk)  # a socket of this process was sent this version
    seat, action, version = next_action(table.pk, random.Random(1))
    with CaptureQueriesContext(connection) as queries:
        outcome = tables.play(table.pk, players[seat], action, version)
    assert outcome.version == version + 1
    assert len(queries) == 1 and queries[0]["sql"].startswith("UPDATE")
    held = peek_snapshot(table.pk, version + 1)
    assert held is not None and views(held) == views_from_database(table.pk)


@pytest.mark.parametrize("ways", ["012", "1", "2"])
@pytest.mark.parametrize("game", registry.game_ids())
def test_every_version_held_is_the_database_version(players, game, ways):
    """Two whole hands played through the locked path (0), on versions the process holds (1),
    and by another process, this one learning each version from the table row alone (2), in
    turn or always the same way: every seat's view always equals a fresh read of the
    database."""
    # A Bid Whist match that cannot end within two hands.
    rules = {"game_target": 1000, "boston": "normal"} if game == "bid_whist" else {}
    table = full_table(players, game, rules)
    rng = random.Random(7)
    for step in range(400):
        table = Table.objects.get(pk=table.pk)
        if table.hands.count() >= 2:
            break
        seat, action, version = next_action(table.pk, rng)
        way = int(ways[step % len(ways)])
        if way == 0:
            forget_snapshots()  # a process that holds nothing: the locked path
        else:
            cached_snapshot(table.pk)
        tables.play(table.pk, players[seat], action, version)
        if way == 2:
            # Another process played: this one holds only the version before.
            before = peek_snapshot(table.pk, version)
            forget_snapshots()
            if before is not None:
                remember_snapshot(before)
        held = cached_snapshot(table.pk, version + 1)
        assert held.version == version + 1
        assert views(held) == views_from_database(table.pk), f"step {step}: {action}"
    else:
        raise AssertionError("two hands were never finished")
    assert table.hands.count() == 2


def test_an_action_on_a_version_another_process_moved_past_is_refused(players):
    table = full_table(players)
    held = cached_snapshot(table.pk)
    seat, action, version = next_action(table.pk, random.Random(2))
    other = next(a for a in held.state.legal_actions() if a != action)
    forget_snapshots()
    tables.play(table.pk, players[seat], action, version)  # in "another process"
    remember_snapshot(held)  # this process still holds the version before
    with pytest.raises(tables.TableError, match="moved on"):
        tables.play(table.pk, players[seat], other, version)
    # The first click sent again is recognised, not applied twice.
    assert tables.play(table.pk, players[seat], action, version).repeated
    table.refresh_from_db()
    assert table.version == version + 1
    assert table.current["actions"] == [{"seat": seat, "action": action}]
    assert views(cached_snapshot(table.pk)) == views_from_database(table.pk)


def test_a_play_whose_transaction_rolls_back_is_never_held(players):
    table = full_table(players)
    cached_snapshot(table.pk)
    seat, action, version = next_action(table.pk, random.Random(3))
    with pytest.raises(RuntimeError), transaction.atomic():
        tables.play(table.pk, players[seat], action, version)
        raise RuntimeError("the caller's transaction fails")
    assert peek_snapshot(table.pk, version + 1) is None
    table.refresh_from_db()
    assert table.version == version and table.current["actions"] == []
    # and the same action can still be played
    assert tables.play(table.pk, players[seat], action, version).version == version + 1


def test_a_refused_action_on_a_held_version_changes_nothing(players):
    table = full_table(players)
    held = cached_snapshot(table.pk)
    seat, action, version = next_action(table.pk, random.Random(4))
    with pytest.raises(tables.TableError, match="not your turn"):
        tables.play(table.pk, players[(seat + 1) % 4], action, version)
    with pytest.raises(tables.TableError):
        tables.play(table.pk, players[seat], "bid 9 nonsense", version)
    table.refresh_from_db()
    assert table.version == version and table.current["actions"] == []
    assert peek_snapshot(table.pk, version) is held and held.state.to_act == seat


def test_editing_seats_in_the_admin_is_a_new_version(players, admin_client):
    table = full_table(players)
    before = cached_snapshot(table.pk)
    url = f"/admin/games/table/{table.pk}/change/"
    page = admin_client.get(url)
    assert page.status_code == 200
    form = page.context["adminform"].form
    data = {name: form[name].value() for name in ("game", "rules", "created_by", "grace_seconds",
                                                  "trick_pause_ms", "move_seconds")}
    data.update({"rules": "{}", "is_private": "", "deals_limit": "", "status": table.status,
                 "seats-TOTAL_FORMS": "4", "seats-INITIAL_FORMS": "4",
                 "seats-MIN_NUM_FORMS": "0", "seats-MAX_NUM_FORMS": "1000"})
    for index, seat in enumerate(table.seats.order_by("position")):
        data.update({f"seats-{index}-id": seat.pk, f"seats-{index}-table": table.pk,
                     f"seats-{index}-position": seat.position,
                     f"seats-{index}-user": seat.user_id or "",
                     f"seats-{index}-computer_level": "strong" if index == 3 else "",
                     f"seats-{index}-away_since_0": "", f"seats-{index}-away_since_1": ""})
    response = admin_client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    table.refresh_from_db()
    assert table.version == before.version + 1
    now = cached_snapshot(table.pk)
    assert now.seats[3].computer_level == "strong"
    assert views(now) == views_from_database(table.pk)
