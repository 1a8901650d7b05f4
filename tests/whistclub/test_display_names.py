"""Display names that would pass for a computer player or for another person are refused."""

import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery"
COMPUTER = "Computer players are shown under names like this one"
TAKEN = "Another player already goes by this name"


@pytest.fixture
def accounts(django_user_model):
    org = django_user_model.objects.create_user("orgA", "orga@example.org", PASSWORD)
    org.profile.display_name = "Anna Organiser"
    org.profile.save()
    return django_user_model.objects.create_user("martha", "martha@example.org", PASSWORD)


def save_profile(client, user, name):
    client.force_login(user)
    return client.post("/accounts/profile/", {"display_name": name, "language": ""})


def sign_up(client, username, display_name=""):
    return client.post("/accounts/signup/", {
        "username": username, "email": f"{username}@example.org", "display_name": display_name,
        "password1": PASSWORD, "password2": PASSWORD,
    })


@pytest.mark.parametrize("name", [
    "computer (strong)", "Computer (easy)", "COMPUTER(normal)", "computer ( strong )",
    "computer (grandmaster)", "computer", " Computer ", "computer strong", "computer-easy",
    "joueur virtuel (fort)", "Joueur virtuel", "jogador virtual (forte)", "jogador virtual",
    "computer (sterk)",
])
def test_a_name_that_looks_like_a_computer_player_is_refused(client, accounts, name):
    response = save_profile(client, accounts, name)
    assert response.status_code == 200
    assert COMPUTER in response.content.decode()
    accounts.profile.refresh_from_db()
    assert accounts.profile.display_name == ""


@pytest.mark.parametrize("name", ["Computer Club Captain", "Compton", "Marta (Ghent)",
                                  "Virtual Joe"])
def test_ordinary_names_are_accepted(client, accounts, name):
    assert save_profile(client, accounts, name).status_code == 302
    accounts.profile.refresh_from_db()
    assert accounts.profile.display_name == name


@pytest.mark.parametrize("name", ["orgA", "ORGA", "org A", "Anna Organiser", "annaorganiser",
                                  " ANNA  organiser "])
def test_a_name_already_used_by_someone_else_is_refused(client, accounts, name):
    response = save_profile(client, accounts, name)
    assert response.status_code == 200
    assert TAKEN in response.content.decode()
    accounts.profile.refresh_from_db()
    assert accounts.profile.display_name == ""


def test_ones_own_username_is_a_fine_display_name(client, accounts):
    assert save_profile(client, accounts, "Martha").status_code == 302
    # and saving the profile again with the same name is fine too
    assert save_profile(client, accounts, "Martha").status_code == 302


def test_signup_refuses_a_display_name_that_imitates(client, accounts):
    response = sign_up(client, "newbie", "computer (normal)")
    assert COMPUTER in response.content.decode()
    response = sign_up(client, "newbie", "Org A")
    assert TAKEN in response.content.decode()
    assert not get_user_model().objects.filter(username="newbie").exists()


def test_signup_refuses_a_username_shown_as_someone_elses_name(client, accounts):
    # Without a display name the username is what others see.
    response = sign_up(client, "annaorganiser")
    assert TAKEN in response.content.decode()
    response = sign_up(client, "Computer")
    assert COMPUTER in response.content.decode()
    response = sign_up(client, "ORGA", "Someone Else")  # Django's own rule for usernames
    assert "A user with that username already exists." in response.content.decode()
    assert get_user_model().objects.count() == 2


def test_signup_accepts_an_ordinary_name(client, accounts):
    assert sign_up(client, "newbie", "New Bie").status_code == 302
