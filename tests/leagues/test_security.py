"""What the leagues promise against misuse and mistakes: entries confirmed only by an opponent,
no double deals, harmless CSV cells, no server error on bad input, a well-formed calendar,
member pages for members, a history that names people unmistakably, renewable invite links."""

import csv
import io

import pytest

from leagues.models import ResultChange

from .conftest import add_members, bid, make_solo_table, solo

pytestmark = pytest.mark.django_db

SOLO_DEAL = {"contract": "solo", "declarer": "0", "partner": "", "tricks": "6"}


def table_url(table, suffix=""):
    return f"/clubs/{table.evening.season.league.club.slug}/tables/{table.pk}/{suffix}"


def season_url(table):
    season = table.evening.season
    return f"/clubs/{season.league.club.slug}/seasons/{season.pk}/"


def next_deal(table, **fields):
    """The deal form as the table page fills it: with the number of the deal it adds."""
    last = table.deals.order_by("-number").values_list("number", flat=True).first() or 0
    return {**SOLO_DEAL, "number": str(last + 1), **fields}


def give_login(member, django_user_model, username):
    member.user = django_user_model.objects.create_user(username, f"{username}@example.org",
                                                        f"pw-{username}-123")
    member.save()
    return member.user


@pytest.fixture
def entry_at_table(solo_table, django_user_model):
    """A league whose players enter results; Nell (seat 3) and Pat (seat 4) have a login too.
    Seats: Olga (organiser), Mike (member), Nell, Pat."""
    league = solo_table.league
    league.players_enter_results = True
    league.save()
    nell = solo_table.seats.get(seat=2).member
    pat = solo_table.seats.get(seat=3).member
    return {"table": solo_table, "nell": give_login(nell, django_user_model, "nell"),
            "pat": give_login(pat, django_user_model, "pat")}


def standings_rows(client, table):
    return client.get(season_url(table)).context["rows"]


# -- 1. provisional entries are confirmed by an opponent of their author ----------------------


def test_a_player_cannot_confirm_their_own_deal_after_an_opponent_entered_one(
        client, entry_at_table, member_user):
    table, nell = entry_at_table["table"], entry_at_table["nell"]
    client.force_login(member_user)
    client.post(table_url(table, "deals/"), next_deal(table))  # Mike enters deal 1
    client.force_login(nell)
    client.post(table_url(table, "deals/"), next_deal(table, declarer="2"))  # Nell: deal 2
    client.force_login(member_user)
    page = client.get(table_url(table)).content.decode()
    assert "Confirm deal 2" in page and "Confirm deals" not in page
    response = client.post(table_url(table, "confirm/"), follow=True)
    assert "Deal 2 confirmed." in response.content.decode()
    # Deal 1 was entered by Mike himself: it still waits for an opponent, so nothing counts.
    page = client.get(table_url(table)).content.decode()
    assert "Deal 1 is provisional, entered by you." in page
    assert "Deal 2 is provisional" not in page
    assert standings_rows(client, table) == []
    client.force_login(nell)
    page = client.get(table_url(table)).content.decode()
    assert "Deal 1 is provisional, entered by Mike (@mike). You may confirm it." in page
    client.post(table_url(table, "confirm/"))
    assert len(standings_rows(client, table)) == 4


def test_an_organisers_entry_does_not_finalise_a_players_provisional_deal(
        client, entry_at_table, member_user, organiser_user):
    table = entry_at_table["table"]
    client.force_login(member_user)
    client.post(table_url(table, "deals/"), next_deal(table))
    client.force_login(organiser_user)
    client.post(table_url(table, "deals/"), next_deal(table, declarer="3"))
    page = client.get(table_url(table)).content.decode()
    assert "Deal 1 is provisional, entered by Mike" in page
    assert "Deal 2 is provisional" not in page
    assert standings_rows(client, table) == []


def test_an_organiser_confirms_explicitly_and_the_history_says_what(
        client, entry_at_table, member_user, organiser_user):
    table = entry_at_table["table"]
    client.force_login(member_user)
    client.post(table_url(table, "deals/"), next_deal(table))
    client.force_login(organiser_user)
    assert "Confirm deal 1" in client.get(table_url(table)).content.decode()
    response = client.post(table_url(table, "confirm/"), follow=True)
    assert "Deal 1 confirmed." in response.content.decode()
    assert len(standings_rows(client, table)) == 4
    confirm = ResultChange.objects.get(action="confirm")
    assert confirm.after["confirmed"] == {"deals": [1], "totals": False}
    assert confirm.before["table"]["provisional"] == [1]
    assert confirm.after["table"]["provisional"] == []


def test_the_author_of_every_provisional_deal_is_told_an_opponent_confirms(
        client, entry_at_table, member_user):
    table = entry_at_table["table"]
    client.force_login(member_user)
    client.post(table_url(table, "deals/"), next_deal(table))
    page = client.get(table_url(table)).content.decode()
    assert "Deal 1 is provisional, entered by you" in page
    assert "An opponent of yours confirms it." in page
    assert "Confirm deal" not in page
    response = client.post(table_url(table, "confirm/"), follow=True)
    assert "There is nothing here that you may confirm" in response.content.decode()
    assert table.deals.get(number=1).provisional


def test_provisional_totals_are_confirmed_by_an_opponent_only(client, entry_at_table,
                                                             member_user):
    table, nell = entry_at_table["table"], entry_at_table["nell"]
    client.force_login(member_user)
    client.post(table_url(table, "totals/"), {"total_0": "12", "total_1": "-4",
                                              "total_2": "-4", "total_3": "-4"})
    page = client.get(table_url(table)).content.decode()
    assert "The totals are provisional, entered by you" in page
    client.post(table_url(table, "confirm/"))
    assert standings_rows(client, table) == []
    client.force_login(nell)
    assert "Confirm the totals" in client.get(table_url(table)).content.decode()
    client.post(table_url(table, "confirm/"))
    assert len(standings_rows(client, table)) == 4


def test_a_bid_whist_partner_cannot_confirm_their_partners_entry(client, bid_table,
                                                                 member_user,
                                                                 django_user_model):
    league = bid_table.league
    league.players_enter_results = True
    league.save()
    bob = give_login(bid_table.pair_1.second, django_user_model, "bob")  # Mike's partner
    ann = give_login(bid_table.pair_0.second, django_user_model, "ann")  # an opponent
    client.force_login(member_user)
    hand = {"team": "1", "bid": "3", "mode": "uptown", "books": "10", "revoke": "",
            "number": "1"}
    client.post(table_url(bid_table, "deals/"), hand)
    client.force_login(bob)
    client.post(table_url(bid_table, "confirm/"))
    assert bid_table.deals.get(number=1).provisional
    client.force_login(ann)
    client.post(table_url(bid_table, "confirm/"))
    assert not bid_table.deals.get(number=1).provisional


def test_a_member_away_from_the_table_cannot_confirm(client, entry_at_table, member_user,
                                                     django_user_model):
    table = entry_at_table["table"]
    client.force_login(member_user)
    client.post(table_url(table, "deals/"), next_deal(table))
    (zed,) = add_members(table.league.club, ["Zed"])
    client.force_login(give_login(zed, django_user_model, "zed"))
    assert client.post(table_url(table, "confirm/")).status_code == 403
    assert table.deals.get(number=1).provisional


# -- 2. a deal posted twice is entered once ------------------------------------------------------


def test_the_deal_form_carries_the_number_of_the_deal_it_adds(as_organiser, solo_table,
                                                              organiser_user):
    solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    form = as_organiser.get(table_url(solo_table)).content.decode()
    assert '<input type="hidden" name="number" value="2"' in form


def test_the_same_deal_posted_twice_is_entered_once(as_organiser, solo_table):
    first = as_organiser.post(table_url(solo_table, "deals/"), next_deal(solo_table),
                              follow=True)
    assert "Deal 1 entered." in first.content.decode()
    again = as_organiser.post(table_url(solo_table, "deals/"), {**SOLO_DEAL, "number": "1"},
                              follow=True)
    assert "Deal 1 was already entered" in again.content.decode()
    assert solo_table.deals.count() == 1
    assert ResultChange.objects.filter(action="add").count() == 1
    assert [s.total for s in solo_table.seats.order_by("seat")] == [9, -3, -3, -3]


def test_a_deal_for_a_number_already_taken_adds_nothing(as_organiser, solo_table):
    as_organiser.post(table_url(solo_table, "deals/"), next_deal(solo_table))
    other = {**SOLO_DEAL, "declarer": "1", "number": "1"}  # typed on a page that was not fresh
    response = as_organiser.post(table_url(solo_table, "deals/"), other, follow=True)
    assert "Deal 1 has already been entered" in response.content.decode()
    assert solo_table.deals.count() == 1
    assert solo_table.deals.get().facts["declarer"] == 0


def test_a_deal_form_without_its_number_adds_nothing(as_organiser, solo_table):
    response = as_organiser.post(table_url(solo_table, "deals/"), SOLO_DEAL, follow=True)
    assert "reload the table page" in response.content.decode()
    assert not solo_table.deals.exists()


# -- 3. CSV cells are never live formulas ---------------------------------------------------------

EVIL = '=HYPERLINK("http://evil.example/","Totals")'


def csv_rows(response):
    return list(csv.reader(io.StringIO(response.content.decode())))


@pytest.fixture
def evil_table(solo_evening, organiser, member, organiser_user):
    evil, plus, at = add_members(organiser.club, [EVIL, "+44 7700 900123", "@SUM(A1:A9)"])
    solo_evening.venue = "-Back room"
    solo_evening.save()
    table = make_solo_table(solo_evening, [evil, plus, at, member])
    table.add_deal(solo("solo", 0, 4), organiser_user)  # the declarer loses: -9, others +3
    return table


def test_standings_csv_neutralises_formulas_and_keeps_numbers(as_member, evil_table):
    rows = csv_rows(as_member.get(season_url(evil_table) + "standings.csv"))
    by_name = {row[1]: row for row in rows[1:]}
    assert set(by_name) == {"'" + EVIL, "'+44 7700 900123", "'@SUM(A1:A9)", "Mike"}
    evil = by_name["'" + EVIL]
    assert evil[3] == "-9" and evil[4] == "-9"  # a negative score stays a number


def test_results_csv_neutralises_formulas_and_keeps_numbers(as_member, evil_table):
    rows = csv_rows(as_member.get(season_url(evil_table) + "results.csv"))
    assert rows[1] == ["2030-01-07", "'-Back room", "1", "'" + EVIL, "-9", ""]
    assert all(is_number(cell) or not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
               for row in rows for cell in row)


def is_number(cell):
    try:
        float(cell)
    except ValueError:
        return False
    return True


def test_every_formula_start_is_neutralised_and_numbers_are_not():
    from decimal import Decimal

    from leagues.exports import csv_cell
    for text in ("=1+1", "+1", "-1+1", "@A1", "\tx", "\rx"):
        assert csv_cell(text) == "'" + text
    assert csv_cell("Nell") == "Nell" and csv_cell("") == ""
    assert csv_cell(-5) == -5 and csv_cell(Decimal("-1.5")) == Decimal("-1.5")


def test_bid_whist_standings_csv_neutralises_a_pair_name(as_member, bid_table, organiser_user):
    bid_table.pair_0.name = "=1+1"
    bid_table.pair_0.save()
    bid_table.add_deal(bid(1, 5, "uptown", 13), organiser_user)
    rows = csv_rows(as_member.get(season_url(bid_table) + "standings.csv"))
    pair_0 = next(row for row in rows if row[1] == "'=1+1")
    assert pair_0[8].startswith("-") and is_number(pair_0[8])  # points difference, a number


# -- 4. bad input gets a message, never a server error, and changes nothing ------------------------


def fingerprint():
    """Every row of every leagues table: what "changes nothing" compares."""
    from django.apps import apps
    return {model.__name__: sorted(map(repr, model.objects.values()))
            for model in apps.get_app_config("leagues").get_models()}


def club_url(club, suffix=""):
    return f"/clubs/{club.slug}/{suffix}"


@pytest.mark.parametrize("value", ["abc", "", "1.5", "-1", "99999999999999999999", "1\x00"])
def test_attendance_for_a_member_that_is_not_one_changes_nothing(as_organiser, solo_evening,
                                                                 value):
    club = solo_evening.season.league.club
    before = fingerprint()
    response = as_organiser.post(club_url(club, f"evenings/{solo_evening.pk}/attendance/"),
                                 {"member": value, "coming": "yes"}, follow=True)
    if value == "":  # no member chosen: the organiser answers for themselves, as before
        assert "olga is coming." in response.content.decode()
        return
    assert response.status_code == 200
    assert refusal(value, "Choose a member of this club.") in response.content.decode()
    assert fingerprint() == before


def refusal(value, message):
    # Django's own words for a NUL character, before the field looks the member up.
    return "Null characters are not allowed." if "\x00" in value else message


def test_attendance_for_a_member_of_another_club_changes_nothing(as_organiser, solo_evening,
                                                                 django_user_model):
    rival = django_user_model.objects.create_user("rita", "rita@example.org", "pw")
    from leagues.models import Club
    stranger = Club.create_with_organiser(rival, name="Rival Club").members.get()
    club = solo_evening.season.league.club
    before = fingerprint()
    response = as_organiser.post(club_url(club, f"evenings/{solo_evening.pk}/attendance/"),
                                 {"member": stranger.pk, "coming": "yes"}, follow=True)
    assert "Choose a member of this club." in response.content.decode()
    assert fingerprint() == before


def test_attendance_with_an_answer_that_is_neither_yes_nor_no_changes_nothing(as_member,
                                                                             solo_evening):
    club = solo_evening.season.league.club
    before = fingerprint()
    response = as_member.post(club_url(club, f"evenings/{solo_evening.pk}/attendance/"),
                              {"coming": "maybe"}, follow=True)
    assert "Say whether you are coming: yes or no." in response.content.decode()
    assert fingerprint() == before


@pytest.mark.parametrize("value", ["abc", "1.5", "99999999999999999999", "1\x00"])
def test_an_invite_for_a_member_that_is_not_one_changes_nothing(as_organiser, club, value):
    before = fingerprint()
    response = as_organiser.post(club_url(club, "invites/"), {"member": value}, follow=True)
    assert response.status_code == 200
    assert refusal(value, "Choose a member of this club without a login.") in (
        response.content.decode())
    assert fingerprint() == before


def test_an_invite_to_claim_a_member_who_signs_in_already_changes_nothing(as_organiser, club,
                                                                         member):
    before = fingerprint()
    response = as_organiser.post(club_url(club, "invites/"), {"member": member.pk}, follow=True)
    assert "Choose a member of this club without a login." in response.content.decode()
    assert fingerprint() == before


GARBAGE = {name: "abc" for name in (
    "member", "coming", "role", "is_public", "game", "ranking", "best_evenings", "min_evenings",
    "points_for_win", "points_for_loss", "tie_break", "draw", "first", "second", "date",
    "start_time", "seat_0", "seat_1", "seat_2", "seat_3", "pair_0", "pair_1", "deals",
    "computer_level", "computer_2", "contract", "declarer", "partner", "tricks", "level", "number",
    "team", "bid", "mode", "books", "revoke", "total_0", "total_1", "total_2", "total_3")}
GARBAGE.update({"name": "x\x00", "description": "x\x00", "venue": "x\x00"})


@pytest.mark.parametrize("path", [
    "edit/", "members/add/", "invites/", "leagues/new/", "leagues/{league}/edit/",
    "leagues/{league}/rules/", "leagues/{league}/seasons/new/", "seasons/{season}/pairs/new/",
    "seasons/{season}/evenings/new/", "evenings/{evening}/attendance/",
    "evenings/{evening}/tables/new/", "evenings/{evening}/draw/", "tables/{table}/deals/",
    "tables/{table}/deals/1/", "tables/{table}/totals/", "tables/{table}/online/",
    "tables/{table}/confirm/",
])
def test_every_league_post_refuses_garbage_without_a_server_error(as_organiser, solo_table,
                                                                  organiser_user, path):
    solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    evening = solo_table.evening
    url = club_url(solo_table.league.club, path.format(
        league=evening.season.league.pk, season=evening.season.pk, evening=evening.pk,
        table=solo_table.pk))
    before = fingerprint()
    response = as_organiser.post(url, GARBAGE, follow=True)
    assert response.status_code == 200
    assert fingerprint() == before


@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01", "1900-01-01", "2999-06-01"])
def test_an_evening_at_an_absurd_date_gets_a_form_error_and_changes_nothing(as_organiser,
                                                                           solo_evening, day):
    from leagues.forms import evening_dates

    club, season = solo_evening.season.league.club, solo_evening.season
    first, last = evening_dates()
    before = fingerprint()
    for url in (club_url(club, f"seasons/{season.pk}/evenings/new/"),
                club_url(club, f"evenings/{solo_evening.pk}/edit/")):
        response = as_organiser.post(url, {"date": day, "start_time": "19:30", "venue": "Pub"})
        assert response.status_code == 200, url
        page = response.content.decode()
        assert f"Choose a date between {first:%-d %B %Y} and {last:%-d %B %Y}." in page, url
    assert fingerprint() == before
    # The date box itself offers no day outside the range.
    page = as_organiser.get(club_url(club, f"seasons/{season.pk}/evenings/new/")).content
    assert f'min="{first.isoformat()}"'.encode() in page
    assert f'max="{last.isoformat()}"'.encode() in page


# -- 5. the calendar feed is well formed whatever the venue says ---------------------------------


def test_the_calendar_gives_a_venue_back_whatever_it_contains(as_member, solo_evening):
    import re

    import icalendar
    solo_evening.venue = "Back room\r, first floor; bar\nupstairs \\ left"
    solo_evening.save()
    club = solo_evening.season.league.club
    club.name = "Crown, Anchor; and Bell"
    club.save()
    body = as_member.get(club_url(club, "calendar.ics")).content.decode()
    assert not re.search(r"\r(?!\n)", body), "a bare CR breaks the file's lines"
    assert not re.search(r"(?<!\r)\n", body), "every line ends with CRLF"
    calendar = icalendar.Calendar.from_ical(body)
    (event,) = calendar.walk("VEVENT")
    # A line break in the venue, however typed, is a line break in the calendar.
    assert str(event["LOCATION"]) == "Back room\n, first floor; bar\nupstairs \\ left"
    assert str(event["SUMMARY"]) == "Crown, Anchor; and Bell: Tuesday Solo"
    assert str(calendar["X-WR-CALNAME"]) == "Crown, Anchor; and Bell"
    assert event.decoded("DTSTART") == solo_evening.date  # no time: an all-day event


@pytest.mark.parametrize("when", [(9999, 12, 31, None), (9999, 12, 31, (23, 30)),
                                  (1, 1, 1, None), (1, 1, 1, (0, 0))])
def test_the_calendar_stays_readable_with_an_evening_stored_at_the_edge_of_time(
        as_member, solo_evening, when):
    """Evenings stored before the forms refused such dates: the feed leaves out the one no
    calendar can hold and gives the others, instead of a server error."""
    import datetime

    import icalendar

    from leagues.models import Evening
    year, month, day, time = when
    Evening.objects.create(season=solo_evening.season, date=datetime.date(year, month, day),
                           start_time=datetime.time(*time) if time else None, venue="Nowhere")
    response = as_member.get(club_url(solo_evening.season.league.club, "calendar.ics"))
    assert response.status_code == 200
    events = icalendar.Calendar.from_ical(response.content.decode()).walk("VEVENT")
    assert solo_evening.date in [event.decoded("DTSTART") for event in events]
    for event in events:  # whatever is given is whole: a start and an end
        assert event.decoded("DTEND") > event.decoded("DTSTART")


# -- 6. a member's page is seen by whoever sees the member list -----------------------------------


@pytest.mark.parametrize("past", [False, True])
@pytest.mark.parametrize("persona", ["anonymous", "outsider", "member", "organiser"])
def test_who_is_coming_to_an_evening_follows_the_member_lists_rule(
        client, solo_evening, member, persona, past, outsider_user, member_user, organiser_user):
    """A public club shows its evenings (date, venue, results) to anyone, but who will be at
    that venue on that date is its members' business, as its member list is."""
    import datetime

    from leagues.models import Attendance
    club = solo_evening.season.league.club
    club.is_public = True
    club.save()
    granny = club.members.create(name="Granny Weatherwax")
    for who in (member, granny):
        Attendance.objects.create(evening=solo_evening, member=who, coming=True)
    if past:
        solo_evening.date = datetime.date(2020, 1, 6)
        solo_evening.save()
    user = {"outsider": outsider_user, "member": member_user,
            "organiser": organiser_user}.get(persona)
    if user:
        client.force_login(user)
    response = client.get(club_url(club, f"evenings/{solo_evening.pk}/"))
    assert response.status_code == 200  # the evening itself is public
    page = response.content.decode()
    assert "The Crown" in page  # its venue
    sees = persona in ("member", "organiser")
    assert ("Granny Weatherwax" in page) == sees
    assert ("<h2>Who came</h2>" in page or "<h2>Who is coming</h2>" in page) == sees
    listing = client.get(club_url(club, "members/")).status_code
    assert (listing == 200) == sees
    if not sees:
        assert "Who is coming is shown to the club's members only." in page


@pytest.mark.parametrize("public", [False, True])
@pytest.mark.parametrize("persona", ["anonymous", "outsider", "member", "organiser"])
def test_member_pages_follow_the_member_lists_rule(client, club, member, public, persona,
                                                   outsider_user, member_user, organiser_user):
    club.is_public = public
    club.save()
    user = {"outsider": outsider_user, "member": member_user,
            "organiser": organiser_user}.get(persona)
    if user:
        client.force_login(user)
    listing = client.get(club_url(club, "members/")).status_code
    page = client.get(club_url(club, f"members/{member.pk}/")).status_code
    assert page == listing
    assert (page == 200) == (persona in ("member", "organiser"))


def test_a_public_seasons_standings_do_not_link_to_member_pages_for_visitors(
        client, as_member, solo_table, organiser_user):
    club = solo_table.league.club
    club.is_public = True
    club.save()
    solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    assert "/members/" in as_member.get(season_url(solo_table)).content.decode()
    client.logout()
    page = client.get(season_url(solo_table)).content.decode()
    assert "Nell" in page and "/members/" not in page


# -- 7. the history names people in a way a display name cannot imitate --------------------------


def test_the_history_tells_apart_two_people_with_the_same_display_name(
        client, entry_at_table, member_user, organiser_user):
    table = entry_at_table["table"]
    client.force_login(organiser_user)
    client.post(table_url(table, "deals/"), next_deal(table))
    # Mike takes the organiser's display name, then enters a deal.
    member_user.profile.display_name = organiser_user.profile.name
    member_user.profile.save()
    client.force_login(member_user)
    client.post(table_url(table, "deals/"), next_deal(table, declarer="1"))
    page = client.get(table_url(table, "changes/"))
    text = page.content.decode()
    # The history names the club's members as the club knows them, never by a display name.
    assert [row["who"] for row in page.context["rows"]] == ["Mike", "olga"]
    assert "Deal 2 entered by Mike" in text and "Deal 1 entered by olga" in text


def test_the_history_tells_apart_two_members_the_club_knows_by_one_name(
        client, entry_at_table, member, organiser_user):
    table = entry_at_table["table"]
    member.name = "olga"
    member.save()
    client.force_login(organiser_user)
    client.post(table_url(table, "deals/"), next_deal(table))
    client.force_login(member.user)
    client.post(table_url(table, "deals/"), next_deal(table, declarer="1"))
    page = client.get(table_url(table, "changes/"))
    assert [row["who"] for row in page.context["rows"]] == ["olga (@mike)", "olga (@olga)"]


def test_the_history_names_someone_who_left_the_club_by_their_username(
        as_member, solo_table, django_user_model):
    leaver = django_user_model.objects.create_user("lee", "lee@example.org", "pw")
    leaver.profile.display_name = "olga"
    leaver.profile.save()
    solo_table.add_deal(solo("solo", 0, 6), leaver)
    page = as_member.get(table_url(solo_table, "changes/"))
    assert "@lee" in page.content.decode()
    assert [row["who"] for row in page.context["rows"]] == ["@lee"]


# -- 8. organisers renew or revoke an invite link; an old link says it is no longer valid ---------


def join_url(invite):
    return f"/clubs/join/{invite.token}/"


def test_an_organiser_renews_an_invite_link_and_the_old_one_stops_working(
        as_organiser, club, client, outsider_user):
    from leagues.models import Invite
    as_organiser.post(club_url(club, "invites/"))
    old = Invite.objects.get(club=club)
    renew = club_url(club, f"invites/{old.pk}/renew/")
    confirm = as_organiser.get(renew).content.decode()
    assert "The old link stops working at once" in confirm
    assert Invite.objects.count() == 1  # asking is not doing
    response = as_organiser.post(renew, follow=True)
    new = Invite.objects.exclude(pk=old.pk).get(club=club)
    text = response.content.decode()
    assert "The old link no longer works." in text and new.token in text
    assert "renewed by olga (@olga)" in as_organiser.get(club_url(club, "members/")).content.decode()
    client.force_login(outsider_user)
    page = client.get(join_url(old))
    assert page.status_code == 410
    assert "This invite link is no longer valid." in page.content.decode()
    client.post(join_url(old))
    assert not club.members.filter(user=outsider_user).exists()
    client.post(join_url(new))
    assert club.members.filter(user=outsider_user).exists()


def test_an_organiser_revokes_a_claim_link(as_organiser, club, client, outsider_user):
    from leagues.models import Invite
    (granny,) = add_members(club, ["Granny"])
    as_organiser.post(club_url(club, "invites/"), {"member": granny.pk})
    invite = Invite.objects.get(member=granny)
    revoke = club_url(club, f"invites/{invite.pk}/revoke/")
    assert "Revoke this invite link?" in as_organiser.get(revoke).content.decode()
    response = as_organiser.post(revoke, follow=True)
    assert "The invite link no longer works." in response.content.decode()
    assert "revoked by olga (@olga)" in as_organiser.get(club_url(club, "members/")).content.decode()
    client.force_login(outsider_user)
    assert "This invite link is no longer valid." in client.get(join_url(invite)).content.decode()
    client.post(join_url(invite))
    granny.refresh_from_db()
    assert granny.user is None


def test_an_old_link_cannot_be_renewed_again(as_organiser, club):
    from leagues.models import Invite
    old = Invite.objects.create(club=club)
    as_organiser.post(club_url(club, f"invites/{old.pk}/renew/"))
    response = as_organiser.post(club_url(club, f"invites/{old.pk}/renew/"), follow=True)
    assert "This invite link is no longer valid" in response.content.decode()
    assert Invite.objects.count() == 2


def test_members_outsiders_and_other_clubs_cannot_renew_or_revoke(
        as_member, club, client, outsider_user, django_user_model):
    from leagues.models import Club, Invite
    invite = Invite.objects.create(club=club)
    before = fingerprint()
    for action in ("renew", "revoke"):
        assert as_member.post(club_url(club, f"invites/{invite.pk}/{action}/")).status_code == 403
    client.force_login(outsider_user)
    for action in ("renew", "revoke"):
        assert client.post(club_url(club, f"invites/{invite.pk}/{action}/")).status_code == 404
    rival = django_user_model.objects.create_user("rita", "rita@example.org", "pw")
    rival_club = Club.create_with_organiser(rival, name="Rival Club")
    client.force_login(rival)
    for action in ("renew", "revoke"):
        assert client.post(club_url(rival_club, f"invites/{invite.pk}/{action}/")).status_code == 404
    after = fingerprint()
    after["Club"] = before["Club"] = []
    after["Member"] = before["Member"] = []
    # The rival club's own first line of history ("Club Rival Club created by rita").
    after["ClubChange"] = [row for row in after["ClubChange"] if "Rival Club" not in row]
    assert after == before


def test_an_invite_link_that_never_existed_says_so(client):
    page = client.get("/clubs/join/not-a-real-token/")
    assert page.status_code == 404
    assert "This invite link is not valid." in page.content.decode()


def test_a_link_revoked_while_someone_accepts_it_refuses_them(club, outsider_user,
                                                             organiser_user):
    from django.core.exceptions import ValidationError

    from leagues.models import Invite
    invite = Invite.objects.create(club=club)
    stale = Invite.objects.get(pk=invite.pk)  # the join page loaded it before the revoke
    invite.revoke(organiser_user)
    with pytest.raises(ValidationError):
        stale.accept(outsider_user)
    assert not club.members.filter(user=outsider_user).exists()
