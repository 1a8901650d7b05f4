"""An evening in rounds, as the organiser at the venue meets it: the rounds set (and in the
club's history), each round drawn from who is here then, the sit-outs rotating, a latecomer and
someone gone home between rounds, a form sent twice, drawing again, the table cards, and the
standings summing an evening's rounds.  One round stays today's evening."""

import datetime
import html
import re
from decimal import Decimal

import pytest

from leagues import draw
from leagues.models import (
    ClubChange,
    Evening,
    EveningRound,
    EveningTable,
    League,
    Partnership,
    TableSeat,
)

from .conftest import add_members

pytestmark = pytest.mark.django_db


def url(evening, tail=""):
    return f"/clubs/{evening.season.league.club.slug}/evenings/{evening.pk}/{tail}"


def page(client, evening) -> str:
    return client.get(url(evening)).content.decode()


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def draw_round(client, evening, number, **extra):
    return client.post(url(evening, "draw/"), {"round": number, **extra}, follow=True)


def seated_in(evening, number) -> list[set[int]]:
    return [{s.member_id for s in t.seats.all()}
            for t in evening.tables.filter(round=number).prefetch_related("seats")]


@pytest.fixture
def players(club, organiser):
    people = add_members(club, ["Ana", "Bob", "Carla", "Dan", "Eva", "Finn", "Gus", "Hana",
                                "Ivo", "Jo"])
    return people


@pytest.fixture
def evening_in_rounds(solo_evening, players):
    solo_evening.rounds, solo_evening.deals_per_round = 3, 8
    solo_evening.save()
    for member in players:
        solo_evening.set_attendance(member, True)
    return solo_evening


def test_the_organiser_sets_the_rounds_and_the_history_says_so(as_organiser, solo_evening):
    response = as_organiser.post(url(solo_evening, "edit/"), {
        "date": "2030-01-07", "venue": "The Crown", "rounds": "5", "deals_per_round": "8"},
        follow=True)
    assert "Evening saved." in response.content.decode()
    solo_evening.refresh_from_db()
    assert (solo_evening.rounds, solo_evening.deals_per_round) == (5, 8)
    body = text(page(as_organiser, solo_evening))
    assert "5 rounds of 8 deals" in body
    assert "Draw round 1" in body
    history = text(as_organiser.get(
        f"/clubs/{solo_evening.season.league.club.slug}/changes/").content.decode())
    assert "Rounds: 1 → 5" in history
    assert "Deals a round: – → 8" in history


def test_a_new_evening_starts_with_the_leagues_rounds(as_organiser, solo_league, solo_season):
    response = as_organiser.post(f"/clubs/{solo_league.club.slug}/leagues/{solo_league.pk}/edit/",
                                 {"name": solo_league.name, "ranking": "total",
                                  "best_evenings": 6, "min_evenings": 0, "points_for_win": 2,
                                  "points_for_loss": 0, "tie_break": "difference",
                                  "rounds": 5, "deals_per_round": 8})
    assert response.status_code == 302
    form = as_organiser.get(
        f"/clubs/{solo_league.club.slug}/seasons/{solo_season.pk}/evenings/new/").content.decode()
    assert re.search(r'name="rounds"[^>]*value="5"', form)
    assert re.search(r'name="deals_per_round"[^>]*value="8"', form)
    history = text(as_organiser.get(f"/clubs/{solo_league.club.slug}/changes/").content.decode())
    assert "Changed the rounds of a new evening from 1 to 5" in history


def test_rounds_are_drawn_one_after_the_other_and_nobody_sits_out_twice(
        as_organiser, evening_in_rounds, players):
    evening = evening_in_rounds  # ten players: two tables of four and two sitting out
    body = text(draw_round(as_organiser, evening, 1).content.decode())
    assert "Round 1: 2 tables drawn." in body
    assert "Round 1 · table 1" in body and "Round 1 · table 2" in body
    assert "Draw round 2" in body
    out_1 = set(EveningRound.objects.get(evening=evening, number=1)
                .sitting_out.values_list("pk", flat=True))
    assert len(out_1) == 2
    draw_round(as_organiser, evening, 2)
    out_2 = set(EveningRound.objects.get(evening=evening, number=2)
                .sitting_out.values_list("pk", flat=True))
    assert len(out_2) == 2 and not out_1 & out_2  # nobody twice before everyone once
    body = text(draw_round(as_organiser, evening, 3).content.decode())
    out_3 = set(EveningRound.objects.get(evening=evening, number=3)
                .sitting_out.values_list("pk", flat=True))
    assert not out_3 & (out_1 | out_2)
    assert "Every round is drawn." in body
    assert "Draw round 4" not in body
    # Each round on the page: its tables, and who sat it out.
    for number, out in ((1, out_1), (2, out_2), (3, out_3)):
        names = ", ".join(sorted(m.name for m in players if m.pk in out))
        assert f"Round {number} · table 1" in body
        section = body.split(f"Round {number} · 8 deals")[1]
        assert f"Sitting out: {names}" in section
    for number in (1, 2, 3):
        for table in seated_in(evening, number):
            assert len(table) == 4
    history = text(as_organiser.get(f"/clubs/{evening.season.league.club.slug}/changes/")
                   .content.decode())
    assert "Round 2 of 3 of 7 Jan 2030 (Tuesday Solo) drawn by" in history


def test_a_round_sent_twice_is_drawn_once(as_organiser, evening_in_rounds):
    evening = evening_in_rounds
    draw_round(as_organiser, evening, 1)
    before = list(evening.tables.values_list("pk", flat=True))
    body = text(draw_round(as_organiser, evening, 1).content.decode())
    assert "Round 1 is drawn already" in body
    assert list(evening.tables.values_list("pk", flat=True)) == before
    body = text(draw_round(as_organiser, evening, 3).content.decode())
    assert "draw round 2 first" in body
    assert evening.rounds_drawn() == 1


@pytest.mark.parametrize("value", ["", "x", "-1", "0", "99999999999999"])
def test_a_bad_round_changes_nothing(as_organiser, evening_in_rounds, value):
    body = text(draw_round(as_organiser, evening_in_rounds, value).content.decode())
    assert "nothing was drawn" in body
    assert not evening_in_rounds.tables.exists()


def test_no_round_past_the_last(as_organiser, evening_in_rounds):
    evening_in_rounds.rounds = 2
    evening_in_rounds.save()
    draw_round(as_organiser, evening_in_rounds, 1)
    draw_round(as_organiser, evening_in_rounds, 2)
    body = text(draw_round(as_organiser, evening_in_rounds, 3).content.decode())
    assert "This evening has 2 rounds, and they are all drawn." in body
    assert evening_in_rounds.rounds_drawn() == 2


def test_after_the_last_round_is_drawn_nobody_who_played_goes_home(
        as_organiser, evening_in_rounds):
    """Going home is for between rounds: once the evening's last round is drawn, someone
    with a result says "not coming" in vain, in words, and stays among those who came."""
    evening = evening_in_rounds
    for number in range(1, evening.rounds + 1):
        draw_round(as_organiser, evening, number)
    table = evening.tables.get(round=1, number=1)
    player = table.seats.first().member
    table.set_totals([Decimal(3), Decimal(-1), Decimal(-1), Decimal(-1)], None)
    row = as_organiser.post(url(evening, f"attendance/{player.pk}/"),
                            {f"answer-{player.pk}": "no"}, HTTP_HX_REQUEST="true")
    assert "has a result at table 1 of this evening" in text(row.content.decode())
    answer = evening.attendances.get(member=player)
    assert answer.coming and not answer.left


def test_fewer_rounds_than_drawn_is_refused(as_organiser, evening_in_rounds):
    draw_round(as_organiser, evening_in_rounds, 1)
    draw_round(as_organiser, evening_in_rounds, 2)
    body = text(as_organiser.post(url(evening_in_rounds, "edit/"), {
        "date": "2030-01-07", "venue": "The Crown", "rounds": "1"}, follow=True)
        .content.decode())
    assert "2 rounds are drawn already" in body
    evening_in_rounds.refresh_from_db()
    assert evening_in_rounds.rounds == 3


def test_someone_goes_home_and_someone_arrives_between_rounds(
        as_organiser, evening_in_rounds, players, club):
    evening = evening_in_rounds
    draw_round(as_organiser, evening, 1)
    table = evening.tables.get(round=1, number=1)
    leaver = table.seats.first().member
    table.set_totals([Decimal(3), Decimal(-1), Decimal(-1), Decimal(-1)], None)
    late = add_members(club, ["Zoe"])[0]
    for member, answer in ((leaver, "no"), (late, "yes")):
        response = as_organiser.post(url(evening, f"attendance/{member.pk}/"),
                                     {f"answer-{member.pk}": answer}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
    row = as_organiser.post(url(evening, f"attendance/{leaver.pk}/"),
                            {f"answer-{leaver.pk}": "no"}, HTTP_HX_REQUEST="true")
    assert "came, gone home" in row.content.decode()
    body = text(page(as_organiser, evening))
    assert f"{leaver.name}: came, gone home" in body
    assert "10 players here for round 2." in body
    draw_round(as_organiser, evening, 2)
    seated = set().union(*seated_in(evening, 2))
    out = set(EveningRound.objects.get(evening=evening, number=2)
              .sitting_out.values_list("pk", flat=True))
    assert leaver.pk not in seated | out
    assert late.pk in seated | out
    # They came: the evening keeps them among those who came, and their result.
    assert evening.attendances.get(member=leaver).coming
    assert evening.attendance_counts()["coming"] == 11


def test_a_round_is_drawn_again_until_it_has_a_result(as_organiser, evening_in_rounds):
    evening = evening_in_rounds
    draw_round(as_organiser, evening, 1)
    draw_round(as_organiser, evening, 2)
    first = set(evening.tables.filter(round=1).values_list("pk", flat=True))
    body = text(draw_round(as_organiser, evening, 2, again="1").content.decode())
    assert "Round 2: 2 tables drawn." in body
    assert set(evening.tables.filter(round=1).values_list("pk", flat=True)) == first
    assert EveningRound.objects.filter(evening=evening).count() == 2
    evening.tables.get(round=2, number=1).set_totals([1, -1, 1, -1], None)
    kept = set(evening.tables.values_list("pk", flat=True))
    body = text(page(as_organiser, evening))
    assert "Draw round 2 again" not in body
    body = text(draw_round(as_organiser, evening, 2, again="1").content.decode())
    assert "A table of round 2 has results" in body
    assert set(evening.tables.values_list("pk", flat=True)) == kept


def test_the_next_round_does_not_wait_for_results_and_says_so(as_organiser, evening_in_rounds):
    draw_round(as_organiser, evening_in_rounds, 1)
    body = text(page(as_organiser, evening_in_rounds))
    assert "2 tables of round 1 have no result yet" in body
    body = text(draw_round(as_organiser, evening_in_rounds, 2).content.decode())
    assert "Round 2: 2 tables drawn." in body


def test_members_may_not_draw_a_round(as_member, evening_in_rounds):
    assert as_member.post(url(evening_in_rounds, "draw/"), {"round": 1}).status_code == 403
    assert not evening_in_rounds.tables.exists()


def test_the_table_cards_print_each_round(as_organiser, evening_in_rounds):
    draw_round(as_organiser, evening_in_rounds, 1)
    draw_round(as_organiser, evening_in_rounds, 2)
    cards = text(as_organiser.get(url(evening_in_rounds, "cards/")).content.decode())
    assert cards.count("8 deals") == 4
    assert "Round 1 · table 2" in cards and "Round 2 · table 1" in cards
    table = evening_in_rounds.tables.get(round=2, number=1)
    for member in table.seat_members():
        assert member.name in cards
    only = text(as_organiser.get(url(evening_in_rounds, "cards/?round=2")).content.decode())
    assert "Round 2 · table 1" in only and "Round 1 · table 1" not in only


def test_the_table_page_names_its_round(as_organiser, evening_in_rounds):
    draw_round(as_organiser, evening_in_rounds, 1)
    draw_round(as_organiser, evening_in_rounds, 2)
    table = evening_in_rounds.tables.get(round=2, number=2)
    body = text(as_organiser.get(table.get_absolute_url()).content.decode())
    assert "Round 2 · table 2" in body


def test_one_round_is_the_evening_as_it_always_was(as_organiser, solo_evening, players):
    for member in players:
        solo_evening.set_attendance(member, True)
    body = text(as_organiser.post(url(solo_evening, "draw/"), follow=True).content.decode())
    assert "2 table(s) drawn." in body
    assert "Table 1" in body and "Round 1" not in body
    assert "Sitting out:" in body
    assert not EveningRound.objects.exists()
    assert set(solo_evening.tables.values_list("round", flat=True)) == {1}


def test_the_best_evenings_sum_an_evenings_rounds(club, solo_league, solo_season, players):
    solo_league.ranking = League.Ranking.BEST_N
    solo_league.best_evenings = 1
    solo_league.save()
    evening = Evening.objects.create(season=solo_season, date=datetime.date(2030, 1, 7),
                                     rounds=2)
    ana, bob, carla, dan = players[:4]
    for number, totals in ((1, [5, -1, -2, -2]), (2, [3, -1, -1, -1])):
        table = EveningTable.objects.create(evening=evening, round=number, number=1)
        TableSeat.objects.bulk_create(TableSeat(table=table, seat=s, member=m)
                                      for s, m in enumerate((ana, bob, carla, dan)))
        table.set_totals(totals, None)
    rows = {row.name: row for row in solo_league.score_kind.standings(solo_season)}
    assert rows["Ana"].best == 8  # one evening: 5 + 3
    assert rows["Ana"].evenings == 1


def test_pairs_go_round_the_round_robin(as_organiser, club, bid_season, organiser):
    people = add_members(club, [f"P{i}" for i in range(8)])
    for i in range(4):
        Partnership.objects.create(season=bid_season, first=people[2 * i],
                                   second=people[2 * i + 1], name=f"Pair {i}")
    evening = Evening.objects.create(season=bid_season, date=datetime.date(2030, 2, 3),
                                     rounds=3)
    for member in people:
        evening.set_attendance(member, True)
    for number in (1, 2, 3):
        body = text(draw_round(as_organiser, evening, number).content.decode())
        assert f"Round {number}: 2 tables drawn." in body
    matches = [frozenset((t.pair_0_id, t.pair_1_id)) for t in evening.tables.all()]
    assert len(matches) == 6 and len(set(matches)) == 6  # every pair met every other once
    assert "Round 3 · table 2" in body


def test_the_history_names_each_rounds_tables_and_sit_outs(evening_in_rounds, organiser,
                                                           as_organiser):
    draw.draw_round(evening_in_rounds, organiser.user, 1)
    change = ClubChange.objects.get(action="round_draw")
    out = sorted(m.name for m in EveningRound.objects.get(number=1).sitting_out.all())
    history = text(as_organiser.get(
        f"/clubs/{evening_in_rounds.season.league.club.slug}/changes/").content.decode())
    assert "Round 1 of 3 of 7 Jan 2030 (Tuesday Solo) drawn by" in history
    for number, names in enumerate(change.after["tables"], start=1):
        assert f"Table {number}: {', '.join(names)}" in history
    assert f"Sitting out: {', '.join(out)}" in history or f"Sitting out: {', '.join(out[::-1])}" \
        in history


def test_back_to_one_round_the_evening_is_drawn_as_always(as_organiser, evening_in_rounds):
    draw_round(as_organiser, evening_in_rounds, 1)
    response = as_organiser.post(url(evening_in_rounds, "edit/"), {
        "date": "2030-01-07", "venue": "The Crown", "rounds": "1"}, follow=True)
    assert "Evening saved." in response.content.decode()
    body = text(as_organiser.post(url(evening_in_rounds, "draw/"), {"again": "1"}, follow=True)
                .content.decode())
    assert "2 table(s) drawn." in body and "Table 1" in body and "Round 1 ·" not in body
    assert not EveningRound.objects.filter(evening=evening_in_rounds).exists()


def test_a_guest_at_the_door_is_drawn_in_the_next_round(as_organiser, evening_in_rounds,
                                                         organiser):
    from leagues.guests import add_guest

    draw_round(as_organiser, evening_in_rounds, 1)
    guest = add_guest(evening_in_rounds, "Walk-in Wanda", organiser.user)
    draw_round(as_organiser, evening_in_rounds, 2)
    seated = set().union(*seated_in(evening_in_rounds, 2))
    sitting_out = {m.pk for m in EveningRound.objects.get(
        evening=evening_in_rounds, number=2).sitting_out.all()}
    assert guest.pk in seated | sitting_out
    assert guest.pk not in set().union(*seated_in(evening_in_rounds, 1))


def test_a_cancelled_evening_draws_no_round(as_organiser, evening_in_rounds):
    from django.utils import timezone

    evening_in_rounds.cancelled_at = timezone.now()
    evening_in_rounds.save()
    response = draw_round(as_organiser, evening_in_rounds, 1)
    assert not evening_in_rounds.tables.exists()
    assert "cancelled" in text(response.content.decode())


def test_nobody_sits_in_the_same_seat_in_the_next_round(as_organiser, evening_in_rounds):
    """Ten present at tables of four: round 2's tables each hold at most two of round 1's
    players of any one seat, so nobody is given their round-1 seat again."""
    evening = evening_in_rounds
    draw_round(as_organiser, evening, 1)
    draw_round(as_organiser, evening, 2)
    seats = {}
    for table in evening.tables.prefetch_related("seats"):
        for seat in table.seats.all():
            seats.setdefault(seat.member_id, {})[table.round] = seat.seat
    both = {member: by_round for member, by_round in seats.items() if len(by_round) == 2}
    assert both and all(by_round[1] != by_round[2] for by_round in both.values())


def test_the_board_names_who_sits_out_the_round_shown(as_organiser, evening_in_rounds):
    evening = evening_in_rounds  # ten players: two sit out each round
    draw_round(as_organiser, evening, 1)
    draw_round(as_organiser, evening, 2)
    out = EveningRound.objects.get(evening=evening, number=2).sitting_out.all()
    board = text(as_organiser.get(url(evening, "board/")).content.decode())
    assert "Round 2 of 3" in board
    assert f"Sitting out: {', '.join(sorted(str(m) for m in out))}" in board


# -- a table of a round, its deals entered (the round's number of deals) ----------------------


@pytest.fixture
def round_table(solo_table):
    """Olga's table in round 1 of an evening of 3 rounds of 3 deals."""
    evening = solo_table.evening
    evening.rounds, evening.deals_per_round = 3, 3
    evening.save()
    return solo_table


def table_page(client, table) -> str:
    return html.unescape(text(client.get(table.get_absolute_url()).content.decode()))


def post_deal(client, table, number, **extra):
    return client.post(table.get_absolute_url() + "deals/", {
        "contract": "solo", "declarer": "0", "partner": "", "tricks": "6",
        "number": str(number)}, **extra)


def test_a_table_of_a_round_counts_its_deals_and_says_when_the_round_is_done(
        as_organiser, round_table):
    assert "Deal 1 of 3" in table_page(as_organiser, round_table)
    post_deal(as_organiser, round_table, 1)
    page = table_page(as_organiser, round_table)
    assert "Deal 2 of 3" in page and "Next deal" not in page
    post_deal(as_organiser, round_table, 2)
    # The third deal, from the page's script: the answer says at once that the round is done.
    answer = text(post_deal(as_organiser, round_table, 3,
                            HTTP_HX_REQUEST="true").content.decode())
    assert "Deal 3 entered." in answer
    for said in (answer, table_page(as_organiser, round_table)):
        assert "Round 1 done: 3 of 3 deals" in said
        assert "Players change tables for round 2" in said
        assert "Next deal" not in said and "Deal 4 of 3" not in said
        # A deal more is entered only after a clear word, folded away.
        assert "The table played a deal more? Enter deal 4" in said
        assert "Every table of the round plays 3 deals" in said
    raw = as_organiser.get(round_table.get_absolute_url()).content.decode()
    assert re.search(r'<details class="extra-deal">', raw)  # closed
    assert round_table.deals.count() == 3
    # The round's totals, no longer "so far"; while a seat's player may change (the round in
    # play, a substitute named) the substitute's form is open, once it is done, folded.
    page = table_page(as_organiser, round_table)
    assert "Totals: " in page and "Totals so far" not in page
    from leagues import guests
    zed = add_members(round_table.evening.season.league.club, ["Zed"])[0]
    guests.add_substitute(round_table, 0, zed, 2, None)
    raw = as_organiser.get(round_table.get_absolute_url()).content.decode()
    assert '<details class="substitute" id="substitute">' in raw


def test_a_deal_more_than_the_round_has_can_still_be_entered(as_organiser, round_table):
    for number in (1, 2, 3, 4):
        post_deal(as_organiser, round_table, number)
    assert round_table.deals.count() == 4
    assert "Round 1 done: 4 deals, 1 more than the round's 3" in table_page(as_organiser,
                                                                              round_table)


def test_the_last_round_done_sends_to_the_evenings_results(as_organiser, round_table):
    round_table.round = 3
    round_table.save()
    for number in (1, 2, 3):
        post_deal(as_organiser, round_table, number)
    page = table_page(as_organiser, round_table)
    assert "Round 3 done: 3 of 3 deals" in page
    assert "That was the evening's last round" in page


def test_one_round_of_a_set_number_of_deals_says_the_table_is_done(as_organiser, round_table):
    evening = round_table.evening
    evening.rounds = 1
    evening.save()
    for number in (1, 2, 3):
        post_deal(as_organiser, round_table, number)
    assert "Table done: 3 of 3 deals" in table_page(as_organiser, round_table)


def test_the_online_table_proposes_the_rounds_number_of_deals(as_organiser, round_table):
    raw = as_organiser.get(round_table.get_absolute_url()).content.decode()
    assert re.search(r'name="deals" value="3"', raw)


def test_deleting_a_deal_or_a_table_of_a_round_names_the_round(as_organiser, round_table):
    """Round 2 has its table 1 as round 1 has: the pages that delete or change one say which."""
    round_table.round = 2
    round_table.save()
    post_deal(as_organiser, round_table, 1)
    deal = round_table.deals.get()
    asked = html.unescape(text(as_organiser.get(
        round_table.get_absolute_url() + "deals/1/delete/").content.decode()))
    assert "Delete deal 1 of table 1 of round 2?" in asked
    asked = html.unescape(text(as_organiser.get(
        round_table.get_absolute_url() + "delete/").content.decode()))
    assert "Delete table 1 of round 2?" in asked
    changing = html.unescape(text(as_organiser.get(
        round_table.get_absolute_url() + "edit/").content.decode()))
    assert "Change table 1 of round 2" in changing
    as_organiser.post(round_table.get_absolute_url() + "deals/1/delete/", {"deal": deal.pk})
    done = as_organiser.post(round_table.get_absolute_url() + "delete/", follow=True)
    assert "Table 1 of round 2 is deleted." in html.unescape(text(done.content.decode()))
