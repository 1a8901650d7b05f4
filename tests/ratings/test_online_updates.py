"""An online hand is one update of its players, off the play path, whatever was played before
it; and the site's ratings resist one person making results up (docs/ratings.md)."""

import datetime
import itertools
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import FollowUp
from leagues import edits
from leagues.models import Club, Evening, League, Season
from ratings.core import Event, display
from ratings.events import SITE, online_events
from ratings.models import Rating, RatingPoint, RatingStream
from ratings.read import site_rows
from ratings.store import append, refresh
from tests.leagues.conftest import add_members, make_solo_table, solo
from tests.ratings.test_pages_and_visibility import online_table, play_hands

pytestmark = pytest.mark.django_db
_counter = itertools.count()
PEOPLE = ["u:1", "u:2", "u:3", "u:4", "u:5", "u:6", "computer:easy", "computer:strong"]


def stored(scope, game="solo_whist"):
    return (sorted(Rating.objects.filter(scope=scope, game=game).values_list(
                "player", "mu", "sigma", "results", "online", "met", "day")),
            sorted(RatingPoint.objects.filter(scope=scope, game=game).values_list(
                "player", "day", "mu", "sigma", "results", "met")))


def solo_events(draw_players, results, day=datetime.date(2031, 3, 1)):
    events = []
    for index, (players, declarer, units) in enumerate(zip(draw_players, *results, strict=True)):
        points = [-units] * 4
        points[declarer] = 3 * units
        stamp = day + datetime.timedelta(days=index // 3)
        events.append(Event(f"{stamp.isoformat()}|{index:012d}", stamp, tuple(players),
                            tuple(points), online=True))
    return events


@pytest.mark.slow  # its own number of examples: `make test`, not test-quick
@settings(max_examples=25,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.permutations(PEOPLE), st.integers(0, 3), st.integers(-6, 6)),
                min_size=1, max_size=15))
def test_one_update_at_a_time_equals_a_rebuild(hands):
    RatingStream.objects.all().delete()
    Rating.objects.all().delete()
    RatingPoint.objects.all().delete()
    events = solo_events([h[0][:4] for h in hands], ([h[1] for h in hands],
                                                     [h[2] for h in hands]))
    for event in events:
        assert append(SITE, "solo_whist", event)
    one_by_one = stored(SITE)
    refresh(SITE, "solo_whist", events=events)
    assert stored(SITE) == one_by_one


def test_a_result_rated_already_or_older_than_the_last_is_refused():
    events = solo_events([PEOPLE[:4], PEOPLE[2:6]], ([0, 1], [3, -2]))
    assert append(SITE, "solo_whist", events[1])
    before = stored(SITE)
    assert not append(SITE, "solo_whist", events[1])  # the same hand again: counted once
    assert not append(SITE, "solo_whist", events[0])  # older: re-rated from its day instead
    assert stored(SITE) == before


def queries_of_one_update(earlier: int) -> int:
    RatingStream.objects.all().delete()
    Rating.objects.all().delete()
    RatingPoint.objects.all().delete()
    rng = random.Random(7)
    players = [[f"u:{n}" for n in rng.sample(range(1, 40), 4)] for _ in range(earlier + 1)]
    events = [Event(f"2031-03-01|{i:012d}", datetime.date(2031, 3, 1), tuple(p),
                    (9, -3, -3, -3), True) for i, p in enumerate(players)]
    four = ("u:1", "u:2", "u:3", "u:4")  # they played earlier that day, and play last
    events[0] = Event(events[0].key, events[0].day, four, (9, -3, -3, -3), True)
    events[-1] = Event(events[-1].key, events[-1].day, four, (-3, 9, -3, -3), True)
    refresh(SITE, "solo_whist", events=events[:-1])
    with CaptureQueriesContext(connection) as queries:
        assert append(SITE, "solo_whist", events[-1])
    return len(queries)


def test_one_update_costs_the_same_whatever_was_played_that_day():
    # The same statements with nothing before it as after 300 results that day: it reads and
    # writes its four players and the stream, never the day's other results.
    assert queries_of_one_update(300) == queries_of_one_update(1)


def test_a_hand_at_an_online_table_is_rated_on_the_follow_up_not_while_played(
        outsider_user, member_user, django_capture_on_commit_callbacks, settings):
    settings.FOLLOW_UPS_INLINE = False  # as on a server: the worker does it, later
    table = online_table([outsider_user, member_user], ["easy", "strong"])
    play_hands(table, 3, django_capture_on_commit_callbacks)
    assert not Rating.objects.filter(scope=SITE).exists()  # nothing on the play path
    assert FollowUp.objects.filter(kind="hand_finished").count() == 3
    from games.followups import process_due

    assert process_due() == 3
    assert Rating.objects.get(scope=SITE, player=f"u:{outsider_user.pk}").results == 3
    assert RatingStream.objects.get(scope=SITE, game="solo_whist").last_key
    # The same as rating everything from the start.
    incremental = stored(SITE)
    refresh(SITE, "solo_whist")
    assert stored(SITE) == incremental
    assert not FollowUp.objects.exists()


# -- farming -----------------------------------------------------------------------------------


@pytest.mark.slow  # rates a whole club of results
def test_a_public_club_of_invented_members_never_reaches_the_site(
        organiser_user, django_capture_on_commit_callbacks):
    """One account, a public club, three members it typed in, 150 totals-only wins."""
    with django_capture_on_commit_callbacks(execute=True):
        club = Club.create_with_organiser(organiser_user, name=f"Farm {next(_counter)}")
        club.is_public = True
        club.save()
        league = League.objects.create(club=club, name="Solo", game="solo_whist")
        season = Season.objects.create(league=league, name="Always")
        me = club.members.get(user=organiser_user)
        invented = add_members(club, ["Xa", "Xb", "Xc"])
        evening = Evening.objects.create(season=season, date=datetime.date(2030, 5, 1))
        table = make_solo_table(evening, [me, *invented])
    for _ in range(150):
        with django_capture_on_commit_callbacks(execute=True):
            table.add_deal(solo("solo", 0, 13), organiser_user)
    assert not Rating.objects.filter(scope=SITE).exists()
    # The club's own pages still rate what it entered, for its own people to see.
    assert Rating.objects.filter(scope=f"club-{club.pk}").count() == 4


def test_hands_thrown_to_a_computer_level_barely_move_it():
    """Two accounts throw 40 hands to the easy computer players."""
    for number in range(1, 41):
        event = Event(f"2031-01-01|{number:012d}", datetime.date(2031, 1, 1),
                      ("u:1", "u:2", "computer:easy", "computer:easy"), (-8, -8, 8, 8), online=True)
        assert append(SITE, "solo_whist", event)
    easy = Rating.objects.get(scope=SITE, player="computer:easy")
    assert abs(display(easy.mu, easy.sigma)[0] - 1500) < 50
    # The two accounts met only each other: neither is on the site's list.
    assert [row.name for row in site_rows("solo_whist", min_hands=0)] == [
        "Computer player (easy)"]


def test_the_site_list_waits_for_several_different_people():
    me = "u:1"
    events = []
    for index, other in enumerate(["u:2", "u:3", "u:4", "u:5", "u:6"]):
        events.append(Event(f"2031-02-01|{index:012d}", datetime.date(2031, 2, 1),
                            (me, other, "computer:easy", "computer:normal"), (9, -3, -3, -3), True))
    for event in events:
        append(SITE, "solo_whist", event)
        met = Rating.objects.get(scope=SITE, player=me).met
        assert len(met) == events.index(event) + 1
    assert Rating.objects.get(scope=SITE, player=me).met == ["u:2", "u:3", "u:4", "u:5", "u:6"]


def test_online_events_leave_out_one_person_with_computer_players(
        outsider_user, django_capture_on_commit_callbacks):
    table = online_table([outsider_user], ["easy", "easy", "strong"])
    play_hands(table, 2, django_capture_on_commit_callbacks)
    assert online_events("solo_whist") == []


def test_no_change_rates_on_the_request_that_made_it(organiser_user, member_user,
                                                     django_capture_on_commit_callbacks,
                                                     settings):
    """Switching a club's visibility (or entering a result dated long ago) records a re-rating
    for the follow-up worker: the request itself rates nothing."""
    from games.followups import process_due

    with django_capture_on_commit_callbacks(execute=True):
        club = Club.create_with_organiser(organiser_user, name=f"Quick {next(_counter)}")
        league = League.objects.create(club=club, name="Solo", game="solo_whist")
        season = Season.objects.create(league=league, name="Winter")
        me = club.members.get(user=organiser_user)
        mike = add_members(club, ["Mike"])[0]
        mike.user = member_user
        mike.save()
        others = add_members(club, ["Ann", "Bob"])
        evening = Evening.objects.create(season=season, date=datetime.date(1900, 1, 1))
        table = make_solo_table(evening, [me, mike, *others])
        table.add_deal(solo("solo", 0, 9), organiser_user)
    assert Rating.objects.filter(scope=f"club-{club.pk}").count() == 4
    settings.FOLLOW_UPS_INLINE = False
    with django_capture_on_commit_callbacks(execute=True):
        edits.change_club(club, {"is_public": True}, organiser_user)
    assert not Rating.objects.filter(scope=SITE).exists()  # not on the request
    assert FollowUp.objects.filter(kind="rate", payload__scope=SITE).count() == 1
    assert process_due() == 1
    assert Rating.objects.filter(scope=SITE).count() == 4
