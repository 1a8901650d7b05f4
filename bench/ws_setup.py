"""The database work of the live-tables bench (bench/ws_load.py), run in a process of its own
with the servers' settings:

    .venv/bin/python -m bench.ws_setup tables --tables 250 --game bid_whist --first-id 900000
    .venv/bin/python -m bench.ws_setup hostile
    .venv/bin/python -m bench.ws_setup churn --table 900251 --seconds 31
    .venv/bin/python -m bench.ws_setup busy-day --game bid_whist --hands 5000
    .venv/bin/python -m bench.ws_setup rebuilds --game bid_whist --every 15 --count 2

Each step prints its result as the last line, ``RESULT <json>``, which :func:`run` returns.
The steps are functions of this module; the bench passes their arguments on the command line.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "pw-long-enough"
SESSION_KEY_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789"
RESULT = "RESULT "


def run(env: dict, step: str, *args: object, timeout: float = 300) -> object:
    """Run a step in a new process with ``env`` (the servers' settings, the bench's database)
    and return its result."""
    done = subprocess.run([sys.executable, "-m", "bench.ws_setup", step, *map(str, args)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"bench.ws_setup {step} failed: {done.stderr[-2000:]}")
    return result_of(done.stdout)


def start(env: dict, step: str, *args: object) -> subprocess.Popen:
    """Start a step that runs alongside the bench (its result: :func:`result_of` its output)."""
    return subprocess.Popen([sys.executable, "-m", "bench.ws_setup", step, *map(str, args)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def result_of(output: str) -> object:
    line = next(line for line in reversed(output.splitlines()) if line.startswith(RESULT))
    return json.loads(line[len(RESULT):])


# -- the steps -----------------------------------------------------------------------------------


def login_session(user) -> str:
    """A new session of ``user``, as the login form makes it, saved; its key."""
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    key = get_random_string(32, SESSION_KEY_CHARS)
    Session.objects.create(session_key=key, session_data=SessionStore().encode(session_data(user)),
                           expire_date=timezone.now() + timedelta(days=1))
    return key


def session_data(user) -> dict:
    return {"_auth_user_id": str(user.pk),
            "_auth_user_backend": "django.contrib.auth.backends.ModelBackend",
            "_auth_user_hash": user.get_session_auth_hash()}


def create_tables(n: int, game: str, rules: dict, first_id: int) -> list:
    """``n`` tables of ``game`` with four signed-in people seated at each, their ids from
    ``first_id`` up: [[table id, [the four seats' session keys]], ...]."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.db import connection
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    from games import tables
    from whistclub.accounts.models import Profile

    User = get_user_model()
    with connection.cursor() as cursor:
        cursor.execute("SELECT setval(pg_get_serial_sequence('games_table', 'id'), %s)",
                       [first_id])
    password = make_password(PASSWORD)  # hashed once: PBKDF2 per user would take minutes
    users = User.objects.bulk_create(
        [User(username=f"bench{i}", email=f"bench{i}@example.org", password=password)
         for i in range(4 * n)])
    Profile.objects.bulk_create([Profile(user=u) for u in users])
    # Logged in as by the login form: a session per user, saved in bulk.
    store = SessionStore()
    expiry = timezone.now() + timedelta(days=1)
    sessions, out = [], []
    for t in range(n):
        seated = users[4 * t:4 * t + 4]
        table = tables.create_table(seated[0], game, rules, grace_seconds=3600)
        keys = []
        for position, user in enumerate(seated):
            tables.take_seat(table.pk, user, position)
            key = get_random_string(32, SESSION_KEY_CHARS)
            sessions.append(Session(session_key=key, session_data=store.encode(session_data(user)),
                                    expire_date=expiry))
            keys.append(key)
        out.append([table.pk, keys])
    Session.objects.bulk_create(sessions)
    return out


def create_hostile() -> dict:
    """The hostile user (signed in), the account that churns, and its waiting table."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from games import tables

    User = get_user_model()
    password = make_password(PASSWORD)
    hostile = User.objects.create(username="hostile", email="h@example.org", password=password)
    churner = User.objects.create(username="churner", email="c@example.org", password=password)
    waiting = tables.create_table(churner, "solo_whist", {})
    return {"session": login_session(hostile), "waiting_table": waiting.pk}


def churn(table: int, seconds: float) -> int:
    """The churning account takes and leaves a seat at ``table`` five times a second for
    ``seconds``: every seat change is a lobby change broadcast to the servers (run with their
    REDIS_URL), as when a person clicks "sit" and "leave" on a page.  The changes made."""
    from django.contrib.auth import get_user_model

    from games import tables

    churner = get_user_model().objects.get(username="churner")
    end = time.monotonic() + seconds
    changes = 0
    while time.monotonic() < end:
        tables.take_seat(table, churner, 1)
        time.sleep(0.1)
        tables.leave_seat(table, churner)
        time.sleep(0.1)
        changes += 2
    return changes


def busy_day(game: str, hands: int) -> int:
    """``hands`` online hands among 40 people finished today, rated: the ratings refreshed."""
    from django.contrib.auth import get_user_model

    from bench.ratings import online_day
    from ratings.events import SITE
    from ratings.store import refresh

    User = get_user_model()
    # The same 40 people on every call (a run of several busy-day scenarios adds to the day).
    people = [User.objects.get_or_create(username=f"day{i}")[0] for i in range(40)]
    online_day(game, people, hands, "busy day")
    return refresh(SITE, game)


def schedule_rebuilds(game: str, every: float, count: int) -> int:
    """``count`` site-wide re-ratings from the start, due one every ``every`` seconds: the work
    a visibility switch or a result dated long ago asks of the follow-up worker."""
    from django.utils import timezone

    from games.models import FollowUp

    now = timezone.now()
    FollowUp.objects.bulk_create(
        FollowUp(kind="rate", payload={"scope": "site", "game": game, "since": None},
                 due_at=now + timedelta(seconds=every * (i + 1))) for i in range(count))
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    steps = parser.add_subparsers(dest="step", required=True)
    step = steps.add_parser("tables")
    step.add_argument("--tables", type=int, required=True)
    step.add_argument("--game", required=True)
    step.add_argument("--rules", type=json.loads, default={}, help="the house rules (JSON)")
    step.add_argument("--first-id", type=int, required=True)
    steps.add_parser("hostile")
    step = steps.add_parser("churn")
    step.add_argument("--table", type=int, required=True)
    step.add_argument("--seconds", type=float, required=True)
    step = steps.add_parser("busy-day")
    step.add_argument("--game", required=True)
    step.add_argument("--hands", type=int, required=True)
    step = steps.add_parser("rebuilds")
    step.add_argument("--game", required=True)
    step.add_argument("--every", type=float, required=True)
    step.add_argument("--count", type=int, required=True)
    args = parser.parse_args(argv)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "whistclub.settings")
    import django

    django.setup()
    if args.step == "tables":
        result = create_tables(args.tables, args.game, args.rules, args.first_id)
    elif args.step == "hostile":
        result = create_hostile()
    elif args.step == "churn":
        result = churn(args.table, args.seconds)
    elif args.step == "busy-day":
        result = busy_day(args.game, args.hands)
    else:
        result = schedule_rebuilds(args.game, args.every, args.count)
    print(RESULT + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
