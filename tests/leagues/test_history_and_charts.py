"""What an organiser reads after an evening: the history of changes in sentences (in the
reader's language, with the club's names for people and numbers as people write them), a
member's charts (one per league, never two games mixed) and the season's chart, and small
display rules (a negative score, an evening without a start time)."""

import datetime
import re

import pytest

from leagues.models import Evening, League, Season

from .conftest import add_members, bid, make_solo_table, solo

pytestmark = pytest.mark.django_db

RAW = ["{'", "None", ".000000", "@olga", "@mike"]


def changes_url(table):
    return f"/clubs/{table.league.club.slug}/tables/{table.pk}/changes/"


def changes_text(client, table, language="en"):
    page = client.get(changes_url(table), HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    return page


def named(organiser, member):
    # The club's names for the two people with a login: not their usernames.
    organiser.name, member.name = "Olga Organiser", "Mike Member"
    organiser.save()
    member.save()


def lines(page) -> list[str]:
    return [" · ".join([row["headline"], *row["details"]]) for row in page.context["rows"]]


def check_readable(text):
    for raw in RAW:
        assert raw not in text, raw


@pytest.fixture
def table_at_the_table(solo_table, organiser, member):
    """Players enter results at the table; Mike is seated, Nell (an opponent) too."""
    named(organiser, member)
    league = solo_table.league
    league.players_enter_results = True
    league.save()
    return solo_table


@pytest.mark.parametrize("language", ["en", "fr"])
def test_each_kind_of_change_reads_as_a_sentence(as_organiser, table_at_the_table,
                                                 organiser_user, organiser, member, language):
    table = table_at_the_table
    table.add_deal(solo("solo", 0, 6), organiser_user, organiser)
    table.add_deal(solo("misere", 1, 0), member.user, member)  # provisional
    table.confirm(organiser_user, organiser)
    table.change_deal(2, solo("misere", 1, 1), organiser_user, organiser)
    table.change_deal(1, None, organiser_user, organiser)
    page = changes_text(as_organiser, table, language)
    text = page.content.decode()
    check_readable(text)
    rows = lines(page)
    assert len(rows) == 5
    if language == "en":
        assert rows[0].startswith("Deal 1 deleted by Olga Organiser · It read: Olga Organiser: "
                                  "Solo, 6 tricks")
        assert rows[1].startswith("Deal 2 corrected by Olga Organiser · Mike Member: Misère, 0 "
                                  "tricks → Mike Member: Misère, 1 trick · Totals: ")
        assert "Mike Member +6 → −12" in rows[1]
        assert rows[2] == ("Deal 2 confirmed by Olga Organiser · The table's result now counts "
                           "in the standings.")
        assert rows[3].startswith("Deal 2 entered by Mike Member, waiting for an opponent's "
                                  "confirmation · Mike Member: Misère, 0 tricks")
        assert rows[4] == ("Deal 1 entered by Olga Organiser · Olga Organiser: Solo, 6 tricks · "
                           "Totals: Olga Organiser 0 → +9, Mike Member 0 → −3, Nell 0 → −3, "
                           "Pat 0 → −3")
    else:
        # The lines of the sheet in the reader's language.
        assert ("Mike Member\u00a0: Misère, 0 pli → Mike Member\u00a0: Misère, 1 pli"
                in rows[1])
        assert "Olga Organiser\u00a0: Solo, 6 plis" in rows[4]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_totals_and_their_confirmation_read_as_sentences(as_organiser, table_at_the_table,
                                                         organiser_user, organiser, member,
                                                         language):
    table = table_at_the_table
    table.set_totals(["12", "-4", "-4.5", "-3.5"], member.user, member)
    table.confirm(organiser_user, organiser)
    page = changes_text(as_organiser, table, language)
    check_readable(page.content.decode())
    rows = lines(page)
    if language == "fr":
        assert rows[1].startswith("Totaux saisis par Mike Member, en attente de la "
                                  "confirmation d’un adversaire · Totaux\u00a0: Olga Organiser +12, "
                                  "Mike Member −4, Nell ")
        assert rows[0].startswith("Totaux confirmés par Olga Organiser")
    else:
        assert rows[1].startswith("Totals entered by Mike Member, waiting for an opponent's "
                                  "confirmation · Totals: Olga Organiser +12, Mike Member −4, "
                                  "Nell ")
        assert rows[0].startswith("Totals confirmed by Olga Organiser")
    decimal = "4,5" if language == "fr" else "4.5"
    assert f"Nell −{decimal}" in rows[1]


def test_a_match_history_gives_scores_and_the_winner(as_organiser, bid_table, organiser_user,
                                                     organiser, member):
    named(organiser, member)
    bid_table.add_deal(bid(0, 3, "uptown", 6), organiser_user, organiser)  # set: −3
    bid_table.add_deal(bid(1, 5, "uptown", 13), organiser_user, organiser)
    page = changes_text(as_organiser, bid_table)
    check_readable(page.content.decode())
    rows = lines(page)
    assert "Scores: Aces 0 → −3" in rows[1]
    assert rows[0].endswith("Kings won the match.")


def test_the_history_is_for_those_who_see_the_table(client, table_at_the_table,
                                                    organiser_user, outsider_user):
    table_at_the_table.add_deal(solo("solo", 0, 6), organiser_user)
    client.force_login(outsider_user)
    assert client.get(changes_url(table_at_the_table)).status_code == 404


# -- charts ----------------------------------------------------------------------------------


def member_url(member, suffix=""):
    return f"/clubs/{member.club.slug}/members/{member.pk}/{suffix}"


@pytest.fixture
def two_games(club, organiser, member, organiser_user):
    """The organiser plays a Solo league and a Belgian league, and a Bid Whist match."""
    others = add_members(club, ["Nell", "Pat"])
    leagues = {}
    for game, name, day in [("solo_whist", "Tuesday Solo", 7),
                            ("belgian_whist", "Thursday Belgian", 9)]:
        league = League.objects.create(club=club, name=name, game=game)
        season = Season.objects.create(league=league, name="Winter")
        for week in range(2):
            evening = Evening.objects.create(season=season,
                                             date=datetime.date(2030, 1, day + 7 * week))
            table = make_solo_table(evening, [organiser, member, *others])
            if game == "solo_whist":
                table.add_deal(solo("solo", 0, 6 + week), organiser_user)
            else:
                table.add_deal({**solo("solo", 0, 6 + week), "level": 6}, organiser_user)
        leagues[game] = league
    return leagues


def test_a_member_page_draws_one_chart_per_league(as_member, two_games, organiser):
    page = as_member.get(member_url(organiser))
    text = page.content.decode()
    images = re.findall(r'<img src="([^"]+\.svg)"', text)
    assert images == [member_url(organiser, f"charts/{two_games[g].pk}.svg")
                      for g in ("belgian_whist", "solo_whist")]
    assert [c["league"].name for c in page.context["charts"]] == ["Thursday Belgian",
                                                                  "Tuesday Solo"]
    solo_svg = as_member.get(images[1])
    assert solo_svg["Content-Type"].startswith("image/svg+xml")
    svg = solo_svg.content.decode()
    assert "Tuesday Solo" in svg and "Thursday Belgian" not in svg
    assert "7 Jan" in svg and "14 Jan" in svg and "9 Jan" not in svg  # its own evenings
    assert "Running balance" in svg  # the y axis says what it counts
    belgian = as_member.get(images[0]).content.decode()
    assert "Thursday Belgian" in belgian and "9 Jan" in belgian and "7 Jan" not in belgian


def test_a_member_page_keeps_one_balance_per_league(as_member, two_games, organiser):
    page = as_member.get(member_url(organiser))
    rows = [(item["evening"].season.league.name, item["total"], item["balance"])
            for item in page.context["evenings"]]
    # Solo on the 7th, Belgian on the 9th: the Belgian balance starts from its own points.
    assert rows[1][0] == "Thursday Belgian" and rows[1][2] == rows[1][1]
    assert rows[0][0] == "Tuesday Solo" and rows[2][0] == "Tuesday Solo"
    assert int(rows[2][2]) == int(rows[0][1]) + int(rows[2][1])


def test_a_match_league_chart_shows_matches_won(as_member, bid_table, organiser_user, member):
    bid_table.add_deal(bid(1, 5, "uptown", 13), organiser_user)
    page = as_member.get(member_url(member))
    (chart,) = page.context["charts"]
    assert chart["caption"] == "Bid Whist League: 1 match won of 1; the score of each match."
    svg = as_member.get(member_url(member, f"charts/{bid_table.league.pk}.svg")).content.decode()
    assert "Bid Whist League" in svg and "3 Feb" in svg and "Opponents" in svg


def test_charts_follow_the_pages_access_rules(client, two_games, organiser, outsider_user,
                                              member_user):
    league = two_games["solo_whist"]
    season = league.seasons.get()
    chart = member_url(organiser, f"charts/{league.pk}.svg")
    season_chart = f"/clubs/{league.club.slug}/seasons/{season.pk}/chart.svg"
    client.force_login(outsider_user)
    assert client.get(chart).status_code == 404  # a members-only club
    assert client.get(season_chart).status_code == 404
    league.club.is_public = True
    league.club.save()
    assert client.get(chart).status_code == 403  # people are for members, even in public
    assert client.get(season_chart).status_code == 200
    client.force_login(member_user)
    assert client.get(chart).status_code == 200


def test_the_season_page_charts_totals_by_evening(as_member, two_games):
    season = two_games["solo_whist"].seasons.get()
    page = as_member.get(f"/clubs/{season.league.club.slug}/seasons/{season.pk}/")
    assert f"/seasons/{season.pk}/chart.svg" in page.content.decode()
    svg = as_member.get(f"/clubs/{season.league.club.slug}/seasons/{season.pk}/chart.svg")
    text = svg.content.decode()
    assert "7 Jan" in text and "14 Jan" in text and "Nell" in text
    # Served as an image: scripts never run there; its own <style> is allowed on it alone.
    assert "'unsafe-inline'" in svg["Content-Security-Policy"]
    assert "'unsafe-inline'" not in page["Content-Security-Policy"]


# -- small display rules ---------------------------------------------------------------------


def test_a_negative_pair_score_reads_with_a_minus_sign(as_member, bid_table, organiser_user):
    bid_table.add_deal(bid(0, 7, "uptown", 6), organiser_user)  # set at 7: −7, the match ends
    club = bid_table.league.club
    page = as_member.get(f"/clubs/{club.slug}/pairs/{bid_table.pair_0.pk}/")
    assert page.context["matches"][0]["score"] == "−7 – 0"
    assert "–-" not in page.content.decode()


def test_an_evening_without_a_start_time_has_no_leading_separator(as_member, solo_evening):
    page = as_member.get(f"/clubs/{solo_evening.season.league.club.slug}/evenings/"
                         f"{solo_evening.pk}/").content.decode()
    assert "<p>The Crown · " in page
    solo_evening.start_time = datetime.time(19, 30)
    solo_evening.save()
    page = as_member.get(f"/clubs/{solo_evening.season.league.club.slug}/evenings/"
                         f"{solo_evening.pk}/").content.decode()
    assert "<p>19:30 · The Crown · " in page
