"""The pairing of an event on a large field (events/pairing.py), against a floor.

    .venv/bin/python bench/events.py [--players 400] [--rounds 7] [--runs 5]

No Django, no database: the pure module alone, on one core.  For each table format (Bid
Whist's partnerships of four, Cutthroat's three, Solo's and Belgian Whist's four each for
themselves) it plays ``--rounds`` Swiss rounds of ``--players`` with random results, then
times the next round (``swiss_round``) and an arena re-forming (``arena_tables`` for a tenth
of the field waiting, as when a few tables finish together).  The floor, measured in the same
run on the same field: the players sorted by score and cut into tables, no history read (what
a pairing that avoided nothing would cost).  Prints one line per measure:
``events <kind> <format>: pairing_ms=X floor_ms=Y ratio=Z repeats=R exact=E``.

``--site``: an event through the site itself, in a throwaway test database (meant for
PostgreSQL; the channel layer left in memory, without REDIS_URL: the test client runs each
request in an event loop of its own, and with Redis each loop opens a connection of its own,
which /healthz, the floor, pays in full: about 107 ms a request instead of 3, where daphne's
one loop answers it in 5 to 10 ms):

    DATABASE_URL=postgres://... .venv/bin/python bench/events.py --site

400 people register for a Bid Whist event of two rounds of one deal: 100 tables.  It times
the start (the deal set chosen, round 1 paired and its 100 tables opened and dealt, the seats
nobody took given to computer players), every table's deal played (random legal moves, not
timed), the next round paired (the round ended, its results read, round 2 paired and its
tables opened: ``events.running.advance``), then the p50 of a deal's traveller (100 tables'
lines) and of the standings page, each against a trivial page (/healthz) timed in the same
run.  A round over for everyone is kept in the cache (``events.views``): the first view of each page
counts it (``first_ms``), the others read it kept (the p50).  Last line: ``events site:
tables=T start_ms=S (xR) pair_next_ms=P (xR) traveller_first_ms=F traveller_p50=X ms (xR)
standings_first_ms=G standings_p50=Y ms (xR) trivial_p50=Z ms``, each ratio against the
trivial page.

``--site --format arena``: the same 400 people in a Bid Whist arena of one deal a table
(100 tables).  It times the start (every table opened and dealt), then plays each table's deal
and times its end heard, one table at a time as an arena's tables finish: each end re-forms a
table of the four just freed (``events.arena.step``: who waits, read from the database, the
standings so far, the seating, the next block, the table opened and dealt), then the traveller
of deal 1 (100 tables' lines) and the live standings (an arena's are not kept: they change
with each table).  Last line: ``events site arena: tables=T start_ms=S (xR) reform_p50_ms=P
(xR) reform_max_ms=M traveller_first_ms=F traveller_p50=X ms (xR) standings_first_ms=G
standings_p50=Y ms (xR) trivial_p50=Z ms``.

``--paced``: the event played by people over the real WebSockets, at a person's pace, on
PostgreSQL and Redis as the site runs (a throwaway database made on ``--database-url``'s
server, one Redis db, ``--redis-url``, emptied at the end):

    .venv/bin/python bench/events.py --paced --redis-url redis://127.0.0.1:6379/9
    .venv/bin/python bench/events.py --paced --tables 25 --deals 1      # a quick run
    .venv/bin/python bench/events.py --paced --rounds 2                 # and the next round

A Bid Whist event (``--game``; any game of four seats) of ``--tables`` × 4 people (400),
Swiss, ``--rounds`` rounds (1) of ``--deals`` deals (2), made, registered and signed in in
bulk (bench/ws_setup.py, as bench/ws_load.py's tables; ``--people`` fewer leaves seats to
computer players, as the event gives them, their moves made by the servers with the site's
pause).  The site's own daphne processes serve it (``tests.live_servers``, ``DEBUG=0``, the
channel layer on Redis; ``--server-procs``, 1); the event starts through
``events.running.start`` in a process of its own, as ``manage.py start_events`` starts it.
Then each person's JSON client (bench/ws_load.py's, in ``--client-procs`` processes)
connects to their own table and the round is played: at each table the seat to act sends a
random legal action after a think time of ``--pace`` (2 s) × 0.5–1.5, until every table has
played its deals.  A next round is formed by the servers when the last table finishes
(``events.running.advance``); the clients then connect to their new tables.  After the
rounds, the bare relay of bench/ws_load.py (its floor-1proc) is run for as many tables at
the same pace for ``--floor-seconds`` (30): the floor.  Lines per round, then the last:

    events: tables=T pairing_ms=P round_start_s=S p95=X ms p99=Y ms duplicate_deals_equal=yes|no

- ``pairing_ms``: round 1's Swiss pairing (``events.pairing.swiss_round``) inside the start;
- ``round_start_s``: from the start call until every table of round 1 has its first deal
  dealt; for a later round, from the last hand of the round before stored until the last
  table of the new one opened (each table opened and dealt in one transaction); the worst
  round's;
- ``p95``, ``p99``: the people's actions of every round, each from its sending until every
  person's socket at the table has a state of the new version (as bench/ws_load.py measures
  them; a computer player's seat has no socket);
- ``duplicate_deals_equal``: whether every hand each table was dealt (played, or in play)
  has the dealer, the cards in each seat and the kitty of the event's stored deal set,
  read back from the database after the run.

Goals (docs/performance.md): pairing under 1 s, every table dealt within 5 s of its round's
start, and the live tables' paced goals, p95 under 100 ms and p99 under 150 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from events.pairing import Standing, Waiting, arena_tables, swiss_round  # noqa: E402

FORMATS = (("partnership-4", 4, True), ("each-for-themselves-3", 3, False),
           ("each-for-themselves-4", 4, False))


def played(players: dict, size: int, partnership: bool, rounds: int, rng: random.Random):
    """``players`` after ``rounds`` Swiss rounds with random results; also each player's last
    table."""
    last: dict = {}
    for number in range(rounds):
        result = swiss_round(players.values(), size=size, partnership=partnership, seed=number)
        for table in result.tables:
            for seat, pid in enumerate(table):
                p = players[pid]
                partners = {table[(seat + 2) % 4]} if partnership else set()
                opponents = set(table) - {pid} - partners
                players[pid] = Standing(pid, p.score + rng.randint(0, 4), p.opponents | opponents,
                                        p.partners | partners, p.byes)
                last[pid] = frozenset(table) - {pid}
        for pid in result.sitting_out:
            p = players[pid]
            players[pid] = Standing(pid, p.score + 2, p.opponents, p.partners, p.byes + 1)
    return players, last


def floor(players, size: int):
    """Sorted by score and cut into tables: no repeat avoided, no bye chosen."""
    order = sorted(players, key=lambda p: -p.score)
    usable = len(order) - len(order) % size
    return [tuple(p.id for p in order[i:i + size]) for i in range(0, usable, size)]


def timed(call, runs: int) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        call()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def measure(name: str, size: int, partnership: bool, args: argparse.Namespace) -> list[str]:
    """A Swiss round and an arena re-forming of one table format, each with its floor."""
    lines = []
    rng = random.Random(1)
    players, last = played({i: Standing(i, 0) for i in range(args.players)}, size,
                           partnership, args.rounds, rng)
    field = list(players.values())
    result = swiss_round(field, size=size, partnership=partnership, seed=args.rounds)
    swiss_ms = timed(lambda: swiss_round(field, size=size, partnership=partnership,
                                         seed=args.rounds), args.runs)
    floor_ms = timed(lambda: floor(field, size), args.runs)
    lines.append(f"events swiss {name}: pairing_ms={swiss_ms:.2f} floor_ms={floor_ms:.3f} "
                 f"ratio={swiss_ms / floor_ms:.0f} repeats={result.repeats} "
                 f"exact={result.exact}")
    count = max(size, args.players // 10 // size * size + 1)
    waiting = [Waiting(p.id, p.score, last.get(p.id, frozenset()), since=i)
               for i, p in enumerate(rng.sample(field, count))]
    arena = arena_tables(waiting, size=size, partnership=partnership, seed=1)
    arena_ms = timed(lambda: arena_tables(waiting, size=size, partnership=partnership,
                                          seed=1), args.runs)
    arena_floor = timed(lambda: floor(waiting, size), args.runs)
    lines.append(f"events arena {name} ({count} waiting): pairing_ms={arena_ms:.2f} "
                 f"floor_ms={arena_floor:.3f} ratio={arena_ms / arena_floor:.0f} "
                 f"repeats={arena.repeats} exact={arena.exact}")
    return lines


def site(args: argparse.Namespace) -> None:
    """The event through the site: start, the next round, the traveller and the standings."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "whistclub.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection

    from events import running
    from games import computer_players, followups, presence, tables
    from games.models import Seat, Table

    # The bench plays every seat itself: no computer's thread, no move clock's timer.
    computer_players.schedule_computer_players = lambda table_id, own_thread=False: None
    presence.watch_move = lambda table_id, deadline, now=None: None
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        people = [get_user_model().objects.create_user(f"player{n:03d}",
                                                        password="bench-password-1")
                  for n in range(args.players)]
        if args.format == "arena":
            site_arena(args, people)
            return
        event, client, start_ms = started_event(people, name="Bench", rounds=2)
        first = event.event_rounds.get(number=1)
        table_ids = list(first.tables.values_list("table_id", flat=True))
        rng = random.Random(1)
        began = time.perf_counter()
        for table_id in table_ids:
            play_out(table_id, rng, tables, Seat, Table)
        print(f"played {len(table_ids)} tables' deal in {time.perf_counter() - began:.1f} s "
              f"on {connection.vendor}")
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        began = time.perf_counter()
        running.advance(event.pk)
        pair_ms = (time.perf_counter() - began) * 1000
        assert event.event_rounds.filter(number=2).exists(), "round 2 was not formed"
        followups.process_due()
        if os.environ.get("BENCH_PROFILE"):
            from bench.profiling import print_page_profile
            for url in (f"/events/{event.pk}/deals/1/", f"/events/{event.pk}/standings/"):
                print_page_profile(client, url, runs=5, top=30)
        first_ms = {}
        for name, url in (("traveller", f"/events/{event.pk}/deals/1/"),
                          ("standings", f"/events/{event.pk}/standings/")):
            began = time.perf_counter()
            assert client.get(url).status_code == 200
            first_ms[name] = (time.perf_counter() - began) * 1000
        pages = {name: page_p50(client, url, args.page_runs) for name, url in (
            ("traveller", f"/events/{event.pk}/deals/1/"),
            ("standings", f"/events/{event.pk}/standings/"),
            ("trivial", "/healthz"))}
        floor_ms = pages["trivial"]
        print(f"events site: tables={len(table_ids)} "
              f"start_ms={start_ms:.0f} (x{start_ms / floor_ms:.0f}) "
              f"pair_next_ms={pair_ms:.0f} (x{pair_ms / floor_ms:.0f}) "
              f"traveller_first_ms={first_ms['traveller']:.0f} "
              f"traveller_p50={pages['traveller']:.1f} ms (x{pages['traveller'] / floor_ms:.0f}) "
              f"standings_first_ms={first_ms['standings']:.0f} "
              f"standings_p50={pages['standings']:.1f} ms (x{pages['standings'] / floor_ms:.0f}) "
              f"trivial_p50={floor_ms:.2f} ms")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def started_event(people, **fields):
    """A Bid Whist event of one deal a round for ``people``, everyone registered, started by
    its organiser (``people[0]``) with a client signed in as them and warmed up: the event, the
    client and the start's milliseconds."""
    from django.test import Client
    from django.utils import timezone

    from events import running
    from events.models import Event

    event = Event.objects.create(organiser=people[0], game="bid_whist", deals_per_round=1,
                                 starts_at=timezone.now() + timedelta(hours=1), **fields)
    for person in people:
        running.register(event, person)
    client = Client()
    client.force_login(people[0])
    for _ in range(5):  # warm-up: templates, connections
        client.get("/healthz")
    began = time.perf_counter()
    running.start(event, people[0])
    return event, client, (time.perf_counter() - began) * 1000


def site_arena(args: argparse.Namespace, people: list) -> None:
    """The arena through the site (``--site --format arena``): its start (every table opened
    and dealt), then each table's deal played and its end heard one table at a time, as the
    tables of an arena finish: each end re-forms a table of the four just freed
    (``events.arena.step``: who waits, read from the database, the arena's standings so far,
    the seating, the next block and the table opened and dealt), timed; then a deal's
    traveller and the live standings (an arena's are never kept: they change with each
    table)."""
    from django.db import connection

    from events import arena
    from events.models import LONGEST_ARENA_MINUTES, LONGEST_ROUND_MINUTES, Event, EventTable
    from games import followups, tables
    from games.models import Seat, Table

    # The longest arena and table clock: the bench plays every table in turn, slower than a
    # table's usual 6 minutes a deal.
    event, client, start_ms = started_event(
        people, name="Bench arena", format=Event.Format.ARENA, rounds=1,
        arena_minutes=LONGEST_ARENA_MINUTES, round_minutes=LONGEST_ROUND_MINUTES)
    first_tables = list(EventTable.objects.filter(round__event=event)
                        .values_list("table_id", flat=True))
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    rng = random.Random(1)
    reform_ms = []
    began = time.perf_counter()
    for table_id in first_tables:
        play_out(table_id, rng, tables, Seat, Table)
        opened_before = EventTable.objects.filter(round__event=event).count()
        started = time.perf_counter()
        followups.process_due()  # the table's end, heard by events: its four seated again
        reform_ms.append((time.perf_counter() - started) * 1000)
        assert EventTable.objects.filter(round__event=event).count() == opened_before + 1, \
            "a finished table's people were not seated again"
    print(f"played {len(first_tables)} tables' deal and re-formed each in "
          f"{time.perf_counter() - began:.1f} s on {connection.vendor}")
    assert arena.step(event.pk) == [], "the same end heard twice opened a table"
    pages = {}
    first_ms = {}
    for name, url in (("traveller", f"/events/{event.pk}/deals/1/"),
                      ("standings", f"/events/{event.pk}/standings/")):
        began = time.perf_counter()
        assert client.get(url).status_code == 200
        first_ms[name] = (time.perf_counter() - began) * 1000
        pages[name] = page_p50(client, url, args.page_runs)
    floor_ms = page_p50(client, "/healthz", args.page_runs)
    reform_p50, reform_max = statistics.median(reform_ms), max(reform_ms)
    print(f"events site arena: tables={len(first_tables)} "
          f"start_ms={start_ms:.0f} (x{start_ms / floor_ms:.0f}) "
          f"reform_p50_ms={reform_p50:.0f} (x{reform_p50 / floor_ms:.0f}) "
          f"reform_max_ms={reform_max:.0f} "
          f"traveller_first_ms={first_ms['traveller']:.0f} "
          f"traveller_p50={pages['traveller']:.1f} ms (x{pages['traveller'] / floor_ms:.0f}) "
          f"standings_first_ms={first_ms['standings']:.0f} "
          f"standings_p50={pages['standings']:.1f} ms (x{pages['standings'] / floor_ms:.0f}) "
          f"trivial_p50={floor_ms:.2f} ms")


def play_out(table_id: int, rng: random.Random, tables, Seat, Table) -> None:  # noqa: N803
    """Every seat of the table plays random legal moves until its deals are played."""
    seats = {seat.position: seat for seat in Seat.objects.filter(table_id=table_id)
             .select_related("user")}
    for _ in range(2000):
        table = Table.objects.get(pk=table_id)
        if table.status == Table.Status.FINISHED:
            return
        state = tables.current_state(table)
        seat = seats[state.to_act]
        action = state.random_action(rng)
        if seat.user_id is not None and not seat.computer_level:
            tables.play(table_id, seat.user, action, table.version)
        else:
            tables.play_for_computer(table_id, seat.position, action, table.version)
    raise RuntimeError(f"table {table_id} never finished")


def page_p50(client, url: str, runs: int) -> float:
    for _ in range(3):
        client.get(url)
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - began) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    return statistics.median(times)


# -- --paced: an event played over the sockets at a person's pace ----------------------------------

# An event's tables from this id up (their groups apart from a test run's on the same Redis).
FIRST_TABLE_ID = 950_000
# The servers as bench/ws_load.py runs them, with the computer players' pause of the site
# (0.8 s before a move, as at any table): an event's empty seats are theirs.
EVENT_SERVER_ENV = {"COMPUTER_DELAY_SECONDS": "0.8"}


def round_keys(tables: list, sessions: dict) -> list:
    """A round's tables as the clients take them: [[table id, [each seat's session key, None
    for a computer player's seat]]], from [[table id, [user id or None]]] and the people's
    session keys by user id (as text, JSON's keys)."""
    return [[table_id, [None if uid is None else sessions[str(uid)] for uid in seats]]
            for table_id, seats in tables]


def children(pids: list[int]) -> list[int]:
    """The child processes of these (a server's follow-up worker), from /proc."""
    found = []
    for pid in pids:
        for task in Path(f"/proc/{pid}/task").glob("*"):
            try:
                found += [int(c) for c in (task / "children").read_text().split()]
            except (OSError, ValueError):
                pass
    return found


def play_round(servers: list, tables: list, args: argparse.Namespace, seconds: float) -> dict:
    """The people of ``tables`` connect to their own tables and play until every table has
    played its deals (``seconds`` at most), at ``args.pace``: bench/ws_load.py's clients, in
    ``args.client_procs`` processes.  Their latencies and counts, added up."""
    import multiprocessing

    from bench import ws_load

    context = multiprocessing.get_context("fork")
    ready, results = context.Queue(), context.Queue()
    go = context.Event()
    shared = {"start_at": context.Value("d", 0.0)}
    procs = []
    k = max(1, min(args.client_procs, len(tables)))
    for index in range(k):
        share = [(i, table_id, keys) for i, (table_id, keys) in enumerate(tables) if i % k == index]
        options = {"index": index, "floor": False, "html": False, "pace": args.pace,
                   "seed": args.seed * 100 + index, "pad": 0,
                   "servers": [s.ws_url for s in servers], "tables": share, "warmup": 0.0,
                   "seconds": seconds, "drain": 30.0, "connect_concurrency": 8,
                   "shared": shared, "chat_pace": 0.0, "own_addresses": False,
                   "until_finished": True}
        proc = context.Process(target=ws_load.client_process,
                               args=(options, ready, go, results))
        proc.start()
        procs.append(proc)
    connected = failures = 0
    began = time.monotonic()
    for _ in procs:
        _index, count, failed = ready.get(timeout=300)
        connected += count
        failures += failed
    connect_s = time.monotonic() - began
    ws_load.settle(servers)
    load = os.getloadavg()[0]
    pids = [s.process.pid for s in servers]
    workers = children(pids)
    before = (ws_load.cpu_seconds(pids), ws_load.machine_cpu(), ws_load.cpu_seconds(workers))
    shared["start_at"].value = time.time() + 0.5
    go.set()
    parts = [results.get(timeout=seconds + 120) for _ in procs]
    after = (ws_load.cpu_seconds(pids), ws_load.machine_cpu(), ws_load.cpu_seconds(workers))
    for proc in procs:
        proc.join(timeout=30)
        if proc.is_alive():
            proc.terminate()
    played_s = max(part["played_seconds"] for part in parts)
    busy, elapsed = after[1][0] - before[1][0], after[1][1] - before[1][1]
    latencies = [v for part in parts for v in part["latencies"]]
    ending = [v for part in parts for v in part["ending_latencies"]]
    return {"ending": ending, "tables": connected, "connect_failures": failures, "connect_s": connect_s,
            "latencies": latencies, "played_s": played_s, "load": load,
            "server_cores": (after[0] - before[0]) / played_s if played_s else 0.0,
            "worker_cores": (after[2] - before[2]) / played_s if played_s else 0.0,
            "machine_busy": busy / elapsed if elapsed else float("nan"),
            **{key: sum(part[key] for part in parts)
               for key in ("finished", "sent", "lost", "errors", "send_failures", "messages",
                           "message_bytes")},
            "error_samples": [e for part in parts for e in part["error_samples"]][:3]}


def floor_line(tables: list, rounds: list[dict], args: argparse.Namespace, tmp: Path) -> None:
    """The floor, in the same run: bench/ws_load.py's bare relay (its floor-1proc) for as many
    tables of four sockets, at the same pace, relaying messages of the real states' mean size,
    for ``--floor-seconds``: what the sockets, the channel layer and this machine's load
    cost before any of the site's work."""
    from bench import ws_load
    from tests.live_servers import free_port

    messages = sum(r["messages"] for r in rounds)
    pad = max(0, int(sum(r["message_bytes"] for r in rounds) / messages) - 60) if messages else 0
    bare = ws_load.BareServer(args.port + args.server_procs if args.port else free_port(),
                              tmp / "floor.log", args.redis_url).start()
    options = argparse.Namespace(pace=args.pace, client_procs=args.client_procs, seed=args.seed,
                                 warmup=3.0, seconds=args.floor_seconds, drain=10.0,
                                 redis_url=args.redis_url)
    try:
        load = os.getloadavg()[0]
        result = ws_load.run_scenario("floor-1proc", [bare],
                                      [[table_id, [""] * 4] for table_id, _seats in tables],
                                      options, pad)
    finally:
        bare.stop()
    print(f"floor (the bare relay, {result['tables']} tables at the same pace, "
          f"{args.floor_seconds:g} s): p50={result['p50']:.0f} ms p95={result['p95']:.0f} ms "
          f"p99={result['p99']:.0f} ms measured={result['measured']} "
          f"(load average before: {load:.1f})", flush=True)


def paced(args: argparse.Namespace) -> None:
    """The event over the real sockets: see the module's docstring."""
    import tempfile

    os.environ["DATABASE_URL"] = args.database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "whistclub.settings"
    os.environ.pop("WHISTCLUB_REQUIRE_SERVICES", None)
    import redis

    from bench import ws_load, ws_setup
    from tests.live_servers import DaphneServer, ServerDatabase

    people = args.people if args.people is not None else 4 * args.tables
    tmp = Path(tempfile.mkdtemp(prefix="events-paced-"))
    print(f"events --paced: {people} people, {args.game}, {args.rounds} round(s) of "
          f"{args.deals} deal(s), one action per table every {args.pace:g} s (jittered), "
          f"{args.server_procs} server process(es), {os.cpu_count()} CPUs; logs in {tmp}",
          flush=True)
    database = ServerDatabase(tmp)
    if database._drop is None:
        raise SystemExit("--database-url must be a PostgreSQL server")
    servers: list = []
    rounds: list[dict] = []
    try:
        began = time.monotonic()
        database.manage("migrate", "--noinput", "-v0")
        created = ws_setup.run(ws_load.setup_env(database), "event", "--people", people,
                               "--game", args.game, "--rounds", args.rounds,
                               "--deals", args.deals, "--first-id", FIRST_TABLE_ID)
        print(f"setup: {people} people registered, signed in, in "
              f"{time.monotonic() - began:.1f} s", flush=True)
        env = {**ws_load.SERVER_ENV, **EVENT_SERVER_ENV}
        servers = [DaphneServer(database, tmp / f"daphne-{i}.log",
                                port=args.port + i if args.port else None,
                                REDIS_URL=args.redis_url, **env).start()
                   for i in range(args.server_procs)]
        # The start as the periodic command makes it: a process of its own, on the servers'
        # settings and channel layer.
        serving = database.env(REDIS_URL=args.redis_url, **env)
        load = os.getloadavg()[0]
        started = ws_setup.run(serving, "start-event", "--event", created["event"])
        print(f"round 1: pairing_ms={started['pairing_ms']:.1f} start_s={started['start_s']:.2f} "
              f"round_start_s={started['round_start_s']:.2f} tables={len(started['tables'])} "
              f"(load average before: {load:.1f})", flush=True)
        formed = started
        # The round clock, and a minute more: then the computers have finished its deals.
        seconds = args.deals * 6 * 60 + 60
        for number in range(1, args.rounds + 1):
            if number > 1:
                formed = ws_setup.run(serving, "wait-round", "--event", created["event"],
                                      "--number", number, "--seconds", 300)
                print(f"round {number}: round_start_s={formed['round_start_s']:.2f} (from the "
                      f"last hand of round {number - 1})", flush=True)
            played = play_round(servers, round_keys(formed["tables"], created["sessions"]),
                                args, seconds)
            played["round_start_s"] = formed["round_start_s"]
            rounds.append(played)
            lat = played["latencies"]
            print(f"round {number}: {played['tables']} tables connected in "
                  f"{played['connect_s']:.1f} s, {played['finished']} finished in "
                  f"{played['played_s']:.0f} s; people's actions sent={played['sent']} "
                  f"measured={len(lat)} lost={played['lost']} errors={played['errors']} "
                  f"{played['error_samples'] or ''}actions/s={len(lat) / played['played_s']:.1f} "
                  f"p50={ws_load.percentile(lat, 50):.0f} ms "
                  f"p95={ws_load.percentile(lat, 95):.0f} ms "
                  f"p99={ws_load.percentile(lat, 99):.0f} ms "
                  f"max={max(lat, default=float('nan')):.0f} ms; hand-ending actions="
                  f"{len(played['ending'])} p95={ws_load.percentile(played['ending'], 95):.0f} ms "
                  f"p99={ws_load.percentile(played['ending'], 99):.0f} ms; "
                  f"daphne={played['server_cores']:.2f} cores, its follow-up worker "
                  f"{played['worker_cores']:.2f}, "
                  f"machine={played['machine_busy']:.0%} "
                  f"(load average before: {played['load']:.1f})", flush=True)
        compared = ws_setup.run(ws_load.setup_env(database), "compare-deals",
                                "--event", created["event"])
        print(f"deals: {compared['hands']} hands compared with the event's stored set; "
              f"differ: {compared['differ'] or 'none'}", flush=True)
        for server in servers:
            server.stop()
        if args.floor_seconds > 0:
            floor_line(started["tables"], rounds, args, tmp)
    finally:
        for server in servers:
            server.stop()
        database.drop()
        redis.Redis.from_url(args.redis_url).flushdb()
    latencies = [v for played in rounds for v in played["latencies"]]
    print(f"events: tables={len(started['tables'])} pairing_ms={started['pairing_ms']:.1f} "
          f"round_start_s={max(r['round_start_s'] for r in rounds):.2f} "
          f"p95={ws_load.percentile(latencies, 95):.0f} ms "
          f"p99={ws_load.percentile(latencies, 99):.0f} ms "
          f"duplicate_deals_equal={'yes' if compared['equal'] else 'no'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=None,
                        help="rounds played before the pairing timed (7); --paced: the "
                             "event's rounds, each played (1)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--site", action="store_true",
                        help="an event of --players people through the site (Django)")
    parser.add_argument("--format", choices=("swiss", "arena"), default="swiss",
                        help="--site: a Swiss event's two rounds, or an arena's tables "
                             "re-formed as each finishes")
    parser.add_argument("--page-runs", type=int, default=30)
    parser.add_argument("--paced", action="store_true",
                        help="an event of --tables tables played over the sockets at a "
                             "person's pace (PostgreSQL, Redis)")
    parser.add_argument("--tables", type=int, default=100, help="--paced: tables of four")
    parser.add_argument("--people", type=int, default=None,
                        help="--paced: people registered (4 x --tables unless given: fewer "
                             "leave seats to computer players)")
    parser.add_argument("--game", default="bid_whist", help="--paced: the event's game")
    parser.add_argument("--deals", type=int, default=2, help="--paced: deals a round")
    parser.add_argument("--pace", type=float, default=2.0,
                        help="--paced: mean seconds between two actions at a table")
    parser.add_argument("--server-procs", type=int, default=1,
                        help="--paced: daphne processes (a table's seats spread over them, "
                             "as bench/ws_load.py's paced-Nproc)")
    parser.add_argument("--port", type=int, default=None,
                        help="--paced: the first server's port (the next ones follow); "
                             "free ports unless given")
    parser.add_argument("--client-procs", type=int, default=2)
    parser.add_argument("--floor-seconds", type=float, default=30.0,
                        help="--paced: seconds of the bare relay's floor after the rounds "
                             "(0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/9")
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/postgres",
                        help="--paced: a PostgreSQL server to make the bench's own database on")
    args = parser.parse_args()
    if args.site:
        site(args)
        return
    if args.rounds is None:
        args.rounds = 1 if args.paced else 7
    if args.paced:
        paced(args)
        return
    lines = []
    for name, size, partnership in FORMATS:
        lines += measure(name, size, partnership, args)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
