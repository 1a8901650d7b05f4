"""Guessing passwords: a few wrong tries lock that name out from that address for a while."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery"
LIMIT = 5  # the default of LOGIN_FAILURE_LIMIT


@pytest.fixture
def member(django_user_model):
    django_user_model.objects.create_user("rosa", "rosa@example.org", "another-long-secret")
    return django_user_model.objects.create_user("martha", "martha@example.org", PASSWORD)


def log_in(client, username, password, **extra):
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


def fail(client, times, username="martha", **extra):
    for _ in range(times):
        response = log_in(client, username, "wrong-guess", **extra)
    return response


def logged_in_as(client):
    return client.get("/").context["user"]


def test_the_right_password_is_refused_after_five_wrong_ones(client, member):
    fail(client, LIMIT)
    response = log_in(client, "martha", PASSWORD)
    assert response.status_code == 429
    assert not logged_in_as(client).is_authenticated


def test_the_lockout_page_says_what_happened_and_how_to_get_in(client, member):
    response = fail(client, LIMIT)
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many failed attempts to log in" in page
    assert "15 minutes" in page
    assert 'href="/accounts/password_reset/"' in page
    assert 'class="site-nav"' in page  # the site's own page, not a bare line of text


def test_four_wrong_passwords_are_not_yet_a_lockout(client, member):
    fail(client, LIMIT - 1)
    assert log_in(client, "martha", PASSWORD).status_code == 302
    # and a success forgets the earlier failures
    client.post("/accounts/logout/")
    fail(client, LIMIT - 1)
    assert log_in(client, "martha", PASSWORD).status_code == 302


def test_the_lockout_ends_after_the_cool_off(client, member):
    from axes.models import AccessAttempt

    fail(client, LIMIT)
    assert log_in(client, "martha", PASSWORD).status_code == 429
    AccessAttempt.objects.update(attempt_time=AccessAttempt.objects.get().attempt_time
                                 - timedelta(minutes=16))
    assert log_in(client, "martha", PASSWORD).status_code == 302
    assert logged_in_as(client) == member


def test_trying_again_during_the_lockout_does_not_prolong_it(client, member):
    from axes.models import AccessAttempt

    fail(client, LIMIT)
    first = AccessAttempt.objects.get().attempt_time
    fail(client, 3)
    assert AccessAttempt.objects.get().attempt_time == first


def test_the_lockout_is_per_name_and_address(client, member):
    fail(client, LIMIT, REMOTE_ADDR="198.51.100.1")
    assert log_in(client, "martha", PASSWORD, REMOTE_ADDR="198.51.100.1").status_code == 429
    # the same person from another network, and someone else from the same network, get in
    elsewhere = Client()
    assert log_in(elsewhere, "martha", PASSWORD, REMOTE_ADDR="203.0.113.9").status_code == 302
    neighbour = Client()
    response = log_in(neighbour, "rosa", "another-long-secret", REMOTE_ADDR="198.51.100.1")
    assert response.status_code == 302


def test_behind_nginx_the_forwarded_client_address_counts(client, member):
    # nginx (deploy/nginx) connects from 127.0.0.1 and appends the client's address to
    # X-Forwarded-For; whatever the client put in front of it is not believed.
    via_nginx = {"REMOTE_ADDR": "127.0.0.1"}
    for spoofed in ("10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5"):
        log_in(client, "martha", "wrong-guess", HTTP_X_FORWARDED_FOR=f"{spoofed}, 192.0.2.44",
               **via_nginx)
    response = log_in(client, "martha", PASSWORD, HTTP_X_FORWARDED_FOR="10.9.9.9, 192.0.2.44",
                      **via_nginx)
    assert response.status_code == 429
    # another client through the same nginx is not locked out
    other = Client()
    response = log_in(other, "martha", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.99", **via_nginx)
    assert response.status_code == 302


def test_a_forwarded_address_from_an_untrusted_peer_is_ignored(client, member):
    # Straight from the internet, X-Forwarded-For is whatever the client wants: not believed.
    for n in range(LIMIT):
        log_in(client, "martha", "wrong-guess", REMOTE_ADDR="198.51.100.7",
               HTTP_X_FORWARDED_FOR=f"10.0.0.{n}")
    response = log_in(client, "martha", PASSWORD, REMOTE_ADDR="198.51.100.7",
                      HTTP_X_FORWARDED_FOR="10.0.0.200")
    assert response.status_code == 429


def test_a_locked_out_person_can_reset_their_password_and_log_in(client, member):
    fail(client, LIMIT)
    response = client.post("/accounts/password_reset/", {"email": "martha@example.org"})
    assert response.status_code == 302
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    response = client.get(link, follow=True)
    assert response.context["validlink"]
    response = client.post(response.redirect_chain[-1][0], {
        "new_password1": "a-brand-new-secret", "new_password2": "a-brand-new-secret",
    })
    assert response.status_code == 302
    assert log_in(client, "martha", "a-brand-new-secret").status_code == 302
    assert logged_in_as(client) == member


def test_logging_in_without_a_request_still_works_for_scripts_and_tests(member):
    from django.contrib.auth import authenticate

    assert authenticate(username="martha", password=PASSWORD) == member
    assert Client().login(username="martha", password=PASSWORD)


def test_the_admin_login_is_throttled_too(client, member):
    member.is_staff = member.is_superuser = True
    member.save()
    for _ in range(LIMIT):
        client.post("/admin/login/?next=/admin/", {"username": "martha", "password": "nope"})
    response = client.post("/admin/login/?next=/admin/",
                           {"username": "martha", "password": PASSWORD})
    assert response.status_code == 429
    assert get_user_model().objects.get(username="martha").last_login is None


@pytest.mark.slow
def test_a_real_server_locks_out_and_shows_the_page(tmp_path):
    """Under daphne (ASGI, the production server) as under the test client."""
    import urllib.error
    import urllib.parse
    import urllib.request
    from http.cookiejar import CookieJar

    from tests.live_servers import DaphneServer, ServerDatabase

    database = ServerDatabase.migrated(tmp_path)
    database.shell("from django.contrib.auth import get_user_model; "
                   f"get_user_model().objects.create_user('martha', 'm@example.org', '{PASSWORD}')")
    server = DaphneServer(database, tmp_path / "daphne.log").start()
    try:
        jar = CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        opener.open(server.url + "/accounts/login/", timeout=10).read()
        csrf = next(c.value for c in jar if c.name == "csrftoken")

        def attempt(password):
            data = urllib.parse.urlencode({"username": "martha", "password": password,
                                           "csrfmiddlewaretoken": csrf}).encode()
            request = urllib.request.Request(server.url + "/accounts/login/", data=data,
                                             headers={"Referer": server.url + "/"})
            try:
                with opener.open(request, timeout=10) as response:
                    return response.status, response.read().decode()
            except urllib.error.HTTPError as error:
                return error.code, error.read().decode()

        for _ in range(LIMIT - 1):
            assert attempt("wrong-guess")[0] == 200
        status, page = attempt("wrong-guess")
        assert status == 429 and "Too many failed attempts to log in" in page
        status, page = attempt(PASSWORD)
        assert status == 429 and 'href="/accounts/password_reset/"' in page
        assert "sessionid" not in {c.name for c in jar}
    finally:
        server.stop()
        database.drop()
