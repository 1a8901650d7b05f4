"""Attendance on one screen: every member with a tick box, saved as it is ticked (htmx) or with
the Save button (no JavaScript); past evenings show who came."""

import datetime

import pytest

from leagues.models import Attendance, Evening

from .conftest import add_members
from .test_security import fingerprint

pytestmark = pytest.mark.django_db


def sheet_url(evening, suffix=""):
    return (f"/clubs/{evening.season.league.club.slug}/evenings/{evening.pk}/attendance/"
            f"sheet/{suffix}")


def row_url(evening, member):
    return (f"/clubs/{evening.season.league.club.slug}/evenings/{evening.pk}/attendance/"
            f"{member.pk}/")


def coming(evening):
    return {a.member.name: a.coming for a in evening.attendances.select_related("member")}


def test_the_sheet_lists_every_member_with_a_tick_box(as_organiser, solo_evening, member):
    page = as_organiser.get(sheet_url(solo_evening)).content.decode()
    assert page.count('type="checkbox" name="coming"') == 2
    assert f'hx-post="{row_url(solo_evening, member)}"' in page


def test_a_tick_is_saved_by_the_htmx_endpoint_which_answers_the_row(as_organiser, solo_evening,
                                                                    member):
    response = as_organiser.post(row_url(solo_evening, member), {"coming": [member.pk]},
                                 HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    row = response.content.decode()
    assert row.lstrip().startswith('<li class="attendance-row is-coming"')
    assert "coming · saved" in row and "checked" in row
    assert coming(solo_evening) == {"Mike": True}
    # Unticked: the box is not sent (htmx sends the form's other ticks, which do not count).
    response = as_organiser.post(row_url(solo_evening, member), {"coming": ["999"]})
    assert "not coming · saved" in response.content.decode()
    assert coming(solo_evening) == {"Mike": False}


def test_the_plain_form_saves_every_tick_at_once(as_organiser, solo_evening, organiser,
                                                 member):
    (nell,) = add_members(organiser.club, ["Nell"])
    Attendance.objects.create(evening=solo_evening, member=member, coming=True)
    shown = [organiser.pk, member.pk, nell.pk]
    response = as_organiser.post(sheet_url(solo_evening),
                                 {"shown": shown, "coming": [organiser.pk, nell.pk]},
                                 follow=True)
    assert "Saved: 2 members coming." in response.content.decode()
    # Mike had said yes and was unticked: no longer coming; nobody unanswered gets a "no".
    assert coming(solo_evening) == {"olga": True, "Mike": False, "Nell": True}


def test_a_tick_for_someone_who_is_not_a_member_changes_nothing(as_organiser, solo_evening,
                                                                django_user_model):
    from leagues.models import Club
    rival = django_user_model.objects.create_user("rita", "rita@example.org", "pw")
    stranger = Club.create_with_organiser(rival, name="Rival").members.get()
    before = fingerprint()
    response = as_organiser.post(sheet_url(solo_evening),
                                 {"shown": [stranger.pk], "coming": [stranger.pk]}, follow=True)
    assert "Choose members of this club; nothing was saved." in response.content.decode()
    assert as_organiser.post(row_url(solo_evening, stranger),
                             {"coming": [stranger.pk]}).status_code == 404
    assert fingerprint() == before


def test_members_and_outsiders_may_not_tick_for_others(client, solo_evening, organiser,
                                                      member_user, outsider_user):
    before = fingerprint()
    client.force_login(member_user)
    assert client.get(sheet_url(solo_evening)).status_code == 403
    assert client.post(row_url(solo_evening, organiser),
                       {"coming": [organiser.pk]}).status_code == 403
    client.force_login(outsider_user)
    assert client.post(row_url(solo_evening, organiser),
                       {"coming": [organiser.pk]}).status_code == 404
    assert fingerprint() == before


def test_a_member_marks_themselves_from_the_evening_page(as_member, solo_evening):
    club = solo_evening.season.league.club
    page = as_member.get(f"/clubs/{club.slug}/evenings/{solo_evening.pk}/").content.decode()
    assert "Are you coming?" in page and "Mark who is coming" not in page
    as_member.post(f"/clubs/{club.slug}/evenings/{solo_evening.pk}/attendance/",
                   {"coming": "yes"})
    assert coming(solo_evening) == {"Mike": True}


def test_a_past_evening_shows_who_came_not_the_question(as_member, solo_season, member,
                                                        organiser):
    past = Evening.objects.create(season=solo_season, date=datetime.date(2020, 5, 4))
    Attendance.objects.create(evening=past, member=organiser, coming=True)
    Attendance.objects.create(evening=past, member=member, coming=False)
    club = solo_season.league.club
    response = as_member.get(f"/clubs/{club.slug}/evenings/{past.pk}/")
    page = response.content.decode()
    assert "Are you coming?" not in page and "I am coming" not in page
    assert "Who came" in page
    assert [a.member.name for a in response.context["attendances"]] == ["olga"]
    before = fingerprint()
    response = as_member.post(f"/clubs/{club.slug}/evenings/{past.pk}/attendance/",
                              {"coming": "yes"}, follow=True)
    assert "This evening is over" in response.content.decode()
    assert fingerprint() == before


def test_the_evening_and_the_sheet_give_a_head_count(as_organiser, solo_evening, club):
    from leagues.models import Attendance

    from .conftest import add_members

    people = add_members(club, ["Ann", "Bob", "Cat"])
    Attendance.objects.create(evening=solo_evening, member=people[0], coming=True)
    Attendance.objects.create(evening=solo_evening, member=people[1], coming=True)
    Attendance.objects.create(evening=solo_evening, member=people[2], coming=False)
    page = as_organiser.get(solo_evening.get_absolute_url()).content.decode()
    assert "<strong>2 coming</strong>" in page
    sheet = as_organiser.get(
        f"/clubs/{club.slug}/evenings/{solo_evening.pk}/attendance/sheet/").content.decode()
    assert "<strong>2 coming</strong>" in sheet
