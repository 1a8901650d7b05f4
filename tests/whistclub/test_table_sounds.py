"""Sounds at the table, a player's setting: off by default, turned on in the profile, and the
table page tells its script (static/js/table.js makes the tones)."""

import re
from pathlib import Path

import pytest

from games import tables

pytestmark = pytest.mark.django_db
SCRIPT = Path(__file__).resolve().parents[2] / "static" / "js" / "table.js"


def sounds_on(page: str) -> bool:
    return bool(re.search(r'<div class="table-page"[^>]*data-sounds="on"', page))


def test_a_player_turns_the_table_sounds_on_in_their_profile(client, django_user_model):
    pat = django_user_model.objects.create_user("pat", "pat@example.org", "pw-long-enough")
    client.force_login(pat)
    table = tables.create_table(pat, "solo_whist", {})
    assert not sounds_on(client.get(f"/tables/{table.pk}/").content.decode())  # off by default
    profile = client.get("/accounts/profile/").content.decode()
    assert "Sounds at the table" in profile and "when it is your turn" in profile
    client.post("/accounts/profile/", {"display_name": "", "language": "", "table_sounds": "on"})
    pat.profile.refresh_from_db()
    assert pat.profile.table_sounds is True
    assert sounds_on(client.get(f"/tables/{table.pk}/").content.decode())
    client.post("/accounts/profile/", {"display_name": "", "language": ""})  # unticked
    assert not sounds_on(client.get(f"/tables/{table.pk}/").content.decode())


def test_the_profile_offers_the_setting_in_french(client, django_user_model):
    pat = django_user_model.objects.create_user("pat", "pat@example.org", "pw-long-enough")
    pat.profile.language = "fr"
    pat.profile.save()
    client.force_login(pat)
    profile = client.get("/accounts/profile/").content.decode()
    assert "Sons à la table" in profile


def test_the_tones_are_made_in_the_page_with_no_audio_file():
    script = SCRIPT.read_text()
    assert "createOscillator" in script
    assert not re.search(r"\.(mp3|ogg|wav)\b", script)
