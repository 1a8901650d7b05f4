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


# -- a closed season's evenings still to come -----------------------------------------------


@pytest.fixture
def season_with_plans(solo_season, organiser_user, member):
    """A played evening last week, and three planned: one answered, one drawn, one untouched."""
    from django.utils import timezone
    today = timezone.localdate()
    club = solo_season.league.club
    players = [member, *add_members(club, ["Nell", "Pat", "Quin"])]

    def evening(days):
        return Evening.objects.create(season=solo_season, date=today + datetime.timedelta(days),
                                      start_time=datetime.time(20), venue="The Crown")
    played = evening(-7)
    make_solo_table(played, players).set_totals([3, -1, -1, -1], organiser_user)
    answered, drawn, untouched = evening(7), evening(14), evening(21)
    answered.set_attendance(member, True)
    make_solo_table(drawn, players)
    return solo_season, played, answered, drawn, untouched


def test_the_close_page_says_which_planned_evenings_are_cancelled_or_removed(
        as_organiser, season_with_plans):
    season, played, answered, drawn, untouched = season_with_plans
    page = as_organiser.get(club_url(season.league.club,
                                     f"seasons/{season.pk}/close/")).content.decode()
    assert "3 evenings of this season are planned from today on: they will not be played." in page
    cancelled, removed = page.split("Cancelled, kept on the calendar")[1].split("Removed from")
    from leagues.scoring import long_date
    assert long_date(answered.date) in cancelled and long_date(drawn.date) in cancelled
    assert long_date(untouched.date) in removed and long_date(untouched.date) not in cancelled
    assert long_date(played.date) not in page
    assert "The members are not e-mailed" in page


def test_closing_a_season_cancels_or_removes_its_planned_evenings(
        as_organiser, season_with_plans, member_user, client):
    season, played, answered, drawn, untouched = season_with_plans
    club = season.league.club
    response = as_organiser.post(club_url(club, f"seasons/{season.pk}/close/"),
                                 {"next_name": ""}, follow=True)
    said = response.content.decode()
    assert "Evenings still to come cancelled:" in said
    assert "Evening still to come removed (nobody had answered):" in said
    answered.refresh_from_db()
    drawn.refresh_from_db()
    played.refresh_from_db()
    assert answered.is_cancelled and drawn.is_cancelled and not played.is_cancelled
    assert not drawn.tables.exists() and played.tables.exists()
    assert not Evening.objects.filter(pk=untouched.pk).exists()
    # The club's page and the calendar no longer offer them as evenings to come.
    club_page = as_organiser.get(club_url(club)).content.decode()
    assert f"/evenings/{untouched.pk}/" not in club_page
    feed = as_organiser.get(club_url(club, "calendar.ics")).content.decode()
    assert f"evening-{untouched.pk}@" not in feed
    events = feed.split("BEGIN:VEVENT")[1:]
    for evening in (answered, drawn):
        event = next(e for e in events if f"evening-{evening.pk}@" in e)
        assert "STATUS:CANCELLED" in event
    # The club's history says it in words.
    history = as_organiser.get(club_url(club, "changes/")).content.decode()
    assert "Evenings still to come cancelled:" in history
    assert "Evening still to come removed (nobody had answered):" in history


def test_a_closed_seasons_evenings_take_no_answers_and_make_no_board_link(
        as_organiser, solo_season, organiser_user, member, organiser):
    from django.utils import timezone
    evening = Evening.objects.create(season=solo_season, date=timezone.localdate()
                                     - datetime.timedelta(days=1))
    edits.close_season(solo_season, organiser_user)
    evening.refresh_from_db()
    page = as_organiser.get(evening.get_absolute_url()).content.decode()
    assert "Mark who came" not in page and "Make the secret link" not in page
    assert "The season is closed: its evenings get no new board link." in page
    url = evening.get_absolute_url()
    response = as_organiser.post(f"{url}attendance/", {"coming": "yes",
                                                       "member": member.pk}, follow=True)
    assert "is closed: its evenings take no answers any more." in response.content.decode()
    assert not evening.attendances.exists()
    response = as_organiser.post(f"{url}board-link/", follow=True)
    assert "get no new board link" in response.content.decode()
    evening.refresh_from_db()
    assert evening.board_token is None
