"""The board's running standings are the evening's own lines (leagues.prizes.evening_lines), as
the evening's page and the results' e-mail count them: a substitute's part of a seat is theirs,
a credited sit-out is a line, a guest is marked; and once every table has a result the board
shows the prizes, as the evening's page does."""

import datetime
import re
from decimal import Decimal

import pytest
from django.urls import reverse

from leagues import guests
from leagues.models import Club, Evening, EveningRound, EveningTable, League, TableSeat
from tests.leagues.conftest import add_members, solo

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def board_lines(html: str) -> list[tuple[str, str, str]]:
    """(position, name, score) of each line of the board's standings."""
    listed = html.split('class="board-standings-list"')[1].split("</ol>")[0]
    lines = []
    for item in re.findall(r"<li>(.*?)</li>", listed, re.S):
        position = text(re.search(r'class="pos">(.*?)</span>', item).group(1))
        name = text(re.search(r'class="who">(.*?)(?: <span class="badge">|</span>)', item,
                              re.S).group(1))
        score = text(re.findall(r'class="num">(.*?)</span>', item)[-1])
        lines.append((position, name, score))
    return lines


def evening_page_lines(html: str) -> list[tuple[str, str, str]]:
    """(position, name, score) of each row of the evening page's results."""
    body = html.split('class="evening-results"')[1].split("<tbody>")[1].split("</tbody>")[0]
    lines = []
    for row in re.findall(r"<tr>(.*?)</tr>", body, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        name = re.sub(r' <span class="badge">.*?</span>', "", cells[1])
        lines.append((text(cells[0]), text(name), text(cells[2])))
    return lines


@pytest.fixture
def club_evening(club, solo_league, solo_season):
    """A public club's Solo evening in two rounds, with a fixed credit of 3 for a sit-out and
    a winner's and a booby prize.  Round 1: Ana, Bob, Carla, Dan; Sam (a guest) takes Ana's
    seat from deal 2; Eva sits out.  Round 2 drawn: Bob, Carla, Dan, Eva; Ana sits out."""
    Club.objects.filter(pk=club.pk).update(is_public=True)
    League.objects.filter(pk=solo_league.pk).update(
        sit_out_credit=League.SitOutCredit.FIXED, sit_out_score=3, prize_winner=True,
        prize_booby=True)
    ana, bob, carla, dan, eva = add_members(club, ["Ana", "Bob", "Carla", "Dan", "Eva"])
    sam = club.members.create(name="Sam", guest=True)
    evening = Evening.objects.create(season=solo_season, date=datetime.date(2030, 1, 7),
                                     rounds=2)
    first = EveningTable.objects.create(evening=evening, round=1, number=1)
    TableSeat.objects.bulk_create(TableSeat(table=first, seat=s, member=m)
                                  for s, m in enumerate((ana, bob, carla, dan)))
    EveningRound.objects.create(evening=evening, number=1).sitting_out.set([eva])
    first.add_deal(solo("solo", 0, 6), by=None)  # Ana's
    first.add_deal(solo("solo", 0, 3), by=None)  # Sam's, in Ana's seat
    guests.add_substitute(first, 0, sam, 2, None)
    second = EveningTable.objects.create(evening=evening, round=2, number=1)
    TableSeat.objects.bulk_create(TableSeat(table=second, seat=s, member=m)
                                  for s, m in enumerate((bob, carla, dan, eva)))
    EveningRound.objects.create(evening=evening, number=2).sitting_out.set([ana])
    return Evening.objects.select_related("season__league").get(pk=evening.pk), second


def board(client, evening) -> str:
    club = evening.season.league.club
    return client.get(reverse("leagues:board", args=[club.slug, evening.pk])).content.decode()


def test_the_boards_standings_are_the_evening_pages(client, as_organiser, club_evening):
    evening, second = club_evening
    second.add_deal(solo("misere", 3, 0), by=None)  # Eva's misère made: every table done
    shown = board_lines(board(client, evening))
    names = [name for _position, name, _score in shown]
    # Sam played deal 2 in Ana's seat; Eva and Ana sat out a round each, credited 3.
    assert "Sam" in names and "Eva" in names and "Ana" in names
    page = as_organiser.get(evening.get_absolute_url()).content.decode()
    assert shown == evening_page_lines(page)
    ana = next(score for _position, name, score in shown if name == "Ana")
    first = evening.tables.get(round=1)
    ana_deal = Decimal(first.deals.get(number=1).points[0])
    assert Decimal(ana.replace("−", "-")) == ana_deal + 3  # her deal and her credit
    assert 'Sam <span class="badge">guest</span>' in board(client, evening)


def test_the_board_shows_the_prizes_once_every_table_has_a_result(client, as_organiser,
                                                                   club_evening):
    evening, second = club_evening
    html = board(client, evening)
    assert "Prizes of the evening" not in html  # round 2 has no result yet
    second.add_deal(solo("misere", 3, 0), by=None)
    html = board(client, evening)
    prizes = text(html.split('class="board-prizes"')[1].split("</section>")[0])
    page = as_organiser.get(evening.get_absolute_url()).content.decode()
    on_page = text(page.split('class="prize-list"')[1].split("</ul>")[0])
    winner = re.search(r"Winner: (.+?) (\S+)(?: ·|$| Booby)", on_page)
    booby = re.search(r"Booby prize: (.+?) (\S+)(?: ·|$)", on_page)
    assert winner and booby
    assert f"Winner {winner.group(1)} {winner.group(2)}" in prizes
    assert f"Booby prize {booby.group(1)} {booby.group(2)}" in prizes


def test_no_prize_while_a_round_is_still_to_play(client, as_organiser, club_evening):
    """Round 1's tables all have a result, but the evening plans three rounds: no winner is
    named on the board or the page, and the results cannot be sent yet."""
    evening, second = club_evening
    second.delete()  # round 2 not drawn yet: round 1 is all there is so far
    Evening.objects.filter(pk=evening.pk).update(rounds=3)
    evening.refresh_from_db()
    assert "Prizes of the evening" not in board(client, evening)
    page = text(as_organiser.get(evening.get_absolute_url()).content.decode())
    assert "The prizes are given at the end of the evening: 2 rounds are still to play." in page
    assert "Winner:" not in page
    club = evening.season.league.club
    sent = as_organiser.post(reverse("leagues:evening_results_send", args=[club.slug, evening.pk]),
                             {"seen": "0"}, follow=True)
    assert ("2 rounds of the evening are still to play: the results are sent at its end. "
            "Nothing was sent.") in text(sent.content.decode())


def test_the_boards_socket_fragment_names_the_prizes_in_its_language(club_evening):
    """The fragment sent over the socket is made in each board's language, its prizes' labels
    too (they were made once, in the server's language, and a French board read "WINNER")."""
    from leagues.board import render_board

    evening, second = club_evening
    second.add_deal(solo("misere", 3, 0), by=None)
    rendered, _evening = render_board(evening.pk, {"fr", "en"})
    assert "Gagnant" in rendered["fr"] and "Winner" not in rendered["fr"]
    assert "Winner" in rendered["en"]
