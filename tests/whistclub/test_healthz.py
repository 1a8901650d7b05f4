"""/healthz: a short public answer for load balancers, details for staff or a bearer token."""

import time
from unittest import mock

import pytest
from django.conf import settings
from django.db import connections

pytestmark = pytest.mark.django_db
TOKEN = "a-long-random-health-token"


class BrokenLayer:
    async def new_channel(self, prefix=""):
        raise ConnectionError("layer down at redis://10.0.0.7:6379")


class SilentLayer:
    async def new_channel(self, prefix=""):
        import asyncio

        await asyncio.sleep(30)


class HangingConnection:
    """A database whose every query waits, as when the connection pool is exhausted."""

    vendor = "postgresql"
    settings_dict = {"OPTIONS": {}}

    def cursor(self):
        time.sleep(5)
        raise RuntimeError("no connection available")

    def close(self):
        pass


class HangingDatabase:
    def __getitem__(self, alias):
        return HangingConnection()

    def create_connection(self, alias):
        return HangingConnection()


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("sam", "sam@example.org", "pw-long-enough",
                                                 is_staff=True)


@pytest.fixture
def with_token(settings):
    settings.HEALTHZ_TOKEN = TOKEN


def test_the_public_answer_is_only_the_status(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_a_failure_is_a_503_that_tells_nobody_why(client):
    with mock.patch("whistclub.views.get_channel_layer", return_value=BrokenLayer()):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "unhealthy"}
    assert b"redis" not in response.content and b"Layer" not in response.content


def test_a_signed_in_player_who_is_not_staff_gets_the_public_answer(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("pat", "pat@example.org", "pw-x1y2z3"))
    assert client.get("/healthz").json() == {"status": "ok"}


def test_staff_see_the_details(client, staff):
    client.force_login(staff)
    body = client.get("/healthz").json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["database"]["vendor"] in {"sqlite", "postgresql"}
    assert body["channel_layer"]["ok"] is True
    expected = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    assert body["channel_layer"]["backend"] == expected


def test_the_bearer_token_shows_the_details_of_a_failure(client, with_token):
    with mock.patch("whistclub.views.get_channel_layer", return_value=BrokenLayer()):
        response = client.get("/healthz", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unhealthy"
    assert body["database"]["ok"] is True
    assert "layer down" in body["channel_layer"]["error"]


@pytest.mark.parametrize("header", [f"Bearer {TOKEN}x", f"Bearer {TOKEN[:-1]}", "Bearer ",
                                    TOKEN, f"Basic {TOKEN}"])
def test_a_wrong_token_gets_the_public_answer(client, with_token, header):
    assert client.get("/healthz", headers={"Authorization": header}).json() == {"status": "ok"}


def test_without_a_configured_token_no_token_shows_details(client, settings):
    settings.HEALTHZ_TOKEN = ""
    assert client.get("/healthz", headers={"Authorization": "Bearer "}).json() == {"status": "ok"}


def test_a_database_that_does_not_answer_is_reported_within_two_seconds(client, with_token):
    with mock.patch("whistclub.views.connections", HangingDatabase()):
        started = time.monotonic()
        response = client.get("/healthz", headers={"Authorization": f"Bearer {TOKEN}"})
        elapsed = time.monotonic() - started
    assert response.status_code == 503
    assert elapsed < 2.5
    assert response.json()["database"]["ok"] is False
    assert response.json()["channel_layer"]["ok"] is True


def test_a_silent_database_and_a_silent_layer_together_take_two_seconds_not_more(client):
    with mock.patch("whistclub.views.connections", HangingDatabase()), \
            mock.patch("whistclub.views.get_channel_layer", return_value=SilentLayer()):
        started = time.monotonic()
        response = client.get("/healthz")
        elapsed = time.monotonic() - started
    assert response.status_code == 503
    assert response.json() == {"status": "unhealthy"}
    assert elapsed < 2.5


@pytest.mark.skipif(not connections["default"].settings_dict["OPTIONS"].get("pool"),
                    reason="the connection pool: PostgreSQL, the services pass")
@pytest.mark.django_db(transaction=True)
def test_an_exhausted_connection_pool_is_reported_within_two_seconds(client, with_token):
    from psycopg_pool import PoolTimeout

    connections["default"].close()  # as in a fresh request, no connection is held yet
    pool = connections["default"].pool
    held = []
    try:
        while True:  # take every connection the pool will give
            held.append(pool.getconn(timeout=0.5))
    except PoolTimeout:
        pass
    try:
        started = time.monotonic()
        response = client.get("/healthz", headers={"Authorization": f"Bearer {TOKEN}"})
        elapsed = time.monotonic() - started
    finally:
        for conn in held:
            pool.putconn(conn)
    assert response.status_code == 503
    assert response.json()["database"]["ok"] is False
    assert elapsed < 2.5
