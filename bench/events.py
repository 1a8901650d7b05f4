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
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    lines = []
    for name, size, partnership in FORMATS:
        lines += measure(name, size, partnership, args)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
