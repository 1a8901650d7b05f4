"""Rules-engine speed: complete random hands per second and µs per legal-actions + apply step.

    .venv/bin/python bench/engine.py [--seconds 3] [--games bid_whist,solo_whist,belgian_whist]
                                     [--no-variants]

Runs on one core.  For each game it also measures a floor in the same run: the same deal and
the same number of random card choices with no rules at all (no bidding, no follow-suit check,
no scoring), so ``floor_ratio`` says how close the referee comes to doing nothing.
Ends with one line per game, ``<game>: <N> hands/s``, and one per house-rule variant of
``VARIANTS`` (unless ``--no-variants``), ``<game>[<rule>=<value>]: <N> hands/s``, so runs can be
compared.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.rules import GAME_MODULES, NAMED_VARIANTS, game_module  # noqa: E402

# House-rule variants measured after their game's default rules, one summary line each:
# "<game>[<rule>=<value>]: <N> hands/s".  The engines' own list (a game of its own, as
# Cutthroat, is measured as a game).
VARIANTS: dict[str, list[dict]] = {}
for _game, _rules in NAMED_VARIANTS:
    if _rules:
        VARIANTS.setdefault(_game, []).append(_rules)


def variant_name(game: str, overrides: dict) -> str:
    """``bid_whist[kitty=none]``, ``solo_whist[prop_and_cop=false]``."""
    return game + "[" + ",".join(f"{k}={v if isinstance(v, str) else json.dumps(v)}"
                                 for k, v in overrides.items()) + "]"


def play_random_hand(mod, rules, dealer, rng):
    d = mod.deal(rules, dealer, rng)
    state = mod.new_hand(rules, dealer, d.hands, d.kitty)
    while not state.complete:
        state.apply(state.random_action(rng))
    return state.result()


def hands_per_second(mod, rules, seconds: float, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    count = 0
    dealer = 0
    seats = getattr(mod, "SEATS", 4)
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(50):
            play_random_hand(mod, rules, dealer, rng)
            dealer = (dealer + 1) % seats
        count += 50
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start), count


def microseconds_per_step(mod, rules, seconds: float, seed: int) -> float:
    """legal_actions() + apply(rng.choice(legal)), timed apart from dealing.

    Bid Whist's discard step (18,564 legal discards) uses random_action instead, as the
    hand-record format allows omitting that list.
    """
    rng = random.Random(seed)
    steps = 0
    spent = 0.0
    dealer = 0
    while spent < seconds:
        d = mod.deal(rules, dealer, rng)
        state = mod.new_hand(rules, dealer, d.hands, d.kitty)
        dealer = (dealer + 1) % getattr(mod, "SEATS", 4)
        choice = rng.choice
        t0 = time.perf_counter()
        while not state.complete:
            if state.phase == "discard":
                state.apply(state.random_action(rng))
            else:
                state.apply(choice(state.legal_actions()))
            steps += 1
        spent += time.perf_counter() - t0
    return spent / steps * 1e6


def floor_hands_per_second(mod, rules, seconds: float, seed: int, plays: int) -> float:
    """The same deal, then ``plays`` random card picks with no rule checked."""
    rng = random.Random(seed)
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(50):
            d = mod.deal(rules, 0, rng)
            hands = [list(h) for h in d.hands]
            seat = 1
            for _ in range(plays):
                hand = hands[seat]
                hand.pop(rng.randrange(len(hand)))
                seat = (seat + 1) % len(hands)
        count += 50
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def average_plays(mod, rules, seed: int, hands: int = 300) -> int:
    rng = random.Random(seed)
    total = 0
    seats = getattr(mod, "SEATS", 4)
    for i in range(hands):
        d = mod.deal(rules, i % seats, rng)
        state = mod.new_hand(rules, i % seats, d.hands, d.kitty)
        while not state.complete:
            state.apply(state.random_action(rng))
        total += sum(1 for _, action in state.history if action.startswith("play "))
    return max(1, round(total / hands))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--games", default=",".join(GAME_MODULES))
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--variants", action=argparse.BooleanOptionalAction, default=True,
                        help="also measure the house-rule variants of VARIANTS (default: on)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    print(f"python {sys.version.split()[0]}, one core, {args.seconds:g} s per measurement")
    summary = []
    for game in args.games.split(","):
        try:
            mod = game_module(game)
        except ImportError:
            print(f"{game}: engine not available, skipped")
            continue
        rules = mod.Rules()
        plays = average_plays(mod, rules, args.seed)
        rate, count = hands_per_second(mod, rules, args.seconds, args.seed)
        step = microseconds_per_step(mod, rules, args.seconds, args.seed)
        floor = floor_hands_per_second(mod, rules, args.seconds, args.seed, plays)
        print(f"{game}: {count} hands in {count / rate:.1f} s = {rate:,.0f} hands/s; "
              f"{step:.2f} µs per legal_actions+apply step; "
              f"floor (deal + {plays} unchecked random plays) {floor:,.0f} hands/s, "
              f"floor_ratio={rate / floor:.2f}")
        summary.append(f"{game}: {rate:.0f} hands/s")
        for overrides in VARIANTS.get(game, []) if args.variants else []:
            name = variant_name(game, overrides)
            rate, count = hands_per_second(mod, mod.Rules.from_overrides(overrides), args.seconds,
                                           args.seed)
            print(f"{name}: {count} hands in {count / rate:.1f} s = {rate:,.0f} hands/s")
            summary.append(f"{name}: {rate:.0f} hands/s")
    for line in summary:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
