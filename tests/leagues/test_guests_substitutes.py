"""Guests and substitutes: a walk-in guest plays an evening without joining the club, and can
join later with their results; a substitute takes a seat from a deal on, each deal credited to
whoever played it."""

import html
import re
from decimal import Decimal

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from leagues import scoring
from leagues.models import ClubChange, EntryError, Member, ResultChange
from leagues.standings import season_standings
from leagues.templatetags.leagues import units
from tests.leagues.conftest import add_members, make_solo_table, solo

pytestmark = pytest.mark.django_db


def url(club, path):
    return f"/clubs/{club.slug}/{path}"


def add_guest(client, evening, name):
    return client.post(url(evening.season.league.club, f"evenings/{evening.pk}/guests/"),
                       {"name": name}, follow=True)


def test_a_guest_added_at_the_door_is_coming_and_drawn_but_not_a_member(
        as_organiser, solo_evening, organiser, member):
    club = organiser.club
    add_members(club, ["Nell"])
    for someone in club.members.all():
        solo_evening.set_attendance(someone, True)
    response = add_guest(as_organiser, solo_evening, "  Gus   Walker ")
    assert "Gus Walker plays this evening as a guest" in response.content.decode()
    gus = Member.objects.get(name="Gus Walker")
    assert gus.guest
    evening_page = as_organiser.get(solo_evening.get_absolute_url()).content.decode()
    assert "Gus Walker: coming" in evening_page
    as_organiser.post(url(club, f"evenings/{solo_evening.pk}/draw/"))
    table = solo_evening.tables.get()
    assert gus in table.seat_members()
    assert "Gus Walker <span class=\"badge\">guest</span>" in as_organiser.get(
        solo_evening.get_absolute_url()).content.decode()
    members_page = as_organiser.get(url(club, "members/")).content.decode()
    assert "Gus Walker" not in members_page
    history = as_organiser.get(url(club, "changes/")).content.decode()
    assert "Gus Walker added as a guest for 7 Jan 2030 (Tuesday Solo) by" in history


def test_a_guest_gets_no_e_mail(as_organiser, solo_evening, organiser):
    guest = Member.objects.create(club=organiser.club, name="Gus", guest=True,
                                  email="gus@example.org", confirmed_email="gus@example.org")
    solo_evening.set_attendance(guest, True)
    as_organiser.post(url(organiser.club, f"evenings/{solo_evening.pk}/email/"), {
        "who": "coming", "subject": "Tonight", "message": "Eight o'clock."})
    assert "gus@example.org" not in [m.to[0] for m in mail.outbox]


def test_a_members_name_is_refused_as_a_guest(as_organiser, solo_evening, member):
    response = add_guest(as_organiser, solo_evening, "mike")
    assert "Mike is a member of the club: mark them as coming" in response.content.decode()
    assert not Member.objects.filter(guest=True).exists()


@pytest.mark.parametrize("name, words", [("", "Give the guest's name."),
                                         ("x" * 61, "at most 60 characters")])
def test_a_bad_guest_name_is_said_and_adds_nothing(as_organiser, solo_evening, name, words):
    response = add_guest(as_organiser, solo_evening, name)
    assert words in html.unescape(response.content.decode())
    assert not Member.objects.filter(guest=True).exists()


def test_members_may_not_add_guests(as_member, solo_evening):
    response = as_member.post(url(solo_evening.season.league.club,
                                  f"evenings/{solo_evening.pk}/guests/"), {"name": "Gus"})
    assert response.status_code == 403
    assert not Member.objects.filter(guest=True).exists()


def test_a_guest_made_a_member_keeps_their_results(as_organiser, solo_evening, organiser,
                                                   member):
    add_guest(as_organiser, solo_evening, "Gus")
    gus = Member.objects.get(name="Gus")
    nell, = add_members(organiser.club, ["Nell"])
    table = make_solo_table(solo_evening, [organiser, member, nell, gus])
    table.add_deal(solo("solo", 3, 5), by=None)
    rows = season_standings(solo_evening.season)
    gus_row = next(r for r in rows if r.name == "Gus")
    assert gus_row.guest and gus_row.position is None  # listed, not ranked
    season_page = as_organiser.get(solo_evening.season.get_absolute_url()).content.decode()
    assert "Gus</a> <span class=\"badge\">guest</span>" in season_page
    response = as_organiser.post(url(organiser.club, f"members/{gus.pk}/make-member/"),
                                 follow=True)
    assert "Gus is now a member of the club, with their results." in response.content.decode()
    gus.refresh_from_db()
    assert not gus.guest
    gus_row = next(r for r in season_standings(solo_evening.season) if r.name == "Gus")
    assert gus_row.position is not None and gus_row.total > 0
    assert "Gus" in as_organiser.get(url(organiser.club, "members/")).content.decode()
    assert ClubChange.objects.filter(action="guest_member").exists()


@pytest.fixture
def sub_table(solo_table, organiser):
    """Olga's table (Olga, Mike, Nell, Pat); Sam substitutes."""
    organiser.name = "Olga"
    organiser.save()
    sam, = add_members(organiser.club, ["Sam"])
    return solo_table, sam


def enter(table, deals):
    for facts in deals:
        table.add_deal(facts, by=None)


def totals_by_name(season):
    return {r.name: r.total for r in season_standings(season)}


def test_a_substitute_is_credited_the_deals_they_played(as_organiser, sub_table, organiser):
    table, sam = sub_table
    enter(table, [solo("solo", 0, 5), solo("solo", 0, 6)])  # Olga's two deals, both made
    before = totals_by_name(table.evening.season)
    response = as_organiser.post(url(organiser.club, f"tables/{table.pk}/substitutes/"), {
        "seat": "0", "member": sam.pk, "from_deal": "3"}, follow=True)
    text = response.content.decode()
    assert "Sam plays the seat of Olga from deal 3" in text
    enter(table, [solo("solo", 0, 3)])  # deal 3: Sam declares and loses
    rows = totals_by_name(table.evening.season)
    seat_total = sum(s.total for s in table.seats.filter(seat=0))
    deal3 = Decimal(table.deals.get(number=3).points[0])
    assert rows["Sam"] == deal3 < 0
    assert rows[organiser.name] == before[organiser.name] and rows[organiser.name] > 0
    assert rows[organiser.name] + rows["Sam"] == seat_total
    assert sum(rows.values()) == 0  # the table still adds up
    page = as_organiser.get(table.get_absolute_url()).content.decode()
    assert "Olga<br>→ Sam (from deal 3)</th>" in page  # a line each, in the column's heading
    assert "Olga, deals 1 to 2: +" in page and "Sam, from deal 3: −" in page
    history = as_organiser.get(url(organiser.club, f"tables/{table.pk}/changes/")).content
    assert "Sam takes the seat of Olga from deal 3, by" in history.decode()


def test_deleting_a_deal_before_the_substitute_keeps_their_deals(as_organiser, sub_table,
                                                                 organiser):
    table, sam = sub_table
    enter(table, [solo("solo", 0, 5), solo("solo", 1, 5), solo("solo", 0, 3)])
    as_organiser.post(url(organiser.club, f"tables/{table.pk}/substitutes/"), {
        "seat": "0", "member": sam.pk, "from_deal": "3"})
    sam_before = totals_by_name(table.evening.season)["Sam"]
    change = table.change_deal(1, None, by=None)
    assert table.substitutes.get().from_deal == 2
    assert totals_by_name(table.evening.season)["Sam"] == sam_before
    table.restore_deal(change.pk, by=None)
    assert table.substitutes.get().from_deal == 3
    assert totals_by_name(table.evening.season)["Sam"] == sam_before


@pytest.mark.parametrize("post, words", [
    ({"seat": "0", "from_deal": "1"}, "from deal 2 at the earliest"),
    ({"seat": "0", "from_deal": "9"}, "Deal 9 is too far ahead: 2 deals are entered so far, "
                                      "so the substitute's first deal is one of deals 2 to 3"),
    ({"seat": "7", "from_deal": "2"}, "Choose a seat of this table."),
    ({"seat": "0", "from_deal": "x"}, "Say from which deal the substitute plays: a number."),
    ({"from_deal": "2"}, "Choose the seat taken over."),
])
def test_a_bad_substitute_is_said_and_changes_nothing(as_organiser, sub_table, organiser, post,
                                                      words):
    table, sam = sub_table
    enter(table, [solo("solo", 0, 5), solo("solo", 0, 4)])
    response = as_organiser.post(url(organiser.club, f"tables/{table.pk}/substitutes/"),
                                 {**post, "member": sam.pk}, follow=True)
    assert words in html.unescape(response.content.decode())
    assert not table.substitutes.exists()
    assert not ResultChange.objects.filter(action="substitute").exists()


def test_someone_at_the_table_cannot_substitute(as_organiser, sub_table, organiser, member):
    table, _sam = sub_table
    enter(table, [solo("solo", 0, 5)])
    response = as_organiser.post(url(organiser.club, f"tables/{table.pk}/substitutes/"), {
        "seat": "0", "member": member.pk, "from_deal": "2"}, follow=True)
    assert "Choose someone who is not at a table of this round" in response.content.decode()
    assert not table.substitutes.exists()


def test_someone_at_another_table_of_the_round_cannot_substitute(as_organiser, sub_table,
                                                                 organiser, solo_evening):
    table, sam = sub_table
    others = add_members(organiser.club, ["Quinn", "Rita", "Stan"])
    other_table = make_solo_table(solo_evening, [sam, *others], number=2)
    enter(table, [solo("solo", 0, 5)])

    def offered() -> str:
        page = as_organiser.get(table.get_absolute_url()).content.decode()
        taken_by = page[page.index('name="member"'):]
        return taken_by[:taken_by.index("</select>")]

    assert ">Sam</option>" not in offered() and ">Quinn</option>" not in offered()
    response = as_organiser.post(url(organiser.club, f"tables/{table.pk}/substitutes/"), {
        "seat": "0", "member": sam.pk, "from_deal": "2"}, follow=True)
    assert "not at a table of this round" in html.unescape(response.content.decode())
    assert not table.substitutes.exists()
    from leagues import guests
    with pytest.raises(EntryError, match="Sam plays at table 2 at the same time"):
        guests.add_substitute(table, 0, sam, 2, None)  # the rule itself, whoever asks
    # A table of another round is not played at the same time: Sam may take the seat.
    other_table.round = 2
    other_table.save()
    assert ">Sam</option>" in offered()
    as_organiser.post(url(organiser.club, f"tables/{table.pk}/substitutes/"), {
        "seat": "0", "member": sam.pk, "from_deal": "2"})
    assert table.substitutes.filter(member=sam).exists()
    # He came and plays: the evening counts him among those who came.
    assert solo_evening.attendances.get(member=sam).coming


def test_a_match_takes_no_substitute(as_organiser, bid_table, organiser):
    sam, = add_members(organiser.club, ["Sam"])
    from leagues import guests
    from leagues.models import EntryError
    with pytest.raises(EntryError, match="A match counts whole"):
        guests.add_substitute(bid_table, 0, sam, 2, None)


def test_a_substitute_taken_back_gives_the_deals_back(as_organiser, sub_table, organiser):
    table, sam = sub_table
    enter(table, [solo("solo", 0, 5), solo("solo", 0, 3)])
    as_organiser.post(url(organiser.club, f"tables/{table.pk}/substitutes/"), {
        "seat": "0", "member": sam.pk, "from_deal": "2"})
    sub = table.substitutes.get()
    as_organiser.post(url(organiser.club, f"tables/{table.pk}/substitutes/{sub.pk}/remove/"))
    rows = totals_by_name(table.evening.season)
    assert "Sam" not in rows
    assert rows[organiser.name] == table.seats.get(seat=0).total


def test_standings_with_substitutes_take_a_fixed_number_of_queries(sub_table, organiser):
    table, sam = sub_table
    enter(table, [solo("solo", 0, 5), solo("solo", 0, 3)])
    from leagues import guests
    guests.add_substitute(table, 0, sam, 2, None)
    with CaptureQueriesContext(connection) as queries:
        season_standings(table.evening.season)
    assert len(queries) <= 3


@pytest.mark.parametrize("ranking", ["total", "average", "best_n"])
def test_every_ranking_credits_the_substitute(sub_table, organiser, ranking):
    table, sam = sub_table
    league = table.evening.season.league
    league.ranking = ranking
    league.save()
    enter(table, [solo("solo", 0, 5), solo("solo", 0, 6), solo("solo", 0, 3)])
    from leagues import guests
    guests.add_substitute(table, 0, sam, 3, None)
    rows = {r.name: r for r in season_standings(table.evening.season)}
    deals = [Decimal(d.points[0]) for d in table.deals.order_by("number")]
    assert rows["Sam"].total == deals[2] and rows["Olga"].total == deals[0] + deals[1]
    assert rows["Sam"].evenings == 1 and rows["Olga"].evenings == 1
    assert sum(r.total for r in rows.values()) == 0


def test_a_substitute_merged_into_another_record_keeps_their_deals(sub_table, organiser):
    table, sam = sub_table
    enter(table, [solo("solo", 0, 5), solo("solo", 0, 3)])
    from leagues import edits, guests
    guests.add_substitute(table, 0, sam, 2, None)
    samuel, = add_members(organiser.club, ["Samuel"])
    edits.merge_members(samuel, sam, None)
    rows = totals_by_name(table.evening.season)
    assert "Sam" not in rows and rows["Samuel"] == Decimal(table.deals.get(number=2).points[0])
    # Someone who sat at the table and its substitute are two people.
    with pytest.raises(EntryError, match="played at the same table"):
        edits.merge_members(organiser, samuel, None)


def test_the_season_chart_credits_the_substitute(sub_table, organiser):
    table, sam = sub_table
    enter(table, [solo("solo", 0, 5), solo("solo", 0, 3)])
    from leagues import charts, guests
    guests.add_substitute(table, 0, sam, 2, None)
    lines = dict(charts.season_series(table.evening.season)["lines"])
    first, second = (Decimal(d.points[0]) for d in table.deals.order_by("number"))
    assert lines["Sam"] == [second] and lines["Olga"] == [first]


def test_the_members_page_chart_and_head_to_head_split_the_seat(as_organiser, sub_table,
                                                                organiser, member):
    """Sam takes Olga's seat from deal 2: Olga's page, chart and head-to-head count deal 1
    alone, Sam's deal 2, as the standings do."""
    table, sam = sub_table
    enter(table, [solo("solo", 0, 5), solo("solo", 0, 3)])
    from leagues import charts, guests, history
    guests.add_substitute(table, 0, sam, 2, None)
    first, second = (Decimal(d.points[0]) for d in table.deals.order_by("number"))
    rows = totals_by_name(table.evening.season)
    assert (rows["Olga"], rows["Sam"]) == (first, second)
    league = table.evening.season.league
    assert charts.member_series(organiser, league)["values"] == [first]
    assert charts.member_series(sam, league)["values"] == [second]
    assert league in charts.member_leagues(sam)
    olga_page = history.member_history(organiser)["evenings"]
    sam_page = history.member_history(sam)["evenings"]
    assert [e["total"] for e in olga_page] == [scoring.format_units(first)]
    assert [e["total"] for e in sam_page] == [scoring.format_units(second)]
    season = table.evening.season
    mike = Decimal(table.seats.get(member=member).total)
    meeting, = history.head_to_head(season, str(organiser.pk), str(member.pk))["meetings"]
    assert (meeting["first"], meeting["second"]) == (scoring.format_units(first),
                                                     scoring.format_units(mike))
    assert sam in history.head_to_head(season, None, None)["choices"]
    meeting, = history.head_to_head(season, str(sam.pk), str(member.pk))["meetings"]
    assert meeting["first"] == scoring.format_units(second)
    page = as_organiser.get(f"/clubs/{organiser.club.slug}/seasons/{season.pk}/head-to-head/"
                            f"?a={sam.pk}&b={member.pk}").content.decode()
    assert f'<td class="num">{scoring.format_units(second)}</td>' in page


def test_the_evenings_prizes_credit_the_substitute(as_organiser, sub_table, organiser):
    """The evening's scores (its prizes, the results' e-mail) split a seat as the standings
    do: the deals a substitute played are theirs, not the seat's member's."""
    from leagues.prizes import evening_lines

    table, sam = sub_table
    enter(table, [solo("solo", 0, 5), solo("solo", 0, 6)])
    as_organiser.post(url(organiser.club, f"tables/{table.pk}/substitutes/"), {
        "seat": "0", "member": sam.pk, "from_deal": "3"})
    enter(table, [solo("solo", 0, 3)])
    lines = {line.name: line.score for line in evening_lines(table.evening)}
    standings = totals_by_name(table.evening.season)
    assert lines["Sam"] == standings["Sam"] < 0
    assert lines[organiser.name] == standings[organiser.name] > 0


def between(page: str, start: str, end: str) -> str:
    """The part of ``page`` from ``start`` to the next ``end``, its tags dropped."""
    part = page[page.index(start):]
    part = part[:part.index(end)]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", part)).split())


def test_the_table_page_names_whoever_played_each_deal(as_organiser, sub_table, organiser):
    """After Sam takes Olga's seat from deal 2: the next deal's buttons offer Sam, each deal's
    line names its player, and "Totals so far" gives Olga her deal and Sam his."""
    table, sam = sub_table
    enter(table, [solo("solo", 0, 6)])  # deal 1: Olga's solo, made
    as_organiser.post(url(organiser.club, f"tables/{table.pk}/substitutes/"), {
        "seat": "0", "member": sam.pk, "from_deal": "2"})
    enter(table, [solo("prop_and_cop", 0, 7, partner=1)])  # deal 2: Sam and Mike, lost
    page = as_organiser.get(table.get_absolute_url()).content.decode()
    form = between(page, 'id="next-deal"', "</form>")
    assert "Sam" in form and "Olga" not in form
    sheet = between(page, "<tbody>", "</tbody>")
    assert "Olga: Solo" in sheet and "Sam & Mike: Prop and cop" in sheet
    assert "Olga & Mike" not in sheet
    olga, sam_part = (s.total for s in (table.seats.get(seat=0), table.substitutes.get()))
    olga -= sam_part
    totals = between(page, 'class="running-totals"', "</p>")
    assert f"Olga {units(olga)}" in totals and f"Sam {units(sam_part)}" in totals
    # The deal's own pages name its player too: correcting deal 2, and deleting it.
    edit = as_organiser.get(url(organiser.club, f"tables/{table.pk}/deals/2/")).content.decode()
    assert "Sam" in between(edit, "<h1>", "</form>")
    assert "Olga" not in between(edit, "<h1>", "</form>")
    history = as_organiser.get(url(organiser.club, f"tables/{table.pk}/changes/")).content
    assert "Sam & Mike: Prop and cop" in html.unescape(history.decode())
    # Another substitution: the seats are offered by who holds them now.
    seats = page[page.index('name="seat"'):]
    seats = seats[:seats.index("</select>")]
    assert ">Olga (now Sam)</option>" in seats and ">Mike</option>" in seats


@pytest.mark.parametrize("deals, words", [
    (1, "Deal 5 is too far ahead: 1 deal is entered so far, so the substitute's first deal "
        "is deal 2, the next one to enter."),
    (0, "No deal is entered yet"),
])
def test_a_refused_substitute_is_said_beside_the_form_as_it_was_typed(
        as_organiser, sub_table, organiser, deals, words):
    """The refusal is shown in the substitute's form, open, where the page opens (its
    anchor), with the seat, the player and the deal as typed; and it says plainly why."""
    table, sam = sub_table
    enter(table, [solo("solo", 0, 5)] * deals)
    response = as_organiser.post(url(organiser.club, f"tables/{table.pk}/substitutes/"), {
        "seat": "2", "member": sam.pk, "from_deal": "5"})
    assert response.status_code == 200  # the page itself, not a redirect that loses the form
    page = response.content.decode()
    details = page[page.index('<details class="substitute"'):]
    details = details[:details.index("</details>")]
    assert re.match(r'<details class="substitute" id="substitute"[^>]* open>', details)
    assert words in html.unescape(details)
    assert "Nothing was saved" in details
    assert re.search(r'<option value="2" selected>Nell</option>', details)
    assert re.search(rf'<option value="{sam.pk}" selected>Sam</option>', details)
    assert re.search(r'name="from_deal" value="5"', details)
    assert 'action="' in details and '#substitute"' in details  # the page opens at the form
    assert not table.substitutes.exists()


def test_a_guest_at_a_pairs_evening_is_told_to_be_put_in_a_pair(as_organiser, bid_season):
    """Bid Whist draws pairs: a guest is not promised the draw, but told how to get into it,
    and the evening says why they are not drawn until then."""
    import datetime

    from leagues.models import Evening

    evening = Evening.objects.create(season=bid_season, date=datetime.date(2030, 1, 8))
    page = html.unescape(add_guest(as_organiser, evening, "Gus Walker").content.decode())
    assert ("Gus Walker plays this evening as a guest: they are marked coming, and are drawn "
            "once registered in a pair of the season.") in page
    assert "will be in the draw" not in page
    assert "are drawn once registered in a pair of the season, are in the results" in page
    assert "Gus Walker is coming but has no pair this season: not drawn." in page
