"""Every kind of change a league makes to its results reaches the ratings: after each, the stored
ratings are what a rebuild from the results gives, and not what they were (the change moved
them).  The leagues announce each change themselves (``leagues.result_events``); a change that
announced nothing, or the wrong day, leaves the ratings of before, or numbers a rebuild does
not give."""

import datetime

import pytest
from django.contrib.auth import get_user_model

from leagues import edits, guests
from leagues.models import Evening, Invite
from ratings.events import SITE, scope_of
from ratings.store import refresh
from tests.leagues.conftest import add_members, make_solo_table, solo
from tests.ratings.test_rebuild import private_club_with_tables, stored

pytestmark = pytest.mark.django_db

GAME = "solo_whist"


@pytest.fixture
def results(organiser_user, django_capture_on_commit_callbacks):
    """Three evenings (2, 9 and 16 January) of one table each, two deals a table, and a fourth
    on the 23rd where Ann's second record sits in her place."""
    with django_capture_on_commit_callbacks(execute=True):
        club, tables = private_club_with_tables(organiser_user)
        (twin,) = add_members(club, ["Ann twin"])
        ann, bob, cat, dan = (tables[0].seats.get(seat=seat).member for seat in range(4))
        evening = Evening.objects.create(season=tables[0].evening.season,
                                         date=datetime.date(2030, 1, 23))
        tables.append(make_solo_table(evening, [twin, bob, cat, dan]))
        for table in tables:
            table.add_deal(solo("solo", 0, 9), organiser_user)
            table.add_deal(solo("misere", 1, 0), organiser_user)
    return {"club": club, "tables": tables, "ann": ann, "twin": twin,
            "by": organiser_user}


def moved_to(day):
    def change(results):
        # The table of the 16th (tables[2]) or of the 2nd (tables[1]), moved.
        table = results["tables"][2 if day < 16 else 1]
        edits.edit_evening(table.evening, {"date": datetime.date(2030, 1, day)}, results["by"])
    return change


def claimed(results):
    invite = Invite.objects.create(club=results["club"], member=results["ann"],
                                   created_by=results["by"])
    invite.accept(get_user_model().objects.create_user("ann", "ann@example.org", "pw-ann-123"))


CHANGES = {
    "a deal added": lambda r: r["tables"][1].add_deal(solo("solo", 2, 10), r["by"]),
    "a deal changed": lambda r: r["tables"][1].change_deal(1, solo("solo", 0, 2), r["by"]),
    "a deal deleted": lambda r: r["tables"][1].change_deal(1, None, r["by"]),
    "an evening moved earlier": moved_to(1),
    "an evening moved later": moved_to(20),
    "a table's players changed": lambda r: edits.edit_table(
        r["tables"][1], list(reversed(r["tables"][1].seat_members())), None, r["by"]),
    "a table deleted": lambda r: edits.delete_table(r["tables"][1], r["by"]),
    "an evening deleted": lambda r: edits.delete_evening(r["tables"][1].evening, r["by"]),
    "two records merged": lambda r: edits.merge_members(r["ann"], r["twin"], r["by"]),
    "a record claimed": claimed,
    "a substitute from deal 2": lambda r: guests.add_substitute(r["tables"][1], 0, r["twin"], 2,
                                                                r["by"]),
}


@pytest.mark.parametrize("change", CHANGES)
def test_each_change_of_the_results_leaves_the_ratings_a_rebuild_gives(
        results, change, django_capture_on_commit_callbacks):
    scope = scope_of(results["club"])
    before = stored(scope)
    with django_capture_on_commit_callbacks(execute=True):
        CHANGES[change](results)
    after = stored(scope)
    assert after != before
    refresh(scope, GAME)
    assert stored(scope) == after


def test_totals_set_and_cleared_leave_the_ratings_a_rebuild_gives(
        results, django_capture_on_commit_callbacks):
    scope = scope_of(results["club"])
    seated = results["tables"][0].seat_members()
    table = make_solo_table(results["tables"][1].evening, seated, number=2)
    before = stored(scope)
    for change in (lambda: table.set_totals([3, -1, -1, -1], results["by"]),
                   lambda: table.clear_totals(results["by"])):
        with django_capture_on_commit_callbacks(execute=True):
            change()
        after = stored(scope)
        refresh(scope, GAME)
        assert stored(scope) == after
    assert stored(scope) == before


def test_a_club_switching_visibility_enters_and_leaves_the_site(
        solo_table, organiser_user, django_capture_on_commit_callbacks):
    """Olga and Mike, two members with an account, sit at the table: once the club is public,
    its results count site-wide; once members-only again, they no longer do."""
    club = solo_table.league.club
    with django_capture_on_commit_callbacks(execute=True):
        for declarer in (0, 1, 0):
            solo_table.add_deal(solo("solo", declarer, 9), organiser_user)
    own = stored(scope_of(club))
    for public in (True, False):
        with django_capture_on_commit_callbacks(execute=True):
            edits.change_club(club, {"is_public": public}, organiser_user)
        site = stored(SITE)
        assert bool(site[0]) == public
        refresh(SITE, GAME)
        assert stored(SITE) == site
        assert stored(scope_of(club)) == own  # the club's own ratings never move


# -- the admin: an evening changed there is announced as on its page; no deletion of results --


def test_an_evening_moved_in_the_admin_rates_again(results, admin_client,
                                                   django_capture_on_commit_callbacks):
    scope = scope_of(results["club"])
    before = stored(scope)
    evening = results["tables"][2].evening
    url = f"/admin/leagues/evening/{evening.pk}/change/"
    assert admin_client.get(url).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(url, {"date": "2030-01-01", "start_time": "",
                                           "venue": evening.venue, "rounds": evening.rounds})
    assert response.status_code == 302
    evening.refresh_from_db()
    assert evening.date == datetime.date(2030, 1, 1)
    after = stored(scope)
    assert after != before
    refresh(scope, GAME)
    assert stored(scope) == after
    assert results["club"].changes.filter(action="evening_edit").exists()  # in its history


def test_a_season_with_results_cannot_be_deleted_in_the_admin(results, admin_client):
    """Its tables are read-only there, so no deletion there takes results (and their ratings)
    without the pages' announcement."""
    scope = scope_of(results["club"])
    before = stored(scope)
    season = results["tables"][0].evening.season
    response = admin_client.post(f"/admin/leagues/season/{season.pk}/delete/", {"post": "yes"})
    assert response.status_code == 403
    assert type(season).objects.filter(pk=season.pk).exists()
    assert stored(scope) == before
