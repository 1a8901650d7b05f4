"""Table actions: seating, computer players, one transaction per action, refusals that change
nothing."""

import random

import pytest

from games import dealing, registry, tables
from games.models import Hand, Table
from games.rules.records import replay_hand
from games.snapshots import table_view

# Real transactions: broadcasts and computer players run on commit, as in production.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("computer_players_act_at_once")]


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("pat", "pat@example.org", "pw-long-enough")


def computer_table(user, game="bid_whist", **kwargs):
    table = tables.create_table(user, game, {}, **kwargs)
    tables.take_seat(table.pk, user, 0)
    for position in range(1, registry.game(game).seats):
        tables.add_computer_player(table.pk, user, position, "normal")
    return Table.objects.get(pk=table.pk)


def play_until_hands(table, user, hands, seed=1):
    """The person plays random legal actions; the computer players answer at once."""
    rng = random.Random(seed)
    for _ in range(5000):
        table.refresh_from_db()
        if table.hands.count() >= hands or table.status == Table.Status.FINISHED:
            return table
        view = table_view(table, 0)["hand"]
        assert view["to_act"] == 0, "computer players must have played up to the person's turn"
        state = tables.current_state(table)
        action = state.random_action(rng)
        tables.play(table.pk, user, action, table.version)
    raise AssertionError("the table never finished a hand")


@pytest.mark.parametrize("game", [each.id for each in registry.all_games()])
def test_a_person_and_computer_players_play_a_whole_hand(player, game):
    table = computer_table(player, game)
    assert table.status == Table.Status.PLAYING
    assert table.seats.count() == registry.game(game).seats
    table = play_until_hands(table, player, 1)
    hand = Hand.objects.filter(table=table).first()
    assert hand is not None and hand.result["complete"] is True
    # the stored record replays to the stored result
    assert replay_hand(hand.record).result() == hand.result


def test_an_illegal_action_is_refused_and_changes_nothing(player):
    table = computer_table(player)
    table = play_until_hands(table, player, 0)  # computer players play up to the person's turn
    before = (table.version, table.current)
    with pytest.raises(tables.TableError):
        tables.play(table.pk, player, "play ZZ", table.version)
    table.refresh_from_db()
    assert (table.version, table.current) == before


def test_a_stale_action_is_refused(player):
    table = computer_table(player)
    state = tables.current_state(table)
    while state.to_act != 0:
        table.refresh_from_db()
        state = tables.current_state(table)
    action = state.legal_actions()[0]
    with pytest.raises(tables.TableError, match="moved on"):
        tables.play(table.pk, player, action, table.version - 1)


def test_a_repeated_click_is_recognised_and_applied_once(player):
    table = computer_table(player)
    state = tables.current_state(table)
    action = state.random_action(random.Random(3))
    version = table.version
    first = tables.play(table.pk, player, action, version)
    again = tables.play(table.pk, player, action, version)
    assert not first.repeated and again.repeated
    table.refresh_from_db()
    mine = [a for a in table.current["actions"] if a["seat"] == 0]
    assert len(mine) == 1 or table.hands.exists()


def test_another_action_on_an_old_version_is_refused(player):
    table = computer_table(player)
    state = tables.current_state(table)
    legal = state.legal_actions()
    tables.play(table.pk, player, legal[0], table.version)
    with pytest.raises(tables.TableError, match="moved on"):
        tables.play(table.pk, player, legal[-1], table.version)


def test_someone_not_seated_cannot_act(player, django_user_model):
    table = computer_table(player)
    other = django_user_model.objects.create_user("olga", "o@example.org", "pw-long-enough")
    with pytest.raises(tables.TableError, match="not playing"):
        tables.play(table.pk, other, "pass", table.version)


def test_a_taken_seat_cannot_be_taken_again(player, django_user_model):
    table = tables.create_table(player, "solo_whist", {})
    tables.take_seat(table.pk, player, 0)
    other = django_user_model.objects.create_user("olga", "o@example.org", "pw-long-enough")
    with pytest.raises(tables.TableError, match="taken"):
        tables.take_seat(table.pk, other, 0)


def test_bad_house_rules_are_refused_when_creating(player):
    with pytest.raises(tables.TableError, match="min_bid"):
        tables.create_table(player, "bid_whist", {"min_bid": 99})
    assert not Table.objects.exists()


def test_a_solo_session_ends_after_its_number_of_deals(player):
    table = computer_table(player, "solo_whist", deals_limit=2)
    # Played to its end: a deal all four passed is dealt again and is not one of the two (it
    # made this test flaky when it stopped after two hands of which one was such a redeal).
    table = play_until_hands(table, player, 1000)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert sum(not hand.result.get("redeal") for hand in table.hands.all()) == 2
    assert sum(table.summary["balances"]) == 0


@pytest.mark.parametrize("game", ["solo_whist", "belgian_whist"])
def test_a_redeal_is_not_a_deal_played_for_the_deals_limit(django_user_model, game,
                                                             monkeypatch, client):
    """Two all-pass redeals, then a hand played: a table of three deals goes on."""
    # Seeded deals: a random Belgian deal may hold a trou, which its holder may not pass, so
    # three hands could be played before two redeals and the table end (a flaky failure).
    seeds = iter(range(1000))
    monkeypatch.setattr(dealing.secrets, "SystemRandom", lambda: random.Random(next(seeds)))
    people = [django_user_model.objects.create_user(f"p{i}", f"p{i}@example.org",
                                                    "pw-long-enough") for i in range(4)]
    table = tables.create_table(people[0], game, {}, deals_limit=3)
    for position, person in enumerate(people):
        tables.take_seat(table.pk, person, position)
    rng = random.Random(3)

    def act(choose):
        table.refresh_from_db()
        state = tables.current_state(table)
        tables.play(table.pk, people[state.to_act], choose(state), table.version)

    def count(redeal: bool) -> int:
        return sum(bool(h.result.get("redeal")) == redeal for h in table.hands.all())

    def prefer_pass(state):
        legal = state.legal_actions()  # a trou (three aces) cannot be passed by its holder
        return "pass" if "pass" in legal else legal[0]

    def prefer_contract(state):
        return next((a for a in state.legal_actions() if a != "pass"), state.random_action(rng))

    while count(redeal=True) < 2:
        act(prefer_pass)
    while count(redeal=False) < 1:
        act(prefer_contract)
    table.refresh_from_db()
    assert count(redeal=True) >= 2 and table.hands.count() >= 3
    assert table.status == Table.Status.PLAYING, "one deal of three played, two redeals"
    # and the table says one hand played, not three
    shown = table_view(table, 0)
    assert shown["deals_played"] == 1 and shown["hands_played"] == table.hands.count()
    client.force_login(people[0])
    page = client.get(f"/tables/{table.pk}/state/").content.decode()
    assert "1 hand played" in page
    while Table.objects.get(pk=table.pk).status == Table.Status.PLAYING:
        act(prefer_contract)
    assert count(redeal=False) == 3


def test_belgian_whists_trou_round_is_made_for_everyone_at_the_deal(django_user_model,
                                                                      monkeypatch):
    """Nobody chooses in the trou round (three aces must announce it, anyone else passes):
    the table makes it at once, so no one is asked to tap a lone "No trou"."""
    seeds = iter(range(1000))
    monkeypatch.setattr(dealing.secrets, "SystemRandom", lambda: random.Random(next(seeds)))
    people = [django_user_model.objects.create_user(f"p{i}", f"p{i}@example.org",
                                                    "pw-long-enough") for i in range(4)]
    trous = 0
    for _ in range(40):
        table = tables.create_table(people[0], "belgian_whist", {})
        for position, person in enumerate(people):
            tables.take_seat(table.pk, person, position)
        table.refresh_from_db()
        state = tables.current_state(table)
        assert state.phase != "trou"
        words = [a["action"] for a in table.current["actions"]]
        assert words and set(words) <= {"trou", "passe_trou"}
        if "trou" in words:
            trous += 1
            holder = table.current["actions"][-1]["seat"]
            aces = sum(card[0] == "A" for card in table.current["hands"][holder])
            assert words[-1] == "trou" and aces == 3
        else:
            assert len(words) == 4
        # and a person's first click is a real call, made on the table's version
        seat = state.to_act
        tables.play(table.pk, people[seat], state.legal_actions()[0], table.version)
    assert trous, "forty seeded deals hold a trou"
