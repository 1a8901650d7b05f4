"""The end of a hand and of a table, as the fragment says them: the score from the first deal
with what wins and what loses, the hand just played in the middle of the table at the next
deal (the whole deal folded beside it, never opened over the table), and a finished table's
end screen: who won, the score hand by hand, play again, the hand history."""

import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import registry, tables
from games.models import Table
from games.snapshots import build_snapshot, forget_snapshots

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("computer_players_act_at_once")]


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("pat", "pat@example.org", "pw-long-enough")


def seated_table(user, game, rules=None, **kwargs):
    table = tables.create_table(user, game, rules or {}, **kwargs)
    tables.take_seat(table.pk, user, 0)
    for position in range(1, registry.game(game).seats):
        tables.add_computer_player(table.pk, user, position, "easy")
    return Table.objects.get(pk=table.pk)


def play_until(table, user, hands, seed=3):
    """The person plays random legal actions (the computer players answer at once) until
    ``hands`` hands are finished or the table is."""
    rng = random.Random(seed)
    for _ in range(5000):
        table.refresh_from_db()
        if table.hands.count() >= hands or table.status == Table.Status.FINISHED:
            return table
        state = tables.current_state(table)
        tables.play(table.pk, user, state.random_action(rng), table.version)
    raise AssertionError("the table never got there")


def played(table) -> int:
    """The hands played out (a hand dealt again scores nothing)."""
    return sum(not result.get("redeal") for result in table.hands.values_list("result", flat=True))


def fragment(client, table) -> str:
    return client.get(f"/tables/{table.pk}/state/").content.decode()


def status_line(page: str) -> str:
    found = re.search(r'<p class="table-status">(.*?)</p>', page, re.S)
    assert found
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", found.group(1)))


def test_the_score_and_what_wins_and_loses_show_from_the_first_deal(client, player):
    client.force_login(player)
    table = seated_table(player, "bid_whist")
    line = status_line(fragment(client, table))
    assert "Score: you &amp; " in line or "Score: you & " in line
    assert "0 — " in line and "; 7 wins, −7 loses" in line


def test_the_next_deal_says_the_hand_just_played_in_the_middle_and_opens_nothing(client,
                                                                                 player):
    client.force_login(player)
    table = seated_table(player, "bid_whist", {"game_target": 50, "boston": "normal"})
    table = play_until(table, player, 1)
    assert table.status == Table.Status.PLAYING
    page = fragment(client, table)
    middle = re.search(r'<div id="trick-centre".*?<p class="last-hand-words" data-hand="1">'
                       r'<strong>Hand 1:</strong> ([^<]+) <a class="whole-deal" '
                       r'href="#table-result">The whole deal</a></p>', page, re.S)
    assert middle, "the hand just played is said in the middle of the table"
    assert " made " in middle.group(1) or " were set " in middle.group(1)
    # the whole deal is folded below the table, never opened over it by the server
    panel = re.search(r'<details class="result-panel"[^>]*>', page).group(0)
    assert " open" not in panel
    hint = re.search(r'<span class="close-hint" aria-hidden="true">([^<]+)</span>', page)
    assert hint.group(1) == "Hide"  # never "Close": the table's own "Close the table…"
    # a line with a score reads the minus sign, never a hyphen
    assert not re.search(r"-\d", status_line(page))
    # in French, as French is written: "Donne 1 :"
    client.cookies["django_language"] = "fr"
    assert '<strong>Donne 1\u00a0:</strong>' in fragment(client, table)


def test_a_match_ends_on_a_screen_of_its_own(client, player):
    client.force_login(player)
    table = seated_table(player, "bid_whist", {"game_target": 2, "boston": "normal"})
    table = play_until(table, player, 100)
    assert table.status == Table.Status.FINISHED
    page = fragment(client, table)
    end = re.search(r'<section class="match-end".*?</section>\s*</section>', page, re.S)
    assert end, "a finished table shows its end"
    end = end.group(0)
    assert "<h2 id=\"match-end-title\">The match is over</h2>" in end
    assert re.search(r'<p class="match-winner">[^<]+ win the match\.</p>', end)
    hands = played(table)
    assert len(re.findall(r'<tr><th scope="row">\d+</th>', end)) == hands
    summary = Table.objects.get(pk=table.pk).summary
    totals = re.search(r"<tfoot><tr><th scope=\"row\">Total</th>(.*?)</tr>", end).group(1)
    assert re.findall(r"<td>([^<]+)</td>", totals) == [
        f"−{-v}" if v < 0 else str(v) for v in summary["scores"]]
    assert '<button type="submit">Play again</button>' in end
    assert f'href="/tables/{table.pk}/hands/"' in end
    # the last hand's whole deal stays folded: it no longer opens over the end
    assert not re.search(r'<details class="result-panel"[^>]* open', page)


def test_a_closed_session_ends_with_its_balances_hand_by_hand(client, player):
    client.force_login(player)
    table = seated_table(player, "solo_whist")
    table = play_until(table, player, 2)
    client.post(f"/tables/{table.pk}/close/")
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    page = fragment(client, table)
    assert "<h2 id=\"match-end-title\">The session is over</h2>" in page
    winner = re.search(r'<p class="match-winner">([^<]+)</p>', page).group(1)
    assert "best balance" in winner or winner == "The table was closed."
    assert len(re.findall(r'<tr><th scope="row">\d+</th>', page)) == played(table)
    assert page.count('<th scope="col">') == 1 + 4  # the hand's number, then every player
    balances = Table.objects.get(pk=table.pk).summary["balances"]
    totals = re.search(r"<tfoot><tr><th scope=\"row\">Total</th>(.*?)</tr>", page).group(1)
    assert re.findall(r"<td>([^<]+)</td>", totals) == [  # written as a hand's points are
        f"+{v:g}" if v > 0 else f"−{-v:g}" if v < 0 else "0" for v in balances]


def test_the_end_reads_every_hand_in_one_query(player):
    """However many hands a finished table had, its end costs the same queries."""
    counts = []
    for hands in (1, 3):
        table = seated_table(player, "solo_whist")
        table = play_until(table, player, hands)
        tables.close_table(table.pk, player)
        table.refresh_from_db()
        forget_snapshots()
        with CaptureQueriesContext(connection) as queries:
            snapshot = build_snapshot(table)
        assert len(snapshot.hand_results) == table.hands.count() >= hands
        counts.append(len(queries))
    assert counts[0] == counts[1]
