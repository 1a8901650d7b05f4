"""An arena's people come and go (docs/events.md, "Pausing, leaving and joining late"): a
paused person is not seated again until they come back, then with the next table formed; a
person who leaves is never seated again and their results stay in the standings; a person
may join while a table's deals still fit in the time left, and is seated with the next table
formed; the refusals in words; the buttons on the event's page."""

from datetime import timedelta

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from events import arena, away, results, running
from events.models import Event, Registration
from games.models import Table
from tests.events.conftest import new_event
from tests.events.test_arena import (
    arena_tables,
    assert_nobody_at_two_tables,
    finish,
    in_play,
    move_the_end,
    new_arena,
    people_at,
    started_arena,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_players_wait")]


def person(name):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username=name)


def table_of(event, name):
    return next((each for each in in_play(event) if name in people_at(each)), None)


def seated_ever(event, name):
    return [each for each in arena_tables(event) if name in people_at(each)]


def test_a_paused_person_finishes_their_table_is_not_seated_again_until_they_come_back(
        make_people):
    event = started_arena(make_people, 8)
    first = table_of(event, "p0")
    away.pause(event, person("p0"))
    # Their table plays on with them in their seat.
    assert table_of(event, "p0") == first
    finish(first)
    # The three others of that table wait (another table is in play); p0 does not.
    assert table_of(event, "p0") is None
    waiting = {each.id for each in arena.field_of(
        event, arena.arena_round(event), arena._people(event), {}).waiting}
    assert person("p0").pk not in waiting and len(waiting) == 3
    # Even past the longest wait, computer players fill the three's table, never p0's seat.
    later = timezone.now() + arena.MAX_WAIT + timedelta(seconds=1)
    assert len(arena.step(event.pk, now=later)) == 1
    assert table_of(event, "p0") is None and len(seated_ever(event, "p0")) == 1
    assert arena.may_seat(event, person("p0").pk, later) is False

    # Back: seated with the next table formed (here: the other table's four finish).
    away.come_back(event, person("p0"))
    assert table_of(event, "p0") is None  # nobody else is free yet: they wait a little
    other = next(each for each in in_play(event) if "p0" not in people_at(each)
                 and len(people_at(each)) == 4)
    finish(other, seed=2)
    assert table_of(event, "p0") is not None
    assert_nobody_at_two_tables(event)


def test_the_others_play_on_without_a_paused_person_who_joins_the_next_table_formed(
        make_people):
    event = started_arena(make_people, 4)
    (only,) = arena_tables(event)
    away.pause(event, person("p0"))
    finish(only)
    # The three others: no other table in play, so at once with a computer player.
    assert len(arena_tables(event)) == 2
    three = arena_tables(event)[1]
    assert "p0" not in people_at(three) and len(people_at(three)) == 3
    # p0 comes back while the three play: they wait for that table, and join its people.
    away.come_back(event, person("p0"))
    assert table_of(event, "p0") is None
    finish(three)
    assert people_at(table_of(event, "p0")) == {"p0", "p1", "p2", "p3"}


def test_a_person_who_leaves_is_never_seated_again_and_their_results_stay(make_people):
    event = started_arena(make_people, 4)
    (only,) = arena_tables(event)
    away.leave(event, person("p3"))
    finish(only)
    assert table_of(event, "p3") is None
    for _ in range(2):  # the three others play on, with a computer player, twice
        assert "p3" not in people_at(table_of(event, "p0"))
        finish(table_of(event, "p0"))
        arena.step(event.pk, now=timezone.now() + arena.MAX_WAIT * 3)
    assert len(seated_ever(event, "p3")) == 1 and len(arena_tables(event)) == 4
    # Their two deals count in the standings, beside the others' six.
    rows = {row.user.username: row.deals for row in results.standings(event)}
    assert rows["p3"] == 2 and rows["p0"] == 6
    # They cannot pause, come back nor join again.
    for change in (away.pause, away.come_back, away.leave, running.register):
        with pytest.raises(running.EventError, match="You have left this event"):
            change(event, person("p3"))
    assert Registration.objects.get(user=person("p3")).left_at is not None
    # Their download says when they left.
    from whistclub.accounts.personal_data import collect

    (theirs,) = collect(person("p3"))["events"]
    assert theirs["left_at"] and theirs["paused_at"] is None


def test_the_refusals_in_words(make_people):
    org, ana, bob = make_people("org", "ana", "bob")
    swiss = new_event(org, rounds=1)
    running.register(swiss, ana)
    running.start(swiss, org)
    with pytest.raises(running.EventError, match="no round is left to pause or leave"):
        away.pause(swiss, ana)
    waiting = new_arena(org)
    running.register(waiting, ana)
    with pytest.raises(running.EventError, match="has not started yet"):
        away.pause(waiting, ana)
    running.start(waiting, org)
    with pytest.raises(running.EventError, match="not registered"):
        away.pause(waiting, bob)
    with pytest.raises(running.EventError, match="You are not paused"):
        away.come_back(waiting, ana)
    away.pause(waiting, ana)
    with pytest.raises(running.EventError, match="already paused"):
        away.pause(waiting, ana)


def test_a_latecomer_is_seated_with_the_next_table_formed(make_people):
    event = started_arena(make_people, 4)
    (only,) = arena_tables(event)
    (late,) = make_people("late")
    running.register(event, late)
    # One newcomer, a table in play: they wait for it (a minute at most).
    assert table_of(event, "late") is None
    finish(only)
    # Five free: four at a table at once, the latecomer among them (they were free first:
    # the table's people wait from its end), one left waiting.
    new = arena_tables(event)[1]
    assert "late" in people_at(new) and len(people_at(new)) == 4
    assert_nobody_at_two_tables(event)


def test_a_latecomer_alone_is_seated_with_computers_within_the_longest_wait(make_people):
    event = started_arena(make_people, 4)
    (late,) = make_people("late")
    running.register(event, late)
    assert table_of(event, "late") is None
    assert arena.step(event.pk) == []
    later = timezone.now() + arena.MAX_WAIT + timedelta(seconds=1)
    assert len(arena.step(event.pk, now=later)) == 1
    assert people_at(table_of(event, "late")) == {"late"}


def test_too_late_to_join_an_arena_is_said_in_words(make_people):
    event = started_arena(make_people, 4)
    (late,) = make_people("late")
    # Two deals a table need four minutes: with three left nobody joins.
    move_the_end(event, timezone.now() + timedelta(minutes=3))
    with pytest.raises(running.EventError, match="Too little time is left in the arena"):
        running.register(event, late)
    assert not Registration.objects.filter(user=late).exists()
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    event.refresh_from_db()
    with pytest.raises(running.EventError, match="The event is over"):
        running.register(event, late)


@hypothesis_settings(max_examples=6, deadline=None,
                     suppress_health_check=[HealthCheck.function_scoped_fixture,
                                            HealthCheck.too_slow])
@given(count=st.integers(min_value=1, max_value=7),
       moves=st.lists(st.tuples(st.sampled_from(["finish", "pause", "back", "leave", "join",
                                                 "wait"]), st.integers(0, 20)),
                      min_size=1, max_size=10))
def test_over_any_comings_and_goings_nobody_sits_twice_nor_while_away(make_people, count,
                                                                      moves):
    """The running arena, its tables ending in any order while people pause, come back,
    leave and join: after every change nobody is at two tables, and nobody paused or gone is
    at a table opened after they went."""
    prefix = f"w{Event.objects.count()}x"
    event = started_arena(make_people, count, prefix=prefix)
    now = timezone.now()
    went: dict[str, int] = {}  # who is away, and how many tables were open when they went
    for number, (move, pick) in enumerate(moves):
        names = sorted(Registration.objects.filter(event=event).values_list("user__username",
                                                                              flat=True))
        chosen = names[pick % len(names)]
        try:
            if move == "finish" and in_play(event):
                table = in_play(event)[pick % len(in_play(event))]
                Table.objects.filter(pk=table.table_id).update(status=Table.Status.FINISHED)
            elif move == "pause":
                away.pause(event, person(chosen), now=now)
                went.setdefault(chosen, len(arena_tables(event)))
            elif move == "back":
                away.come_back(event, person(chosen), now=now)
                went.pop(chosen, None)
            elif move == "leave":
                away.leave(event, person(chosen), now=now)
                went.setdefault(chosen, len(arena_tables(event)))
            elif move == "join":
                (late,) = make_people(f"{prefix}late{number}")
                running.register(event, late)
            elif move == "wait":
                now += arena.MAX_WAIT
        except running.EventError:
            pass  # refused in words (a pause twice, a come back of someone gone...)
        arena.step(event.pk, now=now)
        assert_nobody_at_two_tables(event)
        for name, opened in went.items():
            assert all(name not in people_at(each) for each in arena_tables(event)[opened:]), \
                (name, "seated while away")


# -- the pages -------------------------------------------------------------------------------


def page(client, event):
    return client.get(f"/events/{event.pk}/").content.decode()


def test_the_arena_page_offers_pause_come_back_and_leave_with_a_confirmation(client,
                                                                             make_people):
    event = started_arena(make_people, 4)
    client.force_login(person("p0"))
    shown = page(client, event)
    assert "Pause" in shown and "Leave the arena" in shown and "Come back" not in shown

    response = client.post(f"/events/{event.pk}/pause/", follow=True)
    shown = response.content.decode()
    assert "You are paused: you will not be seated again after your table." in shown
    assert "Come back" in shown and f'action="/events/{event.pk}/pause/"' not in shown
    assert "(paused)" in shown

    response = client.post(f"/events/{event.pk}/come-back/", follow=True)
    assert "Welcome back" in response.content.decode()
    assert Registration.objects.get(user=person("p0")).paused_at is None

    # Leaving asks first: the page says what is lost, and nothing changes until its button.
    asked = client.get(f"/events/{event.pk}/leave/").content.decode()
    assert "Leave the arena for good?" in asked and "Your results so far stay" in asked
    assert "Your table plays on" in asked
    assert Registration.objects.get(user=person("p0")).left_at is None
    response = client.post(f"/events/{event.pk}/leave/", follow=True)
    shown = response.content.decode()
    assert "You have left the arena." in shown and "(left)" in shown
    assert "Leave the arena" not in shown and ">Pause<" not in shown
    # Asking again takes them back to the event: there is nothing left to leave.
    assert client.get(f"/events/{event.pk}/leave/").status_code == 302


def test_a_refused_pause_changes_nothing_and_says_why(client, make_people):
    event = started_arena(make_people, 4)
    (stranger,) = make_people("stranger")
    client.force_login(stranger)
    response = client.post(f"/events/{event.pk}/pause/", follow=True)
    assert "You are not registered for this event." in response.content.decode()
    assert not Registration.objects.filter(user=stranger).exists()


def test_a_newcomer_sees_how_to_join_a_running_arena_and_when_it_is_too_late(client,
                                                                              make_people):
    event = started_arena(make_people, 4)
    (late,) = make_people("late")
    client.force_login(late)
    shown = page(client, event)
    assert "You can still join this arena." in shown and "Join the arena" in shown
    response = client.post(f"/events/{event.pk}/register/", follow=True)
    shown = response.content.decode()
    assert "you are seated with the next table formed" in shown
    assert "You are waiting for a table." in shown and "Join the arena" not in shown

    (other,) = make_people("other")
    client.force_login(other)
    move_the_end(event, timezone.now() + timedelta(minutes=3))
    shown = page(client, event)
    assert "it is too late to join" in shown and "Join the arena" not in shown
    response = client.post(f"/events/{event.pk}/register/", follow=True)
    assert "it is too late to join" in response.content.decode()
    assert not Registration.objects.filter(user=other).exists()


def test_a_newcomer_to_a_swiss_event_is_told_they_play_from_the_next_round(client,
                                                                           make_people):
    org, ana, late = make_people("org", "ana", "late")
    event = new_event(org, rounds=2, deals_per_round=1)
    running.register(event, ana)
    running.start(event, org)
    client.force_login(late)
    shown = page(client, event)
    assert "You can still join: you play from round 2." in shown
    assert "not counted as byes" in shown and "Register for round 2" in shown
    response = client.post(f"/events/{event.pk}/register/", follow=True)
    shown = response.content.decode()
    assert "you play from round 2" in shown
    assert "You play from round 2: your table is shown here when it is formed." in shown
