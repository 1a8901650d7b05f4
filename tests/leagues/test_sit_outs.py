"""A sit-out's credit, chosen per league (Solo, Belgian Whist): nothing, the average of the
round's tables, or a fixed score; shown next to "Sitting out", counted in the standings as an
evening played, on the member's page; the league's change in the club's history."""

import datetime
import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from leagues.models import ClubChange, Evening, EveningRound, EveningTable, League, TableSeat

from .conftest import add_members, league_form, make_solo_table

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def players(club):
    return add_members(club, ["Ana", "Bob", "Carla", "Dan", "Eva"])


@pytest.fixture
def evening_in_rounds(solo_season, players):
    """Round 1: Ana, Bob, Carla, Dan at table 1 (+6, −2, −2, −2), Eva sits out; round 2 drawn,
    no result yet, Ana sits out."""
    evening = Evening.objects.create(season=solo_season, date=datetime.date(2030, 1, 7),
                                     rounds=2)
    ana, bob, carla, dan, eva = players
    for member in players:
        evening.set_attendance(member, True)
    table = make_solo_table(evening, [ana, bob, carla, dan])
    table.set_totals([Decimal(6), Decimal(-2), Decimal(-2), Decimal(-2)], None)
    EveningRound.objects.create(evening=evening, number=1).sitting_out.set([eva])
    second = EveningTable.objects.create(evening=evening, round=2, number=1)
    TableSeat.objects.bulk_create(TableSeat(table=second, seat=s, member=m)
                                  for s, m in enumerate((bob, carla, dan, eva)))
    EveningRound.objects.create(evening=evening, number=2).sitting_out.set([ana])
    return evening


def standings(season):
    season = type(season).objects.select_related("league").get(pk=season.pk)  # as saved
    return {row.name: row for row in season.league.score_kind.standings(season)}


def set_rule(client, league, credit, score=None):
    return client.post(f"/clubs/{league.club.slug}/leagues/{league.pk}/edit/",
                       league_form(league, sit_out_credit=credit, sit_out_score=score),
                       follow=True)


def test_nothing_is_credited_by_default(evening_in_rounds, solo_season):
    assert "Eva" not in standings(solo_season)


def test_a_fixed_score_is_credited_shown_and_recorded(as_organiser, solo_league, solo_season,
                                                      evening_in_rounds):
    body = text(set_rule(as_organiser, solo_league, "fixed", 3).content.decode())
    assert "Saved." in body
    rows = standings(solo_season)
    assert rows["Eva"].total == 3 and rows["Eva"].evenings == 1
    # Ana sat out round 2, which has no result yet: nothing for it until it has.
    assert rows["Ana"].total == 6
    page = text(as_organiser.get(evening_in_rounds.get_absolute_url()).content.decode())
    assert "Sitting out: Eva · each credited 3, the league's fixed score" in page
    assert "Sitting out: Ana · credited once a table of the round has a result" in page
    eva = solo_league.club.members.get(name="Eva")
    member_page = text(as_organiser.get(
        f"/clubs/{solo_league.club.slug}/members/{eva.pk}/").content.decode())
    assert "sat out round 1, credited" in member_page
    history = text(as_organiser.get(f"/clubs/{solo_league.club.slug}/changes/").content.decode())
    assert ("Changed what a sit-out is credited with from nothing to a fixed score; "
            "the standings are counted again") in history
    assert "Changed the fixed score for a sit-out from – to 3" in history


def test_a_fixed_score_must_be_typed(as_organiser, solo_league):
    body = text(set_rule(as_organiser, solo_league, "fixed").content.decode())
    assert "Type the score a sit-out is credited with" in body
    solo_league.refresh_from_db()
    assert solo_league.sit_out_credit == League.SitOutCredit.NOTHING
    assert not ClubChange.objects.filter(action="league_edit").exists()


def test_the_average_counts_as_an_evening_played(solo_league, solo_season, evening_in_rounds,
                                                 players):
    """A running balance's tables add up to zero, so the average of a round is 0: the sit-out
    is an evening at the field's average, which moves an average per evening."""
    eva = players[4]
    later = Evening.objects.create(season=solo_season, date=datetime.date(2030, 1, 14))
    table = make_solo_table(later, [eva, *players[:3]])
    table.set_totals([Decimal(8), Decimal(-4), Decimal(-2), Decimal(-2)], None)
    solo_league.ranking = League.Ranking.AVERAGE
    solo_league.save()
    assert standings(solo_season)["Eva"].average == 8
    solo_league.sit_out_credit = League.SitOutCredit.AVERAGE
    solo_league.save()
    row = standings(solo_season)["Eva"]
    assert (row.evenings, row.total, row.average) == (2, 8, 4)


def test_a_one_draw_evening_credits_who_came_without_a_seat(as_organiser, solo_league,
                                                            solo_evening, solo_season,
                                                            players):
    for member in players:
        solo_evening.set_attendance(member, True)
    as_organiser.post(f"/clubs/{solo_league.club.slug}/evenings/{solo_evening.pk}/draw/")
    out = [m for m in players if not solo_evening.tables.filter(seats__member=m).exists()]
    assert len(out) == 1
    solo_evening.tables.get().set_totals([Decimal(1), Decimal(-1), Decimal(1), Decimal(-1)],
                                         None)
    solo_league.sit_out_credit, solo_league.sit_out_score = League.SitOutCredit.FIXED, -2
    solo_league.save()
    assert standings(solo_season)[out[0].name].total == -2
    page = text(as_organiser.get(solo_evening.get_absolute_url()).content.decode())
    assert f"Sitting out: {out[0].name} · each credited −2, the league's fixed score" in page


def test_standings_stay_a_fixed_number_of_queries(solo_league, solo_season, evening_in_rounds,
                                                  players):
    solo_league.sit_out_credit, solo_league.sit_out_score = League.SitOutCredit.FIXED, 3
    solo_league.save()
    season = type(solo_season).objects.get(pk=solo_season.pk)
    with CaptureQueriesContext(connection) as small:
        standings(season)
    for day in (14, 21, 28):
        evening = Evening.objects.create(season=solo_season, date=datetime.date(2030, 1, day))
        table = make_solo_table(evening, players[:4])
        table.set_totals([Decimal(1), Decimal(-1), Decimal(1), Decimal(-1)], None)
        EveningRound.objects.create(evening=evening, number=1).sitting_out.set([players[4]])
    season = type(solo_season).objects.get(pk=solo_season.pk)
    with CaptureQueriesContext(connection) as large:
        rows = standings(season)
    assert len(large) == len(small)
    assert rows["Eva"].total == 12 and rows["Eva"].evenings == 4


def test_a_closed_season_keeps_its_sit_out_credit(solo_league, solo_season, evening_in_rounds,
                                                  organiser_user):
    from leagues import edits
    solo_league.sit_out_credit, solo_league.sit_out_score = League.SitOutCredit.FIXED, 3
    solo_league.save()
    edits.close_season(solo_season, organiser_user)
    solo_league.sit_out_credit = League.SitOutCredit.NOTHING
    solo_league.save()
    solo_season.refresh_from_db()
    assert standings(solo_season)["Eva"].total == 3


def test_a_members_chart_counts_their_credit_as_the_standings_do(solo_league, solo_season,
                                                                 evening_in_rounds):
    from leagues.charts import member_series

    solo_league.sit_out_credit, solo_league.sit_out_score = League.SitOutCredit.FIXED, 3
    solo_league.save()
    eva = solo_league.club.members.get(name="Eva")
    series = member_series(eva, solo_league)
    assert series["values"][-1] == standings(solo_season)["Eva"].total == 3


def test_the_standings_say_what_a_sit_out_adds_to_the_totals(as_organiser, solo_league,
                                                              solo_season, evening_in_rounds):
    """Eva's total is her credit alone: the season's page says where it comes from, by the
    league's rule, and says nothing of it when a sit-out earns nothing."""
    season_page = f"/clubs/{solo_league.club.slug}/seasons/{solo_season.pk}/"
    said = "is credited with"
    assert said not in text(as_organiser.get(season_page).content.decode())
    set_rule(as_organiser, solo_league, "fixed", 3)
    page = text(as_organiser.get(season_page).content.decode())
    assert ("The totals include what a player who sits out a round is credited with: 3, the "
            "league's fixed score.") in page
    set_rule(as_organiser, solo_league, "average")
    page = text(as_organiser.get(season_page).content.decode())
    assert ("The totals include what a player who sits out a round is credited with: the "
            "average of the round's tables") in page
