"""Season standings: each game's options, shown on the season page, with a fixed number of
queries whatever the season's size."""

import datetime

import pytest

from leagues.models import Evening, EveningRound, EveningTable, League, Partnership
from leagues.standings import season_standings

from .conftest import add_members, bid, make_solo_table, solo

pytestmark = pytest.mark.django_db


def season_url(season):
    return f"/clubs/{season.league.club.slug}/seasons/{season.pk}/"


def play_evening(season, players, totals, day):
    evening = Evening.objects.create(season=season, date=datetime.date(2030, 1, day))
    table = make_solo_table(evening, players)
    table.set_totals(totals, None)
    return table


@pytest.fixture
def four(club):
    return add_members(club, ["Ann", "Ben", "Cat", "Dan"])


def test_solo_standings_rank_by_total_balance(as_member, solo_season, four):
    play_evening(solo_season, four, [9, -3, -3, -3], 1)
    play_evening(solo_season, four, [-6, 12, -3, -3], 2)
    response = as_member.get(season_url(solo_season))
    rows = response.context["rows"]
    assert [(r.name, r.total, r.position) for r in rows][:2] == [("Ben", 9, 1), ("Ann", 3, 2)]
    assert "Ben" in response.content.decode()


def test_average_and_best_n_evenings(solo_season, four, club):
    league = solo_season.league
    play_evening(solo_season, four, [10, -4, -3, -3], 1)
    play_evening(solo_season, four, [-8, 2, 3, 3], 2)
    play_evening(solo_season, four, [6, -2, -2, -2], 3)
    league.ranking, league.best_evenings = League.Ranking.BEST_N, 2
    league.save()
    ann = next(r for r in season_standings(solo_season) if r.name == "Ann")
    assert (ann.total, ann.best, float(ann.average)) == (8, 16, 2.67)
    league.ranking = League.Ranking.AVERAGE
    league.save()
    assert season_standings(solo_season)[0].name == "Ann"


def test_players_below_the_minimum_evenings_are_not_ranked(solo_season, four, club):
    league = solo_season.league
    league.min_evenings = 2
    league.save()
    (eve,) = add_members(club, ["Eve"])
    play_evening(solo_season, four, [1, -1, 0, 0], 1)
    play_evening(solo_season, [eve, *four[1:]], [30, -10, -10, -10], 2)
    play_evening(solo_season, four, [1, -1, 0, 0], 3)
    rows = season_standings(solo_season)
    assert rows[-1].name == "Eve" and rows[-1].position is None
    assert rows[0].name == "Ann" and rows[0].position == 1


def test_provisional_results_do_not_count_until_confirmed(solo_season, four):
    table = play_evening(solo_season, four, [9, -3, -3, -3], 1)
    table.provisional = True
    table.save()
    assert season_standings(solo_season) == []


def test_bid_whist_standings_league_points_and_tie_breaks(bid_season, club):
    members = add_members(club, [f"P{i}" for i in range(6)])
    a, b, c = (Partnership.objects.create(season=bid_season, first=members[i],
                                          second=members[i + 1], name=n)
               for i, n in zip((0, 2, 4), "ABC", strict=True))
    evening = Evening.objects.create(season=bid_season, date=datetime.date(2030, 1, 1))

    def match(number, p0, p1, s0, s1):
        table = EveningTable.objects.create(evening=evening, number=number, pair_0=p0, pair_1=p1)
        table.set_totals([s0, s1], None)

    match(1, a, b, 7, 2)   # A beats B by 5
    match(2, b, c, 8, 0)   # B beats C by 8
    match(3, c, a, 7, 6)   # C beats A by 1: all on 2 points
    rows = season_standings(bid_season)
    assert [r.league_points for r in rows] == [2, 2, 2]
    assert [(str(r.pair), r.difference) for r in rows] == [("A", 4), ("B", 3), ("C", -7)]
    league = bid_season.league
    league.tie_break = League.TieBreak.BOSTONS
    league.save()
    assert [r.position for r in season_standings(bid_season)] == [1, 2, 3]


def test_bid_whist_difference_breaks_ties(bid_season, club):
    members = add_members(club, [f"P{i}" for i in range(4)])
    a = Partnership.objects.create(season=bid_season, first=members[0], second=members[1],
                                   name="A")
    b = Partnership.objects.create(season=bid_season, first=members[2], second=members[3],
                                   name="B")
    evening = Evening.objects.create(season=bid_season, date=datetime.date(2030, 1, 1))
    for number, (s0, s1) in enumerate([(7, 5), (1, 9)], start=1):
        EveningTable.objects.create(evening=evening, number=number, pair_0=a,
                                    pair_1=b).set_totals([s0, s1], None)
    rows = season_standings(bid_season)
    assert [(str(r.pair), r.won, r.league_points, r.difference) for r in rows] == [
        ("B", 1, 2, 6), ("A", 1, 2, -6)]


def test_a_match_played_deal_by_deal_counts_with_its_bostons(bid_table, organiser_user):
    bid_table.add_deal(bid(1, 5, "uptown", 13), organiser_user)
    rows = season_standings(bid_table.evening.season)
    assert (str(rows[0].pair), rows[0].won, rows[0].tally) == ("Kings", 1, 1)


def test_season_page_for_each_persona(as_organiser, solo_season, client, member_user,
                                      outsider_user):
    assert "New evening" in as_organiser.get(season_url(solo_season)).content.decode()
    client.force_login(member_user)
    page = client.get(season_url(solo_season)).content.decode()
    assert "Standings" in page and "New evening" not in page
    client.force_login(outsider_user)
    assert client.get(season_url(solo_season)).status_code == 404


def build_solo_season(season, club, evenings, players_per_evening):
    members = add_members(club, [f"M{i:03d}" for i in range(players_per_evening)])
    for day in range(1, evenings + 1):
        evening = Evening.objects.create(season=season, date=datetime.date(2030, 1, day))
        for number, start in enumerate(range(0, players_per_evening, 4), start=1):
            table = make_solo_table(evening, members[start:start + 4], number)
            table.add_deal(solo("solo", 0, 6), None)


@pytest.mark.parametrize("evenings,players", [(1, 4), (6, 16)])
@pytest.mark.parametrize("credit", [League.SitOutCredit.NOTHING, League.SitOutCredit.AVERAGE])
def test_standings_take_a_fixed_number_of_queries(as_member, solo_season, club, evenings,
                                                  players, credit,
                                                  django_assert_max_num_queries):
    """A sit-out credit (the round's average) costs the page no query: the sit-outs and the
    rounds' averages are read with the seats."""
    build_solo_season(solo_season, club, evenings, players)
    league = solo_season.league
    league.sit_out_credit = credit
    league.save()
    sitter = add_members(club, ["Sitter"])[0]
    for evening in solo_season.evenings.all():
        EveningRound.objects.create(evening=evening, number=1).sitting_out.set([sitter])
    with django_assert_max_num_queries(8):
        response = as_member.get(season_url(solo_season))
    rows = {row.name: row for row in response.context["rows"]}
    if credit == League.SitOutCredit.NOTHING:
        assert len(rows) == players
    else:  # each evening's round averages 0 (its balances add up to zero)
        assert len(rows) == players + 1 and rows["Sitter"].evenings == evenings


@pytest.mark.parametrize("credit", [League.SitOutCredit.NOTHING, League.SitOutCredit.AVERAGE])
@pytest.mark.parametrize("pairs", [2, 8])
def test_bid_standings_take_a_fixed_number_of_queries(as_member, bid_season, club, pairs,
                                                      credit, django_assert_max_num_queries):
    """A pair's sit-out credit costs the page no query: the sit-outs are read with the
    matches, whatever the number of evenings."""
    members = add_members(club, [f"M{i:03d}" for i in range(pairs * 2 + 2)])
    teams = [Partnership.objects.create(season=bid_season, first=members[2 * i],
                                        second=members[2 * i + 1]) for i in range(pairs + 1)]
    sitter = teams.pop()
    league = bid_season.league
    league.sit_out_credit = credit
    league.save()
    for day in range(1, pairs + 1):  # more pairs, more evenings
        evening = Evening.objects.create(season=bid_season, date=datetime.date(2030, 1, day),
                                         rounds=2)
        for number, (p0, p1) in enumerate(zip(teams, teams[1:] + teams[:1], strict=True),
                                          start=1):
            EveningTable.objects.create(evening=evening, number=number, pair_0=p0,
                                        pair_1=p1).set_totals([7, 3], None)
        EveningRound.objects.create(evening=evening, number=1).pairs_sitting_out.set([sitter])
    # 8 for the standings, 1 for the pairs' ratings column (docs/ratings.md)
    with django_assert_max_num_queries(9):
        response = as_member.get(season_url(bid_season))
    rows = {str(row.pair): row for row in response.context["rows"]}
    assert len(rows) == pairs + 1
    # each round's pairs earned 2 and 0 league points: 1 on average
    assert rows[str(sitter)].league_points == (0 if credit == League.SitOutCredit.NOTHING
                                               else pairs)
