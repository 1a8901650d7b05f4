"""Leaving: a person downloads everything the site holds on them, and deletes their account.
Their results stay with the clubs (the club's record, without a login), their seats at online
tables show a former player, their rating identity goes; staff can delete such an account in
the admin too.  The live tables' side (sockets, a game in progress): tests/games/test_former_players.py."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import followups, tables
from games import signals as game_signals
from games.models import HandReview, Seat, Table
from games.snapshots import table_view
from leagues import edits
from leagues.models import Member
from ratings.events import SITE, scope_of
from ratings.models import Rating, RatingPoint
from ratings.store import refresh
from tests.leagues.conftest import *  # noqa: F403  (the three personas and the builders)
from tests.leagues.conftest import add_members, solo
from tests.ratings.test_pages_and_visibility import play_online_hand

pytestmark = pytest.mark.django_db
MIKES_PASSWORD = "pw-mike-123"


def online_table(mike, otto, game="solo_whist", hands=3):
    """A finished online table: Mike at seat 0, Otto at seat 2, computer players between; its
    hands rated as they finish."""
    table = Table.objects.create(game=game, created_by=otto, status=Table.Status.FINISHED)
    Seat.objects.create(table=table, position=0, user=mike)
    Seat.objects.create(table=table, position=1, computer_level="easy")
    Seat.objects.create(table=table, position=2, user=otto)
    Seat.objects.create(table=table, position=3, computer_level="strong")
    played = []
    for number in range(1, hands + 1):
        hand = play_online_hand(table, number, seed=number)
        game_signals.announce_after_commit("hand_finished", table, hand)
        played.append(hand)
    followups.process_due()  # what the follow-up worker does after the commit
    return table, played


def sign_in(user, password) -> Client:
    """A browser signed in through the login page (the login throttle records the sign-in)."""
    browser = Client()
    response = browser.post(reverse("login"), {"username": user.username, "password": password})
    assert response.status_code == 302
    return browser


def ratings_of(player):
    return set(Rating.objects.filter(player=player).values_list("scope", "game"))


@pytest.fixture
def mike_has_played(solo_table, organiser_user, member_user, outsider_user,
                    django_capture_on_commit_callbacks):
    """Mike: a member of the Crown with a rated league result, and three rated hands at an
    online table beside Otto."""
    with django_capture_on_commit_callbacks(execute=True):
        solo_table.add_deal(solo("solo", 1, 9), organiser_user)
        solo_table.add_deal(solo("misere", 2, 0), organiser_user)
        table, hands = online_table(member_user, outsider_user)
    return table, hands


def test_the_profile_offers_the_download_and_the_deletion(client, member_user):
    client.force_login(member_user)
    page = client.get(reverse("profile")).content.decode()
    assert reverse("my_data") in page and "Download my data" in page
    assert reverse("delete_account") in page and "Delete my account" in page


def test_my_data_holds_what_the_site_holds_on_me_and_nothing_of_anyone_else(
        member_user, member, outsider_user, organiser_user, solo_table, mike_has_played):
    table, hands = mike_has_played
    club = member.club
    profile = member_user.profile
    profile.display_name, profile.four_colour_deck = "Mikey", True
    profile.save()
    member.reminders = False
    member.save()
    outsider_user.profile.display_name = "Otto the Great"
    outsider_user.profile.save()
    (nell,) = add_members(club, ["Nell Two"])
    nell.email = "nell@example.org"
    nell.save()
    edits.rename_member(nell, "Nellie", organiser_user)  # a line about someone else
    edits.set_role(member, "organiser", organiser_user)  # a line about Mike
    HandReview.objects.create(hand=hands[0], seat=0, status=HandReview.Status.READY,
                              result={"seat": 0, "moments": [], "note": "mikes-review"})
    HandReview.objects.create(hand=hands[0], seat=2, status=HandReview.Status.READY,
                              result={"seat": 2, "moments": [], "note": "ottos-review"})
    browser = sign_in(member_user, MIKES_PASSWORD)
    sign_in(outsider_user, "pw-otto-123")

    response = browser.get(reverse("my_data"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith("attachment;")
    assert "no-store" in response["Cache-Control"]
    text = response.content.decode()
    data = json.loads(text)

    assert data["account"]["username"] == "mike"
    assert data["account"]["email"] == "mike@example.org"
    assert member_user.password not in text and "password" not in data["account"]
    assert data["profile"] == {"display_name": "Mikey", "language": "",
                               "four_colour_deck": True, "table_sounds": False,
                               "emails_before_events": True}
    (crown,) = data["clubs"]
    assert crown["club"] == "The Crown Whist Club" and crown["name_in_the_club"] == "Mike"
    assert crown["role"] == "organiser" and crown["emails_about_evenings"] is False
    (result,) = crown["league_results"]
    assert result["league"] == "Tuesday Solo" and result["seat"] == 1
    total = solo_table.seats.get(member=member).total
    assert result["total"] == format(total.normalize(), "f") and total != 0
    assert data["email_preferences"]["clubs"] == [
        {"club": "The Crown Whist Club", "address_the_club_uses": "mike@example.org",
         "emails_about_evenings": False}]
    (online,) = data["online_tables"]
    assert online["table"] == table.pk and online["your_seat"] == 0
    assert [hand["your_cards"] for hand in online["hands"]] == [
        hand.record["hands"][0] for hand in hands]
    assert [review["review"]["note"] for review in data["hand_reviews"]] == ["mikes-review"]
    assert {(r["where"], r["game"]["id"]) for r in data["ratings"]} == {
        ("The Crown Whist Club", "solo_whist"), ("site", "solo_whist")}
    assert all(r["by_day"] for r in data["ratings"])
    about = [line["line"] for line in data["history"]["club_changes_about_you"]]
    organiser = club.members.get(user=organiser_user)
    assert about == [f"Mike made an organiser by {organiser.name}"]
    assert len(data["sign_ins"]) == 1

    # Nobody else's: no other seat's cards (every card but Mike's own), no one else's e-mail,
    # name, review or history line.
    mine = {card for hand in hands for card in hand.record["hands"][0]}
    others = {card for hand in hands for seat, cards in enumerate(hand.record["hands"])
              if seat != 0 for card in cards} - mine
    assert others and not [card for card in others if json.dumps(card) in text]
    for someone_else in ("otto@example.org", "olga@example.org", "nell@example.org",
                         "Otto the Great", "ottos-review", "Nellie", "pw-"):
        assert someone_else not in text


def test_my_data_is_for_me_only(client):
    response = client.get(reverse("my_data"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_deleting_my_account_keeps_the_clubs_standings_and_shows_a_former_member(
        client, member_user, member, organiser_user, mike_has_played,
        django_capture_on_commit_callbacks, solo_season):
    client.force_login(organiser_user)
    club = member.club
    standings = reverse("leagues:standings_csv", args=[club.slug, solo_season.pk])
    before = client.get(standings).content
    assert b"Mike" in before
    browser = sign_in(member_user, MIKES_PASSWORD)
    page = browser.get(reverse("delete_account")).content.decode()
    assert "This cannot be undone." in page and "former player" in page

    with django_capture_on_commit_callbacks(execute=True):
        response = browser.post(reverse("delete_account"), {"confirmation": MIKES_PASSWORD},
                                follow=True)
    assert response.redirect_chain[-1][0] == reverse("home")
    assert "Your account has been deleted." in response.content.decode()
    assert not get_user_model().objects.filter(username="mike").exists()
    assert browser.get(reverse("profile")).status_code == 302  # signed out

    member.refresh_from_db()
    assert member.user_id is None and member.name == "Mike"  # the club's record, unlinked
    assert client.get(standings).content == before
    season = client.get(reverse("leagues:season", args=[club.slug, solo_season.pk]))
    assert "Mike" in season.content.decode()
    members = client.get(reverse("leagues:members", args=[club.slug])).content.decode()
    assert "Mike" in members
    changes = client.get(reverse("leagues:club_changes", args=[club.slug])).content.decode()
    assert "The account of Mike on the site was deleted" in changes
    table, _hands = mike_has_played
    seat = table.seats.get(position=0)
    assert seat.user_id is None and seat.former_player
    assert table_view(table, None)["players"][0]["name"] == "former player"
    from axes.models import AccessLog

    assert not AccessLog.objects.filter(username="mike").exists()


def test_the_ratings_of_a_deleted_account_go_and_the_rest_are_as_a_rebuild_gives(
        member_user, member, outsider_user, mike_has_played,
        django_capture_on_commit_callbacks):
    mike = f"u:{member_user.pk}"
    club_scope = scope_of(member.club)
    assert ratings_of(mike) == {(club_scope, "solo_whist"), (SITE, "solo_whist")}
    in_the_club = Rating.objects.get(scope=club_scope, game="solo_whist", player=mike)
    from whistclub.accounts import leaving

    with django_capture_on_commit_callbacks(execute=True):
        leaving.delete_account(member_user)
    assert ratings_of(mike) == set()
    assert not RatingPoint.objects.filter(player=mike).exists()
    # The club's record of Mike is rated like any member without a login, from the same results.
    record = Rating.objects.get(scope=club_scope, game="solo_whist", player=f"m:{member.pk}")
    assert (record.mu, record.sigma, record.results) == (
        in_the_club.mu, in_the_club.sigma, in_the_club.results)
    # Without Mike's account the online hands were Otto's with computer players alone: they
    # no longer count site-wide (docs/ratings.md), as a rebuild would say too.
    assert ratings_of(f"u:{outsider_user.pk}") == set()
    stored = sorted(Rating.objects.values_list("scope", "game", "player", "mu", "sigma",
                                               "results"))
    for scope, game in {(club_scope, "solo_whist"), (SITE, "solo_whist")}:
        refresh(scope, game)  # a rebuild from the results
    assert sorted(Rating.objects.values_list("scope", "game", "player", "mu", "sigma",
                                             "results")) == stored


def test_the_admin_can_delete_a_person_who_opened_a_table(admin_client, django_user_model):
    pat = django_user_model.objects.create_user("pat", "pat@example.org", "pw-long-enough")
    table = tables.create_table(pat, "solo_whist", {})
    tables.take_seat(table.pk, pat, 0)
    tables.fill_seats(table.pk, pat)
    play_online_hand(Table.objects.get(pk=table.pk), 1, seed=1)

    response = admin_client.post(reverse("admin:auth_user_delete", args=[pat.pk]),
                                 {"post": "yes"})
    assert response.status_code == 302
    assert not django_user_model.objects.filter(pk=pat.pk).exists()
    table.refresh_from_db()
    assert table.created_by_id is None and table.status == Table.Status.FINISHED
    assert table.hands.count() == 1
    page = admin_client.get(reverse("table", args=[table.pk])).content.decode()
    assert "former player" in page


def test_nobody_can_delete_someone_elses_account(client, member_user, outsider_user):
    client.force_login(outsider_user)
    response = client.post(reverse("delete_account"), {
        "confirmation": MIKES_PASSWORD, "user": member_user.pk, "username": "mike"})
    assert response.status_code == 200
    assert "That is not your password, so nothing was deleted." in response.content.decode()
    visitor = Client()
    response = visitor.post(reverse("delete_account"), {"confirmation": MIKES_PASSWORD})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    response = client.post(reverse("admin:auth_user_delete", args=[member_user.pk]),
                           {"post": "yes"})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert get_user_model().objects.filter(pk__in=[member_user.pk, outsider_user.pk]).count() == 2


def test_a_wrong_confirmation_changes_nothing(member_user, member, mike_has_played,
                                              django_capture_on_commit_callbacks):
    browser = sign_in(member_user, MIKES_PASSWORD)
    ratings = sorted(Rating.objects.values_list("scope", "game", "player", "mu"))
    for wrong in ("not-my-password", "", "mike"):
        with django_capture_on_commit_callbacks(execute=True):
            response = browser.post(reverse("delete_account"), {"confirmation": wrong})
        assert response.status_code == 200
        text = response.content.decode()
        assert "nothing was deleted" in text or "This field is required." in text
    assert get_user_model().objects.filter(pk=member_user.pk).exists()
    member.refresh_from_db()
    assert member.user_id == member_user.pk
    table, _hands = mike_has_played
    assert table.seats.get(position=0).user_id == member_user.pk
    assert sorted(Rating.objects.values_list("scope", "game", "player", "mu")) == ratings
    assert browser.get(reverse("profile")).status_code == 200  # still signed in


def test_the_only_organiser_is_asked_to_hand_the_club_over_first(
        client, organiser_user, organiser, member):
    client.force_login(organiser_user)
    members_page = reverse("leagues:members", args=[organiser.club.slug])
    page = client.get(reverse("delete_account")).content.decode()
    assert "the clubs below would have no organiser who signs in" in page
    assert members_page in page and 'name="confirmation"' not in page
    response = client.post(reverse("delete_account"), {"confirmation": "pw-olga-123"})
    assert response.status_code == 200 and members_page in response.content.decode()
    assert get_user_model().objects.filter(pk=organiser_user.pk).exists()

    edits.set_role(member, Member.Role.ORGANISER, organiser_user)  # handed over
    response = client.post(reverse("delete_account"), {"confirmation": "pw-olga-123"})
    assert response.status_code == 302
    assert not get_user_model().objects.filter(pk=organiser_user.pk).exists()
    organiser.refresh_from_db()
    assert organiser.user_id is None and organiser.name == "olga"


def test_an_account_without_a_password_confirms_with_its_username(client, django_user_model):
    pat = django_user_model.objects.create_user("pat", "pat@example.org")  # no usable password
    client.force_login(pat)
    page = client.get(reverse("delete_account")).content.decode()
    assert "Your username" in page and "Your password" not in page
    response = client.post(reverse("delete_account"), {"confirmation": "mike"})
    assert "That is not your username, so nothing was deleted." in response.content.decode()
    assert django_user_model.objects.filter(pk=pat.pk).exists()
    assert client.post(reverse("delete_account"), {"confirmation": "pat"}).status_code == 302
    assert not django_user_model.objects.filter(pk=pat.pk).exists()
