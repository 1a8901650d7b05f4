import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery"


@pytest.fixture
def member(django_user_model):
    return django_user_model.objects.create_user("martha", "martha@example.org", PASSWORD)


def sign_up(client, username, email, **extra):
    return client.post("/accounts/signup/", {
        "username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD,
        **extra})


def link_in(message, path):
    return re.search(rf"https?://[^/\s]+({path}\S*)", message.body).group(1)


def test_it_signs_up_and_the_emailed_link_logs_the_new_person_in(client):
    response = sign_up(client, "newbie", "newbie@example.org", display_name="New Bie")
    assert response.status_code == 302 and response["Location"] == "/accounts/signup/sent/"
    assert "Check your email" in client.get(response["Location"]).content.decode()
    user = get_user_model().objects.get(username="newbie")
    assert user.profile.display_name == "New Bie"
    assert not user.is_active  # not before the address's owner follows the link
    assert not client.get("/").context["user"].is_authenticated
    (message,) = mail.outbox
    assert message.to == ["newbie@example.org"]
    assert message.subject == "Finish signing up to whistclub"
    link = link_in(message, "/accounts/signup/confirm/")
    # Opening the link (as a mail program checking it may) changes nothing: a button does.
    page = client.get(link)
    assert "Finish signing up" in page.content.decode()
    assert not get_user_model().objects.get(username="newbie").is_active
    response = client.post(link, follow=True)
    assert response.context["user"] == user
    assert "Welcome to whistclub, New Bie!" in response.content.decode()
    assert get_user_model().objects.get(username="newbie").is_active
    # The link works once.
    client.logout()
    assert "This link does not work" in client.post(link).content.decode()
    assert not client.get("/").context["user"].is_authenticated


def test_signup_refuses_mismatched_passwords_and_creates_nothing(client):
    response = client.post("/accounts/signup/", {
        "username": "newbie", "email": "newbie@example.org",
        "password1": PASSWORD, "password2": PASSWORD + "x",
    })
    assert response.status_code == 200
    assert "didn’t match" in response.content.decode()
    assert not get_user_model().objects.filter(username="newbie").exists()


def test_signing_up_with_an_address_in_use_answers_as_for_a_new_one_and_tells_its_owner(
        client, member):
    """Nobody learns from the sign-up whether an address has an account: the answer is the one
    a new address gets, and only the address's owner hears of it, by e-mail."""
    from django.test import Client

    def answer(username, email):
        visitor = Client()
        response = sign_up(visitor, username, email)
        page = visitor.get(response["Location"])
        csrf = re.compile(r"\b[A-Za-z0-9]{64}\b")  # each visitor's own CSRF token
        return (response.status_code, response["Location"], page.status_code,
                csrf.sub("", page.content.decode()))

    assert answer("other", "MARTHA@example.org") == answer("newbie", "newbie@example.org")
    # No second account with Martha's address, nor one waiting for it.
    assert list(get_user_model().objects.filter(email__iexact="martha@example.org")) == [member]
    assert not get_user_model().objects.filter(username="other").exists()
    to_martha = [m for m in mail.outbox if m.to == ["martha@example.org"]]
    (message,) = to_martha
    assert message.subject == "Someone tried to sign up to whistclub with your address"
    assert "your account martha" in message.body
    assert link_in(message, "/accounts/login/") == "/accounts/login/"
    assert link_in(message, "/accounts/password_reset/") == "/accounts/password_reset/"
    assert "/accounts/signup/confirm/" not in message.body


def test_a_sign_up_that_waits_can_be_made_again_and_the_address_goes_to_whoever_confirms(client):
    sign_up(client, "newbie", "newbie@example.org")
    # The e-mail got lost: the same username and address again replace the waiting sign-up.
    sign_up(client, "newbie", "newbie@example.org")
    assert get_user_model().objects.filter(username="newbie").count() == 1
    first, second = mail.outbox
    assert "This link does not work" in client.get(
        link_in(first, "/accounts/signup/confirm/")).content.decode()
    # Someone else signs up with the address before its owner confirms: the link goes to the
    # address, and the owner's confirmation removes the other sign-up.
    sign_up(client, "squatter", "NEWBIE@example.org")
    assert mail.outbox[-1].to == ["NEWBIE@example.org"]
    client.post(link_in(second, "/accounts/signup/confirm/"))
    assert set(get_user_model().objects.values_list("username", flat=True)) == {"newbie"}


def test_a_waiting_account_cannot_log_in(client):
    sign_up(client, "newbie", "newbie@example.org")
    response = client.post("/accounts/login/", {"username": "newbie", "password": PASSWORD})
    assert response.status_code == 200
    assert not client.get("/").context["user"].is_authenticated


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


def test_the_language_choice_says_in_words_what_empty_means(client, member):
    client.force_login(member)
    page = client.get("/accounts/profile/").content.decode()
    assert "---------" not in page
    assert "Same as my browser" in page
    response = client.post("/accounts/profile/", {"display_name": "M", "language": ""})
    assert response.status_code == 302


def test_admin_is_on(admin_client):
    assert admin_client.get("/admin/").status_code == 200


@pytest.mark.parametrize("page", ["/admin/games/table/", "/admin/games/hand/",
                                  "/admin/leagues/club/", "/admin/leagues/onlinefixture/",
                                  "/admin/accounts/profile/"])
def test_the_admin_lists_each_kind_of_record(admin_client, page):
    assert admin_client.get(page).status_code == 200
