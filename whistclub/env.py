"""Reading settings from the environment: small helpers that refuse malformed values loudly.

Every error names the variable and says what would be accepted, so a typo in a deployment
stops the process at start-up instead of running with a surprising value.
"""

from __future__ import annotations

import ipaddress
import os
import re
import zoneinfo
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off", ""}

Number = TypeVar("Number", int, float)


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in TRUE:
        return True
    if value in FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name} must be one of 1/0, true/false, yes/no, on/off; got {raw!r}"
    )


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    return _env_number(name, default, minimum, int, "a whole number")


def env_float(name: str, default: float, *, minimum: float | None = None) -> float:
    return _env_number(name, default, minimum, float, "a number")


def _env_number(name: str, default: Number, minimum: Number | None,
                parse: Callable[[str], Number], what: str) -> Number:
    """A number from the environment, ``default`` when unset or blank; ``what`` is how the
    error names the kind of number the variable takes."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = parse(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be {what}; got {raw!r}") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}; got {value}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    items = [item.strip() for item in raw.split(",")]
    if any(not item for item in items) and raw.strip():
        raise ImproperlyConfigured(
            f"{name} must be a comma-separated list without empty items; got {raw!r}"
        )
    return [item for item in items if item]


def env_networks(name: str, default: list[str]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """A comma-separated list of IP addresses or networks (CIDR), e.g. ``127.0.0.1,10.0.0.0/8``."""
    networks = []
    for item in env_list(name, default):
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ImproperlyConfigured(
                f"{name} must list IP addresses or networks such as 127.0.0.1 or 10.0.0.0/8; "
                f"got {item!r}"
            ) from None
    return networks


def env_timezone(name: str, default: str) -> str:
    value = env_str(name, default)
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ImproperlyConfigured(
            f"{name} must be an IANA time zone such as Europe/Brussels; got {value!r}"
        ) from None
    return value


def sqlite_test_database() -> str:
    """Where the tests' SQLite database lives: a file, in memory where the machine has a
    memory-backed folder.  Not Django's default, an in-memory database the threads share
    through one cache: there a write that meets another thread's lock fails at once
    ("database table is locked") instead of waiting its timeout, and live tables, presence
    checks and computer players write from threads of their own.  One file per test process,
    so that two runs on one machine do not meet."""
    import tempfile

    folder = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) \
        else tempfile.gettempdir()
    return os.path.join(folder, f"whistclub-test-{os.getpid()}.sqlite3")


def _with_sqlite_settings(config: dict) -> dict:
    """A SQLite entry's options and test database, said once for the default and a URL.

    BEGIN IMMEDIATE makes concurrent writers queue (up to the timeout) instead of failing when
    a reading transaction tries to write; in write-ahead-log mode a reader never holds up a
    writer (nor a writer a reader)."""
    config.setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20, "init_command": "PRAGMA journal_mode=WAL"})
    config["TEST"] = {"NAME": sqlite_test_database()}
    return config


def database_from_env(name: str, default_sqlite_path: str) -> dict:
    """DATABASE_URL → a DATABASES entry; SQLite when unset, PostgreSQL (psycopg, pooled) else."""
    import dj_database_url

    raw = env_str(name)
    if not raw:
        return _with_sqlite_settings(
            {"ENGINE": "django.db.backends.sqlite3", "NAME": default_sqlite_path})
    scheme = urlsplit(raw).scheme
    if scheme not in {"postgres", "postgresql", "sqlite"}:
        raise ImproperlyConfigured(
            f"{name} must be a postgres://user@host:port/dbname or sqlite:///path URL; "
            f"got scheme {scheme!r}"
        )
    try:
        config: dict[str, Any] = dict(dj_database_url.parse(raw))
    except Exception as exc:  # dj_database_url raises several types for bad URLs
        raise ImproperlyConfigured(f"{name} is not a valid database URL: {exc}") from None
    if scheme == "sqlite":
        _with_sqlite_settings(config)
    else:
        if not config.get("NAME"):
            raise ImproperlyConfigured(f"{name} must name a database, e.g. .../whistclub")
        # Under ASGI every request may run in another thread; a pool keeps connections
        # warm without CONN_MAX_AGE's one-connection-per-thread leak.
        config["CONN_MAX_AGE"] = 0
        config.setdefault("OPTIONS", {})["pool"] = {"min_size": 1, "max_size": 10, "timeout": 10}
    return config


def redis_urls_from_env(name: str) -> list[str]:
    """REDIS_URL → the Redis servers of the channel layer: one URL, or several separated by
    commas (channels_redis shards groups and channels over them by a consistent hash)."""
    raw = env_str(name)
    if not raw:
        return []
    urls = [part.strip() for part in raw.split(",")]
    if any(not url for url in urls):
        raise ImproperlyConfigured(
            f"{name} must be one Redis URL or several separated by commas; got {raw!r}")
    return [_redis_url(name, url) for url in urls]


def channel_layer_prefix() -> str:
    """The start of every Redis channel name of the site's layer (CHANNEL_LAYER_PREFIX,
    channels_redis's "asgi" by default).  Redis pub/sub channels ignore the database number of
    a URL, so two sites on one Redis server -- or two test processes, each with a database of
    its own whose tables both start at id 1 -- would hear each other's tables without
    prefixes of their own: a test process of pytest-xdist adds its name."""
    prefix = env_str("CHANNEL_LAYER_PREFIX", "asgi")
    worker = env_str("PYTEST_XDIST_WORKER")
    if worker and "CHANNEL_LAYER_PREFIX" not in os.environ:
        prefix = f"{prefix}-{worker}"
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", prefix):
        raise ImproperlyConfigured(
            "CHANNEL_LAYER_PREFIX must be up to 40 letters, digits, dots, dashes or "
            f"underscores; got {prefix!r}")
    return prefix


def redis_url_from_env(name: str) -> str:
    """The first Redis server of REDIS_URL ("" when unset)."""
    urls = redis_urls_from_env(name)
    return urls[0] if urls else ""


def _redis_url(name: str, raw: str) -> str:
    parts = urlsplit(raw)
    if parts.scheme not in {"redis", "rediss", "unix"} or (
        parts.scheme != "unix" and not parts.hostname
    ):
        raise ImproperlyConfigured(
            f"{name} must be a redis://host:port/db, rediss://... or unix:///path URL; got {raw!r}"
        )
    try:
        parts.port  # noqa: B018 -- raises ValueError on a port like ":abc"
    except ValueError:
        raise ImproperlyConfigured(f"{name} has an invalid port; got {raw!r}") from None
    return raw
