"""The incremental path (what each change of a result triggers) and a rebuild from the stored
results give the same numbers, to the last bit, whatever the order of additions, corrections
and deletions over several evenings."""

import datetime
import itertools

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.models import Club, Evening, League, Season
from ratings.events import scope_of
from ratings.models import Rating, RatingPoint
from ratings.store import refresh
from tests.leagues.conftest import add_members, make_solo_table, solo

pytestmark = pytest.mark.django_db
_counter = itertools.count()

deal = st.tuples(st.sampled_from(["solo", "misere"]), st.integers(0, 3), st.integers(0, 13))
operation = st.one_of(
    st.tuples(st.just("add"), st.integers(0, 2), deal),
    st.tuples(st.just("edit"), st.integers(0, 2), st.integers(1, 4), deal),
    st.tuples(st.just("delete"), st.integers(0, 2), st.integers(1, 4)))


def stored(scope, game="solo_whist"):
    return (sorted(Rating.objects.filter(scope=scope, game=game).values_list(
                "player", "mu", "sigma", "results", "day")),
            sorted(RatingPoint.objects.filter(scope=scope, game=game).values_list(
                "player", "day", "mu", "sigma", "results")))


def private_club_with_tables(organiser_user, evenings=3):
    club = Club.create_with_organiser(organiser_user, name=f"Club {next(_counter)}")
    league = League.objects.create(club=club, name="Solo", game="solo_whist")
    season = Season.objects.create(league=league, name="Winter")
    people = add_members(club, ["Ann", "Bob", "Cat", "Dan", "Eve"])
    tables = []
    # Evenings created out of date order: the stream's order is the evenings' dates.
    for index, day in enumerate([9, 2, 16][:evenings]):
        evening = Evening.objects.create(season=season, date=datetime.date(2030, 1, day))
        seated = people[index:index + 4] if index < 2 else [people[4], *people[:3]]
        tables.append(make_solo_table(evening, seated))
    return club, tables


@pytest.mark.slow  # its own number of examples: `make test`, not test-quick
@settings(max_examples=25,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(operation, min_size=1, max_size=12))
def test_the_incremental_path_equals_a_rebuild(organiser_user, django_capture_on_commit_callbacks,
                                               operations):
    with django_capture_on_commit_callbacks(execute=True):
        club, tables = private_club_with_tables(organiser_user)
    for op in operations:
        table = tables[op[1]]
        count = table.deals.count()
        with django_capture_on_commit_callbacks(execute=True):
            if op[0] == "add":
                contract, declarer, tricks = op[2]
                table.add_deal(solo(contract, declarer, tricks), organiser_user)
            elif count:
                number = (op[2] - 1) % count + 1
                if op[0] == "edit":
                    contract, declarer, tricks = op[3]
                    table.change_deal(number, solo(contract, declarer, tricks), organiser_user)
                else:
                    table.change_deal(number, None, organiser_user)
    scope = scope_of(club)
    incremental = stored(scope)
    refresh(scope, "solo_whist")
    assert stored(scope) == incremental


def test_a_correction_rates_again_and_a_deletion_forgets(organiser_user,
                                                         django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        club, tables = private_club_with_tables(organiser_user)
    scope = scope_of(club)
    with django_capture_on_commit_callbacks(execute=True):
        for table in tables:
            table.add_deal(solo("solo", 0, 9), organiser_user)
            table.add_deal(solo("solo", 1, 2), organiser_user)
    before = stored(scope)
    first = tables[1]  # the earliest evening: every later rating depends on it
    ann_before = Rating.objects.get(scope=scope, player=f"m:{first.seats.get(seat=0).member_id}")
    with django_capture_on_commit_callbacks(execute=True):
        first.change_deal(1, solo("solo", 0, 2), organiser_user)  # made → set
    ann = Rating.objects.get(scope=scope, player=ann_before.player)
    assert ann.mu < ann_before.mu
    assert stored(scope) != before
    corrected = stored(scope)
    refresh(scope, "solo_whist")
    assert stored(scope) == corrected
    with django_capture_on_commit_callbacks(execute=True):
        first.change_deal(1, None, organiser_user)
        first.change_deal(1, None, organiser_user)
    deleted = stored(scope)
    refresh(scope, "solo_whist")
    assert stored(scope) == deleted
    # Two deals fewer for the player in seat 0 of that table (who sat at all three).
    assert Rating.objects.get(scope=scope, player=ann.player).results == ann.results - 2


def test_the_rate_command_rebuilds_one_club(organiser_user, capsys):
    club, tables = private_club_with_tables(organiser_user, evenings=1)
    tables[0].add_deal(solo("solo", 0, 9), organiser_user)  # on_commit does not run here
    assert not Rating.objects.filter(scope=scope_of(club)).exists()
    call_command("rate", "--rebuild", "--club", club.slug, "--game", "solo_whist")
    assert Rating.objects.filter(scope=scope_of(club), game="solo_whist").count() == 4
    assert "1 results rated" in capsys.readouterr().out
