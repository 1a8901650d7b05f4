"""Clubs: creation, visibility, the member list, invite links and claiming a record."""

import pytest

from leagues.models import Club, Invite, Member

from .conftest import add_members

pytestmark = pytest.mark.django_db


def test_creating_a_club_makes_its_creator_an_organiser(as_outsider, outsider_user):
    response = as_outsider.post("/clubs/new/", {"name": "Friday Whist"}, follow=True)
    club = Club.objects.get(name="Friday Whist")
    assert club.members.get(user=outsider_user).role == Member.Role.ORGANISER
    assert "You are its organiser." in response.content.decode()


@pytest.mark.parametrize("name, slug", [("New", "new-2"), ("Join", "join-2"),
                                        ("REMINDERS!", "reminders-2")])
def test_a_club_named_like_a_route_under_clubs_gets_pages_of_its_own(as_outsider, name, slug):
    """/clubs/new/ is the form that creates a club, /clubs/join/… an invite: a club called
    "New" or "Join" would lose its pages to them."""
    response = as_outsider.post("/clubs/new/", {"name": name}, follow=True)
    club = Club.objects.get(name=name)
    assert club.slug == slug
    assert response.redirect_chain[-1][0] == f"/clubs/{slug}/"
    assert f"<h1>{name}</h1>" in as_outsider.get(f"/clubs/{slug}/").content.decode()
    # The route keeps its own page.
    assert "New club" in as_outsider.get("/clubs/new/").content.decode()


def test_every_word_right_under_clubs_is_reserved():
    from leagues.models import reserved_club_slugs

    assert reserved_club_slugs() == {"new", "join", "reminders"}


def test_creating_a_club_needs_a_login(client):
    assert client.get("/clubs/new/").status_code == 302


def test_club_page_shows_the_club_to_members(as_member, club):
    response = as_member.get(f"/clubs/{club.slug}/")
    assert "The Crown Whist Club" in response.content.decode()
    assert "New league" not in response.content.decode()


def test_club_page_offers_organisers_their_tools(as_organiser, club):
    assert "New league" in as_organiser.get(f"/clubs/{club.slug}/").content.decode()


def test_a_members_only_club_is_invisible_to_outsiders(as_outsider, client, club):
    assert as_outsider.get(f"/clubs/{club.slug}/").status_code == 404
    assert "The Crown" not in as_outsider.get("/clubs/").content.decode()


def test_a_public_club_is_visible_to_anyone(client, club):
    club.is_public = True
    club.save()
    assert client.get(f"/clubs/{club.slug}/").status_code == 200
    assert "The Crown Whist Club" in client.get("/clubs/").content.decode()


def test_members_list_shows_everyone_to_members(as_member, club):
    add_members(club, ["Nell"])
    page = as_member.get(f"/clubs/{club.slug}/members/").content.decode()
    assert "Nell" in page and "Mike" in page
    assert "Add a member" not in page


def test_members_list_is_hidden_from_outsiders(as_outsider, club):
    assert as_outsider.get(f"/clubs/{club.slug}/members/").status_code == 404
    club.is_public = True
    club.save()
    assert as_outsider.get(f"/clubs/{club.slug}/members/").status_code == 403


def test_organiser_adds_a_member_without_a_login(as_organiser, club):
    response = as_organiser.post(f"/clubs/{club.slug}/members/add/",
                                 {"name": "Granny Smith", "role": "member"}, follow=True)
    assert "Granny Smith is now a member." in response.content.decode()
    assert club.members.get(name="Granny Smith").user is None


def test_members_and_outsiders_cannot_add_members(as_member, club, client, outsider_user):
    assert as_member.post(f"/clubs/{club.slug}/members/add/",
                          {"name": "X", "role": "member"}).status_code == 403
    client.force_login(outsider_user)
    assert client.post(f"/clubs/{club.slug}/members/add/",
                       {"name": "X", "role": "member"}).status_code == 404
    assert not club.members.filter(name="X").exists()


def test_an_invite_link_lets_someone_join(as_organiser, club, client, outsider_user):
    response = as_organiser.post(f"/clubs/{club.slug}/invites/", follow=True)
    invite = Invite.objects.get(club=club)
    assert invite.token in response.content.decode()
    client.force_login(outsider_user)
    response = client.post(f"/clubs/join/{invite.token}/", follow=True)
    assert "Welcome to The Crown Whist Club!" in response.content.decode()
    assert club.members.filter(user=outsider_user, role="member").exists()


def test_a_claim_link_gives_a_person_their_record(as_organiser, club, client, outsider_user):
    (granny,) = add_members(club, ["Granny"])
    as_organiser.post(f"/clubs/{club.slug}/invites/", {"member": granny.pk})
    invite = Invite.objects.get(member=granny)
    client.force_login(outsider_user)
    assert "claim the record of Granny" in client.get(f"/clubs/join/{invite.token}/").content.decode()
    client.post(f"/clubs/join/{invite.token}/")
    granny.refresh_from_db()
    assert granny.user == outsider_user
    assert client.get(f"/clubs/join/{invite.token}/").status_code == 410


def test_members_and_outsiders_cannot_make_invites(as_member, club, client, outsider_user):
    assert as_member.post(f"/clubs/{club.slug}/invites/").status_code == 403
    client.force_login(outsider_user)
    assert client.post(f"/clubs/{club.slug}/invites/").status_code == 404
    assert not Invite.objects.exists()


def test_joining_asks_an_anonymous_visitor_to_log_in(client, club):
    invite = Invite.objects.create(club=club)
    response = client.post(f"/clubs/join/{invite.token}/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_an_organiser_has_no_power_in_another_club(client, club, django_user_model):
    rival = django_user_model.objects.create_user("rita", "rita@example.org", "pw")
    Club.create_with_organiser(rival, name="Rival Club")
    client.force_login(rival)
    assert client.get(f"/clubs/{club.slug}/").status_code == 404
    club.is_public = True
    club.save()
    assert client.post(f"/clubs/{club.slug}/members/add/",
                       {"name": "X", "role": "member"}).status_code == 403
    assert client.get(f"/clubs/{club.slug}/edit/").status_code == 403


def test_club_settings_are_for_organisers(as_organiser, club, client, member_user):
    response = as_organiser.post(f"/clubs/{club.slug}/edit/",
                                 {"name": "The Crown", "description": "", "is_public": "on"})
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.is_public
    client.force_login(member_user)
    assert client.get(f"/clubs/{club.slug}/edit/").status_code == 403


def test_signing_up_from_an_invite_comes_back_to_it(client, club):
    """The invite's sign-up link keeps the invite: the e-mailed link finishes the sign-up and
    returns to the invite, where one tap joins the club."""
    import re

    from django.core import mail

    invite = Invite.objects.create(club=club)
    page = client.get(f"/clubs/join/{invite.token}/").content.decode()
    signup = re.search(r'href="(/accounts/signup/\?next=[^"]+)"', page).group(1)
    client.post(signup.replace("&amp;", "&"), {
        "username": "newbie", "email": "newbie@example.org", "password1": "a-long-password-1",
        "password2": "a-long-password-1", "next": f"/clubs/join/{invite.token}/"})
    link = re.search(r"https?://[^/\s]+(/accounts/signup/confirm/\S*)", mail.outbox[-1].body)
    response = client.post(link.group(1).replace("&amp;", "&"))
    assert response["Location"] == f"/clubs/join/{invite.token}/"
    assert "Join the club" in client.get(response["Location"]).content.decode()
