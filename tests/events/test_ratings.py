"""An event's hands count for the ratings as any online table's (docs/ratings.md): the people
at a table with people on other sides are rated on the site's list, the computer players that
fill the seats as their level (one person with computer players counts for nobody, as
anywhere); the comparison with the other tables (matchpoints) ranks the
event, not the ratings."""

import pytest

from events import running
from ratings.events import SITE
from ratings.models import Rating
from tests.events.conftest import new_event, play_round

pytestmark = pytest.mark.django_db


def test_an_events_hands_are_rated_as_online_hands(make_people, computer_players_wait):
    org, *players = make_people("org", "ana", "bob", "cy", "dee", "eve")
    event = new_event(org, game="solo_whist", rounds=1, deals_per_round=3)
    for person in players:
        running.register(event, person)
    running.start(event, org)
    play_round(event, 1)  # and the follow-ups: each hand's end heard by the ratings
    rated = dict(Rating.objects.filter(scope=SITE, game="solo_whist")
                 .values_list("player", "results"))
    tables = [[seat.user for seat in each.table.seats.all() if seat.user_id]
              for each in event.event_rounds.get(number=1).tables.all()]
    (with_people,) = [people for people in tables if len(people) > 1]
    (alone,) = [people[0] for people in tables if len(people) == 1]  # and computer players
    people_rated = {player for player in rated if player.startswith("u:")}
    assert people_rated == {f"u:{person.pk}" for person in with_people}
    assert all(rated[f"u:{person.pk}"] >= 1 for person in with_people)
    # One person with computer players moves nobody's site rating (the farming rule).
    assert f"u:{alone.pk}" not in rated
    assert f"u:{org.pk}" not in rated  # organising is not playing
