"""The movement of an evening in rounds (``leagues.movement``), measured: for 8 to 40 players
present all evening, the rounds a club plays (Belgian Whist five rounds of four, Solo Whist three
rounds of four, Cutthroat four rounds of three, Bid Whist pairs in as many rounds as pairs less
one), the repeat meetings the movement leaves, against a counting bound of the fewest the numbers allow.
Then an individual Bid Whist evening (partners drawn each round, three and five rounds): the
repeated partners and repeated opponents it leaves, each against its counting bound.

Prints a Markdown table (docs/leagues.md, "An evening in rounds"): players, table size, rounds,
repeat meetings (over every two players, each meeting after their first at a table), the fewest
possible by counting (a lower bound), the most times any two met, the spread of sit-outs
(most minus fewest rounds sat out), and the slowest round's draw in milliseconds.  Seeds 1 to
``SEEDS``: the figures are the worst over the seeds, the same at every run.

    .venv/bin/python bench/movement.py
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from leagues import movement  # noqa: E402

SEEDS = 5
PLAYERS = (8, 9, 10, 12, 13, 16, 17, 20, 24, 25, 28, 32, 36, 40)
SETS = [("Belgian Whist", 4, 5), ("Solo Whist", 4, 3), ("Cutthroat", 3, 4)]
INDIVIDUAL_ROUNDS = (3, 5)


def evening(players: int, size: int, rounds: int, seed: int):
    rng = random.Random(seed)
    present = list(range(players))
    sat_out: Counter = Counter()
    played: Counter = Counter()
    done: list[list[list[int]]] = []
    slowest = 0.0
    for _round in range(rounds):
        start = time.perf_counter()
        out = movement.choose_sit_outs(present, size, sat_out, Counter(), rng)
        seated = [p for p in present if p not in out]
        tables = movement.seat_tables(seated, size, movement.meetings(done), rng)
        slowest = max(slowest, time.perf_counter() - start)
        sat_out.update(out)
        played.update(seated)
        done.append(tables)
    met = movement.meetings(done)
    repeats = sum(count - 1 for count in met.values())
    meetings_total = sum(met.values())
    # Fewest repeats by counting: every meeting past the pairs that exist repeats one, and a
    # player who plays r rounds meets r*(size-1) times, at most players-1 of them new.
    by_pairs = max(0, meetings_total - comb(players, 2))
    by_player = sum(max(0, played[p] * (size - 1) - (players - 1)) for p in present) // 2
    spread = max(sat_out[p] for p in present) - min(sat_out[p] for p in present)
    return repeats, max(by_pairs, by_player), max(met.values(), default=0), spread, slowest


def pairs_evening(pairs: int, seed: int):
    rounds = pairs - 1 if pairs % 2 == 0 else pairs
    met: Counter = Counter()
    sat_out: Counter = Counter()
    slowest = 0.0
    for number in range(rounds):
        start = time.perf_counter()
        matches, byes = movement.pair_round(list(range(pairs)), met, sat_out, number)
        slowest = max(slowest, time.perf_counter() - start)
        sat_out.update(byes)
        for a, b in matches:
            met[movement.pair_key(a, b)] += 1
    repeats = sum(count - 1 for count in met.values())
    spread = max(sat_out[p] for p in range(pairs)) - min(sat_out[p] for p in range(pairs))
    return rounds, repeats, max(met.values()), spread, slowest


def individual_evening(players: int, rounds: int, seed: int):
    """Partners drawn each round, as the draw does it: sit-outs, tables with the partners'
    cost, then each table's places (partners across)."""
    rng = random.Random(seed)
    present = list(range(players))
    sat_out: Counter = Counter()
    played: Counter = Counter()
    done: list[list[list[int]]] = []
    slowest = 0.0
    for _round in range(rounds):
        start = time.perf_counter()
        out, tables = movement.partners_round(present, done, sat_out, rng)
        slowest = max(slowest, time.perf_counter() - start)
        sat_out.update(out)
        played.update(p for p in present if p not in out)
        done.append(tables)
    partnered = movement.partnerships(done)
    against = movement.opponents(done)
    # Fewest repeats by counting: a player who plays r rounds has r partners and 2r opponents,
    # at most players-1 of each different; every one past the pairs that exist repeats too.
    partner_bound = max(
        max(0, sum(partnered.values()) - comb(players, 2)),
        sum(max(0, played[p] - (players - 1)) for p in present) // 2)
    opponent_bound = max(
        max(0, sum(against.values()) - comb(players, 2)),
        sum(max(0, 2 * played[p] - (players - 1)) for p in present) // 2)
    spread = max(sat_out[p] for p in present) - min(sat_out[p] for p in present)
    return (sum(c - 1 for c in partnered.values()), partner_bound,
            sum(c - 1 for c in against.values()), opponent_bound,
            max(partnered.values(), default=0), max(against.values(), default=0), spread,
            slowest)


def main() -> None:
    print("| game | players | table | rounds | repeat meetings | counting bound "
          "| most times two met | sit-out spread | slowest draw (ms) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for game, size, rounds in SETS:
        for players in PLAYERS:
            if players < size * 2:
                continue
            runs = [evening(players, size, rounds, seed) for seed in range(1, SEEDS + 1)]
            worst = max(runs, key=lambda r: r[0])
            print(f"| {game} | {players} | {size} | {rounds} | {worst[0]} | {worst[1]} "
                  f"| {max(r[2] for r in runs)} | {max(r[3] for r in runs)} "
                  f"| {max(r[4] for r in runs) * 1000:.0f} |")
    for pairs in (4, 5, 8, 9, 12, 16, 20):
        runs = [pairs_evening(pairs, seed) for seed in range(1, SEEDS + 1)]
        rounds, repeats, most, spread, slowest = max(runs, key=lambda r: r[1])
        print(f"| Bid Whist | {pairs * 2} ({pairs} pairs) | 2 pairs | {rounds} | {repeats} | 0 "
              f"| {most} | {spread} | {slowest * 1000:.0f} |")
    print()
    print("| game | players | rounds | repeated partners | counting bound | repeated opponents "
          "| counting bound | most times two partnered | most times two opposed "
          "| sit-out spread | slowest draw (ms) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for rounds in INDIVIDUAL_ROUNDS:
        for players in PLAYERS:
            runs = [individual_evening(players, rounds, seed) for seed in range(1, SEEDS + 1)]
            worst = max(runs, key=lambda r: (r[0], r[2]))
            print(f"| Bid Whist, partners drawn | {players} | {rounds} | {worst[0]} | {worst[1]} "
                  f"| {worst[2]} | {worst[3]} | {max(r[4] for r in runs)} "
                  f"| {max(r[5] for r in runs)} | {max(r[6] for r in runs)} "
                  f"| {max(r[7] for r in runs) * 1000:.0f} |")


if __name__ == "__main__":
    main()
