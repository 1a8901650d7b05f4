"""A Swiss event's people pause, come back or leave once it has started (docs/events.md,
"Pausing, leaving and joining late"), and each person's seats over the rounds (the
directions, evened: "Swiss"): a paused person finishes their table and is not seated in
the rounds formed while they are away, which score nothing for them and are no byes; back,
they play from the next round; gone, never again, their results staying; the event's page
offers the choices and asks before leaving, with the arena's page."""

from datetime import timedelta

import pytest
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from events import away, results, running
from events.models import Event, EventRound, Registration
from tests.events.conftest import new_event, play_round

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_players_wait")]


def started_swiss(make_people, count, rounds=3, prefix="p", game="bid_whist"):
    org, *people = make_people(f"{prefix}org", *(f"{prefix}{i}" for i in range(count)))
    event = new_event(org, game=game, rounds=rounds, deals_per_round=1)
    for each in people:
        running.register(event, each)
    running.start(event, org)
    event.refresh_from_db()
    return event, people


def seated_in(event, number):
    """The people (by username) at each table of round ``number``."""
    found = []
    for event_table in event.event_rounds.get(number=number).tables.all():
        found += [seat.user.username for seat in event_table.table.seats.all()
                  if seat.user_id is not None and not seat.computer_level]
    return found


def test_a_paused_player_finishes_their_table_misses_the_next_round_and_comes_back(
        make_people):
    event, people = started_swiss(make_people, 8, rounds=3)
    p0 = people[0]
    away.pause(event, p0)
    # Their table of round 1 plays on with them.
    assert seated_in(event, 1).count("p0") == 1
    play_round(event, 1)
    # Round 2: not at a table, and not sitting out either (no bye); seven people and a
    # computer player at two tables.
    assert "p0" not in seated_in(event, 2)
    assert p0.pk not in event.event_rounds.get(number=2).sitting_out
    assert len(seated_in(event, 2)) == 7
    assert results.history(event).byes[p0.pk] == 0
    # Back during round 2: seated from round 3, at one table.
    away.come_back(event, p0)
    assert "p0" not in seated_in(event, 2)
    play_round(event, 2, seed=2)
    assert seated_in(event, 3).count("p0") == 1
    play_round(event, 3, seed=3)
    # The round they missed scored nothing and weighs nothing: two deals of three.
    rows = {row.user.username: row.deals for row in results.standings(event)}
    assert rows["p0"] == 2 and rows["p1"] == 3


def test_a_player_who_leaves_is_never_seated_again_and_their_results_stay(make_people):
    event, people = started_swiss(make_people, 4, rounds=3)
    p3 = people[3]
    away.leave(event, p3)
    play_round(event, 1)
    # Round 2 of 3: they cannot pause, come back, leave nor join again.
    for change in (away.pause, away.come_back, away.leave, running.register):
        with pytest.raises(running.EventError, match="You have left this event"):
            change(event, p3)
    play_round(event, 2, seed=2)
    assert "p3" not in seated_in(event, 2) and "p3" not in seated_in(event, 3)
    rows = {row.user.username: row.deals for row in results.standings(event)}
    assert rows["p3"] == 1 and rows["p0"] == 2


def test_a_round_everyone_misses_ends_with_its_clock_and_the_next_seats_who_came_back(
        make_people):
    event, (alone,) = started_swiss(make_people, 1, rounds=3)
    away.pause(event, alone)
    play_round(event, 1)
    second = event.event_rounds.get(number=2)
    assert not second.tables.exists()  # nobody to seat: no table, and no bye
    away.come_back(event, alone)
    running.finish_overdue_rounds(now=second.ends_at + timedelta(minutes=2))
    assert seated_in(event, 3) == ["p0"]
    assert results.history(event).byes[alone.pk] == 0


def test_the_refusals_in_words_change_nothing(make_people):
    event, (ana, bob) = started_swiss(make_people, 2, rounds=2)
    (stranger,) = make_people("stranger")
    with pytest.raises(running.EventError, match="You are not registered"):
        away.pause(event, stranger)
    with pytest.raises(running.EventError, match="You are not paused: you are seated in the "
                                                 "next round"):
        away.come_back(event, ana)
    away.pause(event, ana)
    with pytest.raises(running.EventError, match="already paused"):
        away.pause(event, ana)
    play_round(event, 1)
    # The last round has started: nothing left to pause, come back to or leave.
    for change in (away.pause, away.come_back, away.leave):
        with pytest.raises(running.EventError, match="no round is left"):
            change(event, bob)
    assert Registration.objects.get(user=bob).paused_at is None
    assert Registration.objects.get(user=bob).left_at is None


@hypothesis_settings(max_examples=5, deadline=None,
                     suppress_health_check=[HealthCheck.function_scoped_fixture,
                                            HealthCheck.too_slow])
@example(count=2, moves=[[("pause", 0), ("pause", 1)], [], []])  # a round nobody plays
@given(count=st.integers(min_value=2, max_value=7),
       moves=st.lists(st.lists(st.tuples(st.sampled_from(["pause", "back", "leave"]),
                                         st.integers(0, 20)), max_size=3),
                      min_size=3, max_size=3))
def test_over_any_pauses_and_departures_nobody_sits_twice_nor_while_away(make_people, count,
                                                                        moves):
    """Three rounds, with pauses, comings back and departures during each: in every round
    nobody is at two tables, nobody away when it was formed is seated or sits out, and
    everyone playing is at a table or sits out."""
    prefix = f"s{Event.objects.count()}x"
    event, people = started_swiss(make_people, count, rounds=3, prefix=prefix)
    for number, changes in enumerate(moves, start=1):
        for move, pick in changes:
            chosen = people[pick % len(people)]
            try:
                {"pause": away.pause, "back": away.come_back, "leave": away.leave}[move](
                    event, chosen)
            except running.EventError:
                pass  # refused in words: paused twice, a come back of someone playing...
        play_round(event, number, seed=number)
        if number == 3:
            break
        this_round = event.event_rounds.get(number=number)
        if not this_round.tables.exists():  # everyone away: the round ends with its clock
            running.finish_overdue_rounds(now=this_round.ends_at + timedelta(minutes=2))
        states = {each.user.username: away.state_of(each)
                  for each in Registration.objects.filter(event=event).select_related("user")}
        seated = seated_in(event, number + 1)
        out = {person.username for person in people
               if person.pk in event.event_rounds.get(number=number + 1).sitting_out}
        assert len(seated) == len(set(seated)), "a person at two tables"
        assert all(states[name] == away.PLAYING for name in seated), "seated while away"
        assert set(seated) | out == {name for name, state in states.items()
                                     if state == away.PLAYING}
        assert not out  # the seats nobody fills go to computer players: nobody sits out


def test_over_the_rounds_each_player_holds_every_seat_once(make_people):
    """Four players of Solo Whist, four rounds: the same four at the one table each round,
    each in a seat they have not held yet, so each holds every seat once (a seat's cards are
    compared with the same seat's at the other tables)."""
    event, people = started_swiss(make_people, 4, rounds=4, game="solo_whist")
    for number in range(1, 5):
        play_round(event, number, seed=number)
    seats: dict[str, list[int]] = {person.username: [] for person in people}
    for the_round in EventRound.objects.filter(event=event):
        for event_table in the_round.tables.all():
            for seat in event_table.table.seats.filter(user__isnull=False):
                seats[seat.user.username].append(seat.position)
    assert all(sorted(held) == [0, 1, 2, 3] for held in seats.values()), seats
    assert results.history(event).directions[people[0].pk] == [1, 1, 1, 1]


# -- the pages -------------------------------------------------------------------------------


def page(client, event):
    return client.get(f"/events/{event.pk}/").content.decode()


def test_the_swiss_page_offers_pause_come_back_and_leave_with_a_confirmation(client,
                                                                             make_people):
    event, people = started_swiss(make_people, 4, rounds=3)
    p0 = people[0]
    client.force_login(p0)
    shown = page(client, event)
    assert ">Pause<" in shown and "Leave the event" in shown and "Come back" not in shown

    response = client.post(f"/events/{event.pk}/pause/", follow=True)
    shown = response.content.decode()
    assert "You are paused: you are not seated in the next rounds until you come back." in shown
    assert "Finish your table" in shown
    assert "Come back" in shown and "(paused)" in shown
    assert "You are paused: you are not seated in the next round." in shown

    response = client.post(f"/events/{event.pk}/come-back/", follow=True)
    assert "Welcome back: you are seated from the next round." in response.content.decode()
    assert Registration.objects.get(user=p0).paused_at is None

    # Leaving asks first, on the arena's page in the event's words; nothing changes before.
    asked = client.get(f"/events/{event.pk}/leave/").content.decode()
    assert "Leave the event for good?" in asked and "Your results so far stay" in asked
    assert "Stay in the event" in asked and "arena" not in asked
    assert Registration.objects.get(user=p0).left_at is None
    response = client.post(f"/events/{event.pk}/leave/", follow=True)
    shown = response.content.decode()
    assert "You have left the event. Your results so far stay in the standings." in shown
    assert "(left)" in shown and ">Pause<" not in shown and "Leave the event" not in shown
    assert client.get(f"/events/{event.pk}/leave/").status_code == 302


def test_no_choice_is_offered_once_the_last_round_has_started(client, make_people):
    event, people = started_swiss(make_people, 4, rounds=2)
    play_round(event, 1)
    client.force_login(people[0])
    shown = page(client, event)
    assert ">Pause<" not in shown and "Leave the event" not in shown
    assert client.get(f"/events/{event.pk}/leave/").status_code == 302
    response = client.post(f"/events/{event.pk}/pause/", follow=True)
    assert "no round is left to pause or leave" in response.content.decode()
    assert Registration.objects.get(user=people[0]).paused_at is None


def test_a_paused_person_s_page_says_so_between_rounds(client, make_people):
    event, people = started_swiss(make_people, 5, rounds=3)
    away.pause(event, people[4])
    play_round(event, 1)
    client.force_login(people[4])
    shown = page(client, event)
    assert "You are paused." in shown and "not counted as byes" in shown
    assert "You play from round" not in shown and "You sit out" not in shown
    assert "Come back" in shown and "You are seated from the next round." in shown
