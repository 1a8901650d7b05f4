"""A season's pairs: drawn only when both players are coming, nobody seated twice, and pairs
the organiser can rename, change before they play, retire and bring back, each in the club's
history."""

import datetime

import pytest

from leagues.draw import draw_evening
from leagues.models import (
    Attendance,
    ClubChange,
    Evening,
    EveningTable,
    League,
    Partnership,
    Season,
)

from .conftest import add_members

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(club):
    league = League.objects.create(club=club, name="Bid Nights", game="bid_whist")
    return Season.objects.create(league=league, name="Spring")


def evening_with(season, coming, not_coming=()):
    evening = Evening.objects.create(season=season, date=datetime.date(2030, 5, 1))
    for member in coming:
        Attendance.objects.create(evening=evening, member=member, coming=True)
    for member in not_coming:
        Attendance.objects.create(evening=evening, member=member, coming=False)
    return evening


def seated(evening):
    people = []
    for table in evening.tables.all():
        for pair in (table.pair_0, table.pair_1):
            people += [pair.first_id, pair.second_id]
    return people


def test_only_pairs_whose_two_players_are_coming_are_drawn(season, club):
    m = add_members(club, [f"M{i}" for i in range(8)])
    pairs = [Partnership.objects.create(season=season, first=m[2 * i], second=m[2 * i + 1])
             for i in range(4)]
    evening = evening_with(season, m[:6] + [m[6]], not_coming=[m[7]])
    tables, out = draw_evening(evening)
    assert tables == 1 and len(out) == 1 and out[0] in pairs[:3]  # one match, a bye
    assert m[7].pk not in seated(evening) and m[6].pk not in seated(evening)


def test_nobody_marked_coming_draws_nothing_and_says_why(season, club, as_organiser):
    m = add_members(club, [f"M{i}" for i in range(4)])
    Partnership.objects.create(season=season, first=m[0], second=m[1])
    Partnership.objects.create(season=season, first=m[2], second=m[3])
    evening = evening_with(season, [])
    response = as_organiser.post(f"/clubs/{club.slug}/evenings/{evening.pk}/draw/", follow=True)
    assert "At least two pairs must be coming" in response.content.decode()
    assert not evening.tables.exists()


def test_two_pairs_sharing_a_player_never_seat_that_person_twice(season, club):
    """Pairs registered before a player could be in one pair only: the draw keeps one."""
    m = add_members(club, [f"M{i}" for i in range(7)])
    Partnership.objects.create(season=season, first=m[0], second=m[1])
    Partnership.objects.create(season=season, first=m[2], second=m[3])
    Partnership.objects.create(season=season, first=m[4], second=m[5])
    sharing = Partnership.objects.create(season=season, first=m[0], second=m[6])
    evening = evening_with(season, m)
    tables, out = draw_evening(evening)
    people = seated(evening)
    assert len(people) == len(set(people))
    assert sharing in out


def test_a_retired_pair_is_not_drawn(season, club, as_organiser):
    m = add_members(club, [f"M{i}" for i in range(6)])
    pairs = [Partnership.objects.create(season=season, first=m[2 * i], second=m[2 * i + 1])
             for i in range(3)]
    response = as_organiser.post(f"/clubs/{club.slug}/pairs/{pairs[2].pk}/edit/",
                                 {"retired": "1"})
    assert response.status_code == 302
    evening = evening_with(season, m)
    tables, out = draw_evening(evening)
    assert tables == 1 and out == []
    assert m[4].pk not in seated(evening)
    assert ClubChange.objects.filter(action="pair_retire").exists()
    page = as_organiser.get(f"/clubs/{club.slug}/changes/").content.decode()
    assert "retired by" in page


def test_a_player_is_in_one_pair_of_a_season_at_a_time(season, club, as_organiser):
    m = add_members(club, ["Ann", "Ben", "Cat"])
    url = f"/clubs/{club.slug}/seasons/{season.pk}/pairs/new/"
    as_organiser.post(url, {"first": m[0].pk, "second": m[1].pk, "name": "Aces"})
    response = as_organiser.post(url, {"first": m[0].pk, "second": m[2].pk, "name": "Kings"})
    assert ("Ann already plays in the pair Aces this season: retire that pair first, or "
            "choose someone else.") in response.content.decode()
    assert list(season.partnerships.values_list("name", flat=True)) == ["Aces"]
    aces = season.partnerships.get()
    as_organiser.post(f"/clubs/{club.slug}/pairs/{aces.pk}/edit/", {"retired": "1"})
    as_organiser.post(url, {"first": m[0].pk, "second": m[2].pk, "name": "Kings"})
    assert season.partnerships.filter(name="Kings").exists()
    # and the retired Aces cannot come back while Ann plays with Cat
    response = as_organiser.post(f"/clubs/{club.slug}/pairs/{aces.pk}/edit/", {"retired": "0"},
                                 follow=True)
    assert "Ann already plays in the pair Kings" in response.content.decode()


def test_a_pair_is_renamed_any_time_and_changes_players_only_before_it_plays(
        season, club, as_organiser):
    m = add_members(club, ["Ann", "Ben", "Cat", "Dan", "Eve"])
    aces = Partnership.objects.create(season=season, first=m[0], second=m[1], name="Aces")
    kings = Partnership.objects.create(season=season, first=m[2], second=m[3], name="Kings")
    url = f"/clubs/{club.slug}/pairs/{aces.pk}/edit/"
    assert as_organiser.post(url, {"first": m[0].pk, "second": m[4].pk, "name": "Aces"}
                             ).status_code == 302
    aces.refresh_from_db()
    assert aces.second == m[4]
    EveningTable.objects.create(evening=evening_with(season, []), number=1, pair_0=aces,
                                pair_1=kings)
    response = as_organiser.post(url, {"first": m[0].pk, "second": m[1].pk, "name": "Aces"})
    assert "This pair has played: its players stay." in response.content.decode()
    assert as_organiser.post(url, {"first": m[0].pk, "second": m[4].pk, "name": "High Aces"}
                             ).status_code == 302
    aces.refresh_from_db()
    assert str(aces) == "High Aces" and aces.second == m[4]
    page = as_organiser.get(f"/clubs/{club.slug}/changes/").content.decode()
    assert "Name: Aces → High Aces" in page and "Players: Ann &amp; Ben → Ann &amp; Eve" in page


def test_only_organisers_change_pairs(season, club, as_member):
    m = add_members(club, ["Ann", "Ben"])
    aces = Partnership.objects.create(season=season, first=m[0], second=m[1], name="Aces")
    response = as_member.post(f"/clubs/{club.slug}/pairs/{aces.pk}/edit/", {"retired": "1"})
    assert response.status_code == 403
    aces.refresh_from_db()
    assert not aces.retired


def test_a_player_coming_without_their_partner_is_said_not_drawn(season, club, as_organiser):
    """Karel is coming, his partner Lotte is not: the page says so, in words, after the draw;
    and a member coming with no pair at all is named too."""
    ann, bob, cat, dan, karel, lotte, xavi = add_members(
        club, ["Ann", "Bob", "Cat", "Dan", "Karel", "Lotte", "Xavi"])
    for first, second in ((ann, bob), (cat, dan), (karel, lotte)):
        Partnership.objects.create(season=season, first=first, second=second)
    evening = evening_with(season, [ann, bob, cat, dan, karel, xavi], not_coming=[lotte])
    response = as_organiser.post(f"/clubs/{club.slug}/evenings/{evening.pk}/draw/", follow=True)
    page = response.content.decode()
    said = "Karel is coming but partner Lotte is not: not drawn."
    assert page.count(said) == 2  # told after the draw, and on the evening's page
    assert "Xavi is coming but has no pair this season: not drawn." in page
    assert karel.pk not in seated(evening)


def test_an_evening_in_rounds_counts_only_the_players_it_can_draw(season, club, as_organiser):
    ann, bob, cat, dan, karel, lotte = add_members(
        club, ["Ann", "Bob", "Cat", "Dan", "Karel", "Lotte"])
    for first, second in ((ann, bob), (cat, dan), (karel, lotte)):
        Partnership.objects.create(season=season, first=first, second=second)
    evening = evening_with(season, [ann, bob, cat, dan, karel], not_coming=[lotte])
    evening.rounds = 2
    evening.save()
    page = as_organiser.get(evening.get_absolute_url()).content.decode()
    assert "4 players here for round 1." in page
    assert "Karel is coming but partner Lotte is not: not drawn." in page
    response = as_organiser.post(f"/clubs/{club.slug}/evenings/{evening.pk}/draw/",
                                 {"round": "1"}, follow=True)
    page = response.content.decode()
    assert "4 players here for round 2." in page
    assert page.count("Karel is coming but partner Lotte is not: not drawn.") == 2
