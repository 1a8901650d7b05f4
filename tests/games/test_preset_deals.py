"""A table given its deals (``Table.preset_deals``: an event's, docs/events.md) deals them in
order instead of shuffling: the same cards in the same seats, the same dealer, and it stops
when they are played.  games never imports events: the deals are plain hand records."""

import random

import pytest

from games import registry, tables
from games.models import Table
from games.rules import game_module
from games.seating import open_preset_table
from games.versions import TableError

pytestmark = pytest.mark.django_db


def preset(game, count, seed=7):
    """``count`` deals as an event stores them: deal ``i`` dealt by seat ``i mod SEATS``."""
    module = game_module(game)
    rules = module.Rules.from_overrides({})
    rng = random.Random(seed)
    deals = []
    for index in range(count):
        dealt = module.deal(rules, index % module.SEATS, rng)
        deal = {"dealer": index % module.SEATS, "hands": [list(h) for h in dealt.hands]}
        if dealt.kitty is not None:
            deal["kitty"] = list(dealt.kitty)
        deals.append(deal)
    return deals


def people(django_user_model, count):
    return [django_user_model.objects.create_user(f"p{i}", f"p{i}@example.org", "pw-long-enough")
            for i in range(count)]


def play_hand(table, players, rng):
    """The seated people play random legal actions until the hand in play is over."""
    number = table.hands.count()
    for _ in range(500):
        table.refresh_from_db()
        if table.hands.count() > number or table.status == Table.Status.FINISHED:
            return
        state = tables.current_state(table)
        tables.play(table.pk, players[state.to_act], state.random_action(rng), table.version)
    raise AssertionError("the hand never ended")


@pytest.mark.parametrize("game", registry.game_ids())
def test_a_table_deals_its_preset_deals_in_order_then_stops(game, django_user_model):
    seats = registry.game(game).seats
    players = people(django_user_model, seats)
    deals = preset(game, 2)
    table = open_preset_table(game, {}, deals, players)
    assert table.status == Table.Status.PLAYING
    assert table.created_by_id is None and table.is_private
    rng = random.Random(1)
    for index, deal in enumerate(deals):
        table.refresh_from_db()
        assert table.current["hands"] == deal["hands"]
        assert table.current["dealer"] == deal["dealer"]
        assert table.current.get("kitty") == deal.get("kitty")
        play_hand(table, players, rng)
        table.refresh_from_db()
        assert table.hands.count() == index + 1
    assert table.status == Table.Status.FINISHED and table.current is None
    assert [hand.record["hands"] for hand in table.hands.all()] == [d["hands"] for d in deals]


def test_computer_players_fill_the_seats_without_a_person(django_user_model):
    (ana,) = people(django_user_model, 1)
    table = open_preset_table("bid_whist", {}, preset("bid_whist", 1), [None, ana, None, None],
                              level="easy")
    assert [(s.user_id, s.computer_level) for s in table.seats.all()] == [
        (None, "easy"), (ana.pk, ""), (None, "easy"), (None, "easy")]
    assert table.status == Table.Status.PLAYING


def test_a_preset_table_is_refused_without_deals_or_with_the_wrong_seats(django_user_model):
    (ana,) = people(django_user_model, 1)
    with pytest.raises(TableError):
        open_preset_table("bid_whist", {}, [], [ana, None, None, None])
    with pytest.raises(TableError):
        open_preset_table("bid_whist", {}, preset("bid_whist", 1), [ana, None, None])
    assert not Table.objects.exists()


def test_a_shuffled_table_is_not_preset(django_user_model):
    (ana,) = people(django_user_model, 1)
    table = tables.play_now(ana, "bid_whist")
    assert Table.objects.get(pk=table.pk).preset_deals is None
