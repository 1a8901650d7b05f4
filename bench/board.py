"""An evening's board at the venue under load: N boards open over the socket while an organiser
enters a deal a second.

    .venv/bin/python bench/board.py [--boards 40] [--seconds 60] [--redis-url URL]

Starts the site's own daphne process (``tests.live_servers``) on a fresh database (PostgreSQL
from ``--database-url``) with the channels_redis layer, builds a club night there
(``tests/leagues/club_night.py``: a public club, 24 players at 6 tables, round 1 played, round 2
drawn) and opens N board sockets on the evening (``/ws/boards/<id>/``), as N screens, tablets
and phones would.  A second process on the same database and Redis enters one deal a second
at the round's tables, as the entry page does (``EveningTable.add_deal``), and notes the wall
clock of each commit (an ``on_commit`` registered before the entry's own).  The latency of an
entry on a board is from its commit until that board receives its next board fragment.

The floor, in the same run and over the same sockets: each board sends ``{"type": "ping"}``
every two seconds and times the ``pong`` (a bare round trip through the same consumer and event
loop, without the channel layer, the database or a render).  Ends with

    board: boards=N entries=E p50=X ms p95=Y ms p99=Z ms floor_p95=F ms floor_ratio=R

floor_ratio being p95 over the floor's p95.  Goal: p95 under 1 s.  Figures: docs/performance.md
("The board at the venue").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):  # run as a file: the project's root, where bench/ is a package
    sys.path.insert(0, str(ROOT))

SERVER_ENV = {
    # Production-like: no query log kept per connection, no DEBUG pages.
    "DEBUG": "0", "SECRET_KEY": "bench-board-not-secret", "SECURE_SSL_REDIRECT": "0",
    "SECURE_COOKIES": "0", "LOG_LEVEL": "WARNING",
    # Every board of the bench comes from one address: room for them all.
    "WS_MAX_SOCKETS_PER_ADDRESS": "10000",
}
PING_EVERY = 2.0


def enter_deals(evening_id: int, user_id: int, start_at: float, count: int,
                seed: int = 1) -> None:
    """The organiser's side (run in ``manage.py shell`` on the server's database and Redis): a
    deal at each second from ``start_at`` (wall clock), one table after the other of the
    round in play; prints ``commit <n> <wall clock of the commit>`` for each."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from leagues.models import EveningTable
    from tests.leagues.club_night import solo_deal

    rng = random.Random(seed)
    user = get_user_model().objects.get(pk=user_id)
    tables = list(EveningTable.objects.filter(evening_id=evening_id, round=2).order_by("number"))
    stamps: list[float] = []
    for n in range(count):
        time.sleep(max(0.0, start_at + n - time.time()))
        table = tables[n % len(tables)]
        with transaction.atomic():
            transaction.on_commit(lambda: stamps.append(time.time()))
            table.add_deal(solo_deal(rng), user)
    for n, stamp in enumerate(stamps):
        print(f"commit {n} {stamp:.6f}", flush=True)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=40)
    parser.add_argument("--seconds", type=int, default=60, help="entries: one a second")
    parser.add_argument("--drain", type=float, default=5.0)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/9")
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/postgres",
                        help="a PostgreSQL server to make the bench's own database on")
    options = parser.parse_args()

    os.environ["DATABASE_URL"] = options.database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "whistclub.settings"
    os.environ.pop("WHISTCLUB_REQUIRE_SERVICES", None)
    import django

    django.setup()
    from tests.live_servers import DaphneServer, ServerDatabase

    tmp = Path(tempfile.mkdtemp(prefix="board-bench-"))
    database = ServerDatabase(tmp)
    server = None
    try:
        database.manage("migrate", "--noinput", "-v0")
        out = database.shell("from tests.leagues.club_night import build; print(build())")
        line = next(x for x in out.splitlines() if x.startswith("club_night "))
        _, _slug, evening_id, user_id = line.split()
        env = {**SERVER_ENV, "REDIS_URL": options.redis_url}
        server = DaphneServer(database, tmp / "daphne.log", **env).start()
        print(f"board bench: {options.boards} boards, {options.seconds} entries a second "
              f"apart, {os.cpu_count()} CPUs; logs in {tmp}", flush=True)
        until = [math.inf]

        async def measured() -> tuple[str, list, list]:
            ready = asyncio.Event()
            boards = asyncio.create_task(run_boards(
                f"{server.ws_url}/ws/boards/{evening_id}/", server.url, options.boards,
                until, ready))
            await asyncio.wait_for(ready.wait(), 120)  # every board has its first render
            start_at = time.time() + 4.0  # the entering process sets Django up meanwhile
            until[0] = start_at + options.seconds + options.drain
            code = (f"from bench.board import enter_deals; enter_deals({evening_id}, {user_id}, "
                    f"{start_at!r}, {options.seconds})")
            entering = await asyncio.create_subprocess_exec(
                sys.executable, "manage.py", "shell", "-c", code, cwd=ROOT,
                env=database.env(**env), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            output, errors = await entering.communicate()
            if entering.returncode:
                raise SystemExit(f"entering failed: {errors.decode()[-2000:]}")
            received, pings = await asyncio.wait_for(boards, options.drain + 60)
            return output.decode(), received, pings

        output, received, pings = asyncio.run(measured())
        commits = [float(x.split()[2]) for x in output.splitlines() if x.startswith("commit ")]
        latencies, lost = [], 0
        for times in received:
            for commit in commits:
                after = [t for t in times if t >= commit]
                if after:
                    latencies.append(1000 * (after[0] - commit))
                else:
                    lost += 1
        p95, floor_p95 = percentile(latencies, 95), percentile(pings, 95)
        print(f"  boards received {sum(len(t) for t in received)} fragments; lost={lost}; "
              f"max={max(latencies, default=float('nan')):.0f} ms; floor round trips="
              f"{len(pings)} p50={percentile(pings, 50):.1f} ms", flush=True)
        print(f"board: boards={options.boards} entries={len(commits)} "
              f"p50={percentile(latencies, 50):.0f} ms p95={p95:.0f} ms "
              f"p99={percentile(latencies, 99):.0f} ms floor_p95={floor_p95:.1f} ms "
              f"floor_ratio={p95 / floor_p95:.1f}")
    finally:
        if server is not None:
            server.stop()
        database.drop()


async def run_boards(url: str, origin: str, boards: int, until: list[float],
                     ready: asyncio.Event) -> tuple[list[list[float]], list[float]]:
    """N boards: each notes when it receives a board fragment (after the catch-up render it
    gets as it joins), and pings every PING_EVERY seconds once all have joined (the floor),
    until ``until[0]`` (wall clock; set once the entries' start is known)."""
    import websockets

    received: list[list[float]] = [[] for _ in range(boards)]
    pings: list[float] = []
    everyone = asyncio.Event()

    async def board(index: int) -> None:
        socket = await websockets.connect(url, additional_headers={"Origin": origin},
                                          open_timeout=60, ping_interval=None,
                                          compression=None, max_size=2 ** 22)
        sent_at: dict[int, float] = {}

        async def pinger():
            await everyone.wait()
            await asyncio.sleep(random.uniform(0, PING_EVERY))
            n = 0
            while time.time() < until[0]:
                sent_at[n] = time.perf_counter()
                await socket.send(json.dumps({"type": "ping", "id": n}))
                n += 1
                await asyncio.sleep(PING_EVERY)

        task = asyncio.create_task(pinger())
        try:
            while True:
                left = until[0] - time.time()
                if left <= 0:
                    break
                try:
                    raw = await asyncio.wait_for(socket.recv(), min(left, 1.0))
                except TimeoutError:
                    continue
                now = time.time()
                if raw.startswith("{"):
                    message = json.loads(raw)
                    if message.get("type") == "pong" and message.get("id") in sent_at:
                        pings.append(1000 * (time.perf_counter() - sent_at.pop(message["id"])))
                    continue
                if not received[index]:
                    received[index].append(now)  # the catch-up render as the board joined
                    if all(received):
                        everyone.set()
                        ready.set()
                    continue
                received[index].append(now)
        finally:
            task.cancel()
            await socket.close()

    await asyncio.gather(*(board(i) for i in range(boards)))
    return received, pings


if __name__ == "__main__":
    main()
