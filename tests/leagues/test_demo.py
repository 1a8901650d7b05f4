import pytest
from django.core.management import call_command

from leagues.models import Club, Deal
from leagues.standings import season_standings

pytestmark = pytest.mark.django_db


def test_demo_club_has_three_leagues_with_standings_and_loads_once(client):
    call_command("load_demo")
    club = Club.objects.get(slug="demo-whist-club")
    sizes = {league.game: len(season_standings(league.seasons.get()))
             for league in club.leagues.all()}
    assert sizes == {"solo_whist": 12, "bid_whist": 6, "belgian_whist": 8}
    deals = Deal.objects.count()
    call_command("load_leagues_demo")
    assert Deal.objects.count() == deals
    assert club.members.get(user__username="demo").is_organiser
    solo = club.leagues.get(game="solo_whist").seasons.get()
    page = client.get(f"/clubs/{club.slug}/seasons/{solo.pk}/")
    assert "Alice" in page.content.decode()
