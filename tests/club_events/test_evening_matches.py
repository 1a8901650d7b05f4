"""An evening of a league whose tables are matches (Bid Whist to 7, Cutthroat Bid Whist to 30)
played as a club's event: each event table plays the round's deals in order until its match
ends, on with shuffled deals if the match outlasts them; the evening's tables are finished
matches, as an online fixture's; a Bid Whist league's drawn partners are the event's; a deal a
table never reached is not scored for it, and a deal past the round's is compared with nobody.
A league of registered pairs: tests/club_events/test_evening_pairs.py."""

import datetime
import random
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club_events.models import ClubEvent
from events import results, running
from events.models import Event, EventRound
from games import followups, tables
from games.models import Hand, Table
from games.rules import game_module
from games.rules.records import replay_hand
from leagues import standings
from leagues.models import Evening, League, Member, Partnership, Season
from tests.club_events.test_evening_events import create_for, evening_form
from tests.events.conftest import new_event, play_round
from tests.events.test_hidden_information import (
    assert_nothing_of_the_deals,
    event_addresses,
    in_the_middle_of_a_hand,
    seated,
    table_b_addresses,
)
from tests.leagues.test_online_fixtures import play_out
from tests.playing import play_table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_players_wait")]

TOMORROW = timezone.localdate() + datetime.timedelta(days=1)


def evening_of(club, game, **league_fields) -> Evening:
    league = League.objects.create(club=club, name="Tuesday matches", game=game,
                                   **league_fields)
    season = Season.objects.create(league=league, name="Winter")
    return Evening.objects.create(season=season, date=TOMORROW, start_time=datetime.time(20))


def engine_match(game_table: Table):
    """The engine's match over the game table's hands, each dealt by its own dealer."""
    module = game_module(game_table.game)
    match = module.CHAIN(module.Rules.from_overrides(game_table.rules))
    for hand in game_table.hands.order_by("number"):
        assert not match.complete  # no hand is played after the match is over
        match.next_dealer = hand.record["dealer"]
        match.add_result(hand.record["dealer"], hand.result)
    return match


def play_evening_event(client, club, evening, people, judged=False, passed_out=0,
                       **form) -> Event:
    """The evening's event created, everyone registered, played to its end: random legal
    actions, or (``judged``) each seat's call and card as a computer player judges them (a
    Cutthroat match of random play hardly ever ends: nobody makes a bid); at every table the
    first ``passed_out`` deals are passed out."""
    event = create_for(client, club, evening, **form)
    assert event.plays_matches and event.format == Event.Format.SWISS
    for user in people:
        running.register(event, user)
    running.start(event, people[0])
    for number in range(1, event.rounds + 1):
        for event_table in event.event_rounds.get(number=number).tables.all():
            pass_hands(event_table.table, passed_out)
        if not judged:
            play_round(event, number, seed=number)
            continue
        for event_table in event.event_rounds.get(number=number).tables.all():
            seated = [seat.user for seat in event_table.table.seats.order_by("position")]
            play_out(event_table.table_id, seated)
        followups.process_due()
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    return event


def test_a_bid_whist_evening_of_drawn_partners_played_as_an_event(as_organiser, club,
                                                                    players):
    evening = evening_of(club, "bid_whist", partners=League.Partners.DRAWN)
    page = as_organiser.get(evening.get_absolute_url()).content.decode()
    assert "Play this evening online as an event" in page
    # A round of one deal, passed out: the match goes on with shuffled deals to its end.
    event = play_evening_event(as_organiser, club, evening, players, passed_out=1,
                               deals_per_round="1")
    assert event.round_minutes == 120  # a round of matches: the longest clock (docs/events.md)
    event_table = event.event_rounds.get().tables.get()
    game_table = event_table.table
    match = engine_match(game_table)
    assert match.complete and game_table.status == Table.Status.FINISHED
    assert game_table.hands.count() > 1
    # The event's partners, across, are the round's drawn pairs of the season.
    seats = [seat.user for seat in game_table.seats.order_by("position")]
    (table,) = evening.tables.all()
    assert {frozenset(m.user for m in (table.pair_0.first, table.pair_0.second)),
            frozenset(m.user for m in (table.pair_1.first, table.pair_1.second))} == {
        frozenset((seats[0], seats[2])), frozenset((seats[1], seats[3]))}
    assert Partnership.objects.filter(season=evening.season, drawn=True).count() == 2
    # A finished match: the engine's scores and winner, every hand of it (the shuffled ones
    # past the round's deals too), as an online fixture of that match gives.
    side_of_pair_0 = 0 if table.pair_0.first.user in (seats[0], seats[2]) else 1
    assert [table.score_0, table.score_1] == [
        match.scores[side_of_pair_0], match.scores[1 - side_of_pair_0]]
    assert table.winner == (match.winner if side_of_pair_0 == 0 else 1 - match.winner)
    assert table.online.is_complete and table.entry == "deals" and not table.provisional
    played = [h for h in game_table.hands.all() if not h.result.get("redeal")]
    assert table.deals.count() == len(played)
    # The season's standings count it: four players, each a match played.
    rows = standings.season_standings(evening.season)
    assert sorted(row.name.lower() for row in rows) == ["mike", "nell", "olga", "pat"]
    assert all(row.played == 1 for row in rows)
    assert sum(row.won for row in rows) == 2
    # A round lasts as long as its matches: its deals are only the first ones, not a count.
    page = as_organiser.get(event.get_absolute_url()).content.decode()
    assert "Swiss, 1 round of matches" in page and "round of 4 deals" not in page
    assert "Plays a match to its end: first the round's" in page
    page = as_organiser.get(event.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Suisse, 1 manche de matchs" in page


def test_a_cutthroat_evening_played_as_an_event(as_organiser, club, players):
    # To 15 rather than 30: half as many hands, the same path.
    evening = evening_of(club, "cutthroat_bid_whist", rules={"game_target": 15})
    event = play_evening_event(as_organiser, club, evening, players[:3], judged=True)
    game_table = event.event_rounds.get().tables.get().table
    match = engine_match(game_table)
    assert match.complete
    (table,) = evening.tables.all()
    users = [seat.user for seat in game_table.seats.order_by("position")]
    assert [member.user for member in table.seat_members()] == users
    assert [seat.total for seat in table.seats.order_by("seat")] == match.scores
    assert table.winner == match.winner and table.online.is_complete
    rows = {row.name.lower(): row for row in standings.season_standings(evening.season)}
    assert set(rows) == {"mike", "olga", "nell"} and all(r.played == 1 for r in rows.values())


def test_an_evening_of_matches_is_not_an_arena(as_organiser, club, players):
    evening = evening_of(club, "bid_whist", partners=League.Partners.DRAWN)
    address = reverse("club_events:new_for_evening", args=[club.slug, evening.pk])
    form = as_organiser.get(address).content.decode()
    assert 'value="swiss"' in form and 'value="arena"' not in form  # not offered
    assert "120 minutes, as a match may need many more hands" in form
    response = as_organiser.post(address, evening_form(format="arena", arena_minutes="60"))
    assert "is played in Swiss rounds" in response.content.decode()
    assert not Event.objects.exists() and not ClubEvent.objects.exists()


# -- the scoring of a round of matches -----------------------------------------------------


def pass_hands(table: Table, count: int) -> None:
    """Everyone passes ``count`` hands (each a redeal: nothing counted, the match goes on)."""
    for _ in range(count):
        before = table.hands.count()
        while table.hands.count() == before:
            table.refresh_from_db()
            state = tables.current_state(table)
            seat = table.seats.get(position=state.to_act)
            tables.play(table.pk, seat.user, "pass", table.version)


def test_a_deal_a_match_never_reached_is_not_scored_and_one_past_the_round_is_nobodys(
        make_people):
    """Three tables of a round of three deals, to a target of 1: the first table's match ends
    with its first deal played, the second's with its second (the first passed out), the
    third's outlasts the round (three passed out) and goes on with a shuffled deal."""
    people = make_people(*(f"p{n}" for n in range(12)))
    event = new_event(people[0], rounds=1, deals_per_round=3, plays_matches=True,
                      rules={"game_target": 1}, late_deals=Event.LateDeals.AVERAGE_MINUS)
    for user in people:
        running.register(event, user)
    running.start(event)
    first, second, third = (t.table for t in event.event_rounds.get().tables.all())
    assert first.match_ends_it and first.deals_limit is None
    rng = random.Random(3)
    pass_hands(second, 1)
    pass_hands(third, 3)
    for table in (first, second, third):
        play_table(table, rng)
    followups.process_due()
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED  # every match over: the round is over
    reached = {}
    for table in (first, second, third):
        table.refresh_from_db()
        assert table.status == Table.Status.FINISHED and engine_match(table).complete
        reached[table.pk] = table.hands.count()
    assert reached[third.pk] > 3  # it played on past the round's deals
    extra = Hand.objects.get(table=third, number=4)
    assert extra.record["hands"] not in [deal["hands"] for deal in event.deals["deals"]]
    assert replay_hand(extra.record).result() == extra.result  # kept: it replays exactly
    event_round = event.event_rounds.get()
    for index in range(3):
        rows = results.deal_results(event, event_round, index)
        at = {row.event_table.table_id for row in rows}
        # Only the tables whose match reached the deal: none late, none averaged.
        assert at == {pk for pk, hands in reached.items() if hands > index}
        assert not any(row.late for row in rows)
        for row in rows:
            assert row.hand.number == index + 1
            assert all(score.top == 2 * (len(rows) - 1) for score in row.scores)
        for direction in range(2):
            total = sum(row.scores[direction].matchpoints for row in rows)
            assert total == len(rows) * (len(rows) - 1)  # 2 per pair of tables compared
    # The standings count each person's deals reached, never the shuffled one.
    deals_of = {row.user.username: row.deals for row in results.standings(event)}
    for table in (first, second, third):
        for seat in table.seats.all():
            assert deals_of[seat.user.username] == min(reached[table.pk], 3)
    # The travellers show each deal at the tables that held it, no other; the shuffled deal
    # has none (the event's deals are the round's three).
    for number in (1, 2, 3):
        page = _traveller(people[0], event, number)
        assert page.count('class="traveller-table"') == sum(
            hands >= number for hands in reached.values())
    assert _traveller(people[0], event, 4, status=404) == ""


def _traveller(user, event, number, status=200) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("event_traveller", args=[event.pk, number]))
    assert response.status_code == status
    return response.content.decode() if status == 200 else ""


def test_nothing_of_a_match_in_play_reaches_the_evening_nor_the_other_table(
        as_organiser, club, players, make_people):
    """Table A's match is over at its first deal, table B has passed the first out and is in
    the middle of the second: nothing of B's cards or results reaches table A's players, the
    event's pages or the evening (not even the drawn pairs), until B's match is over too."""
    for user in make_people("quinn", "rose", "sam", "tess"):
        Member.objects.create(club=club, user=user, name=user.username.title())
    evening = evening_of(club, "bid_whist", partners=League.Partners.DRAWN,
                         rules={"game_target": 1})
    event = create_for(as_organiser, club, evening)
    for member in club.members.all():
        running.register(event, member.user)
    running.start(event, players[0])
    table_a, table_b = (t.table for t in event.event_rounds.get().tables.all())
    play_table(table_a, random.Random(5))
    pass_hands(table_b, 1)
    in_the_middle_of_a_hand(table_b, 3, seed=6)
    followups.process_due()
    event.refresh_from_db()
    assert event.status == Event.Status.PLAYING and table_b.hands.count() == 1
    assert not evening.tables.exists()
    assert not Partnership.objects.filter(season=evening.season).exists()
    at_a = Client()
    at_a.force_login(seated(table_a))
    for address in table_b_addresses(table_b):
        assert at_a.get(address).status_code == 404, address
    for address in [*event_addresses(event), evening.get_absolute_url()]:
        response = at_a.get(address)
        assert response.status_code in (200, 404)
        assert_nothing_of_the_deals(response.content.decode(), event)
    assert "No table yet." in at_a.get(evening.get_absolute_url()).content.decode()
    play_table(table_b, random.Random(7))
    followups.process_due()
    assert evening.tables.count() == 2


def test_when_the_round_clock_runs_out_computer_players_finish_the_match(make_people):
    """A match still on when its round's time is up is finished by the computer players, at
    once, through the round clock's path; its round and the event end with it."""
    people = make_people(*(f"c{n}" for n in range(4)))
    event = new_event(people[0], rounds=1, deals_per_round=1, plays_matches=True,
                      rules={"game_target": 3})
    for user in people:
        running.register(event, user)
    running.start(event)
    event_round = event.event_rounds.get()
    (table,) = (t.table for t in event_round.tables.all())
    pass_hands(table, 1)  # the round's one deal passed out: the match goes on
    past = timezone.now() - timedelta(minutes=5)
    EventRound.objects.filter(pk=event_round.pk).update(ends_at=past)
    Table.objects.filter(pk=table.pk).update(time_up_at=past, move_deadline=past)
    assert running.finish_overdue_rounds() == [table.pk]
    table.refresh_from_db()
    event.refresh_from_db()
    assert table.status == Table.Status.FINISHED and engine_match(table).complete
    assert table.hands.count() > 1  # shuffled deals, played by the computer players
    assert event.status == Event.Status.FINISHED
