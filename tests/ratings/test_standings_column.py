"""The standings' rating column and order: one query for the whole table, pairs rated as their
two players, ``?order=rating`` orders the rows by rating."""

import pytest
from django.template import Context, Template
from django.test import RequestFactory

from leagues.standings import season_standings
from tests.leagues.conftest import bid, solo

pytestmark = pytest.mark.django_db

TEMPLATE = Template("{% load ratings %}{% rated_standings rows league as rated %}"
                    "{% for row in rated %}{% firstof row.name row.pair %}="
                    "{{ row.rating.text|default:'-' }};{% endfor %}")


def render(rows, league, query=""):
    request = RequestFactory().get("/" + query)
    return TEMPLATE.render(Context({"rows": rows, "league": league, "request": request}))


def test_a_rating_column_and_order_on_solo_standings(solo_table, organiser_user,
                                                     django_capture_on_commit_callbacks,
                                                     django_assert_max_num_queries):
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            solo_table.add_deal(solo("solo", 3, 9), organiser_user)  # Pat, last by name
    season = solo_table.evening.season
    rows = season_standings(season)
    with django_assert_max_num_queries(1):
        text = render(rows, season.league)
    assert text.count(" ± ") == 4
    by_rating = render(rows, season.league, "?order=rating")
    assert by_rating.startswith("Pat=")


def test_pairs_are_rated_as_their_two_players(bid_table, organiser_user,
                                              django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        bid_table.add_deal(bid(1, 4, "uptown", 11), organiser_user)
    season = bid_table.evening.season
    text = render(season_standings(season), season.league, "?order=rating")
    assert text.startswith("Kings=") and text.count(" ± ") == 2
