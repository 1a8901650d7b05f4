"""A season's calendar: evenings created as a series after a preview of the dates, an evening
cancelled (kept, marked, without results) or brought back, the members told by e-mail."""

import datetime

import icalendar
import pytest
from django.core import mail

from leagues.models import Attendance, ClubChange, Deal, Evening, EveningTable, Member
from leagues.season_calendar import series_dates
from tests.leagues.conftest import solo

pytestmark = pytest.mark.django_db


def series_url(season):
    return f"/clubs/{season.league.club.slug}/seasons/{season.pk}/evenings/series/"


def evening_url(evening, action=""):
    return f"/clubs/{evening.season.league.club.slug}/evenings/{evening.pk}/{action}"


SERIES = {"weekday": "3", "first": "2030-01-08", "last": "2030-03-26", "every_weeks": "1",
          "start_time": "20:00", "venue": "The Red Lion"}


def test_every_thursday_from_8_january_to_26_march():
    days = series_dates(3, datetime.date(2030, 1, 8), datetime.date(2030, 3, 26))
    assert days[0] == datetime.date(2030, 1, 10)  # the first Thursday on or after the 8th
    assert days[-1] == datetime.date(2030, 3, 21)
    assert len(days) == 11 and {d.weekday() for d in days} == {3}
    fortnightly = series_dates(3, datetime.date(2030, 1, 8), datetime.date(2030, 3, 26), 2)
    assert fortnightly == days[::2]


def test_the_preview_lists_the_dates_and_saves_nothing(as_organiser, solo_season):
    page = as_organiser.post(series_url(solo_season), {**SERIES, "preview": "1"})
    text = page.content.decode()
    assert "11 dates" in text
    assert "Thursday 10 January 2030" in text and "Thursday 21 March 2030" in text
    assert "Create the ticked evenings (11)" in text
    assert not solo_season.evenings.exists()


def test_creating_the_series_saves_the_ticked_dates_at_the_time_and_venue(as_organiser,
                                                                         solo_season):
    dates = [d.isoformat() for d in series_dates(3, datetime.date(2030, 1, 8),
                                                 datetime.date(2030, 3, 26))]
    skipped = dates[5]  # a holiday, unticked in the preview
    response = as_organiser.post(series_url(solo_season), {
        **SERIES, "create": "1", "date": [d for d in dates if d != skipped]}, follow=True)
    assert "10 evenings added to Winter." in response.content.decode()
    evenings = list(solo_season.evenings.order_by("date"))
    assert [e.date.isoformat() for e in evenings] == [d for d in dates if d != skipped]
    assert {(e.start_time, e.venue) for e in evenings} == {(datetime.time(20, 0),
                                                            "The Red Lion")}
    # Sent twice (a double tap): each evening once.
    as_organiser.post(series_url(solo_season), {**SERIES, "create": "1", "date": dates})
    assert solo_season.evenings.count() == 11
    history = as_organiser.get(f"/clubs/{solo_season.league.club.slug}/changes/")
    text = history.content.decode()
    assert "10 evenings of Tuesday Solo (Winter) added by" in text
    assert "1 evening of Tuesday Solo (Winter) added by" in text
    assert "20:00 · The Red Lion" in text


def test_the_series_evenings_start_with_the_league_s_rounds(as_organiser, solo_season):
    league = solo_season.league
    league.rounds, league.deals_per_round = 3, 8
    league.save()
    as_organiser.post(series_url(solo_season), {**SERIES, "create": "1",
                                                "date": ["2030-01-10", "2030-01-17"]})
    assert {(e.rounds, e.deals_per_round) for e in solo_season.evenings.all()} == {(3, 8)}


def test_a_french_page_shows_the_dates_and_time_in_their_fields(as_organiser, solo_season):
    as_organiser.post("/i18n/setlang/", {"language": "fr"})
    text = as_organiser.get(series_url(solo_season)).content.decode()
    assert "Afficher les dates" in text
    # A date field takes a year-month-day value in every language (a French 10/01/2030
    # leaves the field empty): the first date is today's.
    assert f'name="first" value="{datetime.date.today().isoformat()}"' in text
    evening = Evening.objects.create(season=solo_season, date=datetime.date(2030, 1, 10),
                                     start_time=datetime.time(20, 0))
    text = as_organiser.get(evening_url(evening, "edit/")).content.decode()
    assert 'value="2030-01-10"' in text and 'value="20:00"' in text


def test_a_day_with_an_evening_already_is_shown_and_left_as_it_is(as_organiser, solo_season):
    Evening.objects.create(season=solo_season, date=datetime.date(2030, 1, 17), venue="Home")
    text = as_organiser.post(series_url(solo_season), {**SERIES, "preview": "1"}).content.decode()
    assert "there is an evening that day already" in text
    assert "Create the ticked evenings (10)" in text


@pytest.mark.parametrize("changes, words", [
    ({"last": "2029-12-01"}, "The last date comes before the first"),
    ({"first": "2030-01-10", "last": "2030-01-12", "weekday": "0"}, "There is no Monday"),
    ({"last": "2031-12-31"}, "a series has at most 60"),
    ({"first": "not a date"}, "Choose the first date."),
])
def test_bad_input_is_said_in_words_and_adds_nothing(as_organiser, solo_season, changes,
                                                     words):
    response = as_organiser.post(series_url(solo_season), {**SERIES, **changes, "create": "1",
                                                           "date": ["2030-01-10"]})
    assert response.status_code == 200
    assert words in response.content.decode()
    assert not solo_season.evenings.exists()


def test_a_date_that_is_not_in_the_series_adds_nothing(as_organiser, solo_season):
    response = as_organiser.post(series_url(solo_season), {
        **SERIES, "create": "1", "date": ["2030-01-10", "2030-01-11"]}, follow=True)
    assert "The dates changed since the preview" in response.content.decode()
    assert not solo_season.evenings.exists()


def test_members_and_outsiders_may_not_create_a_series(as_member, solo_season):
    assert as_member.post(series_url(solo_season), {**SERIES, "create": "1",
                                                    "date": ["2030-01-10"]}).status_code == 403
    assert not solo_season.evenings.exists()


@pytest.fixture
def confirmed(solo_evening, organiser, member):
    """Olga and Mike sign in with their own addresses (confirmed); Nell confirmed hers, Stop
    stopped the e-mails, Guest is a guest."""
    club = organiser.club
    nell = Member.objects.create(club=club, name="Nell", email="nell@example.org",
                                 confirmed_email="nell@example.org")
    Member.objects.create(club=club, name="Stop", email="stop@example.org",
                          confirmed_email="stop@example.org", reminders=False)
    Member.objects.create(club=club, name="Guest", email="guest@example.org",
                          confirmed_email="guest@example.org", guest=True)
    return nell


def test_cancelling_keeps_the_evening_marked_and_tells_the_members(as_organiser, solo_evening,
                                                                   confirmed):
    Attendance.objects.create(evening=solo_evening, member=confirmed, coming=True)
    page = as_organiser.get(evening_url(solo_evening, "cancel/")).content.decode()
    assert "Cancel this evening?" in page and "Keep the evening" in page
    response = as_organiser.post(evening_url(solo_evening, "cancel/"),
                                 {"tell_members": "1"}, follow=True)
    text = response.content.decode()
    assert "The evening is cancelled." in text and "E-mail sent to 3 members." in text
    assert sorted(m.to[0] for m in mail.outbox) == ["mike@example.org", "nell@example.org",
                                                    "olga@example.org"]
    assert mail.outbox[0].subject.startswith("Cancelled: Tuesday Solo, Monday 7 January 2030")
    assert "is cancelled" in mail.outbox[0].body and "/clubs/reminders/stop/" in mail.outbox[0].body
    solo_evening.refresh_from_db()
    assert solo_evening.is_cancelled
    assert solo_evening.attendances.count() == 1  # the answers are kept
    season = as_organiser.get(solo_evening.season.get_absolute_url()).content.decode()
    assert "Monday 7 January 2030" in season and "cancelled" in season
    assert "This evening is cancelled" in text
    # Nobody plays or answers a cancelled evening.
    assert "Draw the tables" not in text and "Are you coming?" not in text
    as_organiser.post(evening_url(solo_evening, "draw/"))
    assert not solo_evening.tables.exists()
    history = as_organiser.get(f"/clubs/{solo_evening.season.league.club.slug}/changes/")
    assert "Evening of 7 Jan 2030 (Tuesday Solo) cancelled by" in history.content.decode()


def test_an_evening_with_results_cannot_be_cancelled(as_organiser, solo_table):
    solo_table.add_deal(solo("solo", 0, 5), by=None)
    evening = solo_table.evening
    response = as_organiser.post(evening_url(evening, "cancel/"), {"tell_members": "1"},
                                 follow=True)
    assert ("Table 1 of this evening has a result: an evening with results was played and "
            "cannot be cancelled.") in response.content.decode()
    evening.refresh_from_db()
    assert not evening.is_cancelled and Deal.objects.filter(table=solo_table).count() == 1
    assert not mail.outbox


def test_a_drawn_table_without_results_goes_with_the_cancellation(as_organiser, solo_table):
    evening = solo_table.evening
    response = as_organiser.post(evening_url(evening, "cancel/"), follow=True)
    assert "Its drawn table (no result yet) was removed." in response.content.decode()
    assert not EveningTable.objects.filter(evening=evening).exists()
    change = ClubChange.objects.get(action="evening_cancel")
    assert change.before["tables"][0]["players"]


def test_bringing_back_an_evening_tells_the_members(as_organiser, solo_evening, confirmed):
    as_organiser.post(evening_url(solo_evening, "cancel/"))
    assert not mail.outbox  # the box unticked: nobody told
    response = as_organiser.post(evening_url(solo_evening, "uncancel/"), {"tell_members": "1"},
                                 follow=True)
    assert "The evening is on again." in response.content.decode()
    assert mail.outbox[0].subject.startswith("On again: Tuesday Solo")
    solo_evening.refresh_from_db()
    assert not solo_evening.is_cancelled


def test_a_new_date_is_e_mailed_to_the_members(as_organiser, solo_evening, confirmed):
    response = as_organiser.post(evening_url(solo_evening, "edit/"), {
        "date": "2030-01-09", "start_time": "20:00", "venue": "The Crown",
        "tell_members": "on"}, follow=True)
    assert "E-mail sent to 3 members." in response.content.decode()
    subject, body = mail.outbox[0].subject, mail.outbox[0].body
    assert subject.startswith("New date: Tuesday Solo, Wednesday 9 January 2030 20:00")
    assert "Monday 7 January 2030 moves to Wednesday 9 January 2030" in body
    mail.outbox.clear()
    as_organiser.post(evening_url(solo_evening, "edit/"), {
        "date": "2030-01-09", "start_time": "20:00", "venue": "The Swan", "tell_members": "on"})
    assert not mail.outbox  # the venue alone: the organiser writes if they wish


def test_the_calendar_feed_marks_a_cancelled_evening(client, as_organiser, solo_evening):
    club = solo_evening.season.league.club
    club.is_public = True
    club.save()
    as_organiser.post(evening_url(solo_evening, "cancel/"))
    feed = icalendar.Calendar.from_ical(client.get(f"/clubs/{club.slug}/calendar.ics").content)
    event = next(iter(feed.walk("VEVENT")))
    assert str(event["status"]) == "CANCELLED"
    assert str(event["summary"]).startswith("Cancelled: ")


def test_nobody_answers_for_a_cancelled_evening(as_organiser, solo_evening, member):
    as_organiser.post(evening_url(solo_evening, "cancel/"))
    club = solo_evening.season.league.club
    row = as_organiser.post(evening_url(solo_evening, f"attendance/{member.pk}/"),
                            {f"answer-{member.pk}": "yes"})
    assert row.status_code == 400 and "This evening is cancelled" in row.content.decode()
    sheet = as_organiser.post(evening_url(solo_evening, "attendance/sheet/"),
                              {"shown": [member.pk], f"answer-{member.pk}": "yes"}, follow=True)
    assert "This evening is cancelled" in sheet.content.decode()
    assert not solo_evening.attendances.exists()
    assert club.members.filter(pk=member.pk).exists()
