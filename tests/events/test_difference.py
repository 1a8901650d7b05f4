"""An event scored by the difference from the field (docs/events.md, "Scoring"): the
organiser's choice on the form, each game's cap, an event played to the end with computer
players ranked by each person's total of capped differences, the travellers' differences, and
matchpoint events as they were."""

import math
import re
from collections import defaultdict

import pytest

from events import deals, results, running
from events.models import Event
from tests.events.conftest import new_event, play_round
from tests.events.test_pages import form_data

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("computer_players_wait")]


def played_to_the_end(make_people, game="bid_whist", scoring="difference", people=5,
                      **fields):
    """An event of two rounds of two deals, five people and computer players in the seats
    left, played to its end."""
    org, *players = make_people("org", *[f"p{n}" for n in range(people)])
    event = new_event(org, game=game, scoring=scoring, **fields)
    for person in players:
        running.register(event, person)
    running.start(event, org)
    for number in (1, 2):
        play_round(event, number, seed=number)
        event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    return event, players


def differences_by_person(event):
    """Each person's capped differences, read deal by deal from the travellers' scores."""
    found = defaultdict(list)
    for event_round in results.finished_rounds(event):
        for index in event.round_deals(event_round.number):
            for row in results.deal_results(event, event_round, index):
                for seat in row.seats:
                    if seat.user_id is not None and not seat.computer_level:
                        direction = deals.direction_of(event.game, seat.position)
                        found[seat.user_id].append(row.scores[direction].difference)
    return found


@pytest.mark.parametrize("game", ["bid_whist", "solo_whist"])
def test_an_event_played_to_the_end_is_ranked_by_each_persons_total_of_capped_differences(
        client, make_people, game):
    event, players = played_to_the_end(make_people, game=game)
    cap = event.difference_cap
    found = differences_by_person(event)
    assert set(found) == {person.pk for person in players}
    assert all(-cap <= each <= cap for every in found.values() for each in every)
    rows = results.standings(event)
    totals = {row.user.pk: row.difference for row in rows}
    for uid, each in found.items():
        assert math.isclose(totals[uid], sum(each), abs_tol=1e-9)
    # Best total first; a lower total never above a higher one; equal totals share a place.
    for above, below in zip(rows, rows[1:], strict=False):
        assert round(above.difference, 6) >= round(below.difference, 6)
        assert (above.position == below.position) == (
            round(above.difference, 6) == round(below.difference, 6))
    # The page a person reads: the names in that order, each with their total.
    page = client.get(f"/events/{event.pk}/standings/").content.decode()
    assert "Total" in page and "Equal totals share a place." in page and "%</th>" not in page
    body = page[page.index("<tbody>"):]
    order = [body.index(f"<td>{row.user.username}</td>") for row in rows]
    assert order == sorted(order)
    for row in rows:
        said = re.search(rf"<td>{row.user.username}</td><td class=\"num\">([^<]*)</td>",
                         body).group(1)
        expected = round(row.difference, 1)
        assert said == ("0" if expected == 0 else f"{'+' if expected > 0 else '−'}"
                        f"{abs(expected):g}")


def test_the_next_round_is_formed_by_the_difference_totals(make_people):
    """The Swiss pairing seats best with best by the event's own score."""
    org, *players = make_people("org", *[f"p{n}" for n in range(5)])
    event = new_event(org, scoring="difference")
    for person in players:
        running.register(event, person)
    running.start(event, org)
    play_round(event, 1)
    event.refresh_from_db()
    history = results.history(event)
    for row in results.standings(event):
        assert math.isclose(history.score[row.user.pk], row.difference, abs_tol=1e-9)


def test_a_traveller_shows_each_tables_difference_beside_its_result(client, make_people):
    event, _players = played_to_the_end(make_people)
    page = client.get(f"/events/{event.pk}/deals/1/").content.decode()
    assert "Difference</th>" in page and "Matchpoints</th>" not in page
    assert "at most 7 points up or down a deal" in page
    rows = results.deal_results(event, results.finished_rounds(event)[0], 0)
    for row in rows:
        for score in row.scores:
            value = round(score.difference, 1)
            said = "0" if value == 0 else f"{'+' if value > 0 else '−'}{abs(value):g}"
            assert f'<td class="num">{said}</td>' in page
    event_page = client.get(f"/events/{event.pk}/").content.decode()
    assert "By the difference from the field" in event_page


def test_a_matchpoint_event_reads_as_before(client, make_people):
    event, _players = played_to_the_end(make_people, scoring="matchpoints")
    assert event.difference_cap is None
    traveller = client.get(f"/events/{event.pk}/deals/1/").content.decode()
    assert "Matchpoints</th>" in traveller and "Difference</th>" not in traveller
    standings = client.get(f"/events/{event.pk}/standings/").content.decode()
    assert "%</th>" in standings and "Total</th>" not in standings
    rows = results.standings(event)
    assert [row.percent for row in rows] == sorted((row.percent for row in rows), reverse=True)


def test_while_a_round_is_played_the_difference_standings_show_nothing(client, make_people):
    org, *players = make_people("org", *[f"p{n}" for n in range(5)])
    event = new_event(org, scoring="difference")
    for person in players:
        running.register(event, person)
    running.start(event, org)
    client.force_login(players[0])
    standings = client.get(f"/events/{event.pk}/standings/").content.decode()
    assert "No round is over yet" in standings and "Total</th>" not in standings
    traveller = client.get(f"/events/{event.pk}/deals/1/").content.decode()
    assert "This deal's results are shown when every table has played it." in traveller
    assert "Difference</th>" not in traveller


def test_each_games_cap_and_solo_whists_follows_its_stakes(make_people):
    (org,) = make_people("org")
    caps = {game: new_event(org, game=game, scoring="difference").difference_cap
            for game in ("bid_whist", "cutthroat_bid_whist", "solo_whist", "belgian_whist")}
    assert caps == {"bid_whist": 7, "cutthroat_bid_whist": 12, "solo_whist": 20,
                    "belgian_whist": 40}
    stakes = new_event(org, game="solo_whist", scoring="difference",
                       rules={"stake_multiplier": 5})
    assert stakes.difference_cap == 100


def test_a_belgian_whist_event_with_its_own_points_table_has_the_cap_worked_out_from_it(
        make_people):
    """A club whose abondance of 9 is worth 15 from each opponent, not 10: the cap is the
    abondance made alone as compared with the table, 60, not the usual table's 40; a table of
    smaller numbers gives a smaller cap; the organiser's own cap still wins."""
    (org,) = make_people("org")
    bigger = new_event(org, game="belgian_whist", scoring="difference",
                       rules={"points_table": {"abondance": {"9": 15, "10": 20, "11": 25}}})
    assert bigger.difference_cap == 60
    halved = new_event(org, game="belgian_whist", scoring="difference", rules={
        "points_table": {"abondance": {"9": 5, "10": 8, "11": 10}, "piccolo": 4,
                         "solo": {"base": {"6": 2, "7": 3, "8": 4}}, "petite_misere": 3,
                         "emballage": {"made": {"12": 10}}}})
    assert halved.difference_cap == 20
    # No abondance worth anything: the next largest ordinary contract, a piccolo (8) alone.
    no_abondance = new_event(org, game="belgian_whist", scoring="difference",
                             rules={"points_table": {"abondance": {"9": 0, "10": 0, "11": 0}}})
    assert no_abondance.difference_cap == 32
    chosen = new_event(org, game="belgian_whist", scoring="difference", chosen_cap=25,
                       rules={"points_table": {"abondance": {"9": 15, "10": 20, "11": 25}}})
    assert chosen.difference_cap == 25
    assert new_event(org, game="belgian_whist", scoring="difference").difference_cap == 40


def test_the_form_and_page_of_a_belgian_event_with_its_own_points_table_say_its_cap(
        client, make_people):
    (org,) = make_people("org")
    client.force_login(org)
    own_table = {"rule_points_table.abondance.9": "15", "rule_points_table.abondance.10": "20",
                 "rule_points_table.abondance.11": "25"}
    # The organiser's cap is bounded by ten times the worked-out cap (600), refused in words.
    response = client.post("/events/new/belgian_whist/", form_data(
        "belgian_whist", scoring="difference", chosen_cap="601", **own_table))
    assert "The cap is at most 600 points a deal" in response.content.decode()
    assert not Event.objects.exists()
    client.post("/events/new/belgian_whist/",
                form_data("belgian_whist", scoring="difference", **own_table))
    event = Event.objects.get()
    assert event.chosen_cap is None and event.difference_cap == 60
    assert "at most 60 points up or down a deal" in client.get(
        f"/events/{event.pk}/").content.decode()


def test_the_caps_are_what_docs_say_the_engines_score():
    """Solo Whist's 20 is an abundance of 9 tricks made (5 units with each of three
    defenders), as compared with the table; Belgian Whist's 40 an abondance of 9 made alone."""
    from events.scoring import relative
    from games.rules import belgian_whist, solo_whist

    units = solo_whist.score_hand(solo_whist.Rules(), "abundance", 0, tricks=(9, 1, 1, 2))
    assert relative(units)[0] == 20
    value = belgian_whist.contract_value(belgian_whist.Rules(), "abondance", 9, 9)
    assert relative([3 * value, -value, -value, -value])[0] == 40


def test_the_organiser_chooses_the_scoring_on_the_form(client, make_people):
    (org,) = make_people("org")
    client.force_login(org)
    page = client.get("/events/new/solo_whist/").content.decode()
    assert "at most 20 units up or down a deal" in page
    assert "worth very different amounts" in page
    bid_whist = client.get("/events/new/bid_whist/").content.decode()
    assert "at most 7 points up or down a deal" in bid_whist
    assert "worth very different amounts" not in bid_whist
    client.post("/events/new/solo_whist/", form_data("solo_whist", scoring="difference"))
    assert Event.objects.get().scoring == Event.Scoring.DIFFERENCE
    client.post("/events/new/bid_whist/", form_data())
    assert Event.objects.latest("pk").scoring == Event.Scoring.MATCHPOINTS  # the usual
    response = client.post("/events/new/bid_whist/", form_data(scoring="goals"))
    assert "Choose matchpoints or the difference from the field." in response.content.decode()
    assert Event.objects.count() == 2


def test_a_persons_download_says_how_their_event_was_scored(make_people):
    from whistclub.accounts.personal_data import collect

    org, ana = make_people("org", "ana")
    running.register(new_event(org, scoring="difference"), ana)
    assert collect(ana)["events"][0]["scoring"] == "difference"


def test_the_organiser_may_choose_the_cap_within_bounds(client, make_people):
    (org,) = make_people("org")
    client.force_login(org)
    page = client.get("/events/new/belgian_whist/").content.decode()
    assert ("Leave it empty for the game's own, worked out from the points table below: 40 "
            "with the usual table, more with bigger numbers.") in page
    client.post("/events/new/belgian_whist/",
                form_data("belgian_whist", scoring="difference", chosen_cap="25"))
    event = Event.objects.get()
    assert event.difference_cap == 25
    assert "at most 25 points up or down a deal" in client.get(
        f"/events/{event.pk}/").content.decode()
    # A cap with matchpoints means nothing: not kept.
    client.post("/events/new/belgian_whist/", form_data("belgian_whist", chosen_cap="25"))
    assert Event.objects.latest("pk").chosen_cap is None


@pytest.mark.parametrize(("cap", "words"), [
    ("0", "The cap is at least 1."),
    ("71", "The cap is at most 70 points a deal, ten times the game&#x27;s own"),
    ("seven", "The cap is a whole number."),
    ("x", "The cap is a whole number."),
])
def test_a_cap_out_of_bounds_is_refused_in_plain_words(client, make_people, cap, words):
    (org,) = make_people("org")
    client.force_login(org)
    response = client.post("/events/new/bid_whist/",
                           form_data(scoring="difference", chosen_cap=cap))
    assert words in response.content.decode()
    assert not Event.objects.exists()


def test_solo_whists_bound_follows_the_stakes_chosen(client, make_people):
    (org,) = make_people("org")
    client.force_login(org)
    data = form_data("solo_whist", scoring="difference", chosen_cap="500",
                     rule_stake_multiplier="5")
    client.post("/events/new/solo_whist/", data)
    assert Event.objects.get().difference_cap == 500  # at most 10 × 100


def test_an_arena_scored_by_difference_ranks_live_and_a_late_deal_is_average_minus(
        client, make_people, settings):
    """An arena's deal is scored over the tables that played it so far, by difference; once
    its time is up, a deal finished late by computer players scores a fifth of the cap below
    the field for everyone at that table, and the traveller says so."""
    import random
    from datetime import timedelta

    from django.core.management import call_command
    from django.db.models import F
    from django.utils import timezone

    from games.models import Hand, Table
    from tests.events.test_arena import arena_tables, finish, move_the_end, started_arena
    from tests.playing import play_table

    settings.COMPUTER_DELAY_SECONDS = 0
    settings.COMPUTER_WORKERS = 0
    event = started_arena(make_people, 8, scoring="difference",
                          late_deals=Event.LateDeals.AVERAGE_MINUS)
    on_time, late = arena_tables(event)
    finish(on_time)
    live = results.standings(event)
    assert len(live) == 4 and {row.difference for row in live} == {0}  # a field of one
    assert results.arena_scores(event) == {row.user.pk: 0 for row in live}
    play_table(late.table, random.Random(4), hands=1)  # deal 1 in time, deal 2 not
    Hand.objects.filter(table__event_table__round__event=event).update(
        finished_at=F("finished_at") - timedelta(minutes=5))
    move_the_end(event, timezone.now() - timedelta(minutes=2))
    Table.objects.filter(event_table__round__event=event).update(
        move_deadline=F("time_up_at"))
    call_command("start_events")
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    second = {row.event_table.pk: row for row in results.arena_deal_results(event, 1)}
    assert {s.difference for s in second[late.pk].scores} == {-1.4}
    assert {s.difference for s in second[on_time.pk].scores} == {0}
    page = client.get(f"/events/{event.pk}/deals/2/").content.decode()
    assert "Not finished in time: everyone at this table scores average minus (−1.4)." in page
    rows = results.standings(event)
    found = differences_by_arena_person(event)
    for row in rows:
        assert math.isclose(row.difference, sum(found[row.user.pk]), abs_tol=1e-9)


def differences_by_arena_person(event):
    from events import arena

    found = defaultdict(list)
    for index in arena.deals_played(event):
        for row in results.arena_deal_results(event, index):
            for seat in row.seats:
                if seat.user_id is not None and not seat.computer_level:
                    direction = deals.direction_of(event.game, seat.position)
                    found[seat.user_id].append(row.scores[direction].difference)
    return found


def test_a_total_read_in_floating_point_reads_as_players_write_it():
    from events.views import signed

    assert [signed(v) for v in (-3.9999999999, 4.0000000001, 3.5, -0.04, 0.0, 2 / 3)] == [
        "−4", "+4", "+3.5", "0", "0", "+0.7"]
