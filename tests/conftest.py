import os

import pytest
from django.conf import settings
from hypothesis import settings as hypothesis_settings

# How many examples each property test draws: the Makefile names the profile
# (HYPOTHESIS_PROFILE), `make test` the full one, `make test-quick` a few to see that each
# property still runs.  Without the variable, the full one: a plain `pytest` checks as much as
# `make test`.  No deadline: on a shared two-core machine one slow example is not a failure.
hypothesis_settings.register_profile("full", max_examples=100, deadline=None)
hypothesis_settings.register_profile("quick", max_examples=10, deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "full"))


def pytest_report_header(config):
    database = settings.DATABASES["default"]
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    return f"whistclub: database={database['ENGINE'].rsplit('.', 1)[-1]} channel_layer={layer}"


# A test that drives Chromium asks for one of these (tests/e2e/conftest.py).
BROWSER_FIXTURES = {"browser", "new_page"}


def pytest_collection_modifyitems(config, items):
    """The engines' and computer players' tests (tests/games/rules/), and the events' and the
    draw's pure modules' (tests/events/test_pairing.py, test_scoring.py, test_deals.py,
    tests/leagues/test_movement.py), touch neither the database nor a channel layer
    (pytest-django refuses them the database): marked
    ``engine``, they run in the embedded pass only -- on PostgreSQL + Redis they would prove
    nothing new.

    The tests that drive Chromium are marked ``browser``.  ``make test`` runs them once, in the
    PostgreSQL + Redis pass, the stack a club's site runs on (WHISTCLUB_LEAVE_OUT_BROWSER_TESTS
    in its embedded pass): what they look at is the page, which the database under it does not
    change, and they are a third of the embedded pass's minutes.  ``make test-embedded`` alone
    runs them too.

    Deselected here rather than by a ``-m`` of the Makefile, so that a developer's own ``-m``
    still combines with it."""
    from pathlib import Path

    here = Path(__file__).parent
    pure = (here / "games" / "rules",)
    pure_files = {here / "events" / name
                  for name in ("test_pairing.py", "test_scoring.py", "test_deals.py")}
    pure_files.add(here / "leagues" / "test_movement.py")  # the draw's pure movement
    services = os.environ.get("WHISTCLUB_REQUIRE_SERVICES") == "1"
    browsers_left_out = os.environ.get("WHISTCLUB_LEAVE_OUT_BROWSER_TESTS") == "1"
    kept, left_out = [], []
    for item in items:
        path = Path(str(item.path))
        if path in pure_files or any(folder in path.parents for folder in pure):
            item.add_marker(pytest.mark.engine)
            if services:
                left_out.append(item)
                continue
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
            if browsers_left_out:
                left_out.append(item)
                continue
        kept.append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept


def pytest_sessionstart(session):
    """The services pass must fail loudly when PostgreSQL or Redis is unreachable."""
    if os.environ.get("WHISTCLUB_REQUIRE_SERVICES") != "1":
        return
    problems = []
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        problems.append("DATABASE_URL does not point at PostgreSQL")
    else:
        import psycopg

        db = settings.DATABASES["default"]
        try:
            psycopg.connect(host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"],
                            password=db["PASSWORD"] or None, dbname="postgres",
                            connect_timeout=5).close()
        except Exception as exc:
            problems.append(f"PostgreSQL unreachable at {db['HOST']}:{db['PORT']}: {exc}")
    if not settings.REDIS_URLS:
        problems.append("REDIS_URL is not set")
    for url in settings.REDIS_URLS:
        import redis

        try:
            redis.Redis.from_url(url, socket_connect_timeout=5).ping()
        except Exception as exc:
            problems.append(f"Redis unreachable at {url}: {exc}")
    if problems:
        pytest.exit("services pass cannot run: " + "; ".join(problems), returncode=3)


def _forget_table_snapshots():
    import sys

    snapshots = sys.modules.get("games.snapshots")  # only once a test has used it
    if snapshots is not None:
        snapshots.forget_snapshots()


@pytest.fixture(autouse=True)
def no_table_snapshot_outlives_its_test():
    """Each test database starts table ids again: cached snapshots must not carry over."""
    _forget_table_snapshots()
    yield
    _forget_table_snapshots()


@pytest.fixture(autouse=True)
def no_lobby_render_outlives_its_test():
    """The lobby renders on a thread of its own: let it finish before the database goes."""
    yield
    import sys

    feed = sys.modules.get("games.lobby_feed")
    if feed is not None:
        feed.wait_until_idle()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """The real hasher makes each account and each log-in a second's work, and most tests make
    several.  Only this process's tests: the servers the live tests start (tests/live_servers.py)
    make their accounts with the site's own hasher."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def no_presence_heartbeat(settings):
    """No background sweep in unit tests (the presence tests call it themselves): a sweep
    would mark seats away whose people the test never connected."""
    settings.PRESENCE_HEARTBEAT_SECONDS = 0


@pytest.fixture(autouse=True)
def no_language_outlives_its_test():
    """A request of a French player activates French in this thread (as Django's locale
    middleware does); the next test must start in the default language."""
    yield
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
