from unittest import mock

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db


def test_it_reports_database_and_channel_layer_healthy(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["database"]["vendor"] in {"sqlite", "postgresql"}
    assert body["channel_layer"]["ok"] is True
    expected = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    assert body["channel_layer"]["backend"] == expected


def test_it_answers_503_when_the_database_fails(client):
    with mock.patch("whistclub.views._check_database",
                    return_value={"ok": False, "vendor": "x", "error": "boom"}):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "error"
    assert response.json()["database"]["error"] == "boom"


def test_it_answers_503_when_the_channel_layer_fails(client):
    class BrokenLayer:
        async def new_channel(self, prefix=""):
            raise ConnectionError("layer down")

    with mock.patch("whistclub.views.get_channel_layer", return_value=BrokenLayer()):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert "layer down" in response.json()["channel_layer"]["error"]
