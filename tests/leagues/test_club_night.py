"""The smaller losses of a club night: a member's own page and the league's house rules within
reach, a calendar app following a members-only club through a member's secret address, the
printed Solo sheet's partner column, and dates and decimals as French, Dutch and Portuguese
readers write them."""

import datetime
import re

import pytest

from leagues.models import Club, Evening, League, Member, Season

from .conftest import add_members, make_solo_table


def club_url(club, path=""):
    return f"/clubs/{club.slug}/{path}"


def text_of(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


# -- my page ---------------------------------------------------------------------------------


def test_a_member_finds_their_own_page_from_the_club(as_member, club, member):
    page = as_member.get(club_url(club)).content.decode()
    mine = f'href="/clubs/{club.slug}/members/{member.pk}/"'
    assert page.count(mine) == 2  # in the club's menu and on its page
    assert "My page (Mike)" in page
    season_page = as_member.get(club_url(club, "members/")).content.decode()
    assert f'{mine}>My page</a>' in season_page  # the menu, on every page of the club


def test_an_outsider_of_a_public_club_has_no_page_of_their_own(as_outsider, club):
    club.is_public = True
    club.save()
    page = as_outsider.get(club_url(club)).content.decode()
    assert "My page" not in page and "/members/" not in page


# -- house rules ---------------------------------------------------------------------------


def test_members_read_every_house_rule_and_only_organisers_change_them(
        as_member, client, solo_league, organiser_user, outsider_user):
    solo_league.rules = {"stake_multiplier": 5}
    solo_league.save()
    club = solo_league.club
    league_page = as_member.get(club_url(club, f"leagues/{solo_league.pk}/")).content.decode()
    rules_url = club_url(club, f"leagues/{solo_league.pk}/rules/")
    assert f'href="{rules_url}"' in league_page
    page = as_member.get(rules_url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Stakes multiplied by" in html and 'value="5' in html  # the league's own value
    assert "Only its organisers change them." in html
    assert "<fieldset disabled>" in html and 'type="submit"' not in html.split("<main")[-1]
    assert as_member.post(rules_url, {"stake_multiplier": "2"}).status_code == 403
    solo_league.refresh_from_db()
    assert solo_league.rules == {"stake_multiplier": 5}
    client.force_login(outsider_user)
    assert client.get(rules_url).status_code == 404  # a members-only club
    client.force_login(organiser_user)
    assert 'type="submit"' in client.get(rules_url).content.decode()


# -- the member's calendar address -----------------------------------------------------------


@pytest.fixture
def evening_at_the_swan(solo_season):
    return Evening.objects.create(season=solo_season, date=datetime.date(2030, 1, 7),
                                  start_time=datetime.time(19, 30), venue="The Swan")


def make_address(client, member) -> str:
    page = client.post(club_url(member.club, f"members/{member.pk}/calendar/"), follow=True)
    assert page.status_code == 200
    (address,) = re.findall(r'id="calendar-address" type="text" readonly value="([^"]+)"',
                            page.content.decode())
    return address.removeprefix("http://testserver")


def test_a_calendar_app_follows_a_members_only_club_at_the_members_secret_address(
        as_member, client, member, evening_at_the_swan):
    club = member.club
    own_page = as_member.get(club_url(club, f"members/{member.pk}/")).content.decode()
    assert "Make my calendar address" in own_page and "calendar-address" not in own_page
    address = make_address(as_member, member)
    assert re.fullmatch(rf"/clubs/{club.slug}/calendar/[\w-]{{32}}\.ics\?lang=en", address)
    client.logout()  # a calendar app: no session
    assert client.get(club_url(club, "calendar.ics")).status_code == 404
    feed = client.get(address)
    assert feed.status_code == 200 and feed["Content-Type"].startswith("text/calendar")
    body = feed.content.decode()
    assert "LOCATION:The Swan" in body and "DTSTART" in body


def test_a_wrong_or_replaced_address_is_a_404_that_tells_nothing(
        as_member, client, member, evening_at_the_swan, organiser_user):
    club = member.club
    old = make_address(as_member, member).removesuffix("?lang=en")
    new = make_address(as_member, member).removesuffix("?lang=en")
    assert new != old
    other = Club.create_with_organiser(organiser_user, name="The Swan Whist Club")
    token = new.rsplit("/", 1)[1]
    client.logout()
    for wrong in (old, new[:-6] + "x.ics", club_url(club, "calendar/.ics"),
                  club_url(other, f"calendar/{token}"), club_url(club, "calendar/" + "a" * 80
                                                                       + ".ics")):
        response = client.get(wrong)
        assert response.status_code == 404, wrong
        assert b"The Swan" not in response.content and b"VCALENDAR" not in response.content
    assert client.get(new).status_code == 200


def test_only_the_member_makes_their_address_and_it_ends_with_their_login(
        as_organiser, client, member, member_user, evening_at_the_swan):
    url = club_url(member.club, f"members/{member.pk}/calendar/")
    assert as_organiser.post(url).status_code == 403  # not even an organiser
    member.refresh_from_db()
    assert member.calendar_token is None
    client.force_login(member_user)
    address = make_address(client, member)
    Member.objects.filter(pk=member.pk).update(user=None)  # the account was deleted
    client.logout()
    assert client.get(address).status_code == 404


def test_a_public_club_gives_its_public_address(as_member, member, evening_at_the_swan):
    club = member.club
    club.is_public = True
    club.save()
    page = as_member.get(club_url(club, f"members/{member.pk}/")).content.decode()
    assert f'value="http://testserver/clubs/{club.slug}/calendar.ics?lang=en"' in page
    assert "Make my calendar address" not in page


# -- the printed score sheet ------------------------------------------------------------------


def test_the_printed_solo_sheet_has_a_partner_column(as_member, solo_table, bid_table):
    evening = solo_table.evening
    page = as_member.get(club_url(evening.season.league.club,
                                  f"evenings/{evening.pk}/sheet/")).content.decode()
    headings = re.findall(r"<th>([^<]*)</th>", page)
    assert headings[:5] == ["#", "Contract", "Declarer", "Partner (prop and cop)", "Tricks"]
    first_line = re.search(r"<tr><td>1</td>(.*?)</tr>", page).group(1)
    assert first_line.count("<td></td>") == 4 + 4  # one box a heading, one a player
    bid = as_member.get(club_url(evening.season.league.club,
                                 f"evenings/{bid_table.evening.pk}/sheet/")).content.decode()
    assert "Partner" not in bid


# -- dates and decimals in the reader's language ----------------------------------------------


@pytest.fixture
def season_with_halves(solo_league, organiser, member, organiser_user):
    """A season of one evening (Monday 7 January 2030) whose totals average 1.5 a player."""
    season = Season.objects.create(league=solo_league, name="Winter")
    others = add_members(organiser.club, ["Nell", "Pat"])
    for day in (7, 14):
        evening = Evening.objects.create(season=season, date=datetime.date(2030, 1, day),
                                         venue="The Crown")
        table = make_solo_table(evening, [organiser, member, *others])
        table.set_totals([2, 1, -1, -2] if day == 7 else [1, 2, -2, -1], organiser_user)
    return season


@pytest.mark.parametrize("language, day, average", [
    ("en", "Monday 7 January 2030", "1.5"),
    ("fr", "lundi 7 janvier 2030", "1,5"),
    ("nl", "maandag 7 januari 2030", "1,5"),
    ("pt", "segunda-feira, 7 de Janeiro de 2030", "1,5"),
])
def test_dates_and_decimals_read_as_each_language_writes_them(as_member, season_with_halves,
                                                              language, day, average):
    club = season_with_halves.league.club
    page = text_of(as_member.get(club_url(club, f"seasons/{season_with_halves.pk}/"),
                                 HTTP_ACCEPT_LANGUAGE=language))
    assert day.lower() in page.lower()
    assert f" {average} " in page
    assert "Jan " not in page and "Janv" not in page


def test_a_french_chart_and_history_write_french_dates(as_organiser, season_with_halves):
    club = season_with_halves.league.club
    svg = as_organiser.get(club_url(club, f"seasons/{season_with_halves.pk}/chart.svg"),
                           HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "7 janvier" in svg and "Jan" not in svg
    assert "7 Jan" in as_organiser.get(club_url(club, f"seasons/{season_with_halves.pk}/"
                                                      "chart.svg")).content.decode()


def test_the_house_rules_example_stake_reads_with_a_decimal_comma(as_organiser, solo_league):
    url = club_url(solo_league.club, f"leagues/{solo_league.pk}/rules/")
    for language, sentence in [("fr", "ou 0,1 pour les débutants"), ("nl", "of 0,1 voor"),
                               ("pt", "ou 0,1 para"), ("en", "or 0.1 for beginners")]:
        page = text_of(as_organiser.get(url, HTTP_ACCEPT_LANGUAGE=language))
        assert sentence in page, language


def test_every_league_in_every_language_formats_its_dates_with_django(as_member, club):
    """No hand-written month in a league page: a Dutch evening page reads as Dutch does."""
    league = League.objects.create(club=club, name="Dinsdag", game="solo_whist")
    season = Season.objects.create(league=league, name="Winter")
    evening = Evening.objects.create(season=season, date=datetime.date(2030, 12, 10))
    page = text_of(as_member.get(club_url(club, f"evenings/{evening.pk}/"),
                                 HTTP_ACCEPT_LANGUAGE="nl"))
    assert "dinsdag 10 december 2030" in page
    french = text_of(as_member.get(club_url(club, f"evenings/{evening.pk}/"),
                                   HTTP_ACCEPT_LANGUAGE="fr"))
    assert "mardi 10 décembre 2030" in french and "Déc" not in french


def test_a_leagues_decimal_stake_reads_with_a_decimal_comma(as_member, solo_league):
    solo_league.rules = {"stake_multiplier": 0.1}
    solo_league.save()
    url = club_url(solo_league.club, f"leagues/{solo_league.pk}/")
    assert "Stakes multiplied by: 0.1" in text_of(as_member.get(url))
    assert "Mises multipliées par : 0,1" in text_of(as_member.get(url, HTTP_ACCEPT_LANGUAGE="fr"))
    assert "0,1" in text_of(as_member.get(url, HTTP_ACCEPT_LANGUAGE="nl"))


def test_every_column_of_the_organisers_tables_has_a_heading(as_organiser, club, solo_table):
    """A screen reader names each column by its heading: none is an empty heading cell (the
    score sheet's footer, the members' buttons, the bulk preview's verdicts)."""
    pages = [as_organiser.get(solo_table.get_absolute_url()),
             as_organiser.get(club_url(club, "members/")),
             as_organiser.post(club_url(club, "members/bulk/"), {"names": "Ann\nBob"})]
    for page in pages:
        assert page.status_code == 200
        assert re.findall(r"<th[^>]*>\s*</th>", page.content.decode()) == []


def test_the_calendar_speaks_the_language_of_the_page_that_gave_its_address(
        client, member, member_user, evening_at_the_swan):
    """A calendar app asks for no language: the address a French member copies names theirs,
    and a cancelled evening reads "Annulée : …" in their calendar, not "Cancelled: …"."""
    from django.utils import timezone

    Evening.objects.filter(pk=evening_at_the_swan.pk).update(cancelled_at=timezone.now())
    client.force_login(member_user)
    page = client.post(club_url(member.club, f"members/{member.pk}/calendar/"), follow=True,
                       HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    (address,) = re.findall(r'id="calendar-address" type="text" readonly value="([^"]+)"', page)
    assert address.endswith("?lang=fr")
    nav = client.get(club_url(member.club), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f'href="/clubs/{member.club.slug}/calendar.ics?lang=fr"' in nav
    client.logout()  # the calendar app
    feed = client.get(address.removeprefix("http://testserver")).content.decode()
    assert "SUMMARY:Annulée\u00a0: The Crown Whist Club: Tuesday Solo" in feed
    assert "Cancelled" not in feed
    english = client.get(address.removeprefix("http://testserver").replace("lang=fr", "lang=en"))
    assert "SUMMARY:Cancelled: The Crown Whist Club: Tuesday Solo" in english.content.decode()
