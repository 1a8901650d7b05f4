"""A sit-out's credit and an evening's prizes in the leagues played as matches: Bid Whist's
pairs and Cutthroat's players.  The credit is in league points, the unit their standings rank
by (the average: the mean league points a side of the round's matches earned); a pair's prize
names both its players."""

import datetime
import html
import re
from decimal import Decimal

import pytest
from django.core import mail

from leagues.models import (
    Evening,
    EveningRound,
    EveningTable,
    League,
    Partnership,
    Season,
    TableSeat,
)

from .conftest import add_members, make_solo_table

pytestmark = pytest.mark.django_db


def text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def standings(season):
    season = Season.objects.select_related("league").get(pk=season.pk)  # as saved
    return {str(getattr(row, "pair", None) or row.name): row
            for row in season.league.score_kind.standings(season)}


@pytest.fixture
def pairs(bid_season, club):
    """Three pairs, the Aces with a name of their own."""
    ana, bob, carla, dan, eva, fred = add_members(club, ["Ana", "Bob", "Carla", "Dan", "Eva",
                                                         "Fred"])
    return [Partnership.objects.create(season=bid_season, first=ana, second=bob, name="Aces"),
            Partnership.objects.create(season=bid_season, first=carla, second=dan),
            Partnership.objects.create(season=bid_season, first=eva, second=fred)]


@pytest.fixture
def bid_evening(bid_season, pairs):
    """A one-draw evening: the Aces beat Carla & Dan 7–3; Eva & Fred came and sat out."""
    evening = Evening.objects.create(season=bid_season, date=datetime.date(2030, 1, 7))
    for pair in pairs:
        evening.set_attendance(pair.first, True)
        evening.set_attendance(pair.second, True)
    EveningTable.objects.create(evening=evening, number=1, pair_0=pairs[0],
                                pair_1=pairs[1]).set_totals([7, 3], None)
    return evening


def set_credit(league, credit, score=None):
    league.sit_out_credit, league.sit_out_score = credit, score
    league.save()


def test_a_pair_that_sat_out_is_credited_league_points(bid_league, bid_season, bid_evening):
    assert standings(bid_season)["Eva & Fred"].league_points == 0
    set_credit(bid_league, League.SitOutCredit.FIXED, 1)
    rows = standings(bid_season)
    assert rows["Eva & Fred"].league_points == 1
    assert rows["Aces"].league_points == 2 and rows["Carla & Dan"].league_points == 0
    # The average: a match gives 2 and 0 league points, a pair of the round earned 1.
    bid_league.points_for_loss = 1
    set_credit(bid_league, League.SitOutCredit.AVERAGE)
    assert standings(bid_season)["Eva & Fred"].league_points == Decimal("1.5")


def test_a_pair_that_sat_out_a_round_is_credited(bid_league, bid_season, pairs, bid_evening):
    evening = Evening.objects.create(season=bid_season, date=datetime.date(2030, 1, 14),
                                     rounds=2)
    EveningTable.objects.create(evening=evening, round=1, number=1, pair_0=pairs[1],
                                pair_1=pairs[2]).set_totals([7, 1], None)
    EveningRound.objects.create(evening=evening, number=1).pairs_sitting_out.set([pairs[0]])
    EveningTable.objects.create(evening=evening, round=2, number=1, pair_0=pairs[0],
                                pair_1=pairs[1])  # no result yet
    EveningRound.objects.create(evening=evening, number=2).pairs_sitting_out.set([pairs[2]])
    set_credit(bid_league, League.SitOutCredit.FIXED, 1)
    rows = standings(bid_season)
    # Aces: won on the 7th, sat out round 1 of the 14th; Eva & Fred: sat out the 7th, lost
    # round 1 of the 14th, and round 2 has no result: nothing for it yet.
    assert rows["Aces"].league_points == 3
    assert rows["Eva & Fred"].league_points == 1
    assert rows["Carla & Dan"].league_points == 2


def test_a_pairs_credit_is_on_the_evening_and_the_members_pages(as_organiser, bid_league,
                                                                bid_evening, pairs):
    set_credit(bid_league, League.SitOutCredit.FIXED, 1)
    page = text(as_organiser.get(bid_evening.get_absolute_url()).content.decode())
    assert "Sitting out: Eva & Fred · each credited 1 (league points), the league's fixed score" in page
    eva = pairs[2].first
    member_page = text(as_organiser.get(
        f"/clubs/{bid_league.club.slug}/members/{eva.pk}/").content.decode())
    assert member_page.count("sat out, credited") == 1  # as a pair, not also alone
    assert "1 (league points)" in member_page


@pytest.fixture
def cutthroat_season(club):
    league = League.objects.create(club=club, name="Three of us", game="cutthroat_bid_whist",
                                   points_for_win=3, points_for_loss=1)
    return Season.objects.create(league=league, name="Winter")


def cutthroat_evening(season, club):
    """Round 1: Ana wins 31 to Bob 20 and Carla 12, Dan sits out; round 2: no result yet, Ana
    sits out."""
    ana, bob, carla, dan = add_members(club, ["Ana", "Bob", "Carla", "Dan"])
    evening = Evening.objects.create(season=season, date=datetime.date(2030, 1, 7), rounds=2)
    table = make_solo_table(evening, [ana, bob, carla])
    table.set_totals([Decimal(31), Decimal(20), Decimal(12)], None)
    EveningRound.objects.create(evening=evening, number=1).sitting_out.set([dan])
    second = EveningTable.objects.create(evening=evening, round=2, number=1)
    TableSeat.objects.bulk_create(TableSeat(table=second, seat=s, member=m)
                                  for s, m in enumerate((bob, carla, dan)))
    EveningRound.objects.create(evening=evening, number=2).sitting_out.set([ana])
    return evening


def test_a_cutthroat_sit_out_is_credited_league_points(cutthroat_season, club):
    cutthroat_evening(cutthroat_season, club)
    league = cutthroat_season.league
    assert "Dan" not in standings(cutthroat_season)
    set_credit(league, League.SitOutCredit.AVERAGE)  # (3 + 1 + 1) / 3
    rows = standings(cutthroat_season)
    assert rows["Dan"].league_points == Decimal("1.67") and rows["Dan"].played == 0
    assert rows["Ana"].league_points == 3  # round 2 has no result yet
    set_credit(league, League.SitOutCredit.FIXED, 2)
    assert standings(cutthroat_season)["Dan"].league_points == 2


def test_a_bid_whist_evening_gives_its_prizes_to_pairs(as_organiser, bid_league, bid_evening,
                                                       pairs):
    """The Aces won 7–3, Eva & Fred sat out credited 1: the winner, the runner-up and the
    booby prize, each naming both players of its pair, on the page, the e-mail and the
    history."""
    bid_league.prize_winner, bid_league.prize_winner_text = True, "a bottle of wine"
    bid_league.prize_runner_up = bid_league.prize_booby = True
    bid_league.save()
    set_credit(bid_league, League.SitOutCredit.FIXED, 1)
    page = text(as_organiser.get(bid_evening.get_absolute_url()).content.decode())
    assert ("Winner: Aces (Ana & Bob) 2 league points, difference +4 · a bottle of wine"
            in page)
    assert "Runner-up: Eva & Fred 1 league point, difference 0" in page
    assert "Booby prize: Carla & Dan 0 league points, difference −4" in page
    response = as_organiser.post(f"/clubs/{bid_league.club.slug}/evenings/{bid_evening.pk}/"
                                 "results/send/", {"seen": 0}, follow=True)
    assert "E-mail sent to 2 members." in text(response.content.decode())
    body = mail.outbox[0].body
    assert "1. Aces (Ana & Bob) 2 league points, difference +4" in body
    assert ("Winner: Aces (Ana & Bob) (2 league points, difference +4), a bottle of wine"
            in body)
    history = text(as_organiser.get(f"/clubs/{bid_league.club.slug}/changes/").content.decode())
    assert "Winner: Aces (Ana & Bob)" in history


def test_a_cutthroat_evening_ranks_by_league_points_with_the_credit(cutthroat_season, club):
    from leagues import prizes
    evening = cutthroat_evening(cutthroat_season, club)
    league = cutthroat_season.league
    league.prize_winner = league.prize_runner_up = league.prize_booby = True
    set_credit(league, League.SitOutCredit.FIXED, 2)
    evening.tables.get(round=2).set_totals([Decimal(30), Decimal(5), Decimal(2)], None)
    lines = {line.name: line for line in prizes.evening_lines(evening)}
    # Ana: 3 + 2 for round 2; Bob: 1 + 3; Carla: 1 + 1; Dan: 2 + 1.
    assert {name: line.score for name, line in lines.items()} == {
        "Ana": 5, "Bob": 4, "Carla": 2, "Dan": 3}
    won = {p.kind: p.names for p in prizes.prizes(evening)}
    assert won == {"winner": ["Ana"], "runner_up": ["Bob"], "booby": ["Carla"]}
