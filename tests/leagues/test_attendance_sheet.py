"""Attendance on one screen: every member with three answers, saved at each tap (htmx) or with
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


def test_the_sheet_lists_every_member_with_three_answers(as_organiser, solo_evening, member):
    page = as_organiser.get(sheet_url(solo_evening)).content.decode()
    for value in ("yes", "no", "none"):
        assert page.count(f'type="radio" name="answer-{member.pk}" value="{value}"') == 1
    assert page.count('type="radio"') == 6  # olga and Mike, three answers each
    assert f'hx-post="{row_url(solo_evening, member)}"' in page
    assert "0 coming</strong> · 0 not coming · 2 no answer" in page


def test_each_answer_is_one_tap_saved_by_the_htmx_endpoint(as_organiser, solo_evening, member):
    response = as_organiser.post(row_url(solo_evening, member), {f"answer-{member.pk}": "yes"},
                                 HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    row = response.content.decode()
    assert row.lstrip().startswith('<li class="attendance-row is-yes"')
    assert "coming · saved" in row and 'value="yes" checked' in row
    assert 'id="head-count" hx-swap-oob="true"' in row and "1 coming</strong>" in row
    assert coming(solo_evening) == {"Mike": True}
    # "not coming" straight from no answer: one tap, not a tick and an untick
    as_organiser.post(row_url(solo_evening, olga := solo_evening.season.league.club.members
                              .get(name="olga")), {f"answer-{olga.pk}": "no"})
    assert coming(solo_evening) == {"Mike": True, "olga": False}
    response = as_organiser.post(row_url(solo_evening, member), {f"answer-{member.pk}": "none"})
    assert "no answer · saved" in response.content.decode()
    assert "0 coming</strong> · 1 not coming · 1 no answer" in response.content.decode()
    assert coming(solo_evening) == {"olga": False}
    before = fingerprint()
    assert as_organiser.post(row_url(solo_evening, member),
                             {f"answer-{member.pk}": "maybe"}).status_code == 400
    assert fingerprint() == before


def test_the_plain_form_saves_every_answer_at_once(as_organiser, solo_evening, organiser,
                                                   member):
    (nell, pat) = add_members(organiser.club, ["Nell", "Pat"])
    Attendance.objects.create(evening=solo_evening, member=member, coming=True)
    Attendance.objects.create(evening=solo_evening, member=pat, coming=True)
    shown = [organiser.pk, member.pk, nell.pk, pat.pk]
    response = as_organiser.post(sheet_url(solo_evening), {
        "shown": shown, f"answer-{organiser.pk}": "yes", f"answer-{member.pk}": "no",
        f"answer-{nell.pk}": "yes", f"answer-{pat.pk}": "none"}, follow=True)
    assert "Saved: 2 members coming." in response.content.decode()
    assert coming(solo_evening) == {"olga": True, "Mike": False, "Nell": True}


def test_not_coming_is_refused_to_someone_with_a_result_that_evening(
        as_organiser, as_member, solo_table, member, organiser, organiser_user, client):
    from .conftest import solo
    evening = solo_table.evening
    evening.set_attendance(member, True)
    solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    club = evening.season.league.club
    before = fingerprint()
    page = client.post(f"/clubs/{club.slug}/evenings/{evening.pk}/attendance/",
                       {"coming": "no"}, follow=True).content.decode()
    assert ("Mike has a result at table 1 of this evening: they came, so their answer stays "
            "“coming”.") in page
    client.force_login(organiser_user)
    row = client.post(row_url(evening, member), {f"answer-{member.pk}": "none"}).content.decode()
    assert "Mike has a result at table 1" in row and 'value="yes" checked' in row
    page = client.post(sheet_url(evening), {"shown": [member.pk], f"answer-{member.pk}": "no"},
                       follow=True).content.decode()
    assert "Nothing was saved." in page
    assert fingerprint() == before


def test_a_tick_for_someone_who_is_not_a_member_changes_nothing(as_organiser, solo_evening,
                                                                django_user_model):
    from leagues.models import Club
    rival = django_user_model.objects.create_user("rita", "rita@example.org", "pw")
    stranger = Club.create_with_organiser(rival, name="Rival").members.get()
    before = fingerprint()
    response = as_organiser.post(sheet_url(solo_evening), {
        "shown": [stranger.pk], f"answer-{stranger.pk}": "yes"}, follow=True)
    assert "Choose members of this club; nothing was saved." in response.content.decode()
    assert as_organiser.post(row_url(solo_evening, stranger),
                             {f"answer-{stranger.pk}": "yes"}).status_code == 404
    assert fingerprint() == before


def test_members_and_outsiders_may_not_tick_for_others(client, solo_evening, organiser,
                                                      member_user, outsider_user):
    before = fingerprint()
    client.force_login(member_user)
    assert client.get(sheet_url(solo_evening)).status_code == 403
    assert client.post(row_url(solo_evening, organiser),
                       {f"answer-{organiser.pk}": "yes"}).status_code == 403
    client.force_login(outsider_user)
    assert client.post(row_url(solo_evening, organiser),
                       {f"answer-{organiser.pk}": "yes"}).status_code == 404
    assert fingerprint() == before


def test_a_member_marks_themselves_from_the_evening_page(as_member, solo_evening):
    club = solo_evening.season.league.club
    page = as_member.get(f"/clubs/{club.slug}/evenings/{solo_evening.pk}/").content.decode()
    assert "Are you coming?" in page and "Mark who is coming" not in page
    as_member.post(f"/clubs/{club.slug}/evenings/{solo_evening.pk}/attendance/",
                   {"coming": "yes"})
    assert coming(solo_evening) == {"Mike": True}
    page = as_member.post(f"/clubs/{club.slug}/evenings/{solo_evening.pk}/attendance/",
                          {"coming": "no"}, follow=True).content.decode()
    assert coming(solo_evening) == {"Mike": False}
    assert 'value="no" class="answer answer-no" aria-pressed="true"' in page
    assert "0 coming</strong> · 1 not coming · 1 no answer" in page
    as_member.post(f"/clubs/{club.slug}/evenings/{solo_evening.pk}/attendance/",
                   {"coming": "none"})
    assert coming(solo_evening) == {}


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



def test_a_closed_seasons_evening_lists_only_who_came(as_member, solo_season, member,
                                                      organiser):
    """An evening still to come when its season closed (played early, or drawn): "Who came"
    names those who came, not those who had said they would not."""
    from django.utils import timezone

    later = Evening.objects.create(season=solo_season,
                                   date=datetime.date.today() + datetime.timedelta(days=4))
    Attendance.objects.create(evening=later, member=organiser, coming=True)
    Attendance.objects.create(evening=later, member=member, coming=False)
    solo_season.closed_at = timezone.now()
    solo_season.save()
    club = solo_season.league.club
    response = as_member.get(f"/clubs/{club.slug}/evenings/{later.pk}/")
    assert "Who came" in response.content.decode()
    assert [a.member.name for a in response.context["attendances"]] == ["olga"]


def test_the_evening_and_the_sheet_give_a_head_count(as_organiser, solo_evening, club):
    from leagues.models import Attendance

    from .conftest import add_members

    people = add_members(club, ["Ann", "Bob", "Cat"])
    Attendance.objects.create(evening=solo_evening, member=people[0], coming=True)
    Attendance.objects.create(evening=solo_evening, member=people[1], coming=True)
    Attendance.objects.create(evening=solo_evening, member=people[2], coming=False)
    page = as_organiser.get(solo_evening.get_absolute_url()).content.decode()
    assert "<strong>2 coming</strong> · 1 not coming · 2 no answer" in page
    sheet = as_organiser.get(
        f"/clubs/{club.slug}/evenings/{solo_evening.pk}/attendance/sheet/").content.decode()
    assert "<strong>2 coming</strong> · 1 not coming · 2 no answer" in sheet
