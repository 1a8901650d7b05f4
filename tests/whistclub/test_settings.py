"""Settings read the environment and refuse malformed values naming the variable."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from whistclub import env

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "k3y-" + "x9Qz!7pLm#2vRt$8wYb@5nHc&4jKd*6sFg" * 2,
    "ALLOWED_HOSTS": "whist.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://whist.example.org",
}


def run_manage(*args, **environ):
    clean = {k: v for k, v in os.environ.items()
             if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS"}}
    clean.update(environ)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=clean,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name, value, expected", [
    ("DEBUG", "maybe", "DEBUG must be one of 1/0, true/false"),
    ("DATABASE_URL", "mysql://root@localhost/x", "DATABASE_URL must be a postgres://"),
    ("REDIS_URL", "http://127.0.0.1:6379", "REDIS_URL must be a redis://"),
    ("REDIS_URL", "redis://127.0.0.1:port/0", "REDIS_URL has an invalid port"),
    ("REDIS_URL", "redis://127.0.0.1:6379/0,,redis://127.0.0.1:6380/0",
     "REDIS_URL must be one Redis URL or several separated by commas"),
    ("REDIS_URL", "redis://127.0.0.1:6379/0,http://127.0.0.1:6380", "REDIS_URL must be a redis://"),
    ("TIME_ZONE", "Mars/Olympus", "TIME_ZONE must be an IANA time zone"),
    ("SECURE_HSTS_SECONDS", "a year", "SECURE_HSTS_SECONDS must be a whole number"),
    ("ALLOWED_HOSTS", "a.example,,b.example", "ALLOWED_HOSTS must be a comma-separated list"),
    ("CSRF_TRUSTED_ORIGINS", "whist.example.org", "CSRF_TRUSTED_ORIGINS items must start with"),
    ("LOGIN_FAILURE_LIMIT", "five", "LOGIN_FAILURE_LIMIT must be a whole number"),
    ("LOGIN_COOLOFF_MINUTES", "0", "LOGIN_COOLOFF_MINUTES must be at least 1"),
    ("TRUSTED_PROXIES", "127.0.0.1,nginx", "TRUSTED_PROXIES must list IP addresses or networks"),
])
@pytest.mark.slow  # manage.py in a process of its own
def test_a_malformed_variable_stops_start_up_with_its_name(name, value, expected):
    result = run_manage("check", **{name: value})
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert expected in result.stderr


@pytest.mark.slow  # manage.py in a process of its own
def test_production_without_a_secret_key_refuses_to_start():
    result = run_manage("check", DEBUG="0", ALLOWED_HOSTS="whist.example.org")
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


@pytest.mark.slow  # manage.py in a process of its own
def test_production_without_allowed_hosts_refuses_to_start():
    result = run_manage("check", DEBUG="0", SECRET_KEY=PRODUCTION["SECRET_KEY"])
    assert result.returncode != 0
    assert "ALLOWED_HOSTS must be set when DEBUG is off" in result.stderr


@pytest.mark.slow  # manage.py in a process of its own
def test_check_deploy_is_clean_with_production_variables():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_embedded_defaults_need_no_variable(monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    config = env.database_from_env("DATABASE_URL", "/tmp/x.sqlite3")
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == "/tmp/x.sqlite3"
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert env.redis_url_from_env("REDIS_URL") == ""


@pytest.mark.slow  # manage.py in a process of its own
def test_several_redis_urls_shard_the_channel_layer():
    code = ("from django.conf import settings; "
            "print(settings.CHANNEL_LAYERS['default']['CONFIG']['hosts'])")
    result = run_manage("shell", "-c", code,
                        REDIS_URL="redis://10.0.0.1:6379/0, redis://10.0.0.2:6379/0")
    assert result.returncode == 0, result.stderr
    assert "['redis://10.0.0.1:6379/0', 'redis://10.0.0.2:6379/0']" in result.stdout


def test_postgres_url_uses_psycopg_with_a_connection_pool(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://club:s3cret@db.internal:6543/whistclub")
    config = env.database_from_env("DATABASE_URL", "unused")
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["HOST"], config["PORT"], config["NAME"]) == ("db.internal", 6543, "whistclub")
    assert config["OPTIONS"]["pool"]
    assert config["CONN_MAX_AGE"] == 0


def test_postgres_url_without_a_database_name_is_refused(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://club@db.internal:5432")
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL must name a database"):
        env.database_from_env("DATABASE_URL", "unused")


@pytest.mark.parametrize("raw, expected", [("1", True), ("yes", True), ("off", False), ("", False)])
def test_booleans_accept_the_usual_spellings(monkeypatch, raw, expected):
    monkeypatch.setenv("SOME_FLAG", raw)
    assert env.env_bool("SOME_FLAG", not expected) is expected


def test_nginx_and_django_refuse_the_same_request_bodies(settings):
    import re

    locations = (ROOT / "deploy" / "nginx" / "whistclub-locations.conf").read_text()
    size = re.search(r"^client_max_body_size (\d+)m;", locations, re.M)
    assert size, "deploy/nginx states client_max_body_size in megabytes"
    assert int(size.group(1)) * 1024 * 1024 == settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def test_each_test_process_hears_only_its_own_tables_on_a_shared_redis(monkeypatch):
    """Redis pub/sub ignores a URL's database number: two test processes (each with a database
    whose first table is number 1) must not share channel names."""
    monkeypatch.delenv("CHANNEL_LAYER_PREFIX", raising=False)
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    first = env.channel_layer_prefix()
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    assert env.channel_layer_prefix() != first
    monkeypatch.delenv("PYTEST_XDIST_WORKER")
    assert env.channel_layer_prefix() == "asgi"  # channels_redis's own, for a deployed site
    monkeypatch.setenv("CHANNEL_LAYER_PREFIX", "club-two")
    assert env.channel_layer_prefix() == "club-two"


@pytest.mark.slow  # manage.py in a process of its own
def test_a_malformed_channel_layer_prefix_stops_start_up():
    result = run_manage("check", REDIS_URL="redis://127.0.0.1:6379/0",
                        CHANNEL_LAYER_PREFIX="club two")
    assert result.returncode != 0
    assert "CHANNEL_LAYER_PREFIX must be up to 40 letters" in result.stderr
