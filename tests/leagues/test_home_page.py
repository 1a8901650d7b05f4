"""The home page continues where a member left off: each of their clubs' next evening."""

import datetime

import pytest
from django.utils import timezone

from leagues.models import Club, Evening, League, Season

pytestmark = pytest.mark.django_db


def test_a_member_sees_their_clubs_next_evening_and_nothing_of_other_clubs(
        as_member, solo_season, outsider_user):
    today = timezone.localdate()
    Evening.objects.create(season=solo_season, date=today - datetime.timedelta(days=7),
                           venue="Last week's pub")
    soon = Evening.objects.create(season=solo_season, date=today + datetime.timedelta(days=3),
                                  venue="The Crown")
    Evening.objects.create(season=solo_season, date=today + datetime.timedelta(days=10),
                           venue="The Crown, later")
    other = Club.create_with_organiser(outsider_user, name="The Anchor")
    other_season = Season.objects.create(
        league=League.objects.create(club=other, name="Anchor Solo", game="solo_whist"),
        name="Spring")
    Evening.objects.create(season=other_season, date=today + datetime.timedelta(days=1),
                           venue="The Anchor")
    page = as_member.get("/").content.decode()
    assert "Your clubs&#x27; next evenings" in page or "Your clubs' next evenings" in page
    assert f'href="{soon.get_absolute_url()}"' in page
    assert "The Crown Whist Club" in page
    assert "Last week" not in page and "The Crown, later" not in page
    assert "The Anchor" not in page


def test_no_section_of_evenings_for_someone_in_no_club(as_outsider):
    assert "next evenings" not in as_outsider.get("/").content.decode()
