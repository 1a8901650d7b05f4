import pytest

pytestmark = pytest.mark.django_db


def test_home_is_english_by_default(client):
    response = client.get("/")
    assert '<html lang="en">' in response.content.decode()
    assert "Log in" in response.content.decode()


@pytest.mark.parametrize("code, phrase", [
    ("fr", "Se connecter"),
    ("nl", "Inloggen"),
    ("pt", "Entrar"),
])
def test_the_switcher_turns_the_site_into_the_chosen_language(client, code, phrase):
    response = client.post("/i18n/setlang/", {"language": code, "next": "/"}, follow=True)
    page = response.content.decode()
    assert f'<html lang="{code}">' in page
    assert phrase in page


def test_the_switcher_refuses_an_unknown_language(client):
    client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert '<html lang="en">' in client.get("/").content.decode()


def test_a_signed_in_person_gets_their_preferred_language(client, django_user_model):
    user = django_user_model.objects.create_user("jan", "jan@example.org", "x-long-password")
    user.profile.language = "nl"
    user.profile.save()
    client.force_login(user)
    assert '<html lang="nl">' in client.get("/").content.decode()


def test_switching_language_while_signed_in_updates_the_profile(client, django_user_model):
    user = django_user_model.objects.create_user("ana", "ana@example.org", "x-long-password")
    client.force_login(user)
    client.post("/i18n/setlang/", {"language": "pt", "next": "/"})
    user.profile.refresh_from_db()
    assert user.profile.language == "pt"
    assert '<html lang="pt">' in client.get("/").content.decode()


def test_the_browser_language_is_followed(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="fr-BE,fr;q=0.9")
    assert '<html lang="fr">' in response.content.decode()
