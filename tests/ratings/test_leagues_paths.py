"""Each way a league result is entered reaches the ratings: a Bid Whist match deal by deal and
as totals, a player's provisional entry once confirmed; a bulk load under ``paused`` rates
nothing until a rebuild."""

import pytest

from ratings import signals
from ratings.events import scope_of
from ratings.models import Rating
from ratings.store import refresh
from tests.leagues.conftest import bid, solo

pytestmark = pytest.mark.django_db


def ratings(club, game):
    return dict(Rating.objects.filter(scope=scope_of(club), game=game)
                .values_list("player", "mu"))


def test_a_bid_whist_hand_rates_two_partnerships(bid_table, organiser_user, organiser,
                                                 django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        bid_table.add_deal(bid(0, 4, "uptown", 11), organiser_user)
    found = ratings(organiser.club, "bid_whist")
    assert len(found) == 4
    pair_0 = [bid_table.pair_0.first, bid_table.pair_0.second]
    winners = {f"u:{m.user_id}" if m.user_id else f"m:{m.pk}" for m in pair_0}
    assert all(mu > 25 for player, mu in found.items() if player in winners)
    assert all(mu < 25 for player, mu in found.items() if player not in winners)


def test_totals_rate_the_table_as_one_result(bid_table, organiser_user, organiser,
                                             django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        bid_table.set_totals([7, 2], organiser_user)
    assert len(ratings(organiser.club, "bid_whist")) == 4
    with django_capture_on_commit_callbacks(execute=True):
        bid_table.clear_totals(organiser_user)
    assert ratings(organiser.club, "bid_whist") == {}


def test_a_provisional_entry_counts_once_confirmed(solo_table, organiser_user, member,
                                                   organiser, django_capture_on_commit_callbacks):
    league = solo_table.league
    league.players_enter_results = True
    league.save()
    with django_capture_on_commit_callbacks(execute=True):
        solo_table.add_deal(solo("solo", 1, 9), member.user, member=member)
    assert ratings(organiser.club, "solo_whist") == {}  # waits for an opponent
    with django_capture_on_commit_callbacks(execute=True):
        solo_table.confirm(organiser_user, organiser)
    assert len(ratings(organiser.club, "solo_whist")) == 4


def test_a_bulk_load_under_paused_waits_for_a_rebuild(solo_table, organiser_user, organiser,
                                                      django_capture_on_commit_callbacks):
    with signals.paused(), django_capture_on_commit_callbacks(execute=True):
        solo_table.add_deals([solo("solo", 0, 9), solo("misere", 2, 0)], organiser_user)
    assert ratings(organiser.club, "solo_whist") == {}
    refresh(scope_of(organiser.club), "solo_whist")
    assert len(ratings(organiser.club, "solo_whist")) == 4


def test_a_deleted_table_and_merged_members_rate_again(solo_table, organiser_user, organiser,
                                                       django_capture_on_commit_callbacks):
    from leagues import edits
    from tests.leagues.conftest import add_members, make_solo_table

    club = organiser.club
    (twin,) = add_members(club, ["Nell twin"])
    others = list(solo_table.seats.exclude(seat=2).values_list("member", flat=True))
    from leagues.models import Member

    second = make_solo_table(solo_table.evening, [twin, *Member.objects.filter(pk__in=others)
                                                  .order_by("pk")], number=2)
    with django_capture_on_commit_callbacks(execute=True):
        solo_table.add_deal(solo("solo", 0, 9), organiser_user)
        second.add_deal(solo("solo", 0, 9), organiser_user)
    assert f"m:{twin.pk}" in ratings(club, "solo_whist")
    nell = solo_table.seats.get(seat=2).member
    with django_capture_on_commit_callbacks(execute=True):
        edits.merge_members(nell, twin, organiser_user)
    after_merge = ratings(club, "solo_whist")
    assert f"m:{twin.pk}" not in after_merge and f"m:{nell.pk}" in after_merge
    with django_capture_on_commit_callbacks(execute=True):
        edits.delete_table(second, organiser_user)
    rows = Rating.objects.filter(scope=scope_of(club), game="solo_whist")
    assert {r.results for r in rows} == {1}
    current = ratings(club, "solo_whist")
    refresh(scope_of(club), "solo_whist")
    assert ratings(club, "solo_whist") == current
