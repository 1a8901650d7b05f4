"""The draw seats only those coming, and those the organiser marks at the door, never anyone
who said no, never anyone who gave no answer and never a retired member: one test per kind of
score (running balance: Solo and Belgian Whist; each for themselves: Cutthroat; pairs: Bid
Whist), each drawn many times over."""

import datetime
import random

import pytest

from leagues import draw
from leagues.models import Evening, League, Partnership, Season, TableSeat

from .conftest import add_members

pytestmark = pytest.mark.django_db


def row_url(evening, member):
    return (f"/clubs/{evening.season.league.club.slug}/evenings/{evening.pk}/attendance/"
            f"{member.pk}/")


def seated(evening) -> set[int]:
    members = set(TableSeat.objects.filter(table__evening=evening)
                  .values_list("member_id", flat=True))
    for table in evening.tables.select_related("pair_0", "pair_1"):
        for pair in (table.pair_0, table.pair_1):
            if pair is not None:
                members.update(pair.members)
    return members


def answers(evening, coming, not_coming, retired_coming, at_door, as_organiser):
    for member in coming:
        evening.set_attendance(member, True)
    for member in not_coming:
        evening.set_attendance(member, False)
    for member in retired_coming:
        evening.set_attendance(member, True)
        member.retired = True
        member.save()
    for member in at_door:  # the organiser's one tap on the attendance screen, at the door
        response = as_organiser.post(row_url(evening, member), {f"answer-{member.pk}": "yes"},
                                     HTTP_HX_REQUEST="true")
        assert "coming · saved" in response.content.decode()


@pytest.mark.parametrize("game,size", [("solo_whist", 4), ("belgian_whist", 4),
                                       ("cutthroat_bid_whist", 3)])
def test_the_draw_of_players_seats_only_those_coming(game, size, club, organiser,
                                                     as_organiser):
    season = Season.objects.create(league=League.objects.create(
        club=club, name=game, game=game), name="Winter")
    people = add_members(club, [f"P{i}" for i in range(16)])
    coming, door, no, silent, retired = (people[:6], people[6:8], people[8:11],
                                         people[11:14], people[14:])
    for round_ in range(5):
        evening = Evening.objects.create(season=season,
                                         date=datetime.date(2030, 1, 7 + round_))
        answers(evening, coming, no, retired if round_ == 0 else [], door, as_organiser)
        tables, sitting_out = draw.draw_evening(evening, random.Random(round_))
        expected = {m.pk for m in coming + door}
        assert tables == len(expected) // size
        assert seated(evening) <= expected
        assert len(seated(evening)) == tables * size
        assert {m.pk for m in sitting_out} == expected - seated(evening)
        absent = {m.pk for m in no + silent + retired} | {organiser.pk}
        assert not seated(evening) & absent


def test_the_draw_of_pairs_seats_only_pairs_whose_two_players_are_coming(club, organiser,
                                                                       as_organiser):
    season = Season.objects.create(league=League.objects.create(
        club=club, name="Bid", game="bid_whist"), name="Spring", draw=Season.Draw.ROUND_ROBIN)
    people = add_members(club, [f"P{i}" for i in range(12)])
    pairs = [Partnership.objects.create(season=season, first=people[i], second=people[i + 1],
                                        name=f"Pair {i // 2}") for i in range(0, 12, 2)]
    # Pairs 0-2 both coming (pair 2's second marked at the door), pair 3 one says no,
    # pair 4 one gives no answer, pair 5 one is retired though they had said yes.
    coming = people[0:5] + [people[6], people[8], people[10]]
    door, no, retired = [people[5]], [people[7]], [people[11]]
    for round_ in range(3):
        evening = Evening.objects.create(season=season,
                                         date=datetime.date(2030, 2, 3 + round_))
        answers(evening, coming, no, retired if round_ == 0 else [], door, as_organiser)
        draw.draw_evening(evening, random.Random(round_))
        drawn = {p.pk for t in evening.tables.all() for p in (t.pair_0, t.pair_1)}
        assert drawn <= {p.pk for p in pairs[:3]}
        assert len(drawn) == 2  # three pairs: one has a bye
        assert not seated(evening) & {m.pk for m in people[6:12]}
