"""Leagues (house rules, standings options), seasons, evenings and attendance."""

import datetime
import random

import pytest

from leagues.draw import draw_evening, round_robin_round
from leagues.models import Attendance, Evening, League, Partnership, Season

from .conftest import add_members

pytestmark = pytest.mark.django_db


def test_organiser_creates_a_league_and_sets_its_house_rules(as_organiser, club):
    response = as_organiser.post(f"/clubs/{club.slug}/leagues/new/", {
        "name": "Bid Nights", "game": "bid_whist", "ranking": "total", "best_evenings": 6,
        "min_evenings": 0, "points_for_win": 2, "points_for_loss": 0,
        "tie_break": "difference"})
    league = League.objects.get(name="Bid Nights")
    assert response["Location"].endswith(f"/leagues/{league.pk}/rules/")
    form_page = as_organiser.get(response["Location"]).content.decode()
    assert "Score to win" in form_page and "Game target" not in form_page
    data = {"min_bid": 4, "all_pass": "redeal", "downtown_ace": "high", "kitty": "6_two_jokers",
            "downtown_side_suits": "reversed", "notrump_double": "on", "boston": "wins_game",
            "game_target": 11}
    as_organiser.post(response["Location"], data)
    league.refresh_from_db()
    assert league.rules == {"min_bid": 4, "game_target": 11}
    league_page = as_organiser.get(f"/clubs/{club.slug}/leagues/{league.pk}/").content.decode()
    assert "Lowest bid: 4" in league_page and "Score to win: 11" in league_page
    assert "game_target" not in league_page


def test_bad_house_rules_are_refused_with_the_engine_message(as_organiser, solo_league):
    url = f"/clubs/{solo_league.club.slug}/leagues/{solo_league.pk}/rules/"
    response = as_organiser.post(url, {"turn_up": "on", "stake_multiplier": "-1"})
    assert "greater than 0" in response.content.decode()
    solo_league.refresh_from_db()
    assert solo_league.rules == {}


def test_members_and_outsiders_cannot_touch_leagues(as_member, solo_league, client,
                                                    outsider_user):
    club = solo_league.club
    assert as_member.get(f"/clubs/{club.slug}/leagues/new/").status_code == 403
    rules = f"/clubs/{club.slug}/leagues/{solo_league.pk}/rules/"
    assert as_member.get(rules).status_code == 200  # members read the house rules
    assert as_member.post(rules, {"stake_multiplier": "5"}).status_code == 403
    solo_league.refresh_from_db()
    assert solo_league.rules == {}
    assert as_member.get(f"/clubs/{club.slug}/leagues/{solo_league.pk}/").status_code == 200
    client.force_login(outsider_user)
    assert client.get(f"/clubs/{club.slug}/leagues/{solo_league.pk}/").status_code == 404


def test_organiser_plans_a_season_and_an_evening(as_organiser, solo_league):
    club = solo_league.club
    as_organiser.post(f"/clubs/{club.slug}/leagues/{solo_league.pk}/seasons/new/",
                      {"name": "Autumn", "draw": "spread"})
    season = Season.objects.get(name="Autumn")
    response = as_organiser.post(f"/clubs/{club.slug}/seasons/{season.pk}/evenings/new/", {
        "date": "2030-10-01", "start_time": "19:30", "venue": "The Crown"}, follow=True)
    assert "The Crown" in response.content.decode()
    assert season.evenings.get().start_time == datetime.time(19, 30)


def test_members_cannot_plan_evenings(as_member, solo_season, client, outsider_user):
    url = f"/clubs/{solo_season.league.club.slug}/seasons/{solo_season.pk}/evenings/new/"
    assert as_member.post(url, {"date": "2030-10-01"}).status_code == 403
    client.force_login(outsider_user)
    assert client.post(url, {"date": "2030-10-01"}).status_code == 404
    assert not solo_season.evenings.exists()


def evening_url(evening, suffix=""):
    return f"/clubs/{evening.season.league.club.slug}/evenings/{evening.pk}/{suffix}"


def test_a_member_marks_that_they_are_coming(as_member, solo_evening, member):
    response = as_member.post(evening_url(solo_evening, "attendance/"), {"coming": "yes"},
                              follow=True)
    assert "You said you are coming." in response.content.decode()
    as_member.post(evening_url(solo_evening, "attendance/"), {"coming": "no"})
    assert Attendance.objects.get(member=member).coming is False


def test_a_member_cannot_answer_for_someone_else(as_member, solo_evening, organiser, member):
    as_member.post(evening_url(solo_evening, "attendance/"),
                   {"coming": "yes", "member": organiser.pk})
    assert Attendance.objects.get().member == member


def test_an_organiser_marks_a_member_without_a_login(as_organiser, solo_evening, club):
    (granny,) = add_members(club, ["Granny"])
    as_organiser.post(evening_url(solo_evening, "attendance/"),
                      {"coming": "yes", "member": granny.pk})
    assert Attendance.objects.get(member=granny).coming


def test_outsiders_cannot_see_or_answer(as_outsider, solo_evening):
    assert as_outsider.get(evening_url(solo_evening)).status_code == 404
    assert as_outsider.post(evening_url(solo_evening, "attendance/"),
                            {"coming": "yes"}).status_code == 404


def test_public_club_outsider_sees_the_evening_but_cannot_answer(as_outsider, solo_evening):
    club = solo_evening.season.league.club
    club.is_public = True
    club.save()
    assert as_outsider.get(evening_url(solo_evening)).status_code == 200
    assert as_outsider.post(evening_url(solo_evening, "attendance/"),
                            {"coming": "yes"}).status_code == 403


def test_organiser_adds_a_table_by_hand(as_organiser, solo_evening, club, organiser, member):
    a, b = add_members(club, ["Ann", "Bob"])
    as_organiser.post(evening_url(solo_evening, "tables/new/"), {
        "seat_0": organiser.pk, "seat_1": member.pk, "seat_2": a.pk, "seat_3": b.pk})
    table = solo_evening.tables.get()
    assert [s.member for s in table.seats.order_by("seat")] == [organiser, member, a, b]


def test_draw_makes_tables_of_four_and_rotates_sit_outs(as_organiser, solo_season, club):
    people = add_members(club, [f"P{i}" for i in range(9)])
    sat_out = []
    for day in (1, 2, 3):
        evening = Evening.objects.create(season=solo_season, date=datetime.date(2030, 1, day))
        for person in people:
            Attendance.objects.create(evening=evening, member=person)
        tables, out = draw_evening(evening, random.Random(day))
        assert tables == 2 and len(out) == 1
        assert {s.member for t in evening.tables.all() for s in t.seats.all()} | set(out) \
            == set(people)
        sat_out.append(out[0])
    assert len(set(sat_out)) == 3  # nobody sits out twice while others have not


def test_spread_draw_avoids_repeating_tables(solo_season, club):
    solo_season.draw = Season.Draw.SPREAD
    solo_season.save()
    people = add_members(club, [f"P{i}" for i in range(8)])
    tables_seen = []
    for day in (1, 2):
        evening = Evening.objects.create(season=solo_season, date=datetime.date(2030, 1, day))
        for person in people:
            Attendance.objects.create(evening=evening, member=person)
        draw_evening(evening, random.Random(day))
        tables_seen.append([frozenset(s.member_id for s in t.seats.all())
                            for t in evening.tables.all()])
    assert not set(tables_seen[0]) & set(tables_seen[1])


def test_draw_page_is_for_organisers(client, solo_evening, club, member_user, organiser_user,
                                     outsider_user):
    for person in add_members(club, ["A", "B", "C", "D"]):
        Attendance.objects.create(evening=solo_evening, member=person)
    client.force_login(outsider_user)
    assert client.post(evening_url(solo_evening, "draw/")).status_code == 404
    client.force_login(member_user)
    assert client.post(evening_url(solo_evening, "draw/")).status_code == 403
    client.force_login(organiser_user)
    response = client.post(evening_url(solo_evening, "draw/"), follow=True)
    assert "1 table(s) drawn." in response.content.decode()


def test_round_robin_meets_every_pair_once():
    pairs = list("ABCDE")
    meetings = [frozenset(m) for r in range(5) for m in round_robin_round(pairs, r)
                if None not in m]
    assert len(meetings) == 10 and len(set(meetings)) == 10


def test_bid_whist_draw_follows_the_round_robin(bid_season, club):
    members = add_members(club, [f"M{i}" for i in range(8)])
    for i in range(4):
        Partnership.objects.create(season=bid_season, first=members[2 * i],
                                   second=members[2 * i + 1])
    evening = Evening.objects.create(season=bid_season, date=datetime.date(2030, 5, 1))
    for member in members:
        Attendance.objects.create(evening=evening, member=member, coming=True)
    assert draw_evening(evening)[0] == 2


def test_a_belgian_league_sets_its_points_table_like_an_online_table(as_organiser, club):
    from leagues.models import League

    league = League.objects.create(club=club, name="Couleur", game="belgian_whist")
    url = f"/clubs/{club.slug}/leagues/{league.pk}/rules/"
    page = as_organiser.get(url).content.decode()
    # The points table is a grid of number boxes, one row per contract.
    assert 'name="points_table.piccolo" value="8"' in page and "<textarea" not in page
    response = as_organiser.post(url, {"points_table.piccolo": "9"})
    assert response.status_code == 302
    league.refresh_from_db()
    assert list(league.rules) == ["points_table"] and league.rules["points_table"]["piccolo"] == 9
    assert "Points table: Piccolo 9" in as_organiser.get(league.get_absolute_url()).content.decode()
    page = as_organiser.get(url).content.decode()  # the league's values, in the grid
    assert 'name="points_table.piccolo" value="9"' in page
    assert 'name="points_table.emballage.made.8" value="8"' in page
    response = as_organiser.post(url, {"points_table.piccolo": "-1"})
    assert "Piccolo is -1, expected a number from 0" in response.content.decode()
    response = as_organiser.post(url, {"points_table.piccolo": "nine"})
    assert "Piccolo: “nine” is not a number." in response.content.decode()
    league.refresh_from_db()
    assert league.rules["points_table"]["piccolo"] == 9


def test_who_sits_out_stays_on_the_evening_and_it_can_be_drawn_again_before_any_result(
        as_organiser, solo_season, club, organiser_user):
    people = add_members(club, [f"P{i}" for i in range(10)])
    evening = Evening.objects.create(season=solo_season, date=datetime.date(2030, 1, 1))
    for person in people[:9]:
        Attendance.objects.create(evening=evening, member=person)
    as_organiser.post(f"/clubs/{club.slug}/evenings/{evening.pk}/draw/")
    seated = {s.member_id for t in evening.tables.all() for s in t.seats.all()}
    (out,) = [p for p in people[:9] if p.pk not in seated]
    page = as_organiser.get(evening.get_absolute_url()).content.decode()
    assert f"Sitting out:</strong> {out.name}" in page  # on the page, not only in a message
    assert "Draw again (no result yet)" in page
    # a latecomer: drawn again, ten players, two sit out; nobody is left without being said
    Attendance.objects.create(evening=evening, member=people[9])
    as_organiser.post(f"/clubs/{club.slug}/evenings/{evening.pk}/draw/", {"again": "1"})
    assert evening.tables.count() == 2
    page = as_organiser.get(evening.get_absolute_url()).content.decode()
    assert page.count(", ", page.index("Sitting out:"), page.index("Sitting out:") + 200) >= 1
    # once a table has a result, the evening is not drawn again
    evening.tables.first().set_totals([1, -1, 0, 0], organiser_user)
    page = as_organiser.get(evening.get_absolute_url()).content.decode()
    assert "Draw again" not in page
    response = as_organiser.post(f"/clubs/{club.slug}/evenings/{evening.pk}/draw/",
                                 {"again": "1"}, follow=True)
    assert "cannot be drawn again" in response.content.decode()
    assert evening.tables.count() == 2
