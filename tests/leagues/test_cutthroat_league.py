"""A Cutthroat Bid Whist league: tables of three in the draw, paper entry of matches to 30
each for themselves, individual standings across evenings."""

import datetime
import random

import pytest

from leagues.draw import draw_evening
from leagues.models import Attendance, Evening, EveningTable, League, Season
from leagues.standings import season_standings

from .conftest import add_members, make_solo_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def cutthroat_season(club):
    league = League.objects.create(club=club, name="Three of us", game="cutthroat_bid_whist",
                                   points_for_win=3, points_for_loss=1)
    return Season.objects.create(league=league, name="Winter")


@pytest.fixture
def players(club, organiser, member):
    return [organiser, member, *add_members(club, ["Cleo"])]


@pytest.fixture
def cutthroat_table(cutthroat_season, players):
    evening = Evening.objects.create(season=cutthroat_season, date=datetime.date(2030, 3, 4))
    return make_solo_table(evening, players)


def url(table, suffix=""):
    return f"/clubs/{table.evening.season.league.club.slug}/tables/{table.pk}/{suffix}"


def line(declarer, bid, mode, tricks, number):
    return {"declarer": str(declarer), "bid": str(bid), "mode": mode, "tricks": str(tricks),
            "number": str(number)}


def test_the_draw_makes_tables_of_three(cutthroat_season, club):
    people = add_members(club, [f"P{i}" for i in range(7)])
    evening = Evening.objects.create(season=cutthroat_season, date=datetime.date(2030, 3, 1))
    for person in people:
        Attendance.objects.create(evening=evening, member=person)
    tables, out = draw_evening(evening, random.Random(1))
    assert tables == 2 and len(out) == 1
    assert [t.seats.count() for t in evening.tables.all()] == [3, 3]


def test_two_coming_are_too_few_for_a_table_of_three(cutthroat_season, club):
    evening = Evening.objects.create(season=cutthroat_season, date=datetime.date(2030, 3, 1))
    for person in add_members(club, ["A", "B"]):
        Attendance.objects.create(evening=evening, member=person)
    with pytest.raises(Exception, match="At least 3 members"):
        draw_evening(evening, random.Random(1))
    assert not evening.tables.exists()


def test_an_organiser_adds_a_table_of_three_by_hand(as_organiser, cutthroat_season, players):
    evening = Evening.objects.create(season=cutthroat_season, date=datetime.date(2030, 3, 1))
    page = as_organiser.get(f"/clubs/{evening.season.league.club.slug}/evenings/{evening.pk}"
                            "/tables/new/").content.decode()
    assert 'name="seat_2"' in page and 'name="seat_3"' not in page
    as_organiser.post(f"/clubs/{evening.season.league.club.slug}/evenings/{evening.pk}"
                      "/tables/new/", {f"seat_{i}": p.pk for i, p in enumerate(players)})
    assert [s.member for s in evening.tables.get().seats.order_by("seat")] == players


def test_deals_score_each_player_and_the_first_to_30_wins(as_organiser, cutthroat_table,
                                                          players):
    page = as_organiser.get(url(cutthroat_table)).content.decode()
    assert 'name="tricks"' in page and "Cleo" in page
    # Seat 0 bids 9 notrump and takes 10 (discards included): 10 doubled = 20.
    as_organiser.post(url(cutthroat_table, "deals/"), line(0, 9, "notrump", 10, 1))
    # Seat 1 bids 10 uptown, takes 8: set, minus 10.
    as_organiser.post(url(cutthroat_table, "deals/"), line(1, 10, "uptown", 8, 2))
    cutthroat_table.refresh_from_db()
    assert [s.total for s in cutthroat_table.seats.order_by("seat")] == [20, -10, 0]
    assert cutthroat_table.winner is None
    response = as_organiser.post(url(cutthroat_table, "deals/"), line(0, 9, "uptown", 12, 3),
                                 follow=True)
    assert "This hand ends the match. Enter it?" in response.content.decode()
    assert cutthroat_table.deals.count() == 2
    response = as_organiser.post(url(cutthroat_table, "deals/"),
                                 {**line(0, 9, "uptown", 12, 3), "ends_the_match": "1"},
                                 follow=True)
    assert f"Match over: {players[0].name} won." in response.content.decode()
    cutthroat_table.refresh_from_db()
    assert cutthroat_table.winner == 0
    response = as_organiser.post(url(cutthroat_table, "deals/"), line(1, 9, "uptown", 9, 4),
                                 follow=True)
    assert "The match is over" in response.content.decode()
    assert cutthroat_table.deals.count() == 3


def test_a_bid_below_the_house_minimum_is_refused_in_words(as_organiser, cutthroat_table):
    lowest = cutthroat_table.league.engine_rules().min_bid
    response = as_organiser.post(url(cutthroat_table, "deals/"),
                                 line(2, lowest - 1, "uptown", 7, 1), follow=True)
    assert f"A bid is from {lowest} to 18 tricks" in response.content.decode()
    assert not cutthroat_table.deals.exists()


def test_totals_of_a_match_need_a_winner(cutthroat_table, organiser_user):
    from leagues.scoring import EntryError

    with pytest.raises(EntryError, match="Nobody has reached 30"):
        cutthroat_table.set_totals([20, 10, 5], organiser_user)
    with pytest.raises(EntryError, match="share the highest"):
        cutthroat_table.set_totals([31, 31, 5], organiser_user)
    cutthroat_table.set_totals([12, 34, -6], organiser_user)
    cutthroat_table.refresh_from_db()
    assert cutthroat_table.winner == 1


def test_standings_count_matches_won_across_evenings(cutthroat_season, players, organiser_user):
    for day, scores in enumerate(([31, 10, 4], [5, 33, 12], [30, 0, 0]), start=1):
        evening = Evening.objects.create(season=cutthroat_season,
                                         date=datetime.date(2030, 4, day))
        make_solo_table(evening, players).set_totals(scores, organiser_user)
    unfinished = make_solo_table(
        Evening.objects.create(season=cutthroat_season, date=datetime.date(2030, 5, 1)),
        players)
    assert unfinished.entry == EveningTable.Entry.NONE  # no result: does not count
    rows = season_standings(cutthroat_season)
    first, second, third = (p.name for p in players)
    assert [(r.name, r.played, r.won, r.league_points, r.points) for r in rows] == [
        (first, 3, 2, 7, 66), (second, 3, 1, 5, 43), (third, 3, 0, 3, 16)]
    assert [r.position for r in rows] == [1, 2, 3]
