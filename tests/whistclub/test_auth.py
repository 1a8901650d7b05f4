import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery"


@pytest.fixture
def member(django_user_model):
    return django_user_model.objects.create_user("martha", "martha@example.org", PASSWORD)


def test_it_signs_up_and_logs_the_new_person_in(client):
    response = client.post("/accounts/signup/", {
        "username": "newbie", "email": "newbie@example.org", "display_name": "New Bie",
        "password1": PASSWORD, "password2": PASSWORD,
    }, follow=True)
    assert response.status_code == 200
    user = get_user_model().objects.get(username="newbie")
    assert user.profile.display_name == "New Bie"
    assert response.context["user"] == user
    assert "Welcome to whistclub, New Bie!" in response.content.decode()


def test_signup_refuses_mismatched_passwords_and_creates_nothing(client):
    response = client.post("/accounts/signup/", {
        "username": "newbie", "email": "newbie@example.org",
        "password1": PASSWORD, "password2": PASSWORD + "x",
    })
    assert response.status_code == 200
    assert "didn’t match" in response.content.decode()
    assert not get_user_model().objects.filter(username="newbie").exists()


def test_signup_refuses_an_email_already_in_use(client, member):
    response = client.post("/accounts/signup/", {
        "username": "other", "email": "MARTHA@example.org",
        "password1": PASSWORD, "password2": PASSWORD,
    })
    assert "An account with this email already exists." in response.content.decode()
    assert get_user_model().objects.count() == 1


def test_it_logs_in_and_out(client, member):
    response = client.post("/accounts/login/", {"username": "martha", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/").context["user"] == member
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert not client.get("/").context["user"].is_authenticated


def test_login_with_a_wrong_password_is_refused(client, member):
    response = client.post("/accounts/login/", {"username": "martha", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()


def test_it_changes_the_password(client, member):
    client.force_login(member)
    response = client.post("/accounts/password_change/", {
        "old_password": PASSWORD, "new_password1": "another-long-secret",
        "new_password2": "another-long-secret",
    })
    assert response.status_code == 302
    member.refresh_from_db()
    assert member.check_password("another-long-secret")


def test_it_resets_a_forgotten_password_by_email(client, member):
    response = client.post("/accounts/password_reset/", {"email": "martha@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject == "Reset your whistclub password"
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    response = client.get(link, follow=True)  # Django swaps the token for a session key
    assert response.context["validlink"]
    response = client.post(response.redirect_chain[-1][0], {
        "new_password1": "a-brand-new-secret", "new_password2": "a-brand-new-secret",
    })
    assert response.status_code == 302
    member.refresh_from_db()
    assert member.check_password("a-brand-new-secret")


def test_password_reset_for_an_unknown_email_sends_nothing_and_reveals_nothing(client, member):
    response = client.post("/accounts/password_reset/", {"email": "nobody@example.org"})
    assert response.status_code == 302
    assert mail.outbox == []


def test_profile_requires_login(client):
    response = client.get("/accounts/profile/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_it_saves_the_profile(client, member):
    client.force_login(member)
    response = client.post("/accounts/profile/", {"display_name": "Martha K", "language": "nl"})
    assert response.status_code == 302
    member.profile.refresh_from_db()
    assert member.profile.display_name == "Martha K"
    assert member.profile.language == "nl"


def test_profile_refuses_an_unknown_language(client, member):
    client.force_login(member)
    response = client.post("/accounts/profile/", {"display_name": "M", "language": "xx"})
    assert response.status_code == 200
    member.profile.refresh_from_db()
    assert member.profile.language == ""


def test_admin_is_on(admin_client):
    assert admin_client.get("/admin/").status_code == 200


@pytest.mark.parametrize("page", ["/admin/games/table/", "/admin/games/hand/",
                                  "/admin/leagues/club/", "/admin/leagues/onlinefixture/",
                                  "/admin/accounts/profile/"])
def test_the_admin_lists_each_kind_of_record(admin_client, page):
    assert admin_client.get(page).status_code == 200
