import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

# slow: builds the whole demo club each time
pytestmark = [pytest.mark.slow, pytest.mark.django_db]


def test_it_creates_demo_accounts_once_and_prints_the_login(capsys):
    call_command("load_demo")
    first = capsys.readouterr().out
    assert "Demo login: demo / whist-demo" in first
    count = get_user_model().objects.count()
    call_command("load_demo")
    assert get_user_model().objects.count() == count
    assert "0 account(s) created" in capsys.readouterr().out


def test_the_demo_login_works(client):
    call_command("load_demo")
    assert client.login(username="demo", password="whist-demo")
    assert client.get("/admin/").status_code == 200


def test_load_demo_does_not_reset_a_changed_password():
    call_command("load_demo")
    user = get_user_model().objects.get(username="alice")
    user.set_password("alice-own-secret")
    user.save()
    call_command("load_demo")
    user.refresh_from_db()
    assert user.check_password("alice-own-secret")
