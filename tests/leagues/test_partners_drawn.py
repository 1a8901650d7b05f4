"""A Bid Whist league whose players come alone, partners drawn each round
(``League.partners``): each round's draw forms the tables' two sides from who is present, by the
movement with the evening's partnerships, and stores them as the season's pairs, so that entry,
sheets and totals are a match's as ever."""

import datetime
from collections import Counter

import pytest

from leagues import draw, movement
from leagues.models import Evening, EveningRound, League, Partnership

from .conftest import add_members

pytestmark = pytest.mark.django_db


@pytest.fixture
def individual_season(bid_season):
    league = bid_season.league
    league.partners = League.Partners.DRAWN
    league.save()
    return bid_season


def an_evening(season, people, rounds=3, day=3):
    evening = Evening.objects.create(season=season, date=datetime.date(2030, 2, day),
                                     rounds=rounds)
    for member in people:
        evening.set_attendance(member, True)
    return evening


def sides(evening, number):
    """Round ``number``'s tables, each as its players in the order of their seats."""
    return [[m.pk for m in t.seat_members()] for t in evening.tables.filter(round=number)
            .select_related("pair_0__first", "pair_0__second", "pair_1__first",
                            "pair_1__second")]


def test_a_round_draws_partners_from_the_players_present(club, individual_season,
                                                        organiser_user):
    people = add_members(club, [f"P{i}" for i in range(9)])
    evening = an_evening(individual_season, people)
    count, out = draw.draw_round(evening, organiser_user, 1)
    assert count == 2 and len(out) == 1  # nine present: two tables of four, one sits out
    seated = [pk for table in sides(evening, 1) for pk in table]
    assert sorted(seated + [out[0].pk]) == sorted(m.pk for m in people)
    assert all(pair.drawn for pair in individual_season.partnerships.all())
    assert individual_season.partnerships.count() == 4
    stored = EveningRound.objects.get(evening=evening, number=1)
    assert list(stored.sitting_out.all()) == out
    assert draw.sitting_out(evening) == out
    assert draw.not_drawn(evening) == []
    assert draw.players_here(evening) == 9


def test_over_three_rounds_nobody_partners_the_same_player_twice(club, individual_season,
                                                                 organiser_user):
    people = add_members(club, [f"P{i}" for i in range(8)])
    evening = an_evening(individual_season, people)
    for number in (1, 2, 3):
        draw.draw_round(evening, organiser_user, number)
    rounds = [sides(evening, number) for number in (1, 2, 3)]
    partnered = movement.partnerships(rounds)
    assert max(partnered.values()) == 1 and len(partnered) == 12
    for tables in rounds:
        assert sorted(pk for table in tables for pk in table) == sorted(m.pk for m in people)


def test_two_who_partnered_before_reuse_their_pair(club, individual_season, organiser_user):
    """Evenings of the same four: two who partnered earlier this season and are paired again
    play as the season's pair of them, one pair whatever evening they partnered at."""
    people = add_members(club, [f"P{i}" for i in range(4)])
    for day in range(1, 7):
        draw.draw_evening(an_evening(individual_season, people, rounds=1, day=day))
    pairs = Counter(frozenset(p.members) for p in individual_season.partnerships.all())
    assert max(pairs.values()) == 1 and len(pairs) <= 6  # of four, six twos; 12 sides played
    assert individual_season.evenings.count() == 6
    for evening in individual_season.evenings.all():
        assert sorted(pk for table in sides(evening, 1) for pk in table) == sorted(
            m.pk for m in people)


def test_the_registered_pairs_draw_never_draws_a_drawn_pair(club, bid_season, organiser_user):
    """A Bid Whist league of registered pairs draws its registered pairs only."""
    people = add_members(club, [f"P{i}" for i in range(4)])
    Partnership.objects.create(season=bid_season, first=people[0], second=people[1],
                               drawn=True)
    Partnership.objects.create(season=bid_season, first=people[2], second=people[3],
                               drawn=True)
    drawn, _sharing = draw.pairs_among(bid_season, {m.pk for m in people})
    assert drawn == []


def test_sit_outs_rotate_over_the_rounds(club, individual_season, organiser_user):
    people = add_members(club, [f"P{i}" for i in range(10)])
    evening = an_evening(individual_season, people, rounds=5)
    outs: Counter = Counter()
    for number in range(1, 6):
        _count, out = draw.draw_round(evening, organiser_user, number)
        outs.update(m.pk for m in out)
    assert sorted(outs.values()) == [1] * 10  # two a round, five rounds: each once


def test_sit_outs_rotate_over_the_seasons_evenings(club, individual_season):
    """Five evenings of five players drawn in one draw: each sits out one of them (a member who
    played a match sat at a table, though a match's table has no seats of its own)."""
    people = add_members(club, [f"P{i}" for i in range(5)])
    outs: Counter = Counter()
    for day in range(1, 6):
        _count, out = draw.draw_evening(an_evening(individual_season, people, rounds=1,
                                                   day=day))
        outs.update(m.pk for m in out)
    assert sorted(outs.values()) == [1] * 5


def league_url(league):
    return f"/clubs/{league.club.slug}/leagues/{league.pk}/edit/"


def test_the_leagues_form_offers_drawn_partners_to_bid_whist(as_organiser, bid_league,
                                                             solo_league):
    """A Bid Whist league with no pair yet chooses partners drawn each round on its settings
    page (a line of the club's history); a Solo league is not offered the choice."""
    from leagues.forms import LeagueForm

    from .conftest import league_form
    assert "partners" in LeagueForm(instance=bid_league).fields
    assert "partners" not in LeagueForm(instance=solo_league).fields
    answer = as_organiser.post(league_url(bid_league),
                               league_form(bid_league, partners="drawn"), follow=True)
    assert "Saved." in words(answer.content.decode())
    bid_league.refresh_from_db()
    assert bid_league.draws_partners
    history = words(as_organiser.get(f"/clubs/{bid_league.club.slug}/changes/").content.decode())
    assert ("Changed who partners whom from registered pairs, the same all season to partners "
            "drawn each round") in history
    # a page of before the setting (left out of the post) keeps it
    as_organiser.post(league_url(bid_league), league_form(bid_league, name="Bid Nights"))
    bid_league.refresh_from_db()
    assert bid_league.draws_partners and bid_league.name == "Bid Nights"


def test_a_new_solo_league_cannot_draw_partners(as_organiser, club):
    page = words(as_organiser.post(f"/clubs/{club.slug}/leagues/new/", {
        "name": "Solo Nights", "game": "solo_whist", "ranking": "total", "best_evenings": 6,
        "min_evenings": 0, "points_for_win": 2, "points_for_loss": 0,
        "tie_break": "difference", "rounds": 1, "partners": "drawn"}).content.decode())
    assert "Solo Whist is not played by partners: only Bid Whist draws them each round." in page
    assert not club.leagues.filter(name="Solo Nights").exists()


def test_the_partners_stay_once_a_season_has_pairs_of_the_other_kind(
        as_organiser, club, bid_season, individual_season, organiser_user):
    """Registered pairs: no drawing partners; drawn partners played: no registered pairs; each
    refused in words, nothing changed, no line in the club's history."""
    from leagues.models import ClubChange

    from .conftest import league_form
    league = individual_season.league
    people = add_members(club, [f"P{i}" for i in range(4)])
    draw.draw_evening(an_evening(individual_season, people, rounds=1))
    page = words(as_organiser.post(league_url(league), league_form(
        league, partners="registered")).content.decode())
    assert ("Bid Whist League has played with partners drawn each round already: it cannot "
            "register pairs now. Start a new league for registered pairs.") in page
    league.refresh_from_db()
    assert league.draws_partners
    other = League.objects.create(club=club, name="Pairs League", game="bid_whist")
    pairs_season = other.seasons.create(name="Spring")
    Partnership.objects.create(season=pairs_season, first=people[0], second=people[1])
    page = words(as_organiser.post(league_url(other), league_form(
        other, partners="drawn")).content.decode())
    assert ("Pairs League has registered pairs already: its partners cannot be drawn each "
            "round. Start a new league for players who come alone.") in page
    other.refresh_from_db()
    assert not other.draws_partners
    assert not ClubChange.objects.filter(action="league_edit").exists()


# -- standings per player (computed; not yet shown on a page) ---------------------------------


def test_the_standings_per_player_sum_the_pairs_each_was_in(club, individual_season,
                                                            organiser_user):
    """Two rounds of eight players, each match's result entered: a player's line is their
    matches whoever they partnered, summed: played, won, league points (2 a win, 0 a loss,
    the league's defaults) and the points difference."""
    people = add_members(club, [f"P{i}" for i in range(8)])
    evening = an_evening(individual_season, people, rounds=2)
    for number in (1, 2):
        draw.draw_round(evening, organiser_user, number)
    expected: dict[int, list] = {m.pk: [0, 0, 0, 0] for m in people}  # played, won, pts, diff
    for index, table in enumerate(evening.tables.select_related("pair_0", "pair_1")):
        scores = [7, 2 + index]  # pair_0 wins by 5 - index
        table.set_totals(scores, None)
        for side, pair in enumerate((table.pair_0, table.pair_1)):
            for pk in pair.members:
                expected[pk][0] += 1
                expected[pk][1] += side == 0
                expected[pk][2] += 2 if side == 0 else 0
                expected[pk][3] += scores[side] - scores[1 - side]
    rows = individual_season.league.score_kind.player_standings(individual_season)
    assert {row.member_id: [row.played, row.won, row.league_points, row.difference]
            for row in rows} == expected
    assert all(row.played == 2 and row.won + row.lost == 2 for row in rows)
    ranked = [(row.league_points, row.difference) for row in rows]
    assert ranked == sorted(ranked, reverse=True)
    assert rows[0].position == 1


def test_a_member_sitting_out_a_round_is_credited_the_leagues_score(club, individual_season,
                                                                    organiser_user):
    league = individual_season.league
    league.sit_out_credit, league.sit_out_score = League.SitOutCredit.FIXED, 1
    league.save()
    people = add_members(club, [f"P{i}" for i in range(5)])
    evening = an_evening(individual_season, people, rounds=1)
    _count, out = draw.draw_round(evening, organiser_user, 1)
    evening.tables.get().set_totals([7, 3], None)
    rows = {row.member_id: row for row in
            league.score_kind.player_standings(individual_season)}
    sitter = rows[out[0].pk]
    assert (sitter.played, sitter.league_points, sitter.credits) == (0, 1, 1)
    assert sorted(row.league_points for row in rows.values()) == [0, 0, 1, 2, 2]


# -- the season's standings per player, where users see them ----------------------------------


def season_url(season):
    return f"/clubs/{season.league.club.slug}/seasons/{season.pk}/"


def played_evening(season, people, organiser_user, rounds=2, day=3):
    """An evening of ``people`` in ``rounds`` rounds, each match won by its first pair 7 to 3;
    what each player should have: played, won, league points (2 a win), difference."""
    evening = an_evening(season, people, rounds=rounds, day=day)
    for number in range(1, rounds + 1):
        draw.draw_round(evening, organiser_user, number)
    expected: dict[int, list] = {}
    for table in evening.tables.select_related("pair_0", "pair_1"):
        table.set_totals([7, 3], None)
        for side, pair in enumerate((table.pair_0, table.pair_1)):
            for pk in pair.members:
                line = expected.setdefault(pk, [0, 0, 0, 0])
                line[0] += 1
                line[1] += side == 0
                line[2] += 2 if side == 0 else 0
                line[3] += 4 if side == 0 else -4
    return evening, expected


def test_the_season_page_ranks_players_summed_over_their_partners(
        club, individual_season, organiser_user, as_member):
    """Eight players, three rounds: the page lists each player once (no pair), with their
    matches summed whoever they partnered; the printed form is that page."""
    people = add_members(club, [f"P{i}" for i in range(8)])
    _evening, expected = played_evening(individual_season, people, organiser_user, rounds=3)
    response = as_member.get(season_url(individual_season))
    page = response.content.decode()
    rows = response.context["rows"]
    assert [row.name for row in rows if row.position] and len(rows) == 8
    assert {row.member_id: [row.played, row.won, row.league_points, row.difference]
            for row in rows} == expected
    assert "<th>Player</th>" in page and "<th>Pair</th>" not in page
    assert " &amp; " not in page  # no drawn pair named anywhere in the standings
    for member in people:
        assert f"/members/{member.pk}/" in page
    assert "No pair registered yet." not in page


def test_the_standings_csv_has_a_line_per_player(club, individual_season, organiser_user,
                                                 as_member):
    people = add_members(club, [f"P{i}" for i in range(8)])
    _evening, expected = played_evening(individual_season, people, organiser_user)
    lines = as_member.get(season_url(individual_season) + "standings.csv").content.decode(
        ).splitlines()
    assert lines[0].startswith("Position,Player,Played,Won,Lost,League points")
    names = {line.split(",")[1] for line in lines[1:]}
    assert names == {m.name for m in people}
    best = max(expected.values(), key=lambda line: (line[2], line[3]))
    assert lines[1].split(",")[2:6] == [str(best[0]), str(best[1]), str(best[0] - best[1]),
                                        str(best[2])]


def test_a_sit_out_credit_shows_in_the_players_standings(club, individual_season,
                                                         organiser_user, as_member):
    """Nine players, the league's fixed score 1 for a sit-out: whoever sat out a round has it
    in their league points on the page, and no match more."""
    league = individual_season.league
    league.sit_out_credit, league.sit_out_score = League.SitOutCredit.FIXED, 1
    league.save()
    people = add_members(club, [f"P{i}" for i in range(9)])
    evening, expected = played_evening(individual_season, people, organiser_user)
    sat_out = [m.pk for r in EveningRound.objects.filter(evening=evening)
               for m in r.sitting_out.all()]
    assert len(sat_out) == 2
    rows = {row.member_id: row for row in
            as_member.get(season_url(individual_season)).context["rows"]}
    assert len(rows) == 9
    for pk in sat_out:
        assert rows[pk].played == expected[pk][0] == 1
        assert rows[pk].league_points == expected[pk][2] + 1
    assert "The league points include what a pair or player who sits out a round is " \
           "credited with" in as_member.get(season_url(individual_season)).content.decode()


def test_the_kept_standings_follow_a_new_result(club, individual_season, organiser_user,
                                                as_member, settings):
    """The page keeps its rows between two changes of the results: a corrected score shows at
    once, per player."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "partners-drawn-kept"}}
    people = add_members(club, [f"P{i}" for i in range(4)])
    evening, _expected = played_evening(individual_season, people, organiser_user, rounds=1)
    first = as_member.get(season_url(individual_season)).context["rows"]
    assert sorted(row.difference for row in first) == [-4, -4, 4, 4]
    table = evening.tables.get()
    table.set_totals([7, 6], None)
    again = as_member.get(season_url(individual_season)).context["rows"]
    assert sorted(row.difference for row in again) == [-1, -1, 1, 1]
    assert "<th>Player</th>" in as_member.get(season_url(individual_season)).content.decode()


@pytest.mark.parametrize("players", [4, 12])
def test_the_players_standings_take_a_fixed_number_of_queries(
        club, individual_season, organiser_user, as_member, players,
        django_assert_max_num_queries):
    """Whatever the season's size: one query more than a season of registered pairs' (who sat
    out, read apart from the matches), with a credit."""
    league = individual_season.league
    league.sit_out_credit = League.SitOutCredit.AVERAGE
    league.save()
    people = add_members(club, [f"P{i}" for i in range(players + 1)])
    for day in range(1, players // 2):
        played_evening(individual_season, people, organiser_user, rounds=2, day=day)
    with django_assert_max_num_queries(10):
        response = as_member.get(season_url(individual_season))
    assert len(response.context["rows"]) == players + 1


# -- the evening's standings and prizes per player ---------------------------------------------


@pytest.fixture
def prized_evening(club, individual_season, organiser_user):
    """Five players, one round, the league's prizes on and a sit-out credited 1: the winning
    pair's two players 2 league points (difference +4) each, the sitter 1, the losers 0."""
    league = individual_season.league
    league.prize_winner, league.prize_winner_text = True, "a bottle of wine"
    league.prize_runner_up = league.prize_booby = True
    league.sit_out_credit, league.sit_out_score = League.SitOutCredit.FIXED, 1
    league.save()
    people = add_members(club, ["Ana", "Bob", "Cy", "Di", "Ed"])
    evening = an_evening(individual_season, people, rounds=1)
    _count, out = draw.draw_round(evening, organiser_user, 1)
    table = evening.tables.select_related("pair_0__first", "pair_0__second", "pair_1__first",
                                          "pair_1__second").get()
    table.set_totals([7, 3], None)
    winners = sorted(m.name for m in (table.pair_0.first, table.pair_0.second))
    losers = sorted(m.name for m in (table.pair_1.first, table.pair_1.second))
    return evening, winners, out[0].name, losers


def words(html: str) -> str:
    import re
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_evenings_prizes_go_to_players(as_organiser, prized_evening):
    evening, winners, sitter, losers = prized_evening
    page = words(as_organiser.get(evening.get_absolute_url()).content.decode())
    assert (f"Winner: {', '.join(winners)} 2 league points, difference +4 · a bottle of wine"
            in page)
    assert f"Runner-up: {sitter} 1 league point, difference 0" in page
    assert f"Booby prize: {', '.join(losers)} 0 league points, difference −4" in page
    prizes = page.split("Prizes of the evening")[1].split("Send the results")[0]
    assert " &amp; " not in prizes  # the tables name their pairs; the prizes, players
    assert "Position Player Evening" in page


def test_the_results_email_and_the_board_rank_players(as_organiser, prized_evening):
    from django.core import mail

    from leagues.board import board_context
    evening, winners, sitter, losers = prized_evening
    as_organiser.post(f"/clubs/{evening.season.league.club.slug}/evenings/{evening.pk}/"
                      "results/send/", {"seen": 0}, follow=True)
    body = mail.outbox[0].body
    for name in winners:
        assert f"1. {name} 2 league points, difference +4" in body
    assert f"3. {sitter} 1 league point, difference 0" in body
    for name in losers:
        assert f"4. {name} 0 league points, difference −4" in body
    assert f"Winner: {', '.join(winners)} (2 league points, difference +4)" in body
    standings = board_context(evening)["standings"]
    assert sorted(line.name for line in standings) == sorted([*winners, sitter, *losers])


def test_a_players_page_shows_the_round_they_sat_out_credited(as_organiser, prized_evening):
    evening, _winners, sitter, _losers = prized_evening
    from leagues.models import Member
    member = Member.objects.get(name=sitter)
    page = words(as_organiser.get(
        f"/clubs/{member.club.slug}/members/{member.pk}/").content.decode())
    # a one-round evening: "sat out, credited" (an evening in rounds names the round)
    assert "3 February 2030 sat out, credited Bid Whist League 1 (league points)" in page


def test_a_players_page_shows_the_evening_of_the_matches_they_played(as_organiser,
                                                                    prized_evening):
    evening, winners, _sitter, losers = prized_evening
    from leagues.models import Member
    for name, score in ((winners[0], "2"), (losers[0], "0")):
        member = Member.objects.get(name=name)
        page = words(as_organiser.get(
            f"/clubs/{member.club.slug}/members/{member.pk}/").content.decode())
        assert f"3 February 2030 Bid Whist League {score} (league points)" in page
        assert "No result yet." not in page


# -- no registered pair in such a league ---------------------------------------------------------


def test_no_pair_is_registered_and_no_drawn_pair_is_listed(club, individual_season,
                                                           organiser_user, as_organiser):
    """The season's page offers no "Register a pair"; its address refuses in words and
    registers nothing; a player's page lists no pair of a round as a pair of theirs."""
    people = add_members(club, [f"P{i}" for i in range(4)])
    played_evening(individual_season, people, organiser_user, rounds=1)
    page = as_organiser.get(season_url(individual_season)).content.decode()
    assert "New evening" in page and "Register a pair" not in page
    before = individual_season.partnerships.count()
    for answer in (as_organiser.get(season_url(individual_season) + "pairs/new/", follow=True),
                   as_organiser.post(season_url(individual_season) + "pairs/new/", {
                       "first": people[0].pk, "second": people[2].pk, "name": "Us"},
                       follow=True)):
        assert ("In Bid Whist League partners are drawn each round: players come alone and no "
                "pair is registered.") in words(answer.content.decode())
    assert individual_season.partnerships.count() == before
    member_page = words(as_organiser.get(
        f"/clubs/{club.slug}/members/{people[0].pk}/").content.decode())
    assert "Pairs" not in member_page.split("Evenings", 1)[1] and " &amp; " not in member_page


def test_a_league_of_registered_pairs_still_registers_them(club, bid_season, as_organiser):
    page = as_organiser.get(season_url(bid_season)).content.decode()
    assert "Register a pair" in page
    assert as_organiser.get(season_url(bid_season) + "pairs/new/").status_code == 200


# -- charts and head to head per player ----------------------------------------------------------


def test_the_season_chart_draws_a_line_per_player(club, individual_season, organiser_user,
                                                  as_member):
    people = add_members(club, [f"P{i}" for i in range(8)])
    played_evening(individual_season, people, organiser_user, rounds=2)
    svg = as_member.get(season_url(individual_season) + "chart.svg").content.decode()
    for member in people:
        assert f">{member.name}<" in svg or f">{member.name} (tied)<" in svg
    assert " &amp; " not in svg


def test_head_to_head_compares_two_players_whoever_partnered_them(
        club, individual_season, organiser_user, as_member):
    """Four players over three one-round evenings: the page offers the players and gives the
    matches two of them played against each other (not those they partnered in)."""
    people = add_members(club, [f"P{i}" for i in range(4)])
    for day in (1, 2, 3):
        played_evening(individual_season, people, organiser_user, rounds=1, day=day)
    url = season_url(individual_season) + "head-to-head/"
    page = as_member.get(url)
    assert [str(c) for c in page.context["choices"]] == [m.name for m in people]
    from leagues.models import EveningTable, Member
    first_match = EveningTable.objects.filter(evening__season=individual_season).select_related(
        "pair_0", "pair_1").order_by("evening__date").first()
    a = Member.objects.get(pk=first_match.pair_0.first_id)
    b = Member.objects.get(pk=first_match.pair_1.first_id)  # opponents at least once
    answer = as_member.get(url, {"a": a.pk, "b": b.pk})
    meetings = answer.context["meetings"]
    partnered = sum({a.pk, b.pk} in ({*t.pair_0.members}, {*t.pair_1.members})
                    for t in EveningTable.objects.filter(evening__season=individual_season)
                    .select_related("pair_0", "pair_1"))
    assert len(meetings) == 3 - partnered >= 1
    for meeting in meetings:
        assert {meeting["first"], meeting["second"]} == {"7", "3"}
        assert meeting["winner"] in (a, b)
    assert "They have not met this season." not in answer.content.decode()


def test_a_players_chart_shows_their_matches_whoever_partnered_them(
        club, individual_season, organiser_user, as_member):
    people = add_members(club, [f"P{i}" for i in range(4)])
    for day in (1, 2):
        played_evening(individual_season, people, organiser_user, rounds=1, day=day)
    league = individual_season.league
    page = words(as_member.get(f"/clubs/{club.slug}/members/{people[0].pk}/").content.decode())
    assert "the score of each match." in page and " won of 2;" in page
    answer = as_member.get(f"/clubs/{club.slug}/members/{people[0].pk}/charts/{league.pk}.svg")
    assert answer.status_code == 200 and ">P0<" in answer.content.decode()


def test_a_guest_is_drawn_as_anyone_and_told_so(club, individual_season, organiser_user,
                                                as_organiser):
    """No pair to register a guest in: the organiser is told the guest will be in the draw,
    and the draw seats them (or sits them out) with the others."""
    people = add_members(club, [f"P{i}" for i in range(3)])
    evening = an_evening(individual_season, people, rounds=1)
    page = words(as_organiser.post(f"/clubs/{club.slug}/evenings/{evening.pk}/guests/",
                                   {"name": "Gus"}, follow=True).content.decode())
    assert "Gus plays this evening as a guest: they are marked coming and will be in the draw." \
        in page
    assert "registered in a pair" not in page
    draw.draw_round(evening, organiser_user, 1)
    seated = {pk for table in sides(evening, 1) for pk in table}
    assert {m.name for m in club.members.filter(pk__in=seated)} == {"P0", "P1", "P2", "Gus"}


def test_a_bid_whist_leagues_settings_page_saves(as_organiser, bid_league):
    """Its form leaves out what a Bid Whist league does not offer (tables of five): saving it
    neither fails nor changes that."""
    from .conftest import league_form
    answer = as_organiser.post(league_url(bid_league), league_form(bid_league, name="Bid Nights"),
                               follow=True)
    assert answer.status_code == 200 and "Saved." in words(answer.content.decode())
    bid_league.refresh_from_db()
    assert bid_league.name == "Bid Nights" and bid_league.odd_numbers == League.OddNumbers.SIT_OUT


def test_the_season_chart_ends_each_line_at_the_players_standings(club, individual_season,
                                                                  organiser_user, as_member):
    """A round sat out and credited is in the chart's line as in the standings: nobody's line
    ends below their league points."""
    from leagues import charts
    league = individual_season.league
    league.sit_out_credit, league.sit_out_score = League.SitOutCredit.FIXED, 1
    league.save()
    people = add_members(club, [f"P{i}" for i in range(9)])
    played_evening(individual_season, people, organiser_user, rounds=3, day=1)
    played_evening(individual_season, people, organiser_user, rounds=2, day=2)
    lines = dict(charts.season_series(individual_season)["lines"])
    rows = as_member.get(season_url(individual_season)).context["rows"]
    assert {row.name: row.league_points for row in rows} == {
        name: values[-1] for name, values in lines.items()}
