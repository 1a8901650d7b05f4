"""Five-seat tables (Solo, Belgian Whist; ``League.odd_numbers``): the draw seats those a table
of four leaves over at tables of five; at a five-seat table the dealer sits out each deal,
scores nothing for it, and the four others' deal is scored as at a table of four."""

import datetime
import html
import random
import re
from collections import Counter
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import solo_whist
from leagues import draw, movement, scoring
from leagues.models import (
    ClubChange,
    EntryError,
    Evening,
    League,
    ResultChange,
    Season,
    TableSeat,
)

from .conftest import add_members, league_form, make_solo_table, solo

pytestmark = pytest.mark.django_db

FIVE = League.OddNumbers.FIVE_SEATS


def text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def url(table, suffix=""):
    return f"/clubs/{table.evening.season.league.club.slug}/tables/{table.pk}/{suffix}"


# -- the sizes of the tables ---------------------------------------------------------------------


@pytest.mark.parametrize("coming,sizes", [
    (4, [4]), (5, [5]), (8, [4, 4]), (9, [4, 5]), (10, [5, 5]), (12, [4, 4, 4]),
    (13, [4, 4, 5]), (14, [4, 5, 5]), (15, [5, 5, 5]), (16, [4, 4, 4, 4]),
    # what tables of four and five cannot all seat: the most they can, the rest sit out
    (3, []), (6, [5]), (7, [5]), (11, [5, 5])])
def test_five_seat_tables_seat_everyone_the_numbers_allow(coming, sizes):
    assert movement.table_sizes(coming, 4, bigger=True) == sizes
    assert movement.table_sizes(coming, 4) == [4] * (coming // 4)


@settings(max_examples=60, deadline=None)
@given(coming=st.integers(0, 80), seed=st.integers(0, 10**6))
def test_the_draws_tables_of_four_and_five_seat_everyone_once(coming, seed):
    sizes = movement.table_sizes(coming, 4, bigger=True)
    assert all(size in (4, 5) for size in sizes)
    seated_count = sum(sizes)
    assert seated_count <= coming
    # Everyone is seated whenever tables of four and five can hold them all (12 and more, or
    # 4, 5, 8, 9, 10); otherwise as many as they can.
    if coming >= 12 or coming in (0, 4, 5, 8, 9, 10):
        assert seated_count == coming
    assert coming - seated_count <= 3
    # as few tables of five as that needs
    assert sizes.count(5) == seated_count % 4
    rng = random.Random(seed)
    players = list(range(coming))
    out = movement.choose_sit_outs(players, 4, Counter(), Counter(), rng,
                                   count=coming - seated_count)
    seated = [p for p in players if p not in out]
    tables = movement.seat_tables(seated, 4, Counter(), rng, sizes=sizes)
    at_tables = [p for table in tables for p in table]
    assert len(at_tables) == len(set(at_tables))  # nobody twice
    assert sorted(at_tables + out) == players
    assert sorted(len(t) for t in tables) == sorted(sizes)


# -- the draw ------------------------------------------------------------------------------------


@pytest.fixture
def five_league(club):
    return League.objects.create(club=club, name="Tuesday Solo", game="solo_whist",
                                 odd_numbers=FIVE)


@pytest.fixture
def five_season(five_league):
    return Season.objects.create(league=five_league, name="Winter")


def evening_with(season, people, day=7, rounds=1):
    evening = Evening.objects.create(season=season, date=datetime.date(2030, 1, day),
                                     rounds=rounds)
    for member in people:
        evening.set_attendance(member, True)
    return evening


def table_sizes(evening, round_number=1):
    return sorted(t.seats.count() for t in evening.tables.filter(round=round_number))


def seated(evening, round_number=1):
    return list(TableSeat.objects.filter(table__evening=evening, table__round=round_number)
                .values_list("member_id", flat=True))


@pytest.mark.parametrize("coming,sizes", [(5, [5]), (9, [4, 5]), (10, [5, 5]),
                                          (13, [4, 4, 5]), (14, [4, 5, 5])])
def test_the_draw_makes_five_seat_tables_instead_of_sit_outs(five_season, club, coming, sizes):
    people = add_members(club, [f"P{i}" for i in range(coming)])
    evening = evening_with(five_season, people)
    tables, sitting_out = draw.draw_evening(evening, random.Random(coming))
    assert tables == len(sizes) and sitting_out == []
    assert table_sizes(evening) == sizes
    assert sorted(seated(evening)) == sorted(m.pk for m in people)  # each once
    assert draw.five_seat_tables(evening) == sizes.count(5)


def test_what_five_seat_tables_cannot_seat_sits_out(five_season, club):
    people = add_members(club, [f"P{i}" for i in range(7)])
    evening = evening_with(five_season, people)
    tables, sitting_out = draw.draw_evening(evening, random.Random(1))
    assert tables == 1 and len(sitting_out) == 2
    assert table_sizes(evening) == [5]
    assert {m.pk for m in sitting_out}.isdisjoint(seated(evening))


def test_a_league_that_sits_out_still_does(solo_season, club):
    people = add_members(club, [f"P{i}" for i in range(9)])
    evening = evening_with(solo_season, people)
    tables, sitting_out = draw.draw_evening(evening, random.Random(1))
    assert tables == 2 and len(sitting_out) == 1
    assert table_sizes(evening) == [4, 4]


def test_each_round_of_an_evening_in_rounds_has_its_five_seat_tables(five_season, club,
                                                                    organiser_user):
    people = add_members(club, [f"P{i}" for i in range(9)])
    evening = evening_with(five_season, people, rounds=2)
    for number in (1, 2):
        tables, sitting_out = draw.draw_round(evening, organiser_user, number,
                                              random.Random(number))
        assert tables == 2 and sitting_out == []
        assert table_sizes(evening, number) == [4, 5]
        assert sorted(seated(evening, number)) == sorted(m.pk for m in people)
    line = ClubChange.objects.filter(action="round_draw").latest("pk")
    assert sorted(len(t) for t in line.after["tables"]) == [4, 5]


def test_the_organiser_is_told_of_the_tables_of_five(as_organiser, five_season, club):
    people = add_members(club, [f"P{i}" for i in range(9)])
    evening = evening_with(five_season, people)
    response = as_organiser.post(
        f"/clubs/{club.slug}/evenings/{evening.pk}/draw/", follow=True)
    page = text(response.content.decode())
    assert "1 table of five: the dealer sits out each deal." in page


# -- entry at a five-seat table ------------------------------------------------------------------


@pytest.fixture
def five_table(five_season, club):
    evening = evening_with(five_season, [])
    return make_solo_table(evening, add_members(club, ["Ana", "Bob", "Carla", "Dan", "Eva"]))


def five_deal(sits_out, contract="solo", declarer="1", tricks="6", number="1", **more):
    return {"sits_out": str(sits_out), "contract": contract, "declarer": declarer,
            "partner": "", "tricks": tricks, "number": number, **more}


def totals(table):
    return [s.total for s in table.seats.order_by("seat")]


def test_the_four_who_play_are_scored_as_at_a_table_of_four(as_organiser, five_table):
    # Ana deals and sits out; Bob, Carla, Dan and Eva play: Bob's solo made.
    response = as_organiser.post(url(five_table, "deals/"), five_deal(0), follow=True)
    assert "Deal 1 entered." in response.content.decode()
    four = solo_whist.score_hand(solo_whist.Rules(), "solo", 0, None, [6, 0, 0, 0], None)
    assert totals(five_table) == [0, *four] == [0, 9, -3, -3, -3]
    deal = five_table.deals.get()
    assert deal.points == [0, 9, -3, -3, -3] and deal.declarer == 1
    assert deal.facts["sits_out"] == 0


def test_a_declarer_after_the_sitter_keeps_their_seat(five_table, organiser_user):
    # Carla sits out; Eva (seat 4) declares a misère and loses it.
    five_table.add_deal({**solo("misere", 4, 1), "sits_out": 2}, organiser_user)
    four = solo_whist.score_hand(solo_whist.Rules(), "misere", 3, None, [0, 0, 0, 1], None)
    assert totals(five_table) == [four[0], four[1], 0, four[2], four[3]] == [3, 3, 0, 3, -9]


def test_the_sheet_shows_who_sits_out_and_its_totals_add_up(as_organiser, five_table,
                                                            organiser_user):
    for number in range(5):
        sitter = number  # the deal passes to the left: each sits out one deal in five
        declarer = (sitter + 1) % 5
        five_table.add_deal({**solo("solo", declarer, 6 if number % 2 else 3),
                             "sits_out": sitter}, organiser_user)
    response = as_organiser.get(url(five_table))
    sheet = response.context["sheet"]
    assert [row["sits_out"] for row in sheet["rows"]] == [0, 1, 2, 3, 4]
    assert sum(Decimal(t) for t in sheet["totals"]) == 0
    assert sum(totals(five_table)) == 0
    page = text(response.content.decode())
    assert page.count("sits out") >= 10  # the row's words and its marked cell
    assert "Bob: Solo, 3 tricks · Ana sits out" in page
    # The next deal's form offers Ana again (the deal after Eva's).
    form = response.context["form"]
    assert form["sits_out"].value() == 0
    assert [str(c[1]) for c in form.fields["sits_out"].choices] == [
        "Ana", "Bob", "Carla", "Dan", "Eva"]


def test_the_next_deals_sitter_follows_the_last_deal(as_organiser, five_table, organiser_user):
    assert as_organiser.get(url(five_table)).context["form"]["sits_out"].value() == 0
    five_table.add_deal({**solo("solo", 0, 6), "sits_out": 3}, organiser_user)
    assert as_organiser.get(url(five_table)).context["form"]["sits_out"].value() == 4


def test_the_sitter_cannot_play_and_a_refused_deal_changes_nothing(as_organiser, five_table):
    changes = ResultChange.objects.count()
    response = as_organiser.post(url(five_table, "deals/"), five_deal(1, declarer="1"),
                                 follow=True)
    page = text(response.content.decode())
    assert "Bob sits out this deal: choose one of the four who play it." in page
    response = as_organiser.post(url(five_table, "deals/"), five_deal(
        3, contract="prop_and_cop", partner="3"), follow=True)
    assert "Dan sits out this deal: choose one of the four who play it." in text(
        response.content.decode())
    no_sitter = {k: v for k, v in five_deal(0).items() if k != "sits_out"}
    response = as_organiser.post(url(five_table, "deals/"), no_sitter, follow=True)
    assert ("Say who sits out this deal: at a table of five, the dealer sits out each deal."
            in text(response.content.decode()))
    assert not five_table.deals.exists()
    assert ResultChange.objects.count() == changes
    assert totals(five_table) == [0] * 5


def test_the_table_refuses_deals_that_do_not_fit_its_seats(five_table, solo_table,
                                                           organiser_user):
    with pytest.raises(EntryError, match="At a table of five, say who sits out"):
        five_table.add_deal(solo("solo", 0, 6), organiser_user)
    with pytest.raises(EntryError, match="Only at a table of five"):
        solo_table.add_deal({**solo("solo", 0, 6), "sits_out": 1}, organiser_user)
    with pytest.raises(EntryError, match="cannot play in it"):
        five_table.add_deal({**solo("solo", 2, 6), "sits_out": 2}, organiser_user)
    with pytest.raises(EntryError, match="one of the five"):
        five_table.add_deal({**solo("solo", 2, 6), "sits_out": 5}, organiser_user)
    assert not five_table.deals.exists() and not solo_table.deals.exists()
    assert not ResultChange.objects.exists()


def test_bid_whist_is_not_played_at_tables_of_five():
    with pytest.raises(EntryError, match="not played at tables of five"):
        scoring.score_five_seat_deal("bid_whist", None, {"sits_out": 0})


def test_a_belgian_deal_at_a_five_seat_table(club, organiser_user):
    league = League.objects.create(club=club, name="Kleurenwiezen", game="belgian_whist",
                                   odd_numbers=FIVE)
    evening = evening_with(Season.objects.create(league=league, name="Winter"), [])
    table = make_solo_table(evening, add_members(club, ["Ana", "Bob", "Carla", "Dan", "Eva"]))
    four = scoring.score_deal("belgian_whist", league.engine_rules(), {
        "contract": "emballage", "level": 8, "declarer": 0, "partner": 2, "tricks": 9})
    # Dan sits out: Ana, Bob, Carla and Eva are the four; Ana and Eva play the emballage.
    table.add_deal({"contract": "emballage", "level": 8, "declarer": 0, "partner": 4,
                    "tricks": 9, "sits_out": 3}, organiser_user)
    points = four.points
    assert totals(table) == [points[0], points[1], points[3], 0, points[2]]
    assert sum(totals(table)) == 0


def test_corrections_and_deletions_as_at_any_table(as_organiser, five_table, organiser_user):
    five_table.add_deal({**solo("solo", 1, 6), "sits_out": 0}, organiser_user)
    five_table.add_deal({**solo("solo", 2, 6), "sits_out": 1}, organiser_user)
    response = as_organiser.post(url(five_table, "deals/2/"), {
        "sits_out": "1", "contract": "solo", "declarer": "3", "partner": "", "tricks": "2"},
        follow=True)
    assert "Deal 2 corrected." in response.content.decode()
    assert totals(five_table) == [3, 9, -3 + 3, -3 - 9, -3 + 3]
    deal = five_table.deals.get(number=2)
    as_organiser.post(url(five_table, "deals/2/delete/"), {"deal": str(deal.pk)})
    assert totals(five_table) == [0, 9, -3, -3, -3]
    history = text(as_organiser.get(url(five_table, "changes/")).content.decode())
    assert "Bob sits out" in history


def test_totals_only_for_five(as_organiser, five_table):
    response = as_organiser.post(url(five_table, "totals/"), {
        f"total_{i}": v for i, v in enumerate(["4", "-2", "0", "1", "-3"])}, follow=True)
    assert "Totals saved." in response.content.decode()
    assert totals(five_table) == [4, -2, 0, 1, -3]


def test_standings_count_the_five(as_organiser, five_table, five_season, organiser_user):
    five_table.add_deal({**solo("solo", 1, 6), "sits_out": 0}, organiser_user)
    five_table.add_deal({**solo("misere", 0, 0), "sits_out": 1}, organiser_user)
    season = Season.objects.select_related("league").get(pk=five_season.pk)
    rows = {row.name: row.total for row in season.league.score_kind.standings(season)}
    assert rows == {"Ana": 9, "Bob": 9, "Carla": -6, "Dan": -6, "Eva": -6}
    page = text(as_organiser.get(season.get_absolute_url()).content.decode())
    assert "Eva" in page
    csv = as_organiser.get(f"/clubs/{season.league.club.slug}/seasons/{season.pk}/"
                           "standings.csv").content.decode()
    assert "Ana" in csv and "Eva" in csv


def test_a_five_seat_table_is_not_played_online(as_organiser, five_table):
    page = as_organiser.get(url(five_table)).content.decode()
    assert "Play this table online" not in page
    response = as_organiser.post(url(five_table, "online/"), {"deals": "8"}, follow=True)
    assert "A table of five cannot be played online" in text(response.content.decode())


# -- the league's option -------------------------------------------------------------------------


def test_the_option_is_changed_on_the_leagues_page_and_recorded(as_organiser, solo_league):
    response = as_organiser.post(f"/clubs/{solo_league.club.slug}/leagues/{solo_league.pk}/edit/",
                                 league_form(solo_league, odd_numbers=FIVE), follow=True)
    assert "Saved." in text(response.content.decode())
    solo_league.refresh_from_db()
    assert solo_league.draws_five_seat_tables
    history = text(as_organiser.get(f"/clubs/{solo_league.club.slug}/changes/")
                   .content.decode())
    assert ("Changed what the draw does when the numbers don't divide by four from those "
            "left over sit out to five-seat tables, the dealer sitting out each deal") in history


def test_a_bid_whist_league_is_not_offered_five_seat_tables(as_organiser, club):
    response = as_organiser.post(f"/clubs/{club.slug}/leagues/new/", {
        **league_form(League(name="Bids", game="bid_whist")), "game": "bid_whist",
        "odd_numbers": FIVE})
    assert "Bid Whist is not played at tables of five" in text(response.content.decode())
    assert not League.objects.filter(name="Bids").exists()


def test_the_printed_sheet_cards_and_evening_say_table_of_five(as_organiser, five_table):
    evening, slug = five_table.evening, five_table.evening.season.league.club.slug
    sheet = text(as_organiser.get(f"/clubs/{slug}/evenings/{evening.pk}/sheet/")
                 .content.decode())
    assert "Table of five: the dealer sits out each deal" in sheet
    assert "Dealer (sits out this deal)" in sheet
    # the dealers printed in turn: Ana deals the first deal, Eva the fifth, Ana the sixth
    assert re.search(r"\b1 Ana\b.*\b5 Eva\b.*\b6 Ana\b", sheet)
    cards = text(as_organiser.get(f"/clubs/{slug}/evenings/{evening.pk}/cards/")
                 .content.decode())
    assert "Table of five: the dealer sits out each deal" in cards
    assert "table of five" in text(as_organiser.get(evening.get_absolute_url()).content.decode())


def test_a_five_seat_table_costs_the_standings_no_query(five_table, five_season, club,
                                                        organiser_user):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    season = Season.objects.select_related("league").get(pk=five_season.pk)

    def queries():
        with CaptureQueriesContext(connection) as captured:
            season.league.score_kind.standings(season)
        return len(captured)

    five_table.add_deal({**solo("solo", 1, 6), "sits_out": 0}, organiser_user)
    one = queries()
    evening = evening_with(five_season, [], day=14)
    for number in (1, 2):
        table = make_solo_table(evening, add_members(club, [f"T{number}{i}" for i in range(5)]),
                                number=number)
        table.add_deal({**solo("misere", 2, 0), "sits_out": 4}, organiser_user)
    assert queries() == one


def test_the_member_page_chart_and_results_file_with_a_table_of_five(
        as_organiser, five_table, five_season, organiser_user):
    five_table.add_deal({**solo("solo", 1, 6), "sits_out": 0}, organiser_user)
    five_table.add_deal({**solo("misere", 0, 0), "sits_out": 1}, organiser_user)
    slug = five_season.league.club.slug
    ana = five_table.seats.get(seat=0).member
    page = text(as_organiser.get(f"/clubs/{slug}/members/{ana.pk}/").content.decode())
    assert "Misère" in page  # the contract she declared, at her seat of the five
    chart = as_organiser.get(f"/clubs/{slug}/members/{ana.pk}/charts/"
                             f"{five_season.league.pk}.svg")
    assert chart.status_code == 200
    results = as_organiser.get(f"/clubs/{slug}/seasons/{five_season.pk}/results.csv")
    players = [line.split(",")[3] for line in results.content.decode().splitlines()[1:]]
    assert players == ["Ana", "Bob", "Carla", "Dan", "Eva"]


def test_the_ratings_leave_the_sitter_out_of_the_deal(five_table, five_season, organiser_user):
    from ratings.events import league_events, scope_of

    five_table.add_deal({**solo("solo", 1, 6), "sits_out": 0}, organiser_user)
    events = league_events(scope_of(five_season.league.club), "solo_whist")
    assert len(events) == 1
    assert len(events[0].players) == 4 and list(events[0].points) == [9, -3, -3, -3]


def test_a_table_of_five_or_four_is_added_by_hand(as_organiser, five_season, club):
    evening = evening_with(five_season, [])
    ana, bob, carla, dan, eva = add_members(club, ["Ana", "Bob", "Carla", "Dan", "Eva"])
    new = f"/clubs/{club.slug}/evenings/{evening.pk}/tables/new/"
    page = text(as_organiser.get(new).content.decode())
    assert "Seat 5 (a table of five)" in page and "Leave it empty for a table of four." in page
    four = {f"seat_{i}": m.pk for i, m in enumerate((ana, bob, carla, dan))}
    as_organiser.post(new, four)
    as_organiser.post(new, {**four, "seat_4": eva.pk})
    assert table_sizes(evening) == [4, 5]
    response = as_organiser.post(new, {**four, "seat_4": ana.pk})
    assert "A different member in each seat, please." in text(response.content.decode())
    assert table_sizes(evening) == [4, 5]


def test_a_league_that_sits_out_offers_four_seats(as_organiser, solo_season, club):
    evening = evening_with(solo_season, [])
    page = as_organiser.get(f"/clubs/{club.slug}/evenings/{evening.pk}/tables/new/")
    assert "a table of five" not in page.content.decode()
