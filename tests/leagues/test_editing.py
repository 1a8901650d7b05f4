"""Everything editable, nothing lost: evenings and tables edited or deleted (with a
confirmation), members renamed, merged, retired, given a role, seasons closed; every change in
the club's history in a sentence; organisers only."""

import datetime
from decimal import Decimal

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues import edits
from leagues.models import (
    Attendance,
    Club,
    ClubChange,
    Evening,
    EveningTable,
    League,
    Member,
    Partnership,
    Season,
)
from leagues.standings import season_standings

from .conftest import add_members, make_solo_table, solo
from .test_security import fingerprint

pytestmark = pytest.mark.django_db


def club_url(club, suffix=""):
    return f"/clubs/{club.slug}/{suffix}"


def history(club, client):
    """The club's history page as its rows' sentences."""
    rows = client.get(club_url(club, "changes/")).context["rows"]
    return [" ".join([r["headline"], *r["details"]]) for r in rows]


# -- who may: organisers; members 403; outsiders 403 (public club) or 404 (members only) ------


def organiser_paths(solo_table, member):
    evening = solo_table.evening
    return [f"evenings/{evening.pk}/edit/", f"evenings/{evening.pk}/delete/",
            f"tables/{solo_table.pk}/edit/", f"tables/{solo_table.pk}/delete/",
            f"members/{member.pk}/manage/", f"members/{member.pk}/merge/",
            f"seasons/{evening.season.pk}/close/", "members/bulk/",
            f"evenings/{evening.pk}/attendance/sheet/",
            f"evenings/{evening.pk}/attendance/{member.pk}/"]


def test_members_and_outsiders_may_not_edit_anything(client, solo_table, member, member_user,
                                                     outsider_user):
    club = member.club
    before = fingerprint()
    client.force_login(member_user)
    for path in organiser_paths(solo_table, member):
        assert client.post(club_url(club, path), {"name": "X", "other": member.pk,
                                                  "action": "rename", "confirm": "1"}
                           ).status_code == 403, path
    client.force_login(outsider_user)
    for path in organiser_paths(solo_table, member):
        assert client.post(club_url(club, path)).status_code == 404, path  # members only
    club.is_public = True
    club.save()
    before = fingerprint()
    for path in organiser_paths(solo_table, member):
        assert client.post(club_url(club, path)).status_code == 403, path
    assert fingerprint() == before


def test_the_clubs_history_is_for_its_members(client, club, member_user, outsider_user):
    client.force_login(member_user)
    assert client.get(club_url(club, "changes/")).status_code == 200
    client.force_login(outsider_user)
    assert client.get(club_url(club, "changes/")).status_code == 404
    club.is_public = True
    club.save()
    assert client.get(club_url(club, "changes/")).status_code == 403


# -- evenings -----------------------------------------------------------------------------------


def test_an_organiser_changes_an_evening_and_the_history_says_what(as_organiser, solo_evening):
    club = solo_evening.season.league.club
    response = as_organiser.post(club_url(club, f"evenings/{solo_evening.pk}/edit/"),
                                 {"date": "2030-01-08", "start_time": "19:30",
                                  "venue": "The Swan"}, follow=True)
    assert "Evening saved." in response.content.decode()
    solo_evening.refresh_from_db()
    assert (solo_evening.date, solo_evening.venue) == (datetime.date(2030, 1, 8), "The Swan")
    line = history(club, as_organiser)[0]
    assert line.startswith("Evening of 7 Jan 2030 (Tuesday Solo) changed by olga")
    assert "Date: 7 Jan 2030 → 8 Jan 2030" in line
    assert "Venue: The Crown → The Swan" in line
    assert "Time: – → 19:30" in line


def test_a_bad_date_is_refused_and_changes_nothing(as_organiser, solo_evening):
    club = solo_evening.season.league.club
    before = fingerprint()
    response = as_organiser.post(club_url(club, f"evenings/{solo_evening.pk}/edit/"),
                                 {"date": "yesterday", "venue": "x"})
    assert response.status_code == 200
    assert "Enter a valid date." in response.content.decode()
    assert fingerprint() == before


def test_deleting_an_evening_asks_first_then_its_tables_leave_the_standings(
        as_organiser, solo_table, organiser_user):
    solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    evening = solo_table.evening
    club, season = evening.season.league.club, evening.season
    assert season_standings(season)
    page = as_organiser.get(club_url(club, f"evenings/{evening.pk}/delete/")).content.decode()
    assert "Its 1 table goes with it." in page
    assert "1 of them has results: the standings no longer count them." in page
    assert Evening.objects.filter(pk=evening.pk).exists()  # asking deletes nothing
    response = as_organiser.post(club_url(club, f"evenings/{evening.pk}/delete/"), follow=True)
    assert "The evening is deleted." in response.content.decode()
    assert not Evening.objects.filter(pk=evening.pk).exists()
    assert season_standings(season) == []
    line = history(club, as_organiser)[0]
    assert line.startswith("Evening of 7 Jan 2030 (Tuesday Solo) deleted by olga")
    assert "Table 1: Players: olga, Mike, Nell, Pat" in line
    assert "1 deal, now gone." in line
    assert "Totals: olga +9, Mike −3, Nell −3, Pat −3" in line


# -- tables -------------------------------------------------------------------------------------


def test_a_table_added_by_hand_is_in_the_history(as_organiser, solo_evening, club, organiser,
                                                 member):
    nell, pat = add_members(club, ["Nell", "Pat"])
    response = as_organiser.post(club_url(club, f"evenings/{solo_evening.pk}/tables/new/"), {
        "seat_0": organiser.pk, "seat_1": member.pk, "seat_2": nell.pk, "seat_3": pat.pk},
        follow=True)
    assert "Table 1 added." in response.content.decode()
    assert history(club, as_organiser)[0] == (
        "Table 1 of 7 Jan 2030 (Tuesday Solo) added by olga Players: olga, Mike, Nell, Pat")
    french = as_organiser.get(club_url(club, "changes/"), HTTP_ACCEPT_LANGUAGE="fr")
    assert french.context["rows"][0]["headline"].startswith("Table 1 du ")
    assert french.context["rows"][0]["headline"].endswith(" (Tuesday Solo) ajoutée par olga")


def test_a_pairs_match_added_by_hand_is_in_the_history(as_organiser, bid_season, club,
                                                       organiser, member):
    ann, bob = add_members(club, ["Ann", "Bob"])
    aces = Partnership.objects.create(season=bid_season, first=organiser, second=ann, name="Aces")
    kings = Partnership.objects.create(season=bid_season, first=member, second=bob, name="Kings")
    evening = Evening.objects.create(season=bid_season, date=datetime.date(2030, 2, 3))
    as_organiser.post(club_url(club, f"evenings/{evening.pk}/tables/new/"),
                      {"pair_0": aces.pk, "pair_1": kings.pk})
    table = evening.tables.get()
    assert (table.number, table.pair_0, table.pair_1) == (1, aces, kings)
    assert history(club, as_organiser)[0] == (
        "Table 1 of 3 Feb 2030 (Bid Whist League) added by olga Players: olga, Mike, Ann, Bob")


def test_deleting_a_table_with_results_says_what_goes(as_organiser, solo_table, organiser_user):
    solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    solo_table.add_deal(solo("solo", 1, 6), organiser_user)
    club = solo_table.league.club
    page = as_organiser.get(club_url(club, f"tables/{solo_table.pk}/delete/")).content.decode()
    assert "Its 2 deals and its result go with it" in page
    assert EveningTable.objects.filter(pk=solo_table.pk).exists()
    as_organiser.post(club_url(club, f"tables/{solo_table.pk}/delete/"))
    assert not EveningTable.objects.filter(pk=solo_table.pk).exists()
    assert season_standings(solo_table.evening.season) == []
    line = history(club, as_organiser)[0]
    assert line.startswith("Table 1 of 7 Jan 2030 (Tuesday Solo) deleted by olga")
    assert "2 deals, now gone." in line and "Totals: olga +6, Mike +6" in line


def test_an_organiser_changes_who_sits_at_a_table(as_organiser, solo_table, organiser_user):
    solo_table.add_deal(solo("solo", 3, 6), organiser_user)
    club = solo_table.league.club
    (quinn,) = add_members(club, ["Quinn"])
    seats = [m.pk for m in solo_table.seat_members()]
    seats[3] = quinn.pk
    response = as_organiser.post(club_url(club, f"tables/{solo_table.pk}/edit/"),
                                 {f"seat_{i}": pk for i, pk in enumerate(seats)}, follow=True)
    assert "Table saved." in response.content.decode()
    assert [m.name for m in solo_table.seat_members()] == ["olga", "Mike", "Nell", "Quinn"]
    rows = {r.name: r.total for r in season_standings(solo_table.evening.season)}
    assert rows["Quinn"] == 9 and "Pat" not in rows
    line = history(club, as_organiser)[0]
    assert "Players: olga, Mike, Nell, Pat → olga, Mike, Nell, Quinn" in line


def test_two_players_swap_seats(as_organiser, solo_table):
    club = solo_table.league.club
    a, b, c, d = solo_table.seat_members()
    as_organiser.post(club_url(club, f"tables/{solo_table.pk}/edit/"),
                      {"seat_0": b.pk, "seat_1": a.pk, "seat_2": c.pk, "seat_3": d.pk})
    assert solo_table.seat_members() == [b, a, c, d]


def test_a_table_with_one_member_twice_is_refused(as_organiser, solo_table):
    club = solo_table.league.club
    a, b, c, d = solo_table.seat_members()
    before = fingerprint()
    response = as_organiser.post(club_url(club, f"tables/{solo_table.pk}/edit/"),
                                 {"seat_0": a.pk, "seat_1": a.pk, "seat_2": c.pk, "seat_3": d.pk})
    assert "A different member in each seat, please." in response.content.decode()
    assert fingerprint() == before


# -- members ------------------------------------------------------------------------------------


def test_an_organiser_renames_a_member(as_organiser, member):
    club = member.club
    response = as_organiser.post(club_url(club, f"members/{member.pk}/manage/"),
                                 {"action": "rename", "name": "Michael"}, follow=True)
    assert "Mike is now called Michael." in response.content.decode()
    member.refresh_from_db()
    assert member.name == "Michael"
    assert history(club, as_organiser)[0] == "Mike renamed Michael by olga"


@pytest.mark.parametrize("name, message", [("", "Give the member a name."),
                                           ("x" * 61, "A name has at most 60 characters.")])
def test_a_bad_name_is_refused(as_organiser, member, name, message):
    before = fingerprint()
    response = as_organiser.post(club_url(member.club, f"members/{member.pk}/manage/"),
                                 {"action": "rename", "name": name}, follow=True)
    assert message in response.content.decode()
    assert fingerprint() == before


def test_promote_and_demote(as_organiser, member, organiser):
    club = member.club
    as_organiser.post(club_url(club, f"members/{member.pk}/manage/"),
                      {"action": "role", "role": "organiser"})
    member.refresh_from_db()
    assert member.is_organiser
    as_organiser.post(club_url(club, f"members/{member.pk}/manage/"),
                      {"action": "role", "role": "member"})
    member.refresh_from_db()
    assert not member.is_organiser
    assert history(club, as_organiser)[:2] == [
        "Mike is no longer an organiser, changed by olga", "Mike made an organiser by olga"]


def test_the_last_organiser_cannot_be_demoted(as_organiser, organiser):
    club = organiser.club
    before = fingerprint()
    response = as_organiser.post(club_url(club, f"members/{organiser.pk}/manage/"),
                                 {"action": "role", "role": "member"}, follow=True)
    assert ("olga is the club&#x27;s only organiser. Make someone else an organiser first: a "
            "club always keeps at least one.") in response.content.decode()
    assert fingerprint() == before


def test_retired_members_stay_in_standings_but_leave_draws_and_attendance(
        as_organiser, solo_table, organiser_user):
    solo_table.set_totals([3, -1, -1, -1], organiser_user)
    club = solo_table.league.club
    pat = club.members.get(name="Pat")
    response = as_organiser.post(club_url(club, f"members/{pat.pk}/manage/"),
                                 {"action": "retire"}, follow=True)
    assert "Pat is retired." in response.content.decode()
    assert "Pat" in [r.name for r in season_standings(solo_table.evening.season)]
    later = Evening.objects.create(season=solo_table.evening.season,
                                   date=datetime.date(2030, 2, 1))
    page = as_organiser.get(club_url(club, f"evenings/{later.pk}/attendance/sheet/"))
    assert "Pat" not in [r["member"].name for r in page.context["rows"]]
    form = as_organiser.get(club_url(club, f"evenings/{later.pk}/tables/new/")).context["form"]
    assert pat not in form.fields["seat_0"].queryset
    assert "Pat retired by olga" in history(club, as_organiser)[0]


def test_a_retired_member_who_said_yes_is_not_drawn(organiser, solo_evening):
    from leagues import draw
    club = organiser.club
    people = add_members(club, ["A", "B", "C", "D", "E"])
    for m in people:
        Attendance.objects.create(evening=solo_evening, member=m)
    edits.set_retired(people[4], True, None)
    tables, sitting_out = draw.draw_evening(solo_evening)
    assert tables == 1 and not sitting_out
    assert people[4] not in solo_evening.tables.get().seat_members()


def test_merging_moves_results_and_standings_follow(as_organiser, solo_season, organiser_user):
    club = solo_season.league.club
    ann, ann2, b, c, d = add_members(club, ["Ann", "ann (dup)", "B", "C", "D"])
    one = make_solo_table(Evening.objects.create(season=solo_season,
                                                 date=datetime.date(2030, 1, 1)), [ann, b, c, d])
    two = make_solo_table(Evening.objects.create(season=solo_season,
                                                 date=datetime.date(2030, 1, 8)), [ann2, b, c, d])
    one.set_totals([6, -2, -2, -2], organiser_user)
    two.set_totals([3, -1, -1, -1], organiser_user)
    Attendance.objects.create(evening=two.evening, member=ann2)
    page = as_organiser.get(club_url(club, f"members/{ann.pk}/merge/?other={ann2.pk}"))
    assert "Merge ann (dup) into Ann?" in page.content.decode()
    assert Member.objects.filter(pk=ann2.pk).exists()  # asking merges nothing
    as_organiser.post(club_url(club, f"members/{ann.pk}/merge/"),
                      {"other": ann2.pk, "confirm": "1"})
    assert not Member.objects.filter(pk=ann2.pk).exists()
    rows = {r.name: (r.total, r.evenings) for r in season_standings(solo_season)}
    assert rows["Ann"] == (Decimal(9), 2)
    assert Attendance.objects.get(evening=two.evening).member == ann
    assert history(club, as_organiser)[0].startswith("ann (dup) merged into Ann by olga")


def test_merging_a_record_without_results_says_so_in_words(as_organiser, club):
    ann, ann2 = add_members(club, ["Ann", "ann (dup)"])
    page = as_organiser.get(club_url(club, f"members/{ann.pk}/merge/?other={ann2.pk}"))
    text = page.content.decode()
    assert "ann (dup) has no results yet." in text
    assert "0 tables" not in text


def test_two_people_who_sat_at_one_table_cannot_be_merged(as_organiser, solo_table):
    club = solo_table.league.club
    _a, _b, nell, pat = solo_table.seat_members()
    before = fingerprint()
    response = as_organiser.post(club_url(club, f"members/{nell.pk}/merge/"),
                                 {"other": pat.pk, "confirm": "1"}, follow=True)
    assert "played at the same table (table 1 on 2030-01-07)" in response.content.decode()
    assert fingerprint() == before


def test_two_logins_cannot_be_merged(as_organiser, organiser, member):
    before = fingerprint()
    response = as_organiser.post(club_url(member.club, f"members/{member.pk}/merge/"),
                                 {"other": organiser.pk, "confirm": "1"}, follow=True)
    assert "both sign in with a login of their own" in response.content.decode()
    assert fingerprint() == before


def test_a_member_record_merged_into_one_with_a_login_keeps_the_login(organiser, member):
    (paper,) = add_members(member.club, ["Mike on paper"])
    edits.merge_members(paper, member, None)
    paper.refresh_from_db()
    assert paper.user.get_username() == "mike"


# Standings after a merge equal standings computed as if the two had always been one.
PEOPLE = 6
table_strategy = st.tuples(
    st.permutations(range(PEOPLE)).map(lambda p: p[:4]),  # four different people
    st.lists(st.integers(-20, 20), min_size=3, max_size=3),  # three totals; the 4th balances
    st.booleans())  # which record of person 0 sat there


@pytest.mark.slow  # its own number of examples: `make test`, not test-quick
@settings(max_examples=25,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(tables=st.lists(table_strategy, min_size=1, max_size=6),
       ranking=st.sampled_from(["total", "average", "best_n"]), min_evenings=st.integers(0, 2))
def test_standings_after_a_merge_are_those_of_one_person(organiser_user, tables, ranking,
                                                        min_evenings):
    def build(split: bool):
        club = Club.create_with_organiser(organiser_user, name="Prop")
        league = League.objects.create(club=club, name="L", game="solo_whist", ranking=ranking,
                                       best_evenings=2, min_evenings=min_evenings)
        season = Season.objects.create(league=league, name="S")
        people = add_members(club, [f"P{i}" for i in range(PEOPLE)])
        twin = add_members(club, ["P0 again"])[0] if split else None
        for day, (who, totals, second) in enumerate(tables, start=1):
            seated = [twin if (split and i == 0 and second) else people[i] for i in who]
            evening = Evening.objects.create(season=season, date=datetime.date(2030, 1, day))
            make_solo_table(evening, seated).set_totals([*totals, -sum(totals)], None)
        if split:
            edits.merge_members(people[0], twin, None)
        return [(r.position, r.name, r.total, r.evenings, r.qualified)
                for r in season_standings(season)]

    with transaction.atomic():
        merged, one = build(True), build(False)
        transaction.set_rollback(True)
    assert merged == one


# -- seasons ------------------------------------------------------------------------------------


def test_a_closed_season_refuses_new_evenings_and_keeps_its_standings(
        as_organiser, solo_table, organiser_user):
    solo_table.set_totals([3, -1, -1, -1], organiser_user)
    season = solo_table.evening.season
    club = season.league.club
    standings = season_standings(season)
    response = as_organiser.post(club_url(club, f"seasons/{season.pk}/close/"),
                                 {"next_name": "Spring"}, follow=True)
    assert "The season is closed; its standings are final." in response.content.decode()
    season.refresh_from_db()
    assert season.is_closed
    spring = season.league.seasons.get(name="Spring")
    assert not spring.is_closed and spring.draw == season.draw
    before = fingerprint()
    for path, data in [(f"seasons/{season.pk}/evenings/new/", {"date": "2030-03-01"}),
                       (f"evenings/{solo_table.evening.pk}/tables/new/", {}),
                       (f"evenings/{solo_table.evening.pk}/edit/", {"date": "2030-03-01"}),
                       (f"evenings/{solo_table.evening.pk}/delete/", {}),
                       (f"tables/{solo_table.pk}/delete/", {}),
                       (f"tables/{solo_table.pk}/totals/", {"clear": "1"})]:
        response = as_organiser.post(club_url(club, path), data, follow=True)
        assert "The season Winter is closed" in response.content.decode(), path
    assert fingerprint() == before
    page = as_organiser.get(club_url(club, f"seasons/{season.pk}/"))
    assert page.context["rows"] == standings
    assert "these standings are final" in page.content.decode()
    assert "Season Winter of Tuesday Solo closed by olga" in history(club, as_organiser)[0]
    assert ClubChange.objects.filter(action="season_close").count() == 1


def test_every_new_post_refuses_garbage_without_a_server_error(as_organiser, solo_table,
                                                               member):
    from .test_security import GARBAGE
    club = member.club
    garbage = {**GARBAGE, "other": "abc", "action": "abc", "next_name": "x\x00",
               "confirm": "1", "shown": "abc", "email": "abc"}
    for path in organiser_paths(solo_table, member):
        response = as_organiser.post(club_url(club, path), garbage)
        assert response.status_code < 500, path


def test_the_belgian_house_rules_page_shows_its_fields(as_organiser, club):
    # Reported as "only a Save button": the points table is the Belgian league's one rule.
    league = League.objects.create(club=club, name="Kleurenwiezen", game="belgian_whist")
    page = as_organiser.get(club_url(club, f"leagues/{league.pk}/rules/")).content.decode()
    assert "Points table" in page
    assert page.count('type="number"') > 20


def test_two_records_with_results_in_a_closed_season_are_not_merged(solo_season,
                                                                    organiser_user):
    from leagues import edits
    from leagues.models import EntryError

    club = solo_season.league.club
    ann, ann2, b, c, d = add_members(club, ["Ann", "ann (dup)", "B", "C", "D"])
    one = make_solo_table(Evening.objects.create(season=solo_season,
                                                 date=datetime.date(2030, 1, 1)), [ann, b, c, d])
    two = make_solo_table(Evening.objects.create(season=solo_season,
                                                 date=datetime.date(2030, 1, 8)), [ann2, b, c, d])
    one.set_totals([6, -2, -2, -2], organiser_user)
    two.set_totals([3, -1, -1, -1], organiser_user)
    edits.close_season(solo_season, organiser_user)
    final = {r.name: (r.total, r.evenings) for r in season_standings(solo_season)}
    with pytest.raises(EntryError) as refused:
        edits.merge_members(ann, ann2, organiser_user)
    assert "Winter, which is closed" in str(refused.value.message)
    assert Member.objects.filter(pk=ann2.pk).exists()
    assert {r.name: (r.total, r.evenings) for r in season_standings(solo_season)} == final


def test_a_deleted_evenings_tables_read_as_separate_sentences(as_organiser, solo_table,
                                                               organiser_user):
    # "Table 1: Players: olga, Mike, Nell, Pat 1 deal, now gone." ran the players into the
    # count of deals: each table's players, deals and totals read as lines of their own.
    solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    evening = solo_table.evening
    club = evening.season.league.club
    as_organiser.post(club_url(club, f"evenings/{evening.pk}/delete/"))
    row = as_organiser.get(club_url(club, "changes/")).context["rows"][0]
    assert row["details"] == ["Table 1: Players: olga, Mike, Nell, Pat", "1 deal, now gone.",
                              "Totals: olga +9, Mike −3, Nell −3, Pat −3"]
