"""What a reader sees on the leagues' charts: whole numbers from 0 on the axis, a legend that
is not cut off, tied lines that do not hide one another, and a late player's line starting on
the evening they joined (never a made-up 0 before it)."""

import datetime
import re

import pytest

from leagues.charts import legend_columns, whole_labels
from leagues.models import Evening, EveningTable, Partnership

from .conftest import add_members, make_solo_table


def chart(client, season):
    club = season.league.club
    response = client.get(f"/clubs/{club.slug}/seasons/{season.pk}/chart.svg")
    assert response.status_code == 200
    return response.content.decode()


def y_labels(svg) -> list[str]:
    axis = svg[svg.index('class="axis y'):]
    axis = axis[:axis.index('class="axis x') if 'class="axis x' in axis else len(axis)]
    return re.findall(r'class="(?:major|)">([^<]+)</text>', axis)


def legend(svg) -> list[str]:
    return re.findall(r'<text x="[\d.]+" y="[\d.]+">([^<]*)</text>',
                      svg[svg.index('class="legends"'):])


def dots_of(svg, index) -> int:
    """The dots drawn for the line ``index`` (pygal's serie-N groups: its line, its dots)."""
    groups = svg.split('class="series ')[1:]
    return sum(g.count('class="dot ') for g in groups if g.startswith(f"serie-{index} "))


def test_whole_labels_start_at_zero_in_whole_steps():
    assert whole_labels([1, 2]) == [0, 1, 2]
    assert whole_labels([2, 2]) == [0, 1, 2]
    assert whole_labels([0]) == [0, 1]
    assert whole_labels([-7, 13]) == [-10, -5, 0, 5, 10, 15]
    assert whole_labels([80, -84]) == [-100, -50, 0, 50, 100]
    assert whole_labels([1.5]) == [0, 1, 2]


@pytest.fixture
def pairs_one_evening(bid_season, organiser, member, organiser_user):
    """One evening of a Bid Whist league with 2 league points a win and 1 a loss."""
    league = bid_season.league
    league.points_for_win, league.points_for_loss = 2, 1
    league.save()
    a, b = add_members(organiser.club, ["Ann", "Bob"])
    aces = Partnership.objects.create(season=bid_season, first=organiser, second=a, name="Aces")
    kings = Partnership.objects.create(season=bid_season, first=member, second=b, name="Kings")
    evening = Evening.objects.create(season=bid_season, date=datetime.date(2030, 2, 3))
    table = EveningTable.objects.create(evening=evening, number=1, pair_0=aces, pair_1=kings)
    table.set_totals([21, 9], organiser_user)
    return bid_season


def test_a_match_leagues_axis_counts_whole_points_from_zero(as_member, pairs_one_evening):
    svg = chart(as_member, pairs_one_evening)
    # pygal alone drew 1.2, 1.4 ... 2.8 for a win's 2 points and a loss's 1.
    assert y_labels(svg) == ["0", "1", "2"]


def test_tied_lines_say_so_and_the_later_is_dashed_over_the_other(
        as_member, bid_season, organiser, member, organiser_user):
    a, b, c, d = add_members(organiser.club, ["Ann", "Bob", "Cy", "Di"])
    pairs = [Partnership.objects.create(season=bid_season, first=x, second=y, name=n)
             for x, y, n in [(organiser, a, "Aces"), (member, b, "Kings"), (c, d, "Jacks")]]
    evening = Evening.objects.create(season=bid_season, date=datetime.date(2030, 2, 3))
    # Aces beat Kings on the first evening; Kings beat the Jacks on the second.
    EveningTable.objects.create(evening=evening, number=1, pair_0=pairs[0],
                                pair_1=pairs[1]).set_totals([21, 9], organiser_user)
    second = Evening.objects.create(season=bid_season, date=datetime.date(2030, 2, 10))
    EveningTable.objects.create(evening=second, number=1, pair_0=pairs[1],
                                pair_1=pairs[2]).set_totals([21, 9], organiser_user)
    svg = chart(as_member, bid_season)
    # Aces 2 then 2, Kings 0 then 2: level at 2 at the end, which the lines show; the table
    # ranks Aces first on the difference (+12 against 0), so the legend does not say tied.
    assert legend(svg) == ["Aces", "Kings", "Jacks"]
    # Where two lines share points, the one drawn first has a larger dot (a ring around the
    # other's), and a line drawn over another's segment is dashed so the other shows through.
    rings = re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"', svg)
    assert max(float(r) for _x, _y, r in rings) > 3


def test_a_line_drawn_over_anothers_segment_is_dashed(as_member, solo_season, organiser,
                                                        member, organiser_user):
    others = add_members(organiser.club, ["Nell", "Pat"])
    for day in (7, 14):
        evening = Evening.objects.create(season=solo_season, date=datetime.date(2030, 1, day))
        make_solo_table(evening, [organiser, member, *others]).set_totals(
            [10, 10, -10, -10], organiser_user)
    svg = chart(as_member, solo_season)
    assert legend(svg) == ["Mike (tied)", "olga (tied)", "Nell (tied)", "Pat (tied)"]
    dashed = re.findall(r"\.serie-(\d+) \.line\{stroke-dasharray:", svg)
    assert sorted(set(dashed)) == ["1", "3"]  # the second of each pair of identical lines


def test_a_player_who_joined_later_starts_where_they_joined(as_member, solo_season, organiser,
                                                             member, organiser_user):
    nell, pat, late = add_members(organiser.club, ["Nell", "Pat", "Latecomer"])
    first = Evening.objects.create(season=solo_season, date=datetime.date(2030, 1, 7))
    make_solo_table(first, [organiser, member, nell, pat]).set_totals([6, 2, -3, -5],
                                                                      organiser_user)
    second = Evening.objects.create(season=solo_season, date=datetime.date(2030, 1, 14))
    make_solo_table(second, [organiser, member, nell, late]).set_totals([1, 1, 1, -3],
                                                                        organiser_user)
    svg = chart(as_member, solo_season)
    names = legend(svg)
    assert dots_of(svg, names.index("Latecomer")) == 1  # no dot at 0 on the 7th
    assert dots_of(svg, names.index("Pat")) == 2  # kept at −5 on the evening missed
    assert dots_of(svg, names.index("Nell")) == 2


def test_the_legend_keeps_long_names_whole(as_member, solo_season, organiser, member,
                                           organiser_user):
    long_names = add_members(organiser.club, ["Demo Organiser", "Maximiliana Oosterhout"])
    evening = Evening.objects.create(season=solo_season, date=datetime.date(2030, 1, 7))
    make_solo_table(evening, [organiser, member, *long_names]).set_totals(
        [3, 1, -1, -3], organiser_user)
    svg = chart(as_member, solo_season)
    assert "Maximiliana Oosterhout" in legend(svg)  # not "Maximiliana Oo…"
    # Columns only as many as the longest name fits in: one here, three for short names.
    assert legend_columns(["Maximiliana Oosterhout"], 350) == 1
    assert legend_columns(["Demo Organiser"], 350) == 2
    assert legend_columns(["Ann", "Bob"], 350) == 3
    xs = {float(x) for x in re.findall(r'<rect x="([\d.]+)" y="[\d.]+" width="12"', svg)}
    assert len(xs) == 1  # one column: every swatch at the same x


def test_a_members_match_chart_counts_whole_points_from_zero(as_member, bid_table,
                                                             organiser_user, member):
    bid_table.set_totals([21, 9], organiser_user)
    club = bid_table.league.club
    svg = as_member.get(f"/clubs/{club.slug}/members/{member.pk}/charts/"
                        f"{bid_table.league.pk}.svg").content.decode()
    assert y_labels(svg) == ["0", "5", "10", "15", "20", "25"]
    pair = as_member.get(f"/clubs/{club.slug}/pairs/{bid_table.pair_0.pk}/chart.svg")
    assert y_labels(pair.content.decode()) == ["0", "5", "10", "15", "20", "25"]


def standings_table(page) -> list[tuple[str, str]]:
    """The season page's standings as (position, pair), in order."""
    body = page[page.index('class="data standings"'):]
    body = body[:body.index("</table>")]
    return re.findall(r'<tr><td>([^<]*)</td><td><a href="[^"]+">([^<]+)</a>', body)


def two_matches(season, first_players, by, names):
    """Pairs named ``names`` (their players ``first_players`` and members added), and one
    evening: the first pair beats the second 21–9, the third the fourth 21–15."""
    people = add_members(season.league.club, [f"P{n}" for n in range(2 * len(names) - 2)])
    players = [*first_players, *people]
    pairs = [Partnership.objects.create(season=season, first=players[2 * i],
                                        second=players[2 * i + 1], name=name)
             for i, name in enumerate(names)]
    evening = Evening.objects.create(season=season, date=datetime.date(2030, 2, 3))
    for number, (a, b, scores) in enumerate(((0, 1, [21, 9]), (2, 3, [21, 15])), start=1):
        EveningTable.objects.create(evening=evening, number=number, pair_0=pairs[a],
                                    pair_1=pairs[b]).set_totals(scores, by)


def test_pairs_that_have_not_played_come_last_without_a_position_and_ties_follow_the_table(
        as_member, bid_season, organiser, member, organiser_user):
    """Two matches played (winners 2 points, losers 0) and two pairs that have not played:
    these are listed after the losers, without a position; the chart's legend marks no tie,
    since the table's tie-break (the difference) separates the pairs level on points."""
    league = bid_season.league
    league.points_for_win, league.points_for_loss = 2, 0
    league.save()
    two_matches(bid_season, [organiser, member], organiser_user,
                ["Aces", "Kings", "Queens", "Jacks", "Tens", "Nines"])
    page = as_member.get(bid_season.get_absolute_url()).content.decode()
    assert standings_table(page) == [("1", "Aces"), ("2", "Queens"), ("3", "Jacks"),
                                     ("4", "Kings"), ("", "Nines"), ("", "Tens")]
    assert "Pairs that have not played yet are listed last, without a position." in page
    assert not [title for title in legend(chart(as_member, bid_season)) if "(tied)" in title]


def test_the_legend_lists_the_lines_in_the_tables_order(as_member, bid_season, organiser,
                                                       member, organiser_user):
    """Zebras and Apes are level on points; the table ranks Zebras first on the difference:
    so does the legend (it listed them by name)."""
    two_matches(bid_season, [organiser, member], organiser_user,
                ["Zebras", "Kings", "Apes", "Jacks"])
    page = as_member.get(bid_season.get_absolute_url()).content.decode()
    assert [name for _position, name in standings_table(page)] == [
        "Zebras", "Apes", "Jacks", "Kings"]
    assert legend(chart(as_member, bid_season)) == ["Zebras", "Apes", "Jacks", "Kings"]
