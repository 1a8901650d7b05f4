"""A refused or missing page is a page of the site, in the reader's language, that says what to
do next: never Django's bare "403 Forbidden" or "Not Found"."""

import pytest

from leagues.models import Club

pytestmark = pytest.mark.django_db


@pytest.fixture
def public_club(django_user_model):
    owner = django_user_model.objects.create_user("olga", "olga@example.org", "pw-olga-123")
    club = Club.create_with_organiser(owner, name="The Crown Whist Club")
    club.is_public = True
    club.save()
    return club


def test_a_signed_out_visitor_refused_a_members_page_is_asked_to_log_in_and_brought_back(
        client, public_club):
    url = f"/clubs/{public_club.slug}/members/"
    response = client.get(url)
    assert response.status_code == 403
    page = response.content.decode()
    assert 'class="site-header"' in page  # the site's own page, with its menu
    assert "not for you to see" in page
    assert f'/accounts/login/?next=/clubs/{public_club.slug}/members/' in page


def test_the_refusal_is_in_the_readers_language(client, public_club):
    response = client.get(f"/clubs/{public_club.slug}/members/", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 403
    page = response.content.decode()
    assert "Cette page n’est pas pour vous" in page and "Se connecter" in page


def test_a_signed_in_outsider_is_told_whom_to_ask(client, public_club, django_user_model):
    client.force_login(django_user_model.objects.create_user("otto", "o@example.org", "pw-123-otto"))
    page = client.get(f"/clubs/{public_club.slug}/members/").content.decode()
    assert "ask the club’s organiser" in page.replace("'", "’").replace("&#x27;", "’")
    assert "next=" not in page


def test_a_missing_page_is_the_sites_page(client, settings):
    settings.DEBUG = False  # with DEBUG on, Django shows its own technical page instead
    response = client.get("/clubs/no-such-club/")
    assert response.status_code == 404
    page = response.content.decode()
    assert 'class="site-header"' in page and "There is no such page" in page


def test_a_server_error_is_a_page_in_words(rf):
    from django.views.defaults import server_error

    response = server_error(rf.get("/clubs/"))
    assert response.status_code == 500
    page = response.content.decode()
    assert "Something went wrong on our side" in page and "Nothing you entered is lost" in page
