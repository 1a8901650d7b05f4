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
PostgreSQL and Redis, as the site runs):

    DATABASE_URL=postgres://... REDIS_URL=redis://... .venv/bin/python bench/events.py --site

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
"""

from __future__ import annotations

import argparse
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
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "whistclub.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.utils import timezone

    from events import running
    from events.models import Event
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
        event = Event.objects.create(name="Bench", organiser=people[0], game="bid_whist",
                                     rounds=2, deals_per_round=1,
                                     starts_at=timezone.now() + timedelta(hours=1))
        for person in people:
            running.register(event, person)
        client = Client()
        client.force_login(people[0])
        for _ in range(5):  # warm-up: templates, connections
            client.get("/healthz")
        began = time.perf_counter()
        running.start(event, people[0])
        start_ms = (time.perf_counter() - began) * 1000
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--site", action="store_true",
                        help="an event of --players people through the site (Django)")
    parser.add_argument("--page-runs", type=int, default=30)
    args = parser.parse_args()
    if args.site:
        site(args)
        return
    lines = []
    for name, size, partnership in FORMATS:
        lines += measure(name, size, partnership, args)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
