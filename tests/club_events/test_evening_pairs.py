"""An evening of a Bid Whist league of registered pairs played as a club's event: the
season's pairs play together, partners across, each pair one player of the Swiss pairing
(``events.pairing.fixed_pairs_round``); a pair plays once both its members are registered, and
a member whose partner is not is not seated and is told why; the evening's tables are matches
between the season's registered pairs, counted in the standings."""

import datetime
import html
import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club_events.models import ClubEvent
from events import running
from events.models import Event
from games import followups
from games.models import Table
from leagues import standings
from leagues.models import Evening, League, Member, Partnership, Season
from tests.club_events.test_evening_events import create_for
from tests.club_events.test_evening_matches import engine_match
from tests.playing import play_table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_players_wait")]

TOMORROW = timezone.localdate() + datetime.timedelta(days=1)


def pairs_evening(club, names: list[tuple[str, str]], target=1) -> Evening:
    """A Bid Whist league of registered pairs (its default), an evening tomorrow, and the
    season's pairs of the members so named."""
    league = League.objects.create(club=club, name="Tuesday pairs", game="bid_whist",
                                   rules={"game_target": target})
    assert league.registers_pairs
    season = Season.objects.create(league=league, name="Winter")
    for first, second in names:
        Partnership.objects.create(season=season, first=club.members.get(user__username=first.lower()),
                                   second=club.members.get(user__username=second.lower()))
    return Evening.objects.create(season=season, date=TOMORROW, start_time=datetime.time(20))


@pytest.fixture
def eight(club, players, make_people):
    """Olga, Mike, Nell and Pat, and four more members: Quinn, Rose, Sam and Tess."""
    more = make_people("quinn", "rose", "sam", "tess")
    for user in more:
        Member.objects.create(club=club, user=user, name=user.username.title())
    return players + more


def page_of(event, user) -> str:
    client = Client()
    client.force_login(user)
    return client.get(event.get_absolute_url()).content.decode().replace("&#x27;", "'")


def pair_of_seats(table: Table) -> tuple[frozenset, frozenset]:
    seats = [seat.user.username for seat in table.seats.order_by("position")]
    return frozenset((seats[0], seats[2])), frozenset((seats[1], seats[3]))


PAIRS = [("Olga", "Nell"), ("Mike", "Pat"), ("Quinn", "Rose"), ("Sam", "Tess")]


def test_an_evening_of_registered_pairs_played_as_an_event(as_organiser, club, eight):
    evening = pairs_evening(club, PAIRS)
    page = as_organiser.get(evening.get_absolute_url()).content.decode()
    assert "Play this evening online as an event" in page
    event = create_for(as_organiser, club, evening, rounds="2", deals_per_round="1")
    assert event.partners_are_fixed_pairs and event.plays_matches
    for user in eight:
        running.register(event, user)
    running.start(event, eight[0])
    season_pairs = {frozenset((a.lower(), b.lower())) for a, b in PAIRS}
    met = set()
    for number in (1, 2):
        event_round = event.event_rounds.get(number=number)
        assert event_round.sitting_out == []
        for event_table in event_round.tables.all():
            # Partners never split: each side of each table is one of the season's pairs.
            sides = pair_of_seats(event_table.table)
            assert set(sides) <= season_pairs
            assert frozenset(sides) not in met  # two pairs never meet twice
            met.add(frozenset(sides))
            play_table(event_table.table, random.Random(number))
        followups.process_due()
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED and len(met) == 4
    # The evening's tables: matches between the season's registered pairs, pair 0 in seats
    # 0 and 2, with the engine's scores and winner; no pair made for them.
    assert evening.tables.count() == 4
    assert Partnership.objects.filter(season=evening.season).count() == 4
    assert not Partnership.objects.filter(season=evening.season, drawn=True).exists()
    for table in evening.tables.select_related("pair_0__first", "pair_0__second",
                                               "pair_1__first", "pair_1__second", "online"):
        game_table = table.online.game_table
        assert pair_of_seats(game_table) == tuple(
            frozenset(m.user.username for m in (pair.first, pair.second))
            for pair in (table.pair_0, table.pair_1))
        match = engine_match(game_table)
        assert match.complete and [table.score_0, table.score_1] == match.scores
        assert table.winner == match.winner and table.online.is_complete
        # The partnership match sheet names the two pairs.
        sheet = html.unescape(as_organiser.get(table.get_absolute_url()).content.decode())
        assert table.sides() == [str(table.pair_0), str(table.pair_1)]
        assert all(side in sheet for side in table.sides())
    # The standings count it: each pair two matches, four won in all.
    rows = standings.season_standings(evening.season)
    assert len(rows) == 4 and all(row.played == 2 for row in rows)
    assert sum(row.won for row in rows) == 4


def test_a_member_whose_partner_did_not_register_is_not_seated_and_told_why(as_organiser,
                                                                             club, eight):
    olga, mike, nell, pat, quinn, rose = eight[:6]
    evening = pairs_evening(club, PAIRS[:3])
    event = create_for(as_organiser, club, evening, rounds="2", deals_per_round="1")
    for user in (olga, mike, nell, pat, quinn):
        running.register(event, user)
    told = "Your partner Rose has not registered: your pair plays once both of you are registered."
    assert told in page_of(event, quinn)  # before the start
    assert "You play with your partner Nell" in page_of(event, olga)
    running.start(event, olga)
    (event_table,) = event.event_rounds.get().tables.all()
    seated = {seat.user for seat in event_table.table.seats.all()}
    assert seated == {olga, mike, nell, pat} and quinn not in seated
    assert not event.event_rounds.get().sitting_out  # not a bye: their pair is not here
    during = page_of(event, quinn)
    assert told in during  # during play
    assert "You play from round 2" not in during  # not unless Rose registers


def test_an_odd_number_of_pairs_plays_a_computer_pair_outside_the_league(as_organiser, club,
                                                                         eight):
    evening = pairs_evening(club, PAIRS[:3])
    form = as_organiser.get(reverse("club_events:new_for_evening",
                                    args=[club.slug, evening.pk])).content.decode()
    assert "one pair each round plays against a pair of computer players" in form
    event = create_for(as_organiser, club, evening, deals_per_round="1")
    for user in eight[:6]:
        running.register(event, user)
    running.start(event, eight[0])
    tables = [t.table for t in event.event_rounds.get().tables.all()]
    assert len(tables) == 2
    computers = [t for t in tables if t.seats.filter(computer_level__gt="").exists()]
    assert len(computers) == 1
    (with_computers,) = computers
    people = [seat for seat in with_computers.seats.order_by("position") if seat.user_id]
    assert len(people) == 2 and people[0].position % 2 == people[1].position % 2  # across
    for number, table in enumerate(tables):
        play_table(table, random.Random(number))
    followups.process_due()
    assert evening.tables.count() == 1  # the computer pair's table is not the league's
    assert ClubEvent.objects.get(event=event).evening == evening
