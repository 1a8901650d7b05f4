"""A closed season keeps the standings options and house rules it closed with: its final
positions do not move when the league's options change later; open seasons follow the
league."""

import datetime

import pytest

from leagues import edits
from leagues.models import Evening, Season
from leagues.standings import season_standings

from .conftest import add_members, league_form, make_solo_table

pytestmark = pytest.mark.django_db


def club_url(club, suffix=""):
    return f"/clubs/{club.slug}/{suffix}"


@pytest.fixture
def three_evenings(solo_season, organiser_user):
    """Ann plays three evenings, Bob one: with a minimum of 2 evenings Bob is unranked."""
    club = solo_season.league.club
    ann, bob, c, d, e = add_members(club, ["Ann", "Bob", "Cat", "Dan", "Eve"])
    for day, players, totals in ((1, [ann, bob, c, d], [6, 9, -8, -7]),
                                 (8, [ann, c, d, e], [3, -1, -1, -1]),
                                 (15, [ann, c, d, e], [2, -1, -1, 0])):
        evening = Evening.objects.create(season=solo_season,
                                         date=datetime.date(2030, 1, day))
        make_solo_table(evening, players).set_totals(totals, organiser_user)
    solo_season.league.min_evenings = 2
    solo_season.league.save()
    return solo_season


def positions(season):
    return {row.name: row.position for row in season_standings(season)}


def test_a_closed_seasons_positions_do_not_change_when_the_leagues_options_change(
        as_organiser, three_evenings):
    season = three_evenings
    league, club = season.league, season.league.club
    final = positions(season)
    assert final["Ann"] == 1 and final["Bob"] is None
    as_organiser.post(club_url(club, f"seasons/{season.pk}/close/"), {"next_name": "Spring"})
    season.refresh_from_db()
    assert season.is_closed
    as_organiser.post(club_url(club, f"leagues/{league.pk}/edit/"),
                      league_form(league, min_evenings=50, ranking="average"))
    league.refresh_from_db()
    assert league.min_evenings == 50
    season = Season.objects.get(pk=season.pk)
    assert positions(season) == final
    page = as_organiser.get(club_url(club, f"seasons/{season.pk}/")).content.decode()
    assert "Players need 2 evenings to qualify" in page
    assert "50 evenings" not in page
    # The open season follows the league as it is now.
    spring = league.seasons.get(name="Spring")
    assert spring.standings_options.min_evenings == 50


def test_a_closed_bid_whist_season_keeps_its_league_points(bid_table, organiser_user):
    from .conftest import bid
    bid_table.add_deal(bid(1, 7, "uptown", 13), organiser_user)  # a Boston: Kings win
    season = bid_table.evening.season
    edits.close_season(season, organiser_user)
    before = {str(r.pair): r.league_points for r in season_standings(season)}
    league = season.league
    league.points_for_win, league.points_for_loss = 5, 1
    league.rules = {"game_target": 11}
    league.save()
    season = Season.objects.get(pk=season.pk)
    assert {str(r.pair): r.league_points for r in season_standings(season)} == before
    assert season.house_rules == {}


def test_a_closed_season_keeps_the_house_rules_it_closed_with(as_organiser, solo_season,
                                                               organiser_user):
    league = solo_season.league
    league.rules = {"stake_multiplier": 2}
    league.save()
    edits.close_season(solo_season, organiser_user)
    url = club_url(league.club, f"seasons/{solo_season.pk}/")
    assert "which the league has changed since" not in as_organiser.get(url).content.decode()
    as_organiser.post(club_url(league.club, f"leagues/{league.pk}/rules/"),
                      {"turn_up": "on", "prop_and_cop": "on", "eldest_may_cop_after_pass": "on",
                       "stake_multiplier": "1", "revoke_penalty": "lose_deal"})
    league.refresh_from_db()
    assert league.rules == {}
    season = Season.objects.get(pk=solo_season.pk)
    assert season.house_rules == {"stake_multiplier": 2}
    page = as_organiser.get(url).content.decode()
    assert ("Played with these house rules, which the league has changed since: Stakes "
            "multiplied by: 2") in page


def test_a_closed_seasons_table_is_read_only_said_once_and_offers_no_form(
        as_organiser, solo_table, organiser_user):
    solo_table.set_totals([3, -1, -1, -1], organiser_user)
    edits.close_season(solo_table.evening.season, organiser_user)
    page = as_organiser.get(solo_table.get_absolute_url()).content.decode()
    assert page.count("Season closed: results are final.") == 1
    assert "Next deal" not in page and "<form" not in page.split("<main", 1)[1].split(
        "</main>")[0].replace('class="language-switcher"', "")
    before = list(solo_table.deals.values_list("pk", flat=True))
    response = as_organiser.post(f"{solo_table.get_absolute_url()}totals/", {"clear": "1"},
                                 follow=True)
    assert "is closed" in response.content.decode()
    assert list(solo_table.deals.values_list("pk", flat=True)) == before
