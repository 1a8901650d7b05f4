"""An evening of a league season played as a club's event: chosen from the evening's page or
the club's events page, with the league's game and house rules, on the evening's day;
registering marks a member as coming; when the event ends its tables of the club's members
become the evening's tables (the online fixtures' path), so the season's standings count them,
and a table with a computer player or someone outside the club does not.  Refusals are said
in words and change nothing; nothing of a deal reaches the evening before the event's end."""

import datetime
from decimal import Decimal

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from club_events import evenings
from club_events.models import ClubEvent
from events import running
from events.models import Event
from games.models import Hand
from leagues import online, sit_outs, standings
from leagues.models import Attendance, Club, Evening, League, Member, Season
from tests.events.conftest import play_round
from tests.events.test_pages import form_data
from tests.leagues.conftest import make_solo_table, solo
from tests.leagues.test_editing import history

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_players_wait")]

TOMORROW = timezone.localdate() + datetime.timedelta(days=1)


@pytest.fixture
def league(club):
    return League.objects.create(club=club, name="Tuesday Solo", game="solo_whist")


@pytest.fixture
def season(league):
    return Season.objects.create(league=league, name="Winter")


@pytest.fixture
def evening(season):
    return Evening.objects.create(season=season, date=TOMORROW, start_time=datetime.time(20),
                                  venue="Online")


def evening_form(**changes):
    data = form_data("solo_whist", **{"name": "Tuesday online",
                                      "starts_at": f"{TOMORROW.isoformat()}T20:00",
                                      "rounds": "1", "deals_per_round": "2",
                                      "members_only": "on", **changes})
    del data["visibility"]
    return data


def create_for(client, club, evening, **changes) -> Event:
    response = client.post(reverse("club_events:new_for_evening", args=[club.slug, evening.pk]),
                           evening_form(**changes))
    event = Event.objects.get(name="Tuesday online")
    assert response.status_code == 302 and response["Location"] == event.get_absolute_url()
    return event


def engine_totals(event) -> dict[str, Decimal]:
    """Each person's balance over the event's hands, as the engine scored them."""
    totals: dict[str, Decimal] = {}
    for hand in Hand.objects.filter(table__event_table__round__event=event).select_related(
            "table"):
        seats = {seat.position: seat for seat in hand.table.seats.select_related("user")}
        for position, points in enumerate(online.engine_points("solo_whist", hand.result)):
            name = seats[position].user.username
            totals[name] = totals.get(name, Decimal(0)) + Decimal(str(points))
    return totals


def test_an_event_played_as_an_evening_gives_the_evening_its_results_and_standings(
        as_organiser, club, evening, players):
    page = as_organiser.get(evening.get_absolute_url()).content.decode()
    offer = reverse("club_events:new_for_evening", args=[club.slug, evening.pk])
    assert offer in page and "Play this evening online as an event" in page
    form = as_organiser.get(offer).content.decode()
    assert "rule_" not in form  # the league's house rules, not the form's
    assert f"{TOMORROW.isoformat()}T20:00" in form  # the evening's day and time
    event = create_for(as_organiser, club, evening)
    link = ClubEvent.objects.get(event=event)
    assert link.evening == evening and event.game == "solo_whist"
    assert event.rules == evening.season.house_rules

    for user in players:
        running.register(event, user)
    # Registering marks each of them as coming to the evening.
    assert evening.attendance_counts()["coming"] == 4
    running.start(event, players[0])
    play_round(event, 1)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED

    (table,) = evening.tables.all()
    assert [m.user for m in table.seat_members()] == [
        seat.user for seat in event.event_rounds.get().tables.get().table.seats.order_by(
            "position")]
    hands = Hand.objects.filter(table__event_table__round__event=event).count()
    assert hands == 2 and table.online.is_complete
    assert table.entry == "deals" and not table.provisional
    by_name = {seat.member.user.username: seat.total for seat in table.seats.all()}
    assert by_name == engine_totals(event)
    rows = {row.name: row.total for row in standings.season_standings(evening.season)}
    assert rows == {seat.member.name: seat.total for seat in table.seats.all()}

    event_page = as_organiser.get(event.get_absolute_url()).content.decode()
    assert "its results are the evening" in event_page
    evening_page = as_organiser.get(evening.get_absolute_url()).content.decode()
    assert "Played online as an event" in evening_page and "Tuesday online" in evening_page
    assert "Play this evening online as an event" not in evening_page


def test_a_table_with_a_computer_player_stays_out_of_the_league(as_organiser, club, evening,
                                                               players):
    event = create_for(as_organiser, club, evening)
    for user in players[:3]:  # the fourth seat is a computer player's
        running.register(event, user)
    running.start(event, players[0])
    play_round(event, 1)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert not evening.tables.exists()
    assert standings.season_standings(evening.season) == []
    page = as_organiser.get(evening.get_absolute_url()).content.decode()
    assert "One table of the event had a computer player" in page
    page = as_organiser.get(event.get_absolute_url()).content.decode()
    assert "One of its tables had a computer player" in page


def test_a_member_at_a_table_left_out_did_not_sit_out(as_organiser, club, evening, players,
                                                     make_people):
    """Only the table of four members enters the evening; the fifth member played (with
    computer players), so the league's credit for a sit-out is not theirs."""
    League.objects.filter(pk=evening.season.league_id).update(
        sit_out_credit=League.SitOutCredit.FIXED, sit_out_score=5)
    (quinn,) = make_people("quinn")
    Member.objects.create(club=club, user=quinn, name="Quinn")
    event = create_for(as_organiser, club, evening)
    for user in [*players, quinn]:
        running.register(event, user)
    running.start(event, players[0])
    play_round(event, 1)
    (table,) = evening.tables.all()
    (left_out,) = {"olga", "mike", "nell", "pat", "quinn"} - {
        seat.member.user.username for seat in table.seats.all()}
    rows = {row.name.lower(): row for row in standings.season_standings(evening.season)}
    assert left_out not in rows and len(rows) == 4
    assert list(sit_outs.sat_out([evening])) == []  # the league's one rule of who sat out
    assert all(row.credits == 0 for row in rows.values())
    # ...and the evening's page says so: nobody sat out.
    assert "Sitting out:" not in as_organiser.get(evening.get_absolute_url()).content.decode()


def test_someone_who_is_not_a_member_keeps_their_table_out_of_the_league(
        as_organiser, club, evening, players, outsider_user):
    club.is_public = True
    club.save()
    event = create_for(as_organiser, club, evening, members_only="")
    assert not ClubEvent.objects.get(event=event).members_only
    for user in [*players[:3], outsider_user]:
        running.register(event, user)
    assert not Attendance.objects.filter(member__user=outsider_user).exists()
    running.start(event, players[0])
    play_round(event, 1)
    assert not evening.tables.exists()
    names = {row.name for row in standings.season_standings(evening.season)}
    assert "otto" not in names and names == set()


def test_nothing_reaches_the_evening_before_the_event_ends(as_organiser, club, evening,
                                                          players, member_user):
    event = create_for(as_organiser, club, evening, rounds="2")
    for user in players:
        running.register(event, user)
    running.start(event, players[0])
    play_round(event, 1)
    event.refresh_from_db()
    assert event.status == Event.Status.PLAYING  # round 2 in play: the same evening's deals
    assert not evening.tables.exists()
    as_organiser.force_login(member_user)
    page = as_organiser.get(evening.get_absolute_url()).content.decode()
    assert "No table yet." in page and "Played online as an event" in page
    play_round(event, 2)
    event.refresh_from_db()
    evening.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    # Both rounds are the evening's, each table in its round.
    assert evening.rounds == 2
    assert sorted(evening.tables.values_list("round", "number")) == [(1, 1), (2, 1)]


def test_withdrawing_marks_a_member_not_coming(as_organiser, club, evening, players, member):
    event = create_for(as_organiser, club, evening)
    running.register(event, member.user)
    assert Attendance.objects.get(evening=evening, member=member).coming
    running.withdraw(event, member.user)
    assert not Attendance.objects.get(evening=evening, member=member).coming


def refused(client, club, evening, words, **changes):
    """The new event for ``evening`` is refused with ``words`` and nothing is created."""
    address = reverse("club_events:new_for_evening", args=[club.slug, evening.pk])
    page = client.get(address, follow=True)
    said = " ".join(str(m) for m in get_messages(page.wsgi_request)) + page.content.decode()
    assert words in said.replace("&#x27;", "'")
    response = client.post(address, evening_form(**changes))
    assert response.status_code == 200 and words in response.content.decode().replace(
        "&#x27;", "'")
    assert not Event.objects.exists() and not ClubEvent.objects.exists()


def test_an_evening_with_results_is_refused_in_words(as_organiser, club, evening, players):
    table = make_solo_table(evening, list(club.members.all()[:4]))
    table.add_deal(solo("solo", 0, 5), None)
    refused(as_organiser, club, evening, "This evening already has results")


def test_an_evening_whose_tables_are_drawn_is_played_at_them_not_as_an_event(
        as_organiser, club, evening, players):
    """Once the organiser has drawn or added tables, the evening is being played at them:
    its page keeps the draw's buttons first and offers no event, and the form refuses."""
    make_solo_table(evening, list(club.members.all()[:4]))
    page = as_organiser.get(evening.get_absolute_url()).content.decode()
    assert "Play this evening online as an event" not in page
    refused(as_organiser, club, evening, "This evening's tables are already drawn or added")


def test_a_closed_season_is_refused_in_words(as_organiser, club, evening, players):
    evening.season.closed_at = timezone.now()
    evening.season.save()
    refused(as_organiser, club, evening, "The season Winter is closed")


def test_an_evening_already_played_as_an_event_is_refused(as_organiser, club, evening,
                                                         players):
    create_for(as_organiser, club, evening)
    address = reverse("club_events:new_for_evening", args=[club.slug, evening.pk])
    response = as_organiser.post(address, evening_form(name="Again"))
    assert "This evening is already played as an event." in response.content.decode()
    assert Event.objects.count() == 1


def test_another_clubs_evening_and_another_game_are_refused(as_organiser, club, evening,
                                                           outsider_user):
    other = Club.create_with_organiser(outsider_user, name="The Swan")
    theirs = Evening.objects.create(
        season=Season.objects.create(
            league=League.objects.create(club=other, name="Swan Solo", game="solo_whist"),
            name="Winter"), date=TOMORROW)
    assert "not one of this club's" in evenings.refusal(club, theirs)
    address = reverse("club_events:new_for_evening", args=[club.slug, theirs.pk])
    assert as_organiser.post(address, evening_form()).status_code == 404
    assert "a league of Solo Whist: it cannot be played as an event of Belgian Whist" in (
        evenings.refusal(club, evening, "belgian_whist"))
    assert not ClubEvent.objects.exists()


def test_the_start_is_on_the_evenings_day(as_organiser, club, evening, players):
    later = (TOMORROW + datetime.timedelta(days=1)).isoformat()
    address = reverse("club_events:new_for_evening", args=[club.slug, evening.pk])
    response = as_organiser.post(address, evening_form(starts_at=f"{later}T20:00"))
    assert "it starts on that day" in response.content.decode()
    assert not Event.objects.exists()


def test_a_member_may_not_play_an_evening_as_an_event(as_member, club, evening):
    address = reverse("club_events:new_for_evening", args=[club.slug, evening.pk])
    assert as_member.get(address).status_code == 403
    assert as_member.post(address, evening_form()).status_code == 403
    assert "Play this evening online as an event" not in as_member.get(
        evening.get_absolute_url()).content.decode()
    assert not Event.objects.exists()


def test_the_sites_ratings_are_what_a_rebuild_gives(as_organiser, club, evening, players):
    """While it is played the event's hands are rated as online hands; once they are the
    evening's deals (a members-only club's: not the site's), the site is re-rated without
    them, as a rebuild counts them."""
    from games import followups
    from ratings.events import SITE
    from ratings.store import refresh
    from tests.ratings.test_rebuild import stored

    event = create_for(as_organiser, club, evening)
    for user in players:
        running.register(event, user)
    running.start(event, players[0])
    play_round(event, 1)
    followups.process_due()
    assert evening.tables.exists()
    after = stored(SITE)
    refresh(SITE, "solo_whist")
    assert stored(SITE) == after


def test_an_arena_played_as_an_evening_gives_its_tables_at_its_end(as_organiser, club, evening,
                                                                   players):
    from datetime import timedelta

    from events import arena
    from tests.events.test_arena import arena_tables, finish, move_the_end

    event = create_for(as_organiser, club, evening, format="arena", arena_minutes="60")
    assert event.is_arena
    for user in players:
        running.register(event, user)
    running.start(event, players[0])
    (only,) = arena_tables(event)
    move_the_end(event, timezone.now() + timedelta(minutes=1))  # too little for another table
    finish(only)
    assert not evening.tables.exists()  # the arena is not over: nothing of a deal is shown
    move_the_end(event, timezone.now() - timedelta(seconds=1))
    arena.step(event.pk)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    (table,) = evening.tables.all()
    assert (table.round, table.number, table.entry) == (1, 1, "deals")


def test_registering_is_refused_in_words_once_the_season_is_closed(as_organiser, club, evening,
                                                                   players, member_user):
    event = create_for(as_organiser, club, evening)
    evening.season.closed_at = timezone.now()
    evening.season.save()
    with pytest.raises(running.EventError, match="The season Winter is closed"):
        running.register(event, member_user)
    assert not event.registrations.exists()
    assert not Attendance.objects.filter(evening=evening).exists()


# -- while the event is on, the evening is the event's ------------------------------------


def said(response) -> str:
    """The page's words and its messages, apostrophes as typed."""
    words = " ".join(str(m) for m in get_messages(response.wsgi_request))
    return (words + response.content.decode()).replace("&#x27;", "'")


PLAYED_AS_THE_EVENT = "This evening is played online as the event"


def test_an_evening_played_as_an_event_offers_no_draw_nor_paper_table_while_it_is_on(
        as_organiser, club, evening, players):
    """Its page says it is the event's (with a link) instead of the draw's buttons; the draw
    and a table by hand, posted anyway, are refused in words and change nothing."""
    event = create_for(as_organiser, club, evening)
    for user in players:
        running.register(event, user)  # all four coming: a draw would seat them
    page = as_organiser.get(evening.get_absolute_url()).content.decode().replace("&#x27;", "'")
    assert PLAYED_AS_THE_EVENT in page and event.get_absolute_url() in page
    assert "Draw the tables" not in page and "Add a table by hand" not in page
    draw = reverse("leagues:draw", args=[club.slug, evening.pk])
    assert PLAYED_AS_THE_EVENT in said(as_organiser.post(draw, follow=True))
    new_table = reverse("leagues:table_create", args=[club.slug, evening.pk])
    assert PLAYED_AS_THE_EVENT in said(as_organiser.get(new_table, follow=True))
    members = [str(m.pk) for m in club.members.all()[:4]]
    posted = as_organiser.post(new_table, {f"seat_{n}": pk for n, pk in enumerate(members)},
                               follow=True)
    assert PLAYED_AS_THE_EVENT in said(posted)
    assert not evening.tables.exists()

    running.start(event, players[0])  # in play: still the event's
    assert PLAYED_AS_THE_EVENT in said(as_organiser.post(draw, follow=True))
    assert not Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
    assert evening.tables.count() == 0


def test_an_evening_in_rounds_played_as_an_event_offers_no_round_to_draw(
        as_organiser, club, evening, players):
    Evening.objects.filter(pk=evening.pk).update(rounds=3)
    evening.refresh_from_db()
    event = create_for(as_organiser, club, evening)
    for user in players:
        running.register(event, user)
    page = as_organiser.get(evening.get_absolute_url()).content.decode()
    assert "Draw round 1" not in page
    response = as_organiser.post(reverse("leagues:draw", args=[club.slug, evening.pk]),
                                 {"round": "1"}, follow=True)
    assert PLAYED_AS_THE_EVENT in said(response)
    assert not evening.tables.exists() and not evening.drawn_rounds.exists()


def test_once_the_event_is_over_the_evening_may_be_drawn_again(as_organiser, club, evening,
                                                                players):
    """An event whose every table had a computer player leaves the evening without a table:
    once it is over, the organiser may draw it (the event's words are no longer said)."""
    event = create_for(as_organiser, club, evening)
    for user in players[:3]:
        running.register(event, user)
    running.start(event, players[0])
    play_round(event, 1)
    page = as_organiser.get(evening.get_absolute_url()).content.decode().replace("&#x27;", "'")
    assert PLAYED_AS_THE_EVENT not in page and "Draw the tables" in page


def test_the_organiser_may_play_the_evening_at_its_tables_before_the_event_starts(
        as_organiser, club, evening, players):
    """Before the start the organiser may take the evening back from the event: the event
    stays, a club's event like any other, and the evening is drawn at its tables."""
    event = create_for(as_organiser, club, evening)
    for user in players:
        running.register(event, user)
    page = as_organiser.get(evening.get_absolute_url()).content.decode()
    release = reverse("club_events:evening_at_tables", args=[club.slug, evening.pk])
    assert release in page and "Play this evening at its tables instead" in page
    response = as_organiser.post(release, follow=True)
    assert "The evening is played at its tables again" in said(response)
    link = ClubEvent.objects.get(event=event)
    assert link.evening is None and Event.objects.filter(pk=event.pk).exists()
    page = as_organiser.get(evening.get_absolute_url()).content.decode()
    assert "Draw the tables" in page and "Play this evening online as an event" in page
    assert "the evening of" not in as_organiser.get(event.get_absolute_url()).content.decode()
    as_organiser.post(reverse("leagues:draw", args=[club.slug, evening.pk]))
    assert evening.tables.count() == 1
    # A line of the club's history, by whom.
    (line,) = [line for line in history(club, as_organiser) if "taken back" in line]
    assert "taken back from its event “Tuesday online” by olga" in line
    assert "It is played at its tables" in line


def test_once_the_event_has_started_the_evening_stays_the_events(as_organiser, club, evening,
                                                                players, member_user):
    event = create_for(as_organiser, club, evening)
    for user in players:
        running.register(event, user)
    release = reverse("club_events:evening_at_tables", args=[club.slug, evening.pk])
    as_organiser.force_login(member_user)
    assert as_organiser.post(release).status_code == 403  # organisers only
    as_organiser.force_login(players[0])
    running.start(event, players[0])
    page = as_organiser.get(evening.get_absolute_url()).content.decode()
    assert "Play this evening at its tables instead" not in page
    response = as_organiser.post(release, follow=True)
    assert "The event has started" in said(response)
    assert ClubEvent.objects.get(event=event).evening == evening


# -- the evening's date is the event's day ---------------------------------------------------


def move_evening(client, club, evening, day: datetime.date, **changes):
    return client.post(reverse("leagues:evening_edit", args=[club.slug, evening.pk]), {
        "date": day.isoformat(), "start_time": "20:00", "venue": "Online", "rounds": "1",
        **changes}, follow=True)


def test_moving_the_evening_moves_its_event_at_the_same_time_of_day(as_organiser, club,
                                                                   evening, players):
    event = create_for(as_organiser, club, evening, starts_at=f"{TOMORROW.isoformat()}T19:30")
    later = TOMORROW + datetime.timedelta(days=2)
    response = move_evening(as_organiser, club, evening, later)
    assert "Evening saved." in said(response)
    evening.refresh_from_db()
    event.refresh_from_db()
    assert evening.date == later
    assert timezone.localtime(event.starts_at) == timezone.make_aware(
        datetime.datetime.combine(later, datetime.time(19, 30)))
    page = as_organiser.get(event.get_absolute_url()).content.decode()
    assert str(later.day) in page
    # The club's history says the event moved with the evening, and to when.
    (line,) = [line for line in history(club, as_organiser) if "changed by" in line]
    assert "Its event “Tuesday online” moved with it: it starts on" in line
    assert "19:30" in line


def test_an_evening_whose_event_has_started_keeps_its_date(as_organiser, club, evening,
                                                           players):
    event = create_for(as_organiser, club, evening)
    for user in players:
        running.register(event, user)
    running.start(event, players[0])
    starts = Event.objects.get(pk=event.pk).starts_at
    response = move_evening(as_organiser, club, evening, TOMORROW + datetime.timedelta(days=7))
    assert "The event “Tuesday online” of this evening has started" in said(response)
    evening.refresh_from_db()
    assert evening.date == TOMORROW and Event.objects.get(pk=event.pk).starts_at == starts


def test_an_evening_whose_event_is_to_come_cannot_move_into_the_past(as_organiser, club,
                                                                     evening, players):
    event = create_for(as_organiser, club, evening)
    starts = Event.objects.get(pk=event.pk).starts_at
    response = move_evening(as_organiser, club, evening,
                            timezone.localdate() - datetime.timedelta(days=3))
    assert "an event cannot start in the past" in said(response)
    evening.refresh_from_db()
    assert evening.date == TOMORROW and Event.objects.get(pk=event.pk).starts_at == starts
