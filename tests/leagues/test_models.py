"""Result entry on the models: scored by the engines, refused cleanly, audited."""

from decimal import Decimal

import pytest

from leagues.models import EntryError, ResultChange

from .conftest import bid, solo

pytestmark = pytest.mark.django_db


def totals(table):
    return [s.total for s in table.seats.order_by("seat")]


def test_a_solo_deal_is_scored_by_the_engine_and_totals_follow(solo_table, organiser_user):
    solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    solo_table.add_deal(solo("prop_and_cop", 1, 7, partner=3), organiser_user)
    # Solo made: +9 / -3 each; prop and cop failed (7 < 8): partners -2 each, defenders +2.
    assert totals(solo_table) == [Decimal(11), Decimal(-5), Decimal(-1), Decimal(-5)]


def test_a_league_stake_multiplier_applies_to_paper_deals(solo_table, organiser_user):
    league = solo_table.league
    league.rules = {"stake_multiplier": 0.5}
    league.save()
    solo_table.add_deal(solo("misere", 2, 0), organiser_user)
    assert totals(solo_table) == [Decimal("-1.5"), Decimal("-1.5"), Decimal("4.5"),
                                  Decimal("-1.5")]


def test_an_impossible_deal_is_refused_and_changes_nothing(solo_table, organiser_user):
    with pytest.raises(EntryError) as refused:
        solo_table.add_deal(solo("solo", 0, 5, partner=2), organiser_user)
    assert "Only prop and cop has a partner." in str(refused.value.message)
    assert not solo_table.deals.exists()
    assert not ResultChange.objects.exists()
    assert totals(solo_table) == [0, 0, 0, 0]


def test_every_change_is_kept_with_before_and_after(solo_table, organiser_user):
    solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    solo_table.change_deal(1, solo("solo", 0, 3), organiser_user)
    solo_table.change_deal(1, None, organiser_user)
    actions = list(ResultChange.objects.order_by("pk").values_list("action", flat=True))
    assert actions == ["add", "edit", "delete"]
    edit = ResultChange.objects.get(action="edit")
    assert edit.changed_by == organiser_user
    assert edit.before["table"]["totals"][0] == "9.000000"
    assert edit.after["table"]["totals"][0] == "-9.000000"
    assert totals(solo_table) == [0, 0, 0, 0]


def test_totals_must_sum_to_zero(solo_table, organiser_user):
    with pytest.raises(EntryError) as refused:
        solo_table.set_totals([10, -3, -3, -3], organiser_user)
    assert "add up to zero" in str(refused.value.message)
    solo_table.set_totals([9, -3, -3, -3], organiser_user)
    assert totals(solo_table) == [9, -3, -3, -3]


def test_bid_whist_match_ends_by_itself_at_the_target(bid_table, organiser_user):
    bid_table.add_deal(bid(0, 4, "uptown", 11), organiser_user)  # made 5
    bid_table.add_deal(bid(0, 3, "downtown", 9), organiser_user)  # made 3 -> 8
    bid_table.refresh_from_db()
    assert (bid_table.score_0, bid_table.score_1, bid_table.winner) == (8, 0, 0)
    with pytest.raises(EntryError) as refused:
        bid_table.add_deal(bid(1, 3, "uptown", 9), organiser_user)
    assert "match is over" in str(refused.value.message)
    assert bid_table.deals.count() == 2


def test_a_boston_wins_the_match_at_once(bid_table, organiser_user):
    bid_table.add_deal(bid(1, 5, "uptown", 13), organiser_user)
    bid_table.refresh_from_db()
    assert bid_table.winner == 1
    assert bid_table.bostons_1 == 1


def test_a_revoke_moves_three_books(bid_table, organiser_user):
    # 9 books made a 3 bid, but the declarers revoked: 6 books, set.
    bid_table.add_deal(bid(0, 3, "uptown", 9, revoke=0), organiser_user)
    bid_table.refresh_from_db()
    assert bid_table.score_0 == -3


def test_a_correction_that_ends_the_match_earlier_is_refused(bid_table, organiser_user):
    bid_table.add_deal(bid(0, 3, "uptown", 9), organiser_user)
    bid_table.add_deal(bid(1, 3, "uptown", 9), organiser_user)
    with pytest.raises(EntryError):
        bid_table.change_deal(1, bid(0, 7, "notrump", 13), organiser_user)
    assert bid_table.deals.get(number=1).facts["bid"] == 3


def test_bid_whist_totals_need_a_finished_match(bid_table, organiser_user):
    with pytest.raises(EntryError):
        bid_table.set_totals([3, 2], organiser_user)
    bid_table.set_totals([7, 2], organiser_user)
    bid_table.refresh_from_db()
    assert bid_table.winner == 0


def test_house_rules_are_validated_by_the_engine(solo_league):
    from django.core.exceptions import ValidationError

    solo_league.rules = {"no_such_rule": True}
    with pytest.raises(ValidationError) as refused:
        solo_league.full_clean()
    assert "Unknown house rule" in str(refused.value)


def test_belgian_whist_deals_are_scored_by_the_engine(club, organiser_user):
    import datetime

    from leagues.models import Evening, League, Season

    from .conftest import add_members, make_solo_table

    league = League.objects.create(club=club, name="Kleurenwiezen", game="belgian_whist")
    season = Season.objects.create(league=league, name="S1")
    evening = Evening.objects.create(season=season, date=datetime.date(2030, 3, 1))
    table = make_solo_table(evening, add_members(club, ["A", "B", "C", "D"]))
    # Belgian points table: solo 6 taking 7 tricks -> declarer +15, each opponent -5.
    table.add_deal({"contract": "solo", "level": 6, "declarer": 1, "partner": None,
                    "tricks": 7}, organiser_user)
    # Emballage 12 taking 10 -> each declaring player -26.
    table.add_deal({"contract": "emballage", "level": 12, "declarer": 0, "partner": 2,
                    "tricks": 10}, organiser_user)
    assert totals(table) == [-31, 41, -31, 21]


def test_many_deals_at_once_are_all_scored_or_none_kept(solo_table, organiser_user):
    with pytest.raises(EntryError):
        solo_table.add_deals([solo("solo", 0, 6), solo("solo", 9, 6)], organiser_user)
    assert not solo_table.deals.exists()
    solo_table.add_deals([solo("solo", 0, 6), solo("solo", 1, 6)], organiser_user)
    assert totals(solo_table) == [6, 6, -6, -6]
    assert ResultChange.objects.get().action == "import"


def test_a_table_has_no_seat_past_the_fifth(solo_table, organiser_user):
    from django.db import IntegrityError, transaction

    from leagues.models import Member, TableSeat

    extra = Member.objects.create(club=solo_table.league.club, name="Sixth")
    with pytest.raises(IntegrityError), transaction.atomic():
        TableSeat.objects.create(table=solo_table, seat=5, member=extra)
    TableSeat.objects.create(table=solo_table, seat=4, member=extra)  # a fifth seat is one
