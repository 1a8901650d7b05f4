"""Every change to a club is in its history, in words a reader understands: a member added
(even as an organiser), a member's e-mail address, the club renamed or made public or
members-only, a league's standings options and house rules, someone joining or claiming a
record (even an organiser's) through an invite link."""

import pytest

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


def test_members_added_through_the_page_and_the_model_agree(club, organiser_user):
    # The one path: the view and a script both leave a line.
    member = edits.add_member(club, "Zoe", Member.Role.MEMBER, organiser_user)
    assert member.club == club
    assert ClubChange.objects.filter(club=club, action="member_add").count() == 1
    assert Season.objects.count() == 0
