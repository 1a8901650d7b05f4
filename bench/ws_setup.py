"""The database work of the live-tables bench (bench/ws_load.py) and of the paced event
(bench/events.py --paced), run in a process of its own
with the servers' settings:

    .venv/bin/python -m bench.ws_setup tables --tables 250 --game bid_whist --first-id 900000
    .venv/bin/python -m bench.ws_setup hostile
    .venv/bin/python -m bench.ws_setup churn --table 900251 --seconds 31
    .venv/bin/python -m bench.ws_setup busy-day --game bid_whist --hands 5000
    .venv/bin/python -m bench.ws_setup rebuilds --game bid_whist --every 15 --count 2
    .venv/bin/python -m bench.ws_setup event --people 400 --game bid_whist --rounds 2 --deals 2 \
        --first-id 950000
    .venv/bin/python -m bench.ws_setup start-event --event 1
    .venv/bin/python -m bench.ws_setup wait-round --event 1 --number 2 --seconds 120
    .venv/bin/python -m bench.ws_setup compare-deals --event 1

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


def create_people(n: int) -> tuple[list, list[str]]:
    """``n`` people (``bench0``, ``bench1``, ...; password PASSWORD), each signed in as by the
    login form: the users, and their sessions' keys in the same order.  In bulk: users,
    profiles and sessions are one INSERT each, the password hashed once (PBKDF2 per user
    would take minutes)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    from whistclub.accounts.models import Profile

    User = get_user_model()
    password = make_password(PASSWORD)
    users = User.objects.bulk_create(
        [User(username=f"bench{i}", email=f"bench{i}@example.org", password=password)
         for i in range(n)])
    Profile.objects.bulk_create([Profile(user=u) for u in users])
    store = SessionStore()
    expiry = timezone.now() + timedelta(days=1)
    keys = [get_random_string(32, SESSION_KEY_CHARS) for _ in users]
    Session.objects.bulk_create(
        Session(session_key=key, session_data=store.encode(session_data(user)),
                expire_date=expiry) for user, key in zip(users, keys, strict=True))
    return users, keys


def first_table_id(first_id: int) -> None:
    """The next tables' ids from ``first_id`` up (their groups apart from a test run's)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT setval(pg_get_serial_sequence('games_table', 'id'), %s)",
                       [first_id])


def create_tables(n: int, game: str, rules: dict, first_id: int) -> list:
    """``n`` tables of ``game`` with four signed-in people seated at each, their ids from
    ``first_id`` up: [[table id, [the four seats' session keys]], ...]."""
    from games import tables

    first_table_id(first_id)
    users, keys = create_people(4 * n)
    out = []
    for t in range(n):
        seated = users[4 * t:4 * t + 4]
        table = tables.create_table(seated[0], game, rules, grace_seconds=3600)
        for position, user in enumerate(seated):
            tables.take_seat(table.pk, user, position)
        out.append([table.pk, keys[4 * t:4 * t + 4]])
    return out


# -- an event (bench/events.py --paced) ----------------------------------------------------------


def create_event(people: int, game: str, rounds: int, deals: int, first_id: int) -> dict:
    """An event of ``game`` (Swiss, ``rounds`` rounds of ``deals`` deals) with ``people``
    signed-in people registered, the first its organiser; not started.  Its id, and each
    person's session key by user id."""
    from django.utils import timezone

    from events.models import Event, Registration

    first_table_id(first_id)
    users, keys = create_people(people)
    event = Event.objects.create(name="Bench", organiser=users[0], game=game, rounds=rounds,
                                 deals_per_round=deals,
                                 starts_at=timezone.now() + timedelta(hours=1))
    now = timezone.now()
    Registration.objects.bulk_create(
        Registration(event=event, user=user, registered_at=now + timedelta(microseconds=i))
        for i, user in enumerate(users))
    return {"event": event.pk, "sessions": {str(u.pk): k for u, k in zip(users, keys, strict=True)}}


def round_tables(event_id: int, number: int) -> list:
    """Round ``number``'s tables: [[table id, [each seat's user id, None for a computer]]]."""
    from events.models import EventTable
    from games.models import Seat

    table_ids = list(EventTable.objects.filter(round__event_id=event_id, round__number=number)
                     .order_by("number").values_list("table_id", flat=True))
    seats: dict[int, list] = {table_id: [None] * 4 for table_id in table_ids}
    for table_id, position, user_id, level in Seat.objects.filter(
            table_id__in=table_ids).values_list("table_id", "position", "user_id",
                                                "computer_level"):
        seats[table_id][position] = None if level else user_id
    return [[table_id, seats[table_id]] for table_id in table_ids]


def all_dealt(event_id: int, number: int) -> bool:
    """Whether every table of round ``number`` has its first deal dealt (a hand in play or
    played)."""
    from django.db.models import Q

    from events.models import EventRound, EventTable

    formed = EventRound.objects.filter(event_id=event_id, number=number).exists()
    waiting = EventTable.objects.filter(round__event_id=event_id, round__number=number).filter(
        Q(table__current__isnull=True) & Q(table__hands__isnull=True))
    return formed and not waiting.exists()


def start_event(event_id: int) -> dict:
    """The organiser starts the event (``events.running.start``), timed: ``pairing_ms``, the
    Swiss pairing of round 1 inside it; ``start_s``, the call; ``round_start_s``, from the call
    until every table of round 1 has its first deal dealt.  And round 1's tables."""
    from events import pairing, running
    from events.models import Event

    event = Event.objects.select_related("organiser").get(pk=event_id)
    spent: list[float] = []
    swiss_round = pairing.swiss_round

    def timed_swiss_round(*args, **kwargs):
        began = time.perf_counter()
        try:
            return swiss_round(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - began)

    pairing.swiss_round = timed_swiss_round  # what ``running`` calls, as ``pairing.swiss_round``
    began = time.perf_counter()
    running.start(event, event.organiser)
    start_s = time.perf_counter() - began
    while not all_dealt(event_id, 1):
        time.sleep(0.01)
    round_start_s = time.perf_counter() - began
    pairing.swiss_round = swiss_round
    return {"pairing_ms": 1000 * sum(spent), "start_s": start_s,
            "round_start_s": round_start_s, "tables": round_tables(event_id, 1)}


def wait_round(event_id: int, number: int, seconds: float) -> dict:
    """Round ``number`` once every table of it is dealt (formed by the servers when the last
    table of the round before finished: ``events.running.advance``), within ``seconds``.
    ``round_start_s``: from the last hand of the round before stored until the last table
    of this one opened (each opened and dealt in one transaction), by the database's clock."""
    from events.models import EventRound, EventTable
    from games.models import Hand

    deadline = time.monotonic() + seconds
    while not all_dealt(event_id, number):
        if time.monotonic() > deadline:
            raise RuntimeError(f"round {number} was not dealt within {seconds:g} s")
        time.sleep(0.1)
    before = EventRound.objects.get(event_id=event_id, number=number - 1)
    ended = max(Hand.objects.filter(table__event_table__round=before)
                .values_list("finished_at", flat=True))
    opened = max(EventTable.objects.filter(round__event_id=event_id, round__number=number)
                 .values_list("table__created_at", flat=True))
    return {"round_start_s": (opened - ended).total_seconds(),
            "tables": round_tables(event_id, number)}


def compare_deals(event_id: int) -> dict:
    """Whether every table of every round formed was dealt the event's stored deals: for each
    hand it was dealt (played, or in play), the same dealer and the same cards in the same
    seats (and the same kitty) as the deal of the event's set it stands for, read back from
    the database.  ``equal``; ``hands`` compared; ``differ``, the first few that do not."""
    from events.models import Event, EventTable

    event = Event.objects.get(pk=event_id)
    stored = event.deals["deals"]
    hands = 0
    differ = []
    for event_table in (EventTable.objects.filter(round__event=event)
                        .select_related("round", "table").prefetch_related("table__hands")):
        table = event_table.table
        expected = [stored[i] for i in event.round_deals(event_table.round.number)]
        dealt = [hand.record for hand in sorted(table.hands.all(), key=lambda h: h.number)]
        if table.current is not None and len(dealt) < len(expected):
            dealt.append(table.current)
        if not dealt or len(dealt) > len(expected):
            differ.append([table.pk, f"{len(dealt)} hands dealt of {len(expected)}"])
        for index, (record, deal) in enumerate(zip(dealt, expected, strict=False)):
            hands += 1
            same = (record["dealer"] == deal["dealer"] and record["hands"] == deal["hands"]
                    and record.get("kitty") == deal.get("kitty"))
            if not same:
                differ.append([table.pk, f"deal {index + 1} differs"])
    return {"equal": not differ, "hands": hands, "differ": differ[:5]}


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
    step = steps.add_parser("event")
    step.add_argument("--people", type=int, required=True)
    step.add_argument("--game", required=True)
    step.add_argument("--rounds", type=int, required=True)
    step.add_argument("--deals", type=int, required=True)
    step.add_argument("--first-id", type=int, required=True)
    step = steps.add_parser("start-event")
    step.add_argument("--event", type=int, required=True)
    step = steps.add_parser("wait-round")
    step.add_argument("--event", type=int, required=True)
    step.add_argument("--number", type=int, required=True)
    step.add_argument("--seconds", type=float, required=True)
    step = steps.add_parser("compare-deals")
    step.add_argument("--event", type=int, required=True)
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
    elif args.step == "event":
        result = create_event(args.people, args.game, args.rounds, args.deals, args.first_id)
    elif args.step == "start-event":
        result = start_event(args.event)
    elif args.step == "wait-round":
        result = wait_round(args.event, args.number, args.seconds)
    elif args.step == "compare-deals":
        result = compare_deals(args.event)
    else:
        result = schedule_rebuilds(args.game, args.every, args.count)
    print(RESULT + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
