"""A season's standings are kept between two changes of its results (``leagues.standings.
shown_standings``, keyed on ``Season.results_version``): the page shows each change at once,
whichever write makes it, and asks the database fewer questions while nothing changes."""

import datetime
import re
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from leagues import edits, guests
from leagues.models import Evening, EveningRound, EveningTable, League, Season, TableSeat

from .conftest import add_members, league_form, make_solo_table, solo

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def shown(client, season) -> dict:
    """Each row of the season's page: name → (total, evenings), as the page shows them."""
    response = client.get(season.get_absolute_url())
    assert response.status_code == 200
    body = response.content.decode()
    table = body.split('<table class="data standings">', 1)[1].split("</table>", 1)[0]
    rows = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)[1:]:
        cells = [re.sub(r"<[^>]+>", "", cell).strip()
                 for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        if len(cells) > 3:
            rows[cells[1].removesuffix(" guest").strip()] = (cells[3], cells[2])
    return rows


def totals(client, season) -> dict:
    return {name: total for name, (total, _evenings) in shown(client, season).items()}


def test_a_deal_entered_corrected_deleted_and_put_back_shows_at_once(
        as_organiser, organiser_user, solo_season, solo_table):
    assert totals(as_organiser, solo_season) == {}
    solo_table.add_deal(solo("solo", 0, 5), organiser_user)
    first = totals(as_organiser, solo_season)
    assert first["Nell"] not in ("0", "+0")
    assert totals(as_organiser, solo_season) == first  # kept: the same rows again
    solo_table.change_deal(1, solo("solo", 0, 2), organiser_user)
    corrected = totals(as_organiser, solo_season)
    assert corrected != first
    deletion = solo_table.change_deal(1, None, organiser_user)
    assert set(totals(as_organiser, solo_season).values()) <= {"0", "+0"}
    solo_table.restore_deal(deletion.pk, organiser_user)
    assert totals(as_organiser, solo_season) == corrected


def test_totals_typed_and_cleared_show_at_once(as_organiser, organiser_user, solo_season,
                                              solo_table):
    totals(as_organiser, solo_season)
    solo_table.set_totals([Decimal(6), Decimal(-2), Decimal(-2), Decimal(-2)], organiser_user)
    assert totals(as_organiser, solo_season)["Nell"] == "−2"
    solo_table.clear_totals(organiser_user)
    assert "Nell" not in totals(as_organiser, solo_season)


def test_a_table_deleted_shows_at_once(as_organiser, organiser_user, solo_season, solo_table):
    solo_table.set_totals([Decimal(6), Decimal(-2), Decimal(-2), Decimal(-2)], organiser_user)
    assert "Nell" in totals(as_organiser, solo_season)
    edits.delete_table(solo_table, organiser_user)
    assert totals(as_organiser, solo_season) == {}


@pytest.fixture
def evening_in_rounds(solo_season, club):
    """Round 1: Ana, Bob, Carla, Dan at table 1 (+6, −2, −2, −2), Eva sits out."""
    players = add_members(club, ["Ana", "Bob", "Carla", "Dan", "Eva"])
    evening = Evening.objects.create(season=solo_season, date=datetime.date(2030, 1, 7),
                                     rounds=2)
    table = make_solo_table(evening, players[:4])
    table.set_totals([Decimal(6), Decimal(-2), Decimal(-2), Decimal(-2)], None)
    EveningRound.objects.create(evening=evening, number=1).sitting_out.set([players[4]])
    return evening


def test_a_sit_out_credit_changed_shows_at_once(as_organiser, solo_league, solo_season,
                                                evening_in_rounds):
    assert "Eva" not in totals(as_organiser, solo_season)
    as_organiser.post(f"/clubs/{solo_league.club.slug}/leagues/{solo_league.pk}/edit/",
                      league_form(solo_league, sit_out_credit="fixed", sit_out_score=3))
    assert totals(as_organiser, solo_season)["Eva"] == "3"
    solo_league.refresh_from_db()
    as_organiser.post(f"/clubs/{solo_league.club.slug}/leagues/{solo_league.pk}/edit/",
                      league_form(solo_league, sit_out_score=5))
    assert totals(as_organiser, solo_season)["Eva"] == "5"


def test_who_sat_out_changed_shows_at_once(as_organiser, solo_league, solo_season,
                                          evening_in_rounds):
    solo_league.sit_out_credit, solo_league.sit_out_score = League.SitOutCredit.FIXED, 3
    solo_league.save()
    assert totals(as_organiser, solo_season)["Eva"] == "3"
    drawn = EveningRound.objects.get(evening=evening_in_rounds, number=1)
    drawn.sitting_out.clear()
    assert "Eva" not in totals(as_organiser, solo_season)
    drawn.sitting_out.add(solo_league.club.members.get(name="Eva"))
    assert totals(as_organiser, solo_season)["Eva"] == "3"


def test_a_member_renamed_or_a_guest_made_a_member_shows_at_once(
        as_organiser, organiser_user, solo_season, solo_evening, evening_in_rounds):
    ana = solo_season.league.club.members.get(name="Ana")
    assert "Ana" in totals(as_organiser, solo_season)
    edits.rename_member(ana, "Anna", organiser_user)
    rows = totals(as_organiser, solo_season)
    assert "Anna" in rows and "Ana" not in rows
    guest = guests.add_guest(solo_evening, "Gus", organiser_user)
    table = make_solo_table(solo_evening, [guest, *solo_season.league.club.members.filter(
        name__in=["Bob", "Carla", "Dan"])], number=2)
    table.set_totals([Decimal(3), Decimal(-1), Decimal(-1), Decimal(-1)], None)
    assert "guest" in as_organiser.get(solo_season.get_absolute_url()).content.decode()
    guests.make_member(guest, organiser_user)
    body = as_organiser.get(solo_season.get_absolute_url()).content.decode()
    assert '<span class="badge">guest</span>' not in body


def test_a_closed_season_and_a_new_evening_show_at_once(as_organiser, organiser_user,
                                                        solo_season, evening_in_rounds, club):
    assert shown(as_organiser, solo_season)["Ana"] == ("6", "1")
    evening = Evening.objects.create(season=solo_season, date=datetime.date(2030, 1, 14))
    table = EveningTable.objects.create(evening=evening, number=1)
    players = list(club.members.filter(name__in=["Ana", "Bob", "Carla", "Dan"]).order_by("name"))
    TableSeat.objects.bulk_create(TableSeat(table=table, seat=s, member=m)
                                  for s, m in enumerate(players))
    table.set_totals([Decimal(1), Decimal(-1), Decimal(1), Decimal(-1)], None)
    assert shown(as_organiser, solo_season)["Ana"] == ("7", "2")


def test_a_stale_season_saved_does_not_put_its_old_version_back(solo_season, solo_table,
                                                                 organiser_user):
    stale = Season.objects.get(pk=solo_season.pk)
    solo_table.set_totals([Decimal(6), Decimal(-2), Decimal(-2), Decimal(-2)], organiser_user)
    raised = Season.objects.get(pk=solo_season.pk).results_version
    assert raised > stale.results_version
    stale.name = "Winter 2030"
    stale.save()
    assert Season.objects.get(pk=solo_season.pk).results_version >= raised


def test_kept_rows_spare_the_database(as_organiser, solo_season, evening_in_rounds):
    url = solo_season.get_absolute_url()
    with CaptureQueriesContext(connection) as cold:
        as_organiser.get(url)
    with CaptureQueriesContext(connection) as warm:
        as_organiser.get(url)
    assert len(warm) < len(cold)


def test_evenings_planned_moved_cancelled_or_deleted_show_at_once(
        as_organiser, organiser_user, solo_season, solo_evening):
    from leagues import season_calendar

    def listed():
        body = as_organiser.get(solo_season.get_absolute_url()).content.decode()
        return re.findall(r'href="/clubs/[^"]+/evenings/(\d+)/"', body.split(
            "<h2>Evenings</h2>", 1)[1]), body
    assert listed()[0] == [str(solo_evening.pk)]
    planned = season_calendar.create_series(solo_season, [datetime.date(2030, 1, 14)], None,
                                            "The Crown", organiser_user)
    assert len(listed()[0]) == 2
    edits.edit_evening(planned[0], {"date": datetime.date(2030, 1, 21), "venue": "The Bell"},
                       organiser_user)
    assert "The Bell" in listed()[1]
    season_calendar.cancel_evening(planned[0], organiser_user)
    assert "cancelled" in listed()[1]
    edits.delete_evening(solo_evening, organiser_user)
    assert listed()[0] == [str(planned[0].pk)]


def test_two_members_merged_show_as_one_at_once(as_organiser, organiser_user, solo_season,
                                               evening_in_rounds, club):
    later = Evening.objects.create(season=solo_season, date=datetime.date(2030, 1, 14))
    ana2 = add_members(club, ["Ana B."])[0]
    others = list(club.members.filter(name__in=["Bob", "Carla", "Dan"]).order_by("name"))
    make_solo_table(later, [ana2, *others]).set_totals(
        [Decimal(3), Decimal(-1), Decimal(-1), Decimal(-1)], None)
    rows = shown(as_organiser, solo_season)
    assert rows["Ana"] == ("6", "1") and rows["Ana B."] == ("3", "1")
    edits.merge_members(club.members.get(name="Ana"), ana2, organiser_user)
    rows = shown(as_organiser, solo_season)
    assert rows["Ana"] == ("9", "2") and "Ana B." not in rows


def test_after_an_entry_the_standings_are_counted_before_anyone_looks(
        as_organiser, organiser_user, solo_season, solo_table, settings,
        django_capture_on_commit_callbacks):
    """With the standings warmed after each change (a cache the processes share), the first
    page after an entry shows the new totals from the kept rows: no visitor waits for them to
    be counted."""
    from leagues import standings

    def first_look():
        with CaptureQueriesContext(connection) as looked:
            nell = shown(as_organiser, solo_season)["Nell"][0]
        counted = any("UNION" in query["sql"] for query in looked.captured_queries)
        return nell, counted

    settings.WARM_STANDINGS_AFTER_CHANGES = False
    with django_capture_on_commit_callbacks(execute=True):
        solo_table.add_deal(solo("solo", 0, 5), organiser_user)
    after_one, counted = first_look()
    assert counted  # not warmed: the first visitor's page counts the rows
    settings.WARM_STANDINGS_AFTER_CHANGES = True
    with django_capture_on_commit_callbacks(execute=True):
        solo_table.add_deal(solo("solo", 0, 5), organiser_user)
    solo_season.refresh_from_db()
    assert cache.get(standings.kept_key(solo_season)) is not None
    after_two, counted = first_look()
    assert after_two != after_one
    assert not counted


def test_without_a_shared_cache_the_entry_leaves_the_counting_to_the_page(
        organiser_user, solo_season, solo_table, settings, django_capture_on_commit_callbacks):
    """A cache of this process only (no Redis): a worker's count would be kept where no page
    finds it, so nobody counts ahead."""
    from leagues import standings

    settings.WARM_STANDINGS_AFTER_CHANGES = False
    with django_capture_on_commit_callbacks(execute=True):
        solo_table.add_deal(solo("solo", 0, 5), organiser_user)
    solo_season.refresh_from_db()
    assert cache.get(standings.kept_key(solo_season)) is None


def test_the_standings_show_with_the_cache_unreachable(as_organiser, organiser_user,
                                                       solo_season, solo_table, settings):
    """A cache server down (Redis stopped) costs the page its speed, not its answer."""
    settings.CACHES = {"default": {
        "BACKEND": "whistclub.soft_cache.SoftRedisCache", "LOCATION": "redis://127.0.0.1:9/0",
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2}}}
    solo_table.add_deal(solo("solo", 0, 5), organiser_user)
    assert shown(as_organiser, solo_season)["Nell"][0] not in ("0", "+0")
