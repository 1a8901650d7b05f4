"""Live tables under load: N tables of four scripted JSON clients playing real hands.

    .venv/bin/python bench/ws_load.py [--tables 250] [--seconds 30] [--client-procs 2]
                                      [--quick] [--scenarios paced-1proc,floor-1proc,...]

Starts the site's own daphne processes (``tests.live_servers``) on a fresh PostgreSQL database
with the channels_redis pub/sub layer (``--redis-url``, one Redis db of the bench's own), and
creates N Bid Whist tables with four human seats each (users and their sessions made in bulk
in one process: bench/ws_setup.py).  Four JSON clients per table play real hands: the client whose
seat is ``to_act`` sends a random legal action (or a random discard) after a jittered think
time; the latency of an action is from its sending until all four sockets of the table have
received a state of the new version.  The same clients, at the same pace, then drive a bare
consumer (bench/bare_asgi.py) that only group_sends each message to the table's four sockets
over the same layer: the floor.  The load generator runs as several processes (``--client-procs``),
each an asyncio loop with its share of the tables; the parent computes the percentiles.

Scenarios (each started on fresh server processes, all on the same database):

    paced-1proc             N tables, one action per table every 2 s (jittered), one daphne
    paced-2proc             the same over two daphne processes, each table's seats split
    routed-2proc            the same two processes behind the shipped nginx configuration,
                            which routes each table's sockets to one process (a hash of its
                            id); each table's clients come from a loopback address of their
                            own, as players do (nginx caps sockets per address)
    paced-Nproc, routed-Nproc   the same over N processes (any N: paced-4proc, routed-4proc)
    saturation-2proc        think time 0: as many actions per second as two processes take
    saturation-1proc        think time 0 against one process
    floor-1proc             the bare relay, paced like paced-1proc
    floor-saturation-1proc  the bare relay, think time 0
    hostile-1proc           paced-1proc beside hostile clients: 200 anonymous lobby sockets
                            while an account leaves and re-takes a seat five times a second
                            (every change is a lobby change), and one signed-in user opening
                            50 sockets on a table, each asking for a snapshot at just under
                            the per-socket rate; the honest tables' goal is the paced one
    html-paced-1proc        paced-1proc, the clients on the browser's path: each socket
                            receives the table's HTML fragment (what htmx swaps in), reads
                            the version and its forms (the calls and cards it may play, a
                            discard's count) from it and sends what the form would; the
                            goals are the paced ones, and "mean message" is the fragment
    busy-day-1proc          paced-1proc on a busy day: 5,000 online hands among people already
                            finished (and rated) today, and the tables finishing hands as they
                            play; the goals are the paced ones for every click, and the clicks
                            that ended a hand are also reported apart
    chat-1proc              paced-1proc while the players talk: a preset phrase said at each
                            table every 30 s (jittered), by a seat chosen at random; the goals
                            are the paced ones for every click, and the phrases' own latency
                            (from the sending until all four sockets of the table hold the
                            line) is reported apart
    busy-day-rebuilds-1proc busy-day-1proc while the server's follow-up worker re-rates the
                            whole site from the start every 15 s (what a club's visibility
                            switched, or a result dated long ago, asks of it)
    html-paced-Nproc, html-routed-Nproc   the browser's path over N processes (html-routed-2proc:
                            this 2-core machine served as deployed, one process a core)

Ends with one line per scenario,
``<scenario>: tables=N actions/s=X p50=Y ms p95=Z ms p99=W ms floor_ratio=R fanout=F``, where
floor_ratio is actions/s over the floor of the same pacing (floor-1proc for paced scenarios,
floor-saturation-1proc for saturation ones) and fanout is the group messages server processes
receive per action: Redis's own count of the processes subscribed to each table's group
(``PUBSUB NUMSUB``, sampled in the measured window, averaged over the tables), which is the
copies Redis sends of each action's message.  Figures: docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import math
import multiprocessing
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):  # run as a file: the project's root, where bench/ is a package
    sys.path.insert(0, str(ROOT))

from bench import ws_setup  # noqa: E402

SCENARIOS = ("paced-1proc", "paced-2proc", "routed-2proc", "saturation-2proc",
             "saturation-1proc", "floor-1proc", "floor-saturation-1proc", "hostile-1proc",
             "html-paced-1proc", "busy-day-1proc", "busy-day-rebuilds-1proc", "chat-1proc")
# chat-1proc: one phrase per table every this many seconds on average (jittered), the pace of
# a table whose players greet, thank and congratulate each other between tricks.
CHAT_PACE = 30.0
CHAT_PHRASES = ("good_luck", "well_played", "thanks", "sorry")
# busy-day: this many online hands already finished today (and rated) before the run.
HANDS_FINISHED_TODAY = 5000
HOSTILE_LOBBY_SOCKETS = 200
HOSTILE_USER_SOCKETS = 50
HOSTILE_RATE = 9.0  # messages per second per socket: just under WS_RATE_PER_SECOND (10)
# Table ids start high: Redis pub/sub channels ignore the db number, so the bench's groups
# (``table-<id>``) must not be the groups of a test run sharing the same Redis.
FIRST_TABLE_ID = 900_000
# A match that never ends within a run: hands chain for as long as the bench plays.
RULES = {"game_target": 1000, "boston": "normal"}
SERVER_ENV = {
    "COMPUTER_DELAY_SECONDS": "0", "COMPUTER_WORKERS": "0",
    # Flood control off in effect: a saturated client must not be slowed by its own bucket.
    "WS_RATE_PER_SECOND": "100000", "WS_BURST": "100000",
    "WS_PERSON_RATE_PER_SECOND": "100000", "WS_PERSON_BURST": "100000",
    # Production-like: no query log kept per connection, no DEBUG pages.
    "DEBUG": "0", "SECRET_KEY": "bench-ws-load-not-secret", "SECURE_SSL_REDIRECT": "0",
    "SECURE_COOKIES": "0", "LOG_LEVEL": "WARNING",
}

# -- the client side: one process, an asyncio loop, its share of the tables ---------------------

# What a browser's socket reads of the table's HTML fragment: the version, and its forms.
FRAGMENT_VERSION = re.compile(r'id="table-state"[^>]*?data-version="(\d+)"')
FRAGMENT_ACTION = re.compile(r'name="action" value="([^"]+)"')
FRAGMENT_DISCARD = re.compile(r'class="discard-form" data-count="(\d+)"')
FRAGMENT_CARD = re.compile(r'name="cards" value="([^"]+)"')


def fragment_message(raw: str) -> dict:
    """An HTML fragment read as the bench's clients need it, in the JSON protocol's shape:
    ``{"type": "state", "version": N, "state": {"hand": {"to_act", "legal" | "discard_count",
    "hand"}}}``; an error fragment is ``{"type": "error"}``."""
    found = FRAGMENT_VERSION.search(raw)
    if found is None:
        return {"type": "error" if 'id="table-error"' in raw else "other",
                "message": raw[:120]}
    hand: dict = {"to_act": None}
    discard = FRAGMENT_DISCARD.search(raw)
    if discard is not None:
        hand.update(to_act="me", discard_count=int(discard.group(1)),
                    hand=[html.unescape(c) for c in FRAGMENT_CARD.findall(raw)])
    else:
        legal = [html.unescape(a) for a in FRAGMENT_ACTION.findall(raw)]
        if legal:
            hand.update(to_act="me", legal=legal)
    return {"type": "state", "version": int(found.group(1)), "state": {"hand": hand}}


class BenchTable:
    """The sockets of one table's four seats; who acts, what is pending, and the latencies
    measured.  A seat whose socket is None is a computer player's (an event's table, say): its
    moves come from the server, and an action is complete once every socket has it."""

    def __init__(self, run: ClientRun, table_id: int, sockets: list):
        self.run = run
        self.id = table_id
        self.sockets = sockets
        # A computer's seat never lags behind: no socket of it to wait for.
        self.versions: list[float] = [-1 if s is not None else math.inf for s in sockets]
        self.views: list[dict | None] = [None, None, None, None]
        self.finished = False  # the table said it has finished (its status)
        # (target version, sent at, seat, hands finished when sent)
        self.pending: list[tuple[int, float, int, int]] = []
        self.hands_played = 0
        self.acting_version = None
        self.next_time = 0.0
        self.floor_to_act = 0
        self.chat_sent: list[float] = []  # when each phrase was sent, in order
        # phrases each seat's socket has received since (a computer's seat hears them all)
        self.chat_heard = [0 if s is not None else sys.maxsize for s in sockets]

    def on_message(self, seat: int, raw: str, received: float) -> None:
        run = self.run
        message = fragment_message(raw) if run.html else json.loads(raw)
        run.messages += 1
        run.message_bytes += len(raw)
        if message.get("type") == "error":
            run.errors += 1
            if len(run.error_samples) < 3:
                run.error_samples.append(message.get("message"))
            # The action was refused and nothing changed: forget it, and act again.
            self.pending = [p for p in self.pending if p[2] != seat]
            self.acting_version = None
            self.maybe_act(seat)
            return
        if message.get("type") == "chat":
            self.heard(seat, len(message.get("lines") or ()), received)
            return
        version = message.get("version")
        if message.get("type") != "state" or not isinstance(version, int):
            return
        if version <= self.versions[seat]:
            return
        self.versions[seat] = version
        self.views[seat] = message
        if (message.get("state") or {}).get("status") == "finished":
            self.finished = True
        hands = (message.get("state") or {}).get("hands_played")
        if isinstance(hands, int):
            self.hands_played = max(self.hands_played, hands)
        low = min(self.versions)
        if self.pending and self.pending[0][0] <= low:
            still = []
            for target, sent, acting_seat, hands_then in self.pending:
                if target <= low:
                    # The click that ended a hand: scored, stored, the next deal dealt.
                    run.completed(sent, received, ended_a_hand=self.hands_played > hands_then)
                else:
                    still.append((target, sent, acting_seat, hands_then))
            self.pending = still
        self.maybe_act(seat)

    def heard(self, seat: int, lines: int, received: float) -> None:
        """A phrase reached ``seat``: the last of the four sockets to hold it ends its latency
        (the lines a socket is sent as it opens came before any phrase of this run)."""
        if not self.chat_sent:
            return
        before = min(self.chat_heard)
        self.chat_heard[seat] = min(len(self.chat_sent), self.chat_heard[seat] + lines)
        for index in range(before, min(self.chat_heard)):
            self.run.chat_completed(self.chat_sent[index], received)

    async def talk(self) -> None:
        """A phrase every ``chat_pace`` seconds (jittered), from a seat chosen at random."""
        run = self.run
        await asyncio.sleep(run.rng.uniform(0, run.chat_pace))
        people = [seat for seat, socket in enumerate(self.sockets) if socket is not None]
        while run.acting:
            seat = run.rng.choice(people)
            text = json.dumps({"type": "say", "phrase": run.rng.choice(CHAT_PHRASES)})
            now = time.perf_counter()
            self.chat_sent.append(now)
            run.chat_sent += run.window[0] <= now <= run.window[1]
            try:
                await self.sockets[seat].send(text)
            except Exception:
                run.send_failures += 1
            await asyncio.sleep(run.chat_pace * run.rng.uniform(0.5, 1.5))

    def to_act(self, seat: int) -> bool:
        message = self.views[seat]
        if message is None:
            return False
        if self.run.floor:
            return message.get("to_act") == seat
        hand = message["state"].get("hand")
        me = "me" if self.run.html else seat  # a fragment shows forms only to the seat to act
        return bool(hand) and hand.get("to_act") == me and (
            bool(hand.get("legal")) or "discard_count" in hand)

    def maybe_act(self, seat: int) -> None:
        if not self.run.acting or not self.to_act(seat):
            return
        version = self.versions[seat]
        if self.acting_version == version:
            return
        self.acting_version = version
        asyncio.get_running_loop().create_task(self.act(seat, version))

    async def act(self, seat: int, version: int) -> None:
        run = self.run
        wait = self.next_time - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)
        if not run.acting or self.versions[seat] != version:
            return
        if run.floor:
            # The floor's "action" is the next state itself, padded to a real state's size.
            text = json.dumps({"type": "state", "version": version + 1, "to_act": (seat + 1) % 4,
                               "pad": run.pad})
        else:
            hand = self.views[seat]["state"]["hand"]
            # As htmx sends a form: its values, the version as text (no "type" for a call).
            as_sent = str(version) if run.html else version
            if "discard_count" in hand:
                text = json.dumps({"type": "discard", "version": as_sent,
                                   "cards": run.rng.sample(hand["hand"], hand["discard_count"])})
            elif run.html:
                text = json.dumps({"action": run.rng.choice(hand["legal"]), "version": as_sent})
            else:
                text = json.dumps({"type": "action", "version": version,
                                   "action": run.rng.choice(hand["legal"])})
        sent = time.perf_counter()
        self.pending.append((version + 1, sent, seat, self.hands_played))
        self.next_time = sent + run.think()
        run.sent += 1
        try:
            await self.sockets[seat].send(text)
        except Exception:
            run.send_failures += 1

    def start(self, first_delay: float) -> None:
        self.next_time = time.perf_counter() + first_delay
        if self.run.chat_pace > 0:
            asyncio.get_running_loop().create_task(self.talk())
        if self.run.floor:
            self.versions = [0, 0, 0, 0]
            self.views = [{"to_act": 0}, None, None, None]
            self.maybe_act(0)
        else:
            for seat in range(4):
                self.maybe_act(seat)


class ClientRun:
    def __init__(self, options: dict):
        self.floor = options["floor"]
        self.html = options.get("html", False)
        self.pace = options["pace"]
        self.chat_pace = options.get("chat_pace", 0.0)
        self.chat_latencies: list[float] = []
        self.chat_sent = 0
        self.rng = random.Random(options["seed"])
        self.pad = "x" * options["pad"]
        self.acting = False
        self.window = (math.inf, math.inf)
        self.latencies: list[float] = []
        self.ending_latencies: list[float] = []  # of the clicks that ended a hand
        self.in_window = 0
        self.sent = self.messages = self.message_bytes = 0
        self.errors = self.send_failures = 0
        self.error_samples: list[str] = []

    def think(self) -> float:
        """Jittered: uniform over [0.5, 1.5] × the pace (mean one action per pace seconds)."""
        return self.pace * self.rng.uniform(0.5, 1.5) if self.pace > 0 else 0.0

    def chat_completed(self, sent: float, received: float) -> None:
        start, end = self.window
        if start <= sent <= end:
            self.chat_latencies.append((received - sent) * 1000)

    def completed(self, sent: float, received: float, ended_a_hand: bool = False) -> None:
        start, end = self.window
        if start <= sent <= end:
            self.latencies.append((received - sent) * 1000)
            if ended_a_hand:
                self.ending_latencies.append((received - sent) * 1000)
        if start <= received <= end:
            self.in_window += 1


async def _client_main(options: dict, ready, go, results) -> None:
    import websockets

    run = ClientRun(options)
    servers = options["servers"]
    gate = asyncio.Semaphore(options["connect_concurrency"])
    tables: list[BenchTable] = []
    readers = []
    connect_failures = 0

    async def open_socket(table_id: int, url: str, key: str | None, source: str | None):
        # Each server's own origin: a socket is accepted only from the site's own origin.
        headers = {"Origin": url.replace("ws://", "http://", 1)}
        extra = {"local_addr": (source, 0)} if source else {}
        if key:
            headers["Cookie"] = f"sessionid={key}"
        path = f"/ws/tables/{table_id}/" + ("" if run.floor or run.html else "?format=json")
        async with gate:
            for attempt in range(3):
                try:
                    return await websockets.connect(
                        url + path, additional_headers=headers, open_timeout=60,
                        ping_interval=None, close_timeout=2, compression=None,
                        max_size=2 ** 22, **extra)
                except Exception:
                    if attempt == 2:
                        raise
                    await asyncio.sleep(1)

    async def read(table: BenchTable, seat: int, socket) -> None:
        try:
            async for raw in socket:
                table.on_message(seat, raw, time.perf_counter())
        except Exception:
            pass

    async def no_socket():
        return None

    async def open_table(index: int, table_id: int, keys: list[str | None]) -> None:
        """The table's sockets, one a seat; a seat without a session key (None) is a computer
        player's, and has none."""
        nonlocal connect_failures
        # Behind nginx each table's players come from an address of their own (127.1.x.y):
        # nginx caps the sockets of one address, as it would one household's.
        source = (f"127.1.{index // 250}.{index % 250 + 1}" if options["own_addresses"]
                  else None)
        try:
            sockets = await asyncio.gather(*(
                open_socket(table_id, servers[(index + seat) % len(servers)], keys[seat],
                            source) if keys[seat] is not None else no_socket()
                for seat in range(4)))
        except Exception:
            connect_failures += 1
            return
        table = BenchTable(run, table_id, list(sockets))
        tables.append(table)
        for seat, socket in enumerate(sockets):
            if socket is not None:
                readers.append(asyncio.create_task(read(table, seat, socket)))

    await asyncio.gather(*(open_table(index, table_id, keys)
                           for index, table_id, keys in options["tables"]))
    if not run.floor:  # every socket has its first state before the clock starts
        deadline = time.perf_counter() + 60
        while time.perf_counter() < deadline and any(
                v < 0 for table in tables for v in table.versions):
            await asyncio.sleep(0.05)
    ready.put((options["index"], len(tables), connect_failures))
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, go.wait)
    start_at = options["shared"]["start_at"].value
    begin = time.perf_counter() + (start_at - time.time())
    await asyncio.sleep(max(0.0, begin - time.perf_counter()))
    warmup, seconds = options["warmup"], options["seconds"]
    run.window = (begin + warmup, begin + warmup + seconds)
    run.acting = True
    spread = run.pace if run.pace > 0 else 0.2
    for table in tables:
        table.start(run.rng.uniform(0, spread))
    if options.get("until_finished"):
        # Until every table has played its deals (an event's round), ``seconds`` at most.
        while time.perf_counter() < run.window[1] and not all(t.finished for t in tables):
            await asyncio.sleep(0.1)
    else:
        await asyncio.sleep(max(0.0, run.window[1] - time.perf_counter()))
    run.acting = False
    played = time.perf_counter() - begin
    deadline = time.perf_counter() + options["drain"]
    while time.perf_counter() < deadline and any(t.pending for t in tables):
        await asyncio.sleep(0.05)
    lost = sum(len(t.pending) for t in tables)
    results.put({"index": options["index"], "latencies": run.latencies,
                 "ending_latencies": run.ending_latencies,
                 "chat_latencies": run.chat_latencies, "chat_sent": run.chat_sent,
                 "in_window": run.in_window, "sent": run.sent, "lost": lost,
                 "errors": run.errors, "error_samples": run.error_samples,
                 "send_failures": run.send_failures, "messages": run.messages,
                 "message_bytes": run.message_bytes, "tables": len(tables),
                 "finished": sum(t.finished for t in tables),
                 "played_seconds": played,
                 "connect_failures": connect_failures})
    for task in readers:
        task.cancel()
    sockets = [s for t in tables for s in t.sockets if s is not None]
    try:
        await asyncio.wait_for(asyncio.gather(*(s.close() for s in sockets),
                                              return_exceptions=True), 5)
    except TimeoutError:
        pass


def client_process(options: dict, ready, go, results) -> None:
    asyncio.run(_client_main(options, ready, go, results))


# -- the hostile clients (hostile-1proc) ----------------------------------------------------------

# The server settings of the hostile scenario: flood control as in production (the per-socket
# and per-person limits are what is measured), and room for all 200 anonymous sockets of the
# bench's one address, so that the lobby's coalescing is what they meet.
HOSTILE_SERVER_ENV = {"WS_RATE_PER_SECOND": "10", "WS_BURST": "20",
                      "WS_PERSON_RATE_PER_SECOND": "15", "WS_PERSON_BURST": "30",
                      "WS_MAX_SOCKETS_PER_ADDRESS": "1000"}

async def _hostile_main(options: dict, go, results) -> None:
    import websockets

    server, origin = options["server"], options["origin"]
    counts = {"lobby_messages": 0, "lobby_bytes": 0, "user_refused": 0, "user_open": 0,
              "user_sent": 0, "user_replies": 0, "lobby_open": 0}
    stop = asyncio.Event()

    async def lobby_socket():
        try:
            socket = await websockets.connect(server + "/ws/lobby/",
                                              additional_headers={"Origin": origin},
                                              open_timeout=60, ping_interval=None)
        except Exception:
            return
        counts["lobby_open"] += 1
        try:
            async for raw in socket:
                counts["lobby_messages"] += 1
                counts["lobby_bytes"] += len(raw)
        except Exception:
            pass

    async def user_socket(index: int):
        headers = {"Origin": origin, "Cookie": f"sessionid={options['session']}"}
        try:
            socket = await websockets.connect(
                f"{server}/ws/tables/{options['table']}/?format=json",
                additional_headers=headers, open_timeout=60, ping_interval=None)
        except Exception:
            counts["user_refused"] += 1
            return
        first = json.loads(await socket.recv())
        if first.get("type") != "state":
            counts["user_refused"] += 1  # "too many open": the per-person cap
            await socket.close()
            return
        counts["user_open"] += 1

        async def reader():
            try:
                async for _raw in socket:
                    counts["user_replies"] += 1
            except Exception:
                pass

        reading = asyncio.create_task(reader())
        while not stop.is_set():
            try:
                await socket.send(json.dumps({"type": "snapshot"}))
                counts["user_sent"] += 1
            except Exception:
                break
            await asyncio.sleep(1 / HOSTILE_RATE)
        reading.cancel()
        await socket.close()

    lobby = [asyncio.create_task(lobby_socket()) for _ in range(options["lobby_sockets"])]
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, go.wait)
    users = [asyncio.create_task(user_socket(i)) for i in range(options["user_sockets"])]
    await asyncio.sleep(options["duration"])
    stop.set()
    await asyncio.gather(*users, return_exceptions=True)
    for task in lobby:
        task.cancel()
    results.put(counts)


def hostile_process(options: dict, go, results) -> None:
    asyncio.run(_hostile_main(options, go, results))


# -- the parent: servers, scenarios, figures -----------------------------------------------------


class BareServer:
    """daphne serving bench/bare_asgi.py: the floor."""

    def __init__(self, port: int, log_path: Path, redis_url: str):
        self.port, self.log_path, self.redis_url = port, log_path, redis_url
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"
        self.process = None

    def start(self) -> BareServer:
        log = self.log_path.open("a")
        env = {**os.environ, "REDIS_URL": self.redis_url, "PYTHONPATH": str(ROOT)}
        env.pop("DJANGO_SETTINGS_MODULE", None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
             "bench.bare_asgi:application"], cwd=ROOT, env=env, stdout=log,
            stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"bare daphne exited: {self.log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2):
                    return self
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("bare daphne did not start in 30 s")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=20)


def settle(servers: list, limit: float = 60.0) -> None:
    """Wait until the servers are idle after the connection storm (each reconnection of a seat
    bumps its table's version, and the other three sockets render it)."""
    pids = [s.process.pid for s in servers]
    deadline = time.monotonic() + limit
    last = cpu_seconds(pids)
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = cpu_seconds(pids)
        if now - last < 0.05 * len(pids):  # under 10% of a core each
            return
        last = now


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def mean_group_subscribers(redis_url: str, prefix: str, table_ids: list[int]) -> float:
    """The mean number of server processes subscribed to a table's group: each action's
    message is sent by Redis once to each of them (``PUBSUB NUMSUB``, one call)."""
    import redis

    from games.broadcasting import table_group
    from tests.live_servers import group_channel_name

    if not table_ids:
        return float("nan")
    client = redis.Redis.from_url(redis_url)
    try:
        counts = client.pubsub_numsub(*(group_channel_name(table_group(table_id), prefix)
                                        for table_id in table_ids))
    finally:
        client.close()
    return sum(count for _name, count in counts) / len(table_ids)


def channel_prefix(servers: list, floor: bool) -> str:
    """The channel layer's prefix the servers use: each database of the site's servers draws
    its own (``tests.live_servers.ServerDatabase``), the bare relay has a fixed one."""
    if floor:
        return "wsbench-floor"
    return servers[0].database.channel_prefix


def database_writes(url: str) -> tuple[int, int]:
    """(committed transactions, rows written) in the bench's database so far, as PostgreSQL
    counts them (pg_stat_database)."""
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        row = conn.execute("SELECT xact_commit, tup_inserted + tup_updated + tup_deleted "
                           "FROM pg_stat_database WHERE datname = %s", (name,)).fetchone()
    return (int(row[0]), int(row[1])) if row else (0, 0)


def run_scenario(name: str, servers: list, tables: list, options: argparse.Namespace,
                 pad: int, hostile: dict | None = None, front=None,
                 database_url: str = "") -> dict:
    floor = name.startswith("floor")
    pace = 0.0 if "saturation" in name else options.pace
    context = multiprocessing.get_context("fork")
    ready, results = context.Queue(), context.Queue()
    go = context.Event()
    shared = {"start_at": context.Value("d", 0.0)}
    procs = []
    k = max(1, min(options.client_procs, len(tables)))
    for index in range(k):
        share = [(i, table_id, keys) for i, (table_id, keys) in enumerate(tables) if i % k == index]
        proc_options = {
            "index": index, "floor": floor, "html": name.startswith("html"), "pace": pace,
            "seed": options.seed * 100 + index,
            "pad": pad, "servers": [front.ws_url] if front else [s.ws_url for s in servers],
            "tables": share, "warmup": options.warmup, "seconds": options.seconds,
            "drain": options.drain, "connect_concurrency": 8, "shared": shared,
            "chat_pace": CHAT_PACE if name.startswith("chat") else 0.0,
            "own_addresses": front is not None}
        proc = context.Process(target=client_process, args=(proc_options, ready, go, results))
        proc.start()
        procs.append(proc)
    hostile_proc = churn = None
    hostile_results = context.Queue()
    if hostile is not None:
        duration = options.warmup + options.seconds + 1
        hostile_proc = context.Process(target=hostile_process, args=({
            "server": servers[0].ws_url, "origin": servers[0].url,
            "session": hostile["session"], "table": tables[0][0], "duration": duration,
            "lobby_sockets": options.hostile_lobby_sockets,
            "user_sockets": options.hostile_user_sockets},
            go, hostile_results))
        hostile_proc.start()
    connected = connect_failures = 0
    began = time.monotonic()
    for _ in procs:
        _index, count, failures = ready.get(timeout=300)
        connected += count
        connect_failures += failures
    connect_seconds = time.monotonic() - began
    settle(servers)
    shared["start_at"].value = time.time() + 0.5
    go.set()
    if hostile is not None:
        # with the servers' REDIS_URL: every seat change is a lobby change broadcast to them
        churn = ws_setup.start(hostile["env"], "churn", "--table", hostile["waiting_table"],
                               "--seconds", options.warmup + options.seconds + 0.5)
    # CPU over the measured window: the servers, the clients, and the whole machine.
    window_start = shared["start_at"].value + options.warmup
    time.sleep(max(0.0, window_start - time.time()))

    def sample():
        return (cpu_seconds([s.process.pid for s in servers]), cpu_seconds([p.pid for p in procs]),
                cpu_seconds(pids_named("postgres")), cpu_seconds(pids_named("redis-server")),
                machine_cpu())

    before = sample()
    writes_before = database_writes(database_url) if database_url else (0, 0)
    nginx_before = cpu_seconds(front.pids()) if front else 0.0
    time.sleep(max(0.0, window_start + options.seconds / 2 - time.time()))
    fanout = mean_group_subscribers(options.redis_url, channel_prefix(servers, floor),
                                    [table_id for table_id, _keys in tables])
    if not fanout > 0:  # 0 or nan: the groups looked at are not the servers' own
        raise SystemExit(f"{name}: no server process is subscribed to any table's group under "
                         f"the prefix {channel_prefix(servers, floor)!r}: the fan-out was not "
                         "measured (is the channel layer's prefix the servers' own?)")
    time.sleep(max(0.0, window_start + options.seconds - time.time()))
    after = sample()
    time.sleep(1.0)  # PostgreSQL publishes its counters within a second of a commit
    writes_after = database_writes(database_url) if database_url else (0, 0)
    nginx_cores = ((cpu_seconds(front.pids()) - nginx_before) / options.seconds if front
                   else 0.0)
    busy, elapsed = after[4][0] - before[4][0], after[4][1] - before[4][1]
    cpu = {"server_cores": (after[0] - before[0]) / options.seconds,
           "server_rss_mb": sum(rss_mb(s.process.pid) for s in servers),
           "client_cores": (after[1] - before[1]) / options.seconds,
           "postgres_cores": (after[2] - before[2]) / options.seconds,
           "redis_cores": (after[3] - before[3]) / options.seconds,
           "nginx_cores": nginx_cores,
           "machine_busy": busy / elapsed if elapsed else float("nan")}
    parts = [results.get(timeout=options.drain + 120) for _ in procs]
    extra = {}
    if hostile is not None:
        extra = hostile_results.get(timeout=120)
        out = churn.communicate(timeout=120)[0]
        extra["seat_changes"] = ws_setup.result_of(out)
        hostile_proc.join(timeout=30)
    for proc in procs:
        proc.join(timeout=30)
        if proc.is_alive():
            proc.terminate()
    latencies = [v for part in parts for v in part["latencies"]]
    ending = [v for part in parts for v in part["ending_latencies"]]
    said = [v for part in parts for v in part["chat_latencies"]]
    total = {key: sum(part[key] for part in parts)
             for key in ("in_window", "sent", "lost", "errors", "send_failures", "messages",
                         "message_bytes")}
    samples = [s for part in parts for s in part["error_samples"]]
    return {"name": name, "tables": connected, "connect_failures": connect_failures,
            "connect_seconds": connect_seconds,
            "actions_per_s": total["in_window"] / options.seconds,
            "p50": percentile(latencies, 50), "p95": percentile(latencies, 95),
            "p99": percentile(latencies, 99), "max": max(latencies, default=float("nan")),
            "endings": len(ending), "p95_ending": percentile(ending, 95),
            "p99_ending": percentile(ending, 99), "max_ending": max(ending, default=float("nan")),
            "chat_sent": sum(part["chat_sent"] for part in parts), "chat_heard": len(said),
            "chat_p50": percentile(said, 50), "chat_p95": percentile(said, 95),
            "chat_p99": percentile(said, 99),
            "measured": len(latencies), **total, "error_samples": samples[:3],
            "mean_bytes": total["message_bytes"] / total["messages"] if total["messages"] else 0,
            "hostile": extra, "fanout": fanout,
            "commits": writes_after[0] - writes_before[0],
            "rows_written": writes_after[1] - writes_before[1], **cpu}


def setup_env(database) -> dict:
    """The servers' settings (sessions are signed with their SECRET_KEY), but no REDIS_URL: the
    seating broadcasts of the set-up go to the in-memory layer, to nobody."""
    return database.env(**{**SERVER_ENV, "REDIS_URL": ""})


def setup_database(database, n: int, game: str) -> list:
    """``n`` tables of four signed-in people: [[table id, [session keys]], ...]."""
    return ws_setup.run(setup_env(database), "tables", "--tables", n, "--game", game,
                        "--rules", json.dumps(RULES), "--first-id", FIRST_TABLE_ID)


REBUILD_EVERY_SECONDS = 15


def schedule_rebuilds(database, game: str, seconds: float) -> int:
    """Site-wide re-ratings from the start, one every REBUILD_EVERY_SECONDS for ``seconds``:
    the work a visibility switch or a result dated long ago asks of the follow-up worker."""
    count = max(1, int(seconds // REBUILD_EVERY_SECONDS))
    return ws_setup.run(setup_env(database), "rebuilds", "--game", game,
                        "--every", REBUILD_EVERY_SECONDS, "--count", count)


def setup_busy_day(database, game: str) -> int:
    """HANDS_FINISHED_TODAY online hands among people finished today, rated."""
    return ws_setup.run(setup_env(database), "busy-day", "--game", game,
                        "--hands", HANDS_FINISHED_TODAY)


def setup_hostile(database) -> dict:
    """The hostile user (with a session), the account that churns, and its waiting table."""
    return ws_setup.run(setup_env(database), "hostile")


def cpu_seconds(pids: list[int]) -> float:
    """CPU seconds these processes used so far (user + system), from /proc."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return total


def rss_mb(pid: int) -> float:
    """Resident memory of a process, in MiB (/proc)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def pids_named(name: str) -> list[int]:
    """Every process of that command name (all of PostgreSQL's backends, for instance)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == name:
                    pids.append(int(entry.name))
            except OSError:
                pass
    return pids


def machine_cpu() -> tuple[float, float]:
    """(busy, total) jiffies of all CPUs together, from /proc/stat."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields) - idle) / os.cpu_count(), sum(fields) / os.cpu_count()


def per_action(result: dict) -> str:
    """What one action costs, for the capacity model of docs/deploy.md."""
    actions = result["in_window"]
    if not actions:
        return "n/a"
    return (f"daphne={1000 * result['server_cores'] / result['actions_per_s']:.2f} ms CPU "
            f"postgres={1000 * result['postgres_cores'] / result['actions_per_s']:.2f} ms "
            f"commits={result['commits'] / actions:.2f} rows={result['rows_written'] / actions:.2f}")


def other_cores(result: dict) -> float:
    """Cores busy with anything but this run (other people's jobs on a shared machine)."""
    ours = sum(result[k] for k in ("server_cores", "client_cores", "postgres_cores",
                                   "redis_cores", "nginx_cores"))
    return max(0.0, result["machine_busy"] * os.cpu_count() - ours)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds per scenario")
    parser.add_argument("--client-procs", type=int, default=2)
    parser.add_argument("--pace", type=float, default=2.0,
                        help="mean seconds between two actions at a table (paced scenarios)")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--drain", type=float, default=30.0,
                        help="seconds to wait for the last actions' states after the window")
    parser.add_argument("--quick", action="store_true", help="20 tables x 8 s, for development")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--game", default="bid_whist")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/9")
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/postgres",
                        help="a PostgreSQL server to make the bench's own database on")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hostile-lobby-sockets", type=int, default=HOSTILE_LOBBY_SOCKETS)
    parser.add_argument("--hostile-user-sockets", type=int, default=HOSTILE_USER_SOCKETS)
    options = parser.parse_args()
    if options.quick:
        options.tables, options.seconds, options.warmup, options.drain = 20, 8.0, 1.0, 5.0
    names = [n.strip() for n in options.scenarios.split(",") if n.strip()]
    unknown = {n for n in names
               if n not in SCENARIOS
               and not re.fullmatch(r"(?:html-)?(?:paced|routed)-\d+proc", n)}
    if unknown:
        parser.error(f"unknown scenarios: {', '.join(sorted(unknown))}")

    os.environ["DATABASE_URL"] = options.database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "whistclub.settings"
    os.environ.pop("WHISTCLUB_REQUIRE_SERVICES", None)
    import redis

    from tests.live_servers import DaphneServer, NginxFront, ServerDatabase, free_port

    tmp = Path(tempfile.mkdtemp(prefix="ws_load-"))
    print(f"ws_load: {options.tables} tables, {options.seconds:g} s per scenario, "
          f"{options.client_procs} client processes, {os.cpu_count()} CPUs; logs in {tmp}",
          flush=True)
    database = ServerDatabase(tmp)
    if database._drop is None:
        raise SystemExit("--database-url must be a PostgreSQL server")
    running: list = []
    results: dict[str, dict] = {}
    try:
        began = time.monotonic()
        database.manage("migrate", "--noinput", "-v0")
        tables = setup_database(database, options.tables, options.game)
        print(f"setup: {len(tables)} tables of 4 seated users in {time.monotonic() - began:.1f} s",
              flush=True)
        pad = 3000
        busy_day_set = False
        for name in names:
            if name.startswith("floor"):
                servers = [BareServer(free_port(), tmp / f"{name}-bare.log",
                                      options.redis_url).start()]
            else:
                count = int(re.search(r"-(\d+)proc$", name).group(1))
                env = {**SERVER_ENV, **(HOSTILE_SERVER_ENV if name.startswith("hostile") else {})}
                servers = [DaphneServer(database, tmp / f"{name}-{i}.log",
                                        REDIS_URL=options.redis_url, **env).start()
                           for i in range(count)]
            running = list(servers)
            front = None
            if name.removeprefix("html-").startswith("routed"):
                front = NginxFront(tmp / name, [s.port for s in servers], tmp / "static",
                                   worker_connections=4 * options.tables * 2 + 512)
                (tmp / name).mkdir()
                running.append(front.start())
            load = os.getloadavg()[0]
            hostile = None
            if name.startswith("busy-day") and not busy_day_set:
                busy_day_set = True  # the next busy-day scenario plays on the same day
                rated = setup_busy_day(database, options.game)
                print(f"  {name}: {rated} online hands finished and rated today", flush=True)
            if name.startswith("busy-day-rebuilds"):
                count = schedule_rebuilds(database, options.game,
                                          options.seconds + options.warmup + 60)
                print(f"  {name}: a site-wide re-rating from the start every "
                      f"{REBUILD_EVERY_SECONDS} s ({count} in all)", flush=True)
            if name.startswith("hostile"):
                hostile = setup_hostile(database)
                hostile["env"] = database.env(REDIS_URL=options.redis_url, **SERVER_ENV)
            result = run_scenario(name, servers, tables, options, pad, hostile, front,
                                  "" if name.startswith("floor") else database.url)
            for server in running:
                server.stop()
            running = []
            if name.startswith(("paced", "saturation")) and result["mean_bytes"]:
                # The floor relays messages the size of the real states seen so far.
                pad = max(0, int(result["mean_bytes"]) - 60)
            results[name] = result
            print(f"  {name}: p50={result['p50']:.0f} ms p95={result['p95']:.0f} ms "
                  f"p99={result['p99']:.0f} ms; hand-ending clicks={result['endings']} "
                  f"p95={result['p95_ending']:.0f} ms p99={result['p99_ending']:.0f} ms", flush=True)
            print(f"  {name}: {result['tables']} tables connected in "
                  f"{result['connect_seconds']:.1f} s; sent={result['sent']} "
                  f"measured={result['measured']} lost={result['lost']} "
                  f"errors={result['errors']} {result['error_samples'] or ''} "
                  f"max={result['max']:.0f} ms mean message={result['mean_bytes']:.0f} B "
                  f"CPU cores: daphne={result['server_cores']:.2f} clients={result['client_cores']:.2f} "
                  f"postgres={result['postgres_cores']:.2f} redis={result['redis_cores']:.2f} "
                  f"nginx={result['nginx_cores']:.2f} "
                  f"other={other_cores(result):.2f} machine={result['machine_busy']:.0%} "
                  f"per action: {per_action(result)} "
                  f"daphne memory={result['server_rss_mb']:.0f} MiB "
                  f"(load average before: {load:.1f})", flush=True)
            if result["hostile"]:
                h = result["hostile"]
                print(f"  {name} hostile side: lobby sockets={h['lobby_open']} "
                      f"lobby messages={h['lobby_messages']} for {h['seat_changes']} seat "
                      f"changes; one user: {h['user_open']} sockets admitted, "
                      f"{h['user_refused']} refused, {h['user_sent']} messages sent, "
                      f"{h['user_replies']} answered", flush=True)
    finally:
        for server in running:
            server.stop()
        database.drop()
        redis.Redis.from_url(options.redis_url).flushdb()

    print()
    for name in names:
        result = results[name]
        floor = results.get("floor-saturation-1proc" if "saturation" in name else "floor-1proc")
        ratio = (f"{result['actions_per_s'] / floor['actions_per_s']:.2f}"
                 if floor and floor["actions_per_s"] else "n/a")
        print(f"{name}: tables={result['tables']} actions/s={result['actions_per_s']:.1f} "
              f"p50={result['p50']:.0f} ms p95={result['p95']:.0f} ms p99={result['p99']:.0f} ms "
              f"floor_ratio={ratio} fanout={result['fanout']:.2f}"
              + (f" hand-ending clicks={result['endings']} p95={result['p95_ending']:.0f} ms "
                 f"p99={result['p99_ending']:.0f} ms max={result['max_ending']:.0f} ms"
                 if result["endings"] else "")
              + (f" phrases={result['chat_heard']} of {result['chat_sent']} "
                 f"p50={result['chat_p50']:.0f} ms p95={result['chat_p95']:.0f} ms "
                 f"p99={result['chat_p99']:.0f} ms" if result["chat_sent"] else "")
              + (f" mean_fragment={result['mean_bytes']:.0f} B" if name.startswith("html")
                 else ""))


if __name__ == "__main__":
    main()
