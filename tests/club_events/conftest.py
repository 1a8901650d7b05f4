import pytest

from leagues.models import Member
from tests.events.conftest import computer_players_wait, make_people  # noqa: F401
from tests.leagues.conftest import *  # noqa: F403  (the three personas and the club)


@pytest.fixture
def players(club, organiser_user, member_user, make_people):  # noqa: F811
    """Four members of the club who sign in: Olga (organiser), Mike, Nell and Pat."""
    nell, pat = make_people("nell", "pat")
    Member.objects.create(club=club, user=nell, name="Nell")
    Member.objects.create(club=club, user=pat, name="Pat")
    return [organiser_user, member_user, nell, pat]
