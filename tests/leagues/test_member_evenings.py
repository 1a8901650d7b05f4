"""A member's page lists each evening once, its rounds summed (a substitute's part of a seat,
a round sat out and credited) as the standings and the member's chart count the evening."""

import pytest

from leagues import prizes
from tests.leagues.conftest import solo
from tests.leagues.test_board_standings import club_evening, text  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def test_a_members_page_lists_an_evening_in_rounds_once_with_its_total(as_organiser,
                                                                       club_evening):  # noqa: F811
    """Bob played both rounds, Ana one round (and deal 1 of it: Sam took her seat) and sat
    out the other, credited: one line each, the evening's total as the standings and the
    chart count it."""
    evening, second = club_evening
    second.add_deal(solo("misere", 3, 0), by=None)
    club = evening.season.league.club
    lines = {line.name: line.shown for line in prizes.evening_lines(evening)}
    for name in ("Bob", "Ana"):
        who = club.members.get(name=name)
        page = as_organiser.get(f"/clubs/{club.slug}/members/{who.pk}/").content.decode()
        rows = page.split("<tbody>")[1].split("</tbody>")[0]
        assert rows.count("<tr") == 1, text(rows)  # once, not once per round
        row = text(rows)
        assert row.count("7 January 2030") == 1
        total = row.split("Tuesday Solo")[1].split()[0]
        assert total == lines[name].replace("+", "")
    bob = text(as_organiser.get(
        f"/clubs/{club.slug}/members/{club.members.get(name='Bob').pk}/").content.decode())
    assert "2 rounds played" in bob
    ana = text(as_organiser.get(
        f"/clubs/{club.slug}/members/{club.members.get(name='Ana').pk}/").content.decode())
    assert "1 round played · sat out round 2, credited" in ana
