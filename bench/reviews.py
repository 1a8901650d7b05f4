"""How long a hand's review takes (goal: p95 under 15 s a hand on the 2-core machine).

    .venv/bin/python bench/reviews.py [--hands 10] [--games bid_whist,solo_whist,belgian_whist]
                                      [--seed 1]

Plays hands with easy computer players (they differ from strong more often than normal ones
do, so more of their decisions are valued), skipping deals everybody passed, and reviews every
seat of each (:func:`games.rules.computer.review.review`, in one process, as a review worker runs
it).  The floor, measured on the same hands in the same run, is strong
choosing those same decisions once (what a review must do at the least, before it values
anything): the ratio says what the valuation adds.  Ends with one line per game,
``<game> review: hands=N p50=X s p95=Y s max=Z s floor_p50=F s ratio=R``, and where the game
gives the contract's double-dummy result, how many hands had it from the first trick, only the
contract's question (made or not) from the first trick, from a later trick, or not at all (the
last seat's review of each hand).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.rules import records  # noqa: E402
from games.rules.computer import choose_action, played_record  # noqa: E402
from games.rules.computer.review import review  # noqa: E402

GAMES = ("bid_whist", "solo_whist", "belgian_whist")


def floor_seconds(record: dict, seat: int) -> float:
    """Strong choosing each of the seat's decisions once, from the same views."""
    _module, state, actions = records.start_hand(record)
    rng = random.Random(0)
    spent = 0.0
    for entry in actions:
        if entry["seat"] == seat:
            view = state.view(seat)
            if len(view.get("legal") or []) != 1:
                start = time.perf_counter()
                choose_action(view, "strong", rng)
                spent += time.perf_counter() - start
        state.apply(entry["action"], entry["seat"])
    return spent


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    lines = []
    for game in [g for g in args.games.split(",") if g]:
        times, floors = [], []
        settled = []  # per hand: the trick the double-dummy result starts from, 0 if none
        seed = args.seed * 10_000
        while len(times) < args.hands * 4:
            record = played_record(game, seed)
            seed += 1
            if record is None:
                continue
            for seat in range(4):
                start = time.perf_counter()
                found = review(record, seat)["double_dummy"]
                times.append(time.perf_counter() - start)
                floors.append(floor_seconds(record, seat))
            if found is not None:
                # 0: not settled; -1: only the contract's question settled from trick 1
                settled.append(-1 if found.get("settled") and found["tricks"] is None
                               else found.get("from_trick", 0))
        line = (f"{game} review: hands={len(times) // 4} p50={percentile(times, .5):.1f} s "
                f"p95={percentile(times, .95):.1f} s max={max(times):.1f} s "
                f"floor_p50={percentile(floors, .5):.2f} s "
                f"ratio={percentile(times, .5) / max(percentile(floors, .5), 1e-9):.1f}")
        if settled:
            line += (f" double_dummy: from_trick_1={settled.count(1)}/{len(settled)}"
                     f" contract_only={settled.count(-1)}/{len(settled)}"
                     f" later={sum(1 for t in settled if t > 1)}/{len(settled)}"
                     f" unsettled={settled.count(0)}/{len(settled)}")
        print(line, flush=True)
        lines.append(line)
    print()
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
