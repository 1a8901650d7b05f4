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
                                  "Virtual Joe", "Zoé", "Зоя Петрова", "Alicia"])
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


# -- names that read like another's through invisible or look-alike characters ----------------

LOOK_ALIKES = {
    "zero-width space": "Al\u200bice",
    "word joiner": "Ali\u2060ce",
    "soft hyphen": "Ali\u00adce",
    "Cyrillic capital A": "\u0410lice",
    "right-to-left override": "Alice\u202e",
    "all of them": "\u202e\u0410l\u200bi\u00adc\u2060e",
}


@pytest.fixture
def alice(accounts, django_user_model):
    alice = django_user_model.objects.create_user("alice_w", "alice@example.org", PASSWORD)
    alice.profile.display_name = "Alice"
    alice.profile.save()
    return alice


@pytest.mark.parametrize("name", LOOK_ALIKES.values(), ids=LOOK_ALIKES.keys())
def test_a_display_name_that_reads_like_anothers_is_refused(client, accounts, alice, name):
    response = save_profile(client, accounts, name)
    assert response.status_code == 200
    assert TAKEN in response.content.decode()
    accounts.profile.refresh_from_db()
    assert accounts.profile.display_name == ""


@pytest.mark.parametrize("name", LOOK_ALIKES.values(), ids=LOOK_ALIKES.keys())
def test_signup_refuses_a_display_name_that_reads_like_anothers(client, accounts, alice, name):
    response = sign_up(client, "newbie", name)
    assert TAKEN in response.content.decode()
    assert not get_user_model().objects.filter(username="newbie").exists()


def test_signup_refuses_a_username_that_reads_like_anothers(client, accounts, alice):
    # A Cyrillic А is a letter, so Django takes it in a username: it is the look-alike rule
    # that refuses it.
    response = sign_up(client, "\u0410lice")
    assert TAKEN in response.content.decode()
    response = sign_up(client, "m\u0430rtha")  # a Cyrillic а: Martha's username
    assert TAKEN in response.content.decode()
    response = sign_up(client, "alice\u200b")  # invisible: read without it
    assert TAKEN in response.content.decode()
    assert get_user_model().objects.count() == 3


@pytest.mark.parametrize("name", [
    "Pr\u043efessor",  # a Cyrillic о
    "R\u043ebin", "Capt\u0430in", "c\u043emputer (strong)", "j\u043eueur virtuel",
    "C\u041eMPUTER", "Pro\u200bfessor",
])
def test_a_computer_players_name_in_look_alike_letters_is_refused(client, accounts, name):
    response = save_profile(client, accounts, name)
    assert response.status_code == 200
    assert COMPUTER in response.content.decode()
    accounts.profile.refresh_from_db()
    assert accounts.profile.display_name == ""


def test_a_display_name_is_kept_without_its_invisible_characters(client, accounts):
    # Nobody else is called Bob: the name is taken, as it reads.
    assert save_profile(client, accounts, "\u202eBo\u200bb\u00ad").status_code == 302
    accounts.profile.refresh_from_db()
    assert accounts.profile.display_name == "Bob"
    # Full-width letters are letters.
    assert save_profile(client, accounts, "\uff22\uff4f\uff42").status_code == 302
    accounts.profile.refresh_from_db()
    assert accounts.profile.display_name == "Bob"


def test_the_look_alike_key_is_unicodes_confusable_skeleton():
    from whistclub.accounts.names import look_alike_key

    def alike(a, b):
        return look_alike_key(a) == look_alike_key(b)

    assert alike("\u0410lice", "alice") and alike("AIice", "Alice") and alike("Marie", "rnarie")
    assert alike("0live", "Olive") and alike("\uff21lice", "ALICE".lower())
    assert not alike("Alice", "Alicia") and not alike("Zoé", "Zoe") and not alike("Anna", "Ana")
