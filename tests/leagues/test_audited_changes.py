"""Every change to a club is in its history, in words a reader understands: a member added
(even as an organiser), a member's e-mail address, the club renamed or made public or
members-only, a league's standings options and house rules, someone joining or claiming a
record (even an organiser's) through an invite link; and the admin cannot change results
behind the pages' back."""

import pytest

from games.models import Hand
from leagues import edits
from leagues.models import Club, ClubChange, Invite, League, Member, Season

from .conftest import add_members, league_form
from .test_security import fingerprint

pytestmark = pytest.mark.django_db

BID_RULES = {"min_bid": 3, "all_pass": "redeal", "downtown_ace": "high",
             "kitty": "6_two_jokers", "downtown_side_suits": "reversed", "notrump_double": "on",
             "boston": "wins_game", "game_target": 7}


def club_url(club, suffix=""):
    return f"/clubs/{club.slug}/{suffix}"


def history_page(client, club, language="en") -> str:
    """The club's history page as a reader sees it (the HTML, not the view's context)."""
    page = client.get(club_url(club, "changes/"), HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    return page.content.decode()


def newest(client, club, language="en") -> str:
    """The newest history entry, its headline and details as one line of text."""
    rows = client.get(club_url(club, "changes/"), HTTP_ACCEPT_LANGUAGE=language).context["rows"]
    return " · ".join([rows[0]["headline"], *rows[0]["details"]])


# -- members ---------------------------------------------------------------------------------


def test_adding_a_member_as_an_organiser_is_in_the_history(as_organiser, club):
    as_organiser.post(club_url(club, "members/add/"), {"name": "Nell", "role": "organiser"})
    assert club.members.get(name="Nell").is_organiser
    assert "Nell added as an organiser by olga" in history_page(as_organiser, club)
    as_organiser.post(club_url(club, "members/add/"), {"name": "Pat", "role": "member"})
    assert newest(as_organiser, club) == "Pat added by olga"


def test_a_members_e_mail_address_is_in_the_history_its_address_for_organisers_only(
        as_organiser, club, member, client, member_user):
    (nell,) = add_members(club, ["Nell"])
    url = club_url(club, f"members/{nell.pk}/manage/")
    as_organiser.post(url, {"action": "email", "email": "nell@example.org"})
    as_organiser.post(url, {"action": "email", "email": "nell@example.com"})
    nell.refresh_from_db()
    assert nell.email == "nell@example.com"
    assert newest(as_organiser, club) == ("E-mail address of Nell changed by olga · "
                                          "From nell@example.org to nell@example.com")
    assert "E-mail address of Nell set by olga" in history_page(as_organiser, club)
    as_organiser.post(url, {"action": "email", "email": ""})
    assert newest(as_organiser, club) == ("E-mail address of Nell removed by olga · "
                                          "It was nell@example.com")
    # The club's members read the history too; only organisers see the addresses.
    client.force_login(member_user)
    page = history_page(client, club)
    assert "E-mail address of Nell removed by olga" in page
    assert "@example" not in page
    # Saving the same address again is no change.
    count = ClubChange.objects.count()
    as_organiser.post(url, {"action": "email", "email": ""})
    assert ClubChange.objects.count() == count


def test_a_bad_e_mail_address_changes_nothing(as_organiser, club):
    (nell,) = add_members(club, ["Nell"])
    before = fingerprint()
    response = as_organiser.post(club_url(club, f"members/{nell.pk}/manage/"),
                                 {"action": "email", "email": "not an address"}, follow=True)
    assert "This is not an e-mail address" in response.content.decode()
    assert fingerprint() == before


def test_joining_through_the_clubs_link_is_in_the_history(club, client, outsider_user):
    invite = Invite.objects.create(club=club, created_by=club.members.get(name="olga").user)
    client.force_login(outsider_user)
    client.post(f"/clubs/join/{invite.token}/")
    assert club.members.filter(user=outsider_user).exists()
    assert newest(client, club) == "otto (@otto) joined through an invite link made by olga"


def test_a_claim_that_makes_someone_an_organiser_is_in_the_history(
        as_organiser, club, organiser_user, client, outsider_user):
    (granny,) = add_members(club, ["Granny"])
    edits.set_role(granny, "organiser", organiser_user)
    as_organiser.post(club_url(club, "invites/"), {"member": granny.pk})
    invite = Invite.objects.get(member=granny)
    client.force_login(outsider_user)
    client.post(f"/clubs/join/{invite.token}/")
    granny.refresh_from_db()
    assert granny.user == outsider_user and granny.is_organiser
    line = newest(client, club)
    assert line == ("The record of Granny claimed by the login @otto, through an invite link "
                    "made by olga · Granny is an organiser: this login now manages the club.")
    assert "The record of Granny claimed by the login @otto" in history_page(client, club)


def test_a_new_club_starts_its_history_with_its_first_organiser(as_organiser):
    as_organiser.post("/clubs/new/", {"name": "The Swan", "description": ""})
    club = Club.objects.get(name="The Swan")
    assert newest(as_organiser, club) == ("Club The Swan created by olga · olga is its first "
                                          "organiser.")


# -- the club and its leagues ----------------------------------------------------------------


def test_a_new_league_its_seasons_and_an_evening_are_in_the_history(as_organiser, club):
    as_organiser.post(club_url(club, "leagues/new/"), {
        "name": "Monday Solo", "game": "solo_whist", "ranking": "total", "best_evenings": 6,
        "min_evenings": 0, "points_for_win": 2, "points_for_loss": 0,
        "tie_break": "difference", "rounds": 1})
    league = League.objects.get(club=club, name="Monday Solo")
    assert newest(as_organiser, club) == "League Monday Solo (Solo Whist) created by olga"
    assert newest(as_organiser, club, "fr") == ("Ligue Monday Solo (Solo Whist) créée par "
                                                "olga")
    as_organiser.post(club_url(club, f"leagues/{league.pk}/seasons/new/"),
                      {"name": "Spring", "draw": "random"})
    season = Season.objects.get(league=league, name="Spring")
    assert newest(as_organiser, club) == "Season Spring of Monday Solo started by olga"
    as_organiser.post(club_url(club, f"seasons/{season.pk}/evenings/new/"), {
        "date": "2030-03-04", "start_time": "20:00", "venue": "The Swan"})
    assert season.evenings.count() == 1
    assert newest(as_organiser, club).startswith("1 evening of Monday Solo (Spring) added by olga")


def test_renaming_the_club_and_changing_who_sees_it_are_in_the_history(as_organiser, club):
    as_organiser.post(club_url(club, "edit/"), {"name": "The Crown", "description": "",
                                                "is_public": "on"})
    club.refresh_from_db()
    assert club.name == "The Crown" and club.is_public
    page = history_page(as_organiser, club)
    assert "Club settings changed by olga" in page
    assert "Renamed the club from The Crown Whist Club to The Crown" in page
    assert "Made the club public" in page
    as_organiser.post(club_url(club, "edit/"), {"name": "The Crown",
                                                "description": "Tuesdays at eight."})
    assert newest(as_organiser, club) == ("Club settings changed by olga · Made the club "
                                          "members-only · Wrote the description: "
                                          "“Tuesdays at eight.”")
    count = ClubChange.objects.count()
    as_organiser.post(club_url(club, "edit/"), {"name": "The Crown",
                                                "description": "Tuesdays at eight."})
    assert ClubChange.objects.count() == count  # saved unchanged: nothing to tell


def test_changing_a_leagues_standings_options_is_in_the_history(as_organiser, solo_league):
    club = solo_league.club
    solo_league.min_evenings = 3
    solo_league.save()
    response = as_organiser.post(club_url(club, f"leagues/{solo_league.pk}/edit/"),
                                 league_form(solo_league, min_evenings=5, ranking="average",
                                             players_enter_results="on"))
    assert response.status_code == 302
    page = history_page(as_organiser, club)
    assert "League Tuesday Solo changed by olga" in page
    assert "Changed the minimum evenings from 3 to 5" in page
    assert "Changed the ranking from total balance to average per evening" in page
    assert "Players may now enter results at the table" in page
    as_organiser.post(club_url(club, f"leagues/{solo_league.pk}/edit/"),
                      league_form(solo_league, name="Solo Tuesdays", min_evenings=5,
                                  ranking="average", players_enter_results=None))
    assert newest(as_organiser, club) == (
        "League Tuesday Solo changed by olga · Renamed the league from Tuesday Solo to Solo "
        "Tuesdays · Only organisers enter results now")


def test_changing_a_leagues_house_rules_is_in_the_history(as_organiser, bid_league):
    club = bid_league.club
    url = club_url(club, f"leagues/{bid_league.pk}/rules/")
    as_organiser.post(url, {**BID_RULES, "game_target": 11, "min_bid": 4})
    bid_league.refresh_from_db()
    assert bid_league.rules == {"min_bid": 4, "game_target": 11}
    assert newest(as_organiser, club) == (
        "House rules of Bid Whist League changed by olga · Changed the house rule “Lowest "
        "bid” from 3 to 4 · Changed the house rule “Score to win” from 7 to 11")
    as_organiser.post(url, {**BID_RULES, "game_target": 11, "min_bid": 4, "boston": "double"})
    assert "Changed the house rule “All 13 books (a Boston)” from win the match at once to " \
           "score twice" in history_page(as_organiser, club)
    count = ClubChange.objects.count()
    as_organiser.post(url, {**BID_RULES, "game_target": 11, "min_bid": 4, "boston": "double"})
    assert ClubChange.objects.count() == count


def test_a_belgian_points_table_change_says_which_entry(as_organiser, club):
    league = League.objects.create(club=club, name="Couleur", game="belgian_whist")
    as_organiser.post(club_url(club, f"leagues/{league.pk}/rules/"),
                      {"points_table.piccolo": "9"})
    assert newest(as_organiser, club) == ("House rules of Couleur changed by olga · Changed "
                                          "the house rule “Points table, Piccolo” from 8 to 9")


@pytest.mark.parametrize("language, expected", [
    ("fr", ["Club renommé de The Crown Whist Club en The Crown",
            "Minimum de soirées passé de 0 à 5"]),
    ("nl", ["Club hernoemd van The Crown Whist Club naar The Crown",
            "Minimum aantal avonden gewijzigd van 0 naar 5"]),
    ("pt", ["Clube renomeado de The Crown Whist Club para The Crown",
            "Mínimo de noites alterado de 0 para 5"]),
])
def test_the_history_of_settings_is_in_the_readers_language(as_organiser, solo_league,
                                                            language, expected):
    club = solo_league.club
    as_organiser.post(club_url(club, "edit/"), {"name": "The Crown", "description": ""})
    as_organiser.post(club_url(club, f"leagues/{solo_league.pk}/edit/"),
                      league_form(solo_league, min_evenings=5))
    page = history_page(as_organiser, club, language)
    for sentence in expected:
        assert sentence in page


# -- the admin: results are read-only, the club's settings are kept in its history ----------


@pytest.fixture
def staff(admin_client, admin_user):
    return admin_client


def test_the_admin_cannot_change_a_tables_totals(staff, solo_table, organiser_user):
    solo_table.set_totals([3, -1, -1, -1], organiser_user)
    seat = solo_table.seats.get(seat=0)
    url = f"/admin/leagues/eveningtable/{solo_table.pk}/change/"
    page = staff.get(url)
    assert page.status_code == 200  # staff still see the table
    assert 'name="seats-0-total"' not in page.content.decode()
    before = fingerprint()
    response = staff.post(url, {"seats-TOTAL_FORMS": "4", "seats-INITIAL_FORMS": "4",
                                "seats-0-id": seat.pk, "seats-0-table": solo_table.pk,
                                "seats-0-seat": 0, "seats-0-member": seat.member_id,
                                "seats-0-total": "999", "evening": solo_table.evening_id,
                                "number": 1})
    assert response.status_code == 403
    assert staff.post(f"/admin/leagues/eveningtable/{solo_table.pk}/delete/",
                      {"post": "yes"}).status_code == 403
    assert staff.get("/admin/leagues/eveningtable/add/").status_code == 403
    assert fingerprint() == before
    seat.refresh_from_db()
    assert seat.total == 3


def test_the_admin_cannot_change_or_delete_a_deal(staff, solo_table, organiser_user):
    from .conftest import solo
    deal = solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    before = fingerprint()
    url = f"/admin/leagues/deal/{deal.pk}/"
    assert staff.get(url + "change/").status_code == 200
    assert staff.post(url + "change/", {"number": 7, "table": solo_table.pk,
                                        "provisional": "on"}).status_code == 403
    assert staff.post(url + "delete/", {"post": "yes"}).status_code == 403
    assert staff.post("/admin/leagues/deal/", {"action": "delete_selected",
                                               "_selected_action": [deal.pk],
                                               "post": "yes"}).status_code in (200, 302, 403)
    assert fingerprint() == before


def test_the_admin_cannot_change_a_members_record(staff, club, member):
    before = fingerprint()
    assert staff.post(f"/admin/leagues/member/{member.pk}/change/",
                      {"name": "Someone else", "club": club.pk, "role": "organiser"}
                      ).status_code == 403
    assert fingerprint() == before


def test_the_admins_changes_to_a_club_and_a_league_are_in_the_history(
        staff, solo_league, as_organiser):
    club = solo_league.club
    page = staff.get(f"/admin/leagues/club/{club.pk}/change/")
    assert page.status_code == 200
    response = staff.post(f"/admin/leagues/club/{club.pk}/change/", {
        "name": "The Crown", "slug": club.slug, "description": "", "is_public": "on",
        "members-TOTAL_FORMS": "0", "members-INITIAL_FORMS": "0"})
    assert response.status_code == 302, response.context["adminform"].form.errors
    response = staff.post(f"/admin/leagues/league/{solo_league.pk}/change/", {
        **league_form(solo_league, min_evenings=4), "rules": "{}"})
    assert response.status_code == 302, response.context["adminform"].form.errors
    solo_league.refresh_from_db()
    assert solo_league.min_evenings == 4
    page = history_page(as_organiser, club)
    assert "Club settings changed by @admin" in page
    assert "Renamed the club from The Crown Whist Club to The Crown" in page
    assert "League Tuesday Solo changed by @admin" in page
    assert "Changed the minimum evenings from 0 to 4" in page


def test_the_admin_still_deletes_a_club_with_its_people_and_history(staff, club):
    # Members and the history are read-only in the admin, yet a club without results (one
    # made by mistake) still goes whole; a club with results never could (its seats protect
    # its members).
    Member.objects.create(club=club, name="Zoe")
    ClubChange.record(club, None, "members_add", None, {"names": ["Zoe"]})
    response = staff.post(f"/admin/leagues/club/{club.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Club.objects.filter(pk=club.pk).exists()
    assert not Member.objects.filter(name="Zoe").exists()


def test_the_admin_cannot_change_an_online_hand_or_who_played_it(staff, django_user_model):
    from games import tables
    players = [django_user_model.objects.create_user(n, f"{n}@example.org", "pw-long-enough")
               for n in ("ana", "bo", "cy", "di")]
    table = tables.create_table(players[0], "bid_whist", {})
    for position, user in enumerate(players):
        tables.take_seat(table.pk, user, position)
    hand = Hand.objects.create(table_id=table.pk, number=1, record={"hands": [[]] * 4},
                               result={"points": [3, -3]})
    assert staff.post(f"/admin/games/hand/{hand.pk}/change/", {}).status_code == 403
    assert staff.post(f"/admin/games/hand/{hand.pk}/delete/", {"post": "yes"}).status_code == 403
    page = staff.get(f"/admin/games/table/{table.pk}/change/").content.decode()
    # Who sat in each seat is whose result each finished hand is: no longer editable.
    assert 'name="seats-0-user"' not in page
    assert 'name="game"' not in page
    assert Hand.objects.filter(pk=hand.pk, result={"points": [3, -3]}).exists()


def test_the_admin_cannot_reopen_a_season_or_change_what_it_closed_with(
        staff, solo_season, organiser_user):
    season = solo_season
    edits.close_season(season, organiser_user)
    page = staff.get(f"/admin/leagues/season/{season.pk}/change/").content.decode()
    assert 'name="closed_at' not in page and 'name="closed_options"' not in page


def test_members_added_through_the_page_and_the_model_agree(club, organiser_user):
    # The one path: the view and a script both leave a line.
    member = edits.add_member(club, "Zoe", Member.Role.MEMBER, organiser_user)
    assert member.club == club
    assert ClubChange.objects.filter(club=club, action="member_add").count() == 1
    assert Season.objects.count() == 0


def test_a_leagues_settings_offer_only_what_its_standings_read(as_organiser, solo_league,
                                                               bid_league):
    """A Solo league ranks by balances: no league points or tie-breaks on its page (and a post
    that sends them changes nothing); a Bid Whist league ranks pairs by league points: no
    ranking by balance or best evenings."""
    club = solo_league.club
    solo_page = as_organiser.get(club_url(club, f"leagues/{solo_league.pk}/edit/"))
    solo_fields = set(solo_page.context["form"].fields)
    assert {"ranking", "best_evenings", "min_evenings", "sit_out_credit"} <= solo_fields
    assert not {"points_for_win", "points_for_loss", "tie_break"} & solo_fields
    bid_page = as_organiser.get(club_url(club, f"leagues/{bid_league.pk}/edit/"))
    bid_fields = set(bid_page.context["form"].fields)
    assert {"points_for_win", "points_for_loss", "tie_break", "sit_out_credit"} <= bid_fields
    assert not {"ranking", "best_evenings", "min_evenings", "odd_numbers"} & bid_fields
    points = solo_league.points_for_win
    as_organiser.post(club_url(club, f"leagues/{solo_league.pk}/edit/"),
                      league_form(solo_league, points_for_win=points + 5))
    solo_league.refresh_from_db()
    assert solo_league.points_for_win == points
