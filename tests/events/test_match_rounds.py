"""A round of matches (``Event.plays_matches``) scored, for any lengths of its tables'
matches: each deal of the round is compared among the tables that reached it, no other; a
deal a table's match never reached is neither late nor averaged; a deal past the round's is
nobody's; each person's percentage is over the deals their table reached (hypothesis)."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events import results
from events.models import Event, EventRound, EventTable
from games.models import Hand, Seat, Table
from tests.events.conftest import new_event

pytestmark = pytest.mark.django_db

DEALS = 3


def round_of_matches(organiser, users, lengths, points):
    """A finished round of ``len(lengths)`` tables, table i's match over after ``lengths[i]``
    hands (past the round's deals when longer), hand k scoring ``points[i][k]`` for side 0
    and the opposite for side 1."""
    event = new_event(organiser, rounds=1, deals_per_round=DEALS, plays_matches=True,
                      late_deals=Event.LateDeals.AVERAGE_MINUS,
                      status=Event.Status.FINISHED)
    now = timezone.now()
    event_round = EventRound.objects.create(event=event, number=1, started_at=now,
                                            ends_at=now + timedelta(hours=1), finished_at=now)
    seats = iter(users)
    for number, length in enumerate(lengths, start=1):
        table = Table.objects.create(game="bid_whist", status=Table.Status.FINISHED,
                                     preset_deals=[{}] * DEALS, match_ends_it=True,
                                     time_up_at=event_round.ends_at)
        Seat.objects.bulk_create(Seat(table=table, position=p, user=next(seats))
                                 for p in range(4))
        EventTable.objects.create(round=event_round, number=number, table=table)
        Hand.objects.bulk_create(
            Hand(table=table, number=k, record={},
                 result={"complete": True, "points": [points[number - 1][k - 1],
                                                      -points[number - 1][k - 1]]})
            for k in range(1, length + 1))
    return event, event_round


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                        HealthCheck.function_scoped_fixture])
@given(lengths=st.lists(st.integers(1, DEALS + 2), min_size=1, max_size=4),
       points=st.lists(st.lists(st.integers(-7, 7), min_size=DEALS + 2, max_size=DEALS + 2),
                       min_size=4, max_size=4))
def test_each_deal_is_compared_among_the_tables_that_reached_it(django_user_model, lengths,
                                                                  points):
    with transaction.atomic():
        users = [django_user_model.objects.create_user(f"u{n}") for n in range(17)]
        event, event_round = round_of_matches(users[16], users, lengths, points)
        reached = {number: length for number, length in enumerate(lengths, start=1)}
        for index in range(DEALS):
            rows = results.deal_results(event, event_round, index)
            assert {row.event_table.number for row in rows} == {
                number for number, length in reached.items() if length > index}
            assert not any(row.late for row in rows)
            for direction in range(2):
                assert sum(row.scores[direction].matchpoints for row in rows) == (
                    len(rows) * (len(rows) - 1))
        deals_of = {row.user.pk: row.deals for row in results.standings(event)}
        for number, length in reached.items():
            for user in users[4 * (number - 1):4 * number]:
                assert deals_of[user.pk] == min(length, DEALS)
        transaction.set_rollback(True)
