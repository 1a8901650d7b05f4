"""Computer players' strength and speed: duplicate matches between two computer player levels, per game.

    .venv/bin/python bench/computer_players.py [--deals 2000] [--games bid_whist,solo_whist,belgian_whist]
                                   [--pairings strong-easy,oracle-easy,strong-normal,normal-easy]
                                   [--workers 2] [--seed 1] [--first 0]

Every deal is played twice with the sides swapped: levelA in seats 0 and 2 and levelB in 1 and
3, then the other way round (in Bid Whist those are the two partnerships).

A side may be two levels, joined by ``+``: a **mixed partnership**.  ``strong+normal-normal+normal``
is side A strong with a normal partner, side B two normals: the first level of a side sits in
its first seat (0, or 1 once swapped), the second opposite it (2, or 3); the dealer turns with the
deal's number, so over the deals each level of a side is as often first to speak.  So the bench
measures whether strong is a better partner for a person-like player than normal is.  A side of
one level is that level in both seats (``strong-normal`` is ``strong+strong-normal+normal``).
Cutthroat's sides are one seat and two: its pairings take one level a side.  A hand's score
difference is levelA's side minus levelB's side: team points in Bid Whist; in Solo and Belgian
Whist the units/points of levelA's two seats minus those of levelB's two, halved (per seat).
The figure of a deal is the mean of its two plays; the bench prints the mean over deals with its
95% confidence interval (1.96 standard errors), and the 95th percentile of levelA's decision
times (each computer player's decision is timed, from the view to the action; of a mixed side
A, its first level's).  Ends with one line per game and pairing, ``<game> <levelA>-<levelB>:
mean=X ci95=Y decision_p95=Z ms`` (a mixed side as written: ``strong+normal``).

Cutthroat Bid Whist (three seats, each for themselves) is played only when ``--games`` names it,
``cutthroat_bid_whist``: every deal three times, levelA in each seat in turn and levelB in the two
others; a hand's difference is levelA's points minus the mean of levelB's two seats, and the
deal's figure the mean of its three plays.  Its computer players are their own
(:mod:`games.rules.computer.cutthroat_bid_whist`): the levels random, easy, normal and strong,
no oracle.

Deal ``i`` is the same deal in every run with the same seed: ``--first 1000 --deals 1000`` plays
the second half of a 2,000-deal run, so that a long run can be split over two sittings (for two
equal halves, the whole run's mean is the halves' mean and its ci95 is sqrt(ci1² + ci2²) / 2).

``--blunders`` plays instead ``--deals`` deals per game with every seat at one level, for each level
of ``--levels`` (default easy,normal,strong), and counts in each hand the blunders of
:mod:`games.rules.computer.blunders`: cards that cost a trick where the position was settled,
and the kinds a partner notices (Cutthroat too, at its own levels: its two defenders are
partners for the hand).  One line per game and level,
``blunders: game=<game> level=<level> hands=N per_100_hands=X partner_kinds: trump_partner=a
no_return=b ... settled: trump_partner=c ...`` (per 100 hands; ``settled``: the partner kinds'
findings that were settled blunders too).

``oracle`` (:mod:`games.rules.computer.oracle`) is the strong search seeing every card: the ceiling.
When a game's pairings include ``L-easy`` and ``oracle-easy``, the bench prints the share of the
easy-to-oracle gap that level L closes, ``gap_closed = (L - easy) / (oracle - easy)``, with an
interval by the delta method on the deals' paired figures (both pairings play the same deals).  Then the decision times
of every level, p50 and p95, over all its decisions in the run.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file: the project's root, where bench/ is a package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import levels  # noqa: E402
from games.rules import GAME_MODULES, game_module, records  # noqa: E402
from games.rules.computer import ALL_LEVELS, blunders, choose_action, oracle  # noqa: E402

levels.register()  # here, not under main: the worker processes load this module anew
BENCH_LEVELS = (*ALL_LEVELS, *levels.COMPARED_LEVELS, "oracle")

# The four-player games, played here by two pairs of levels sitting opposite each other: the
# default.  The three-player game, one levelA against two levelB, is played when named.
GAMES = tuple(g for g in GAME_MODULES if game_module(g).SEATS == 4)
THREE_SEATS = tuple(g for g in GAME_MODULES if game_module(g).SEATS == 3)


def play_once(game: str, deal_seed: int, dealer: int, seat_levels: list[str], computer_seed: int,
              record: list | None = None) -> tuple[list[float], list[float]]:
    """Play one hand; (points per seat or team, decision seconds per seat-level 'A' seat)."""
    module = game_module(game)
    rules = module.Rules()
    deal = module.deal(rules, dealer, random.Random(deal_seed))
    state = module.new_hand(rules, dealer, deal.hands, deal.kitty)
    rng = random.Random(computer_seed)
    times: list[tuple[str, float]] = []
    while not state.complete:
        seat = state.to_act
        view = state.view(seat)
        start = time.perf_counter()
        if seat_levels[seat] == "oracle":  # handed every hand: nothing in the site can do this
            hands = [state.view(s)["hand"] for s in range(module.SEATS)]
            action = oracle.choose_action(view, hands, rng)
        else:
            action = choose_action(view, seat_levels[seat], rng)
        times.append((seat_levels[seat], time.perf_counter() - start))
        state.apply(action, seat)
    if record is not None:
        record.append(records.record_of(state))
    result = state.result()
    points = result.get("points", result.get("units"))
    return [float(p) for p in points], times


def side_difference(points: list[float], a_seats: tuple[int, ...]) -> float:
    """levelA's seats' points minus levelB's, per seat."""
    if len(points) == 2:  # a partnership game scores its two teams (seats 0 & 2, 1 & 3)
        team_a = a_seats[0] & 1
        return points[team_a] - points[1 - team_a]
    b_seats = [s for s in range(len(points)) if s not in a_seats]
    return (sum(points[s] for s in a_seats) / len(a_seats)
            - sum(points[s] for s in b_seats) / len(b_seats))


def side_levels(side: str) -> tuple[str, str]:
    """A side of a pairing, ``level`` or ``first+second``, as the levels of its two seats."""
    first, _plus, second = side.partition("+")
    return first, second or first


def seat_levels(side_a: str, side_b: str, a_seats: tuple[int, ...], seats: int) -> list[str]:
    """Each seat's level in one play of a deal: side A in ``a_seats`` (its first level in the
    first of them), side B in the others; at three seats A's one seat, B's two."""
    if seats == 3:
        return [side_a if s in a_seats else side_b for s in range(seats)]
    levels = [""] * seats
    b_seats = [s for s in range(seats) if s not in a_seats]
    for side, held in ((side_a, a_seats), (side_b, b_seats)):
        for seat, level in zip(held, side_levels(side), strict=True):
            levels[seat] = level
    return levels


def duplicate_deal(task: tuple[str, str, str, int, int]
                   ) -> tuple[float, list[tuple[str, float]]]:
    """The deal's figure (the mean of its plays) and every decision's (level, seconds): two
    plays at four seats, side A in seats 0 & 2 then 1 & 3; three at three seats, levelA
    alone in seat 0, 1, then 2."""
    game, level_a, level_b, index, seed = task
    deal_seed = seed * 1_000_003 + index
    seats = game_module(game).SEATS
    dealer = index % seats
    plays = [(0, 2), (1, 3)] if seats == 4 else [(s,) for s in range(seats)]
    figures = []
    all_times: list[tuple[str, float]] = []
    for swap, a_seats in enumerate(plays):
        levels = seat_levels(level_a, level_b, a_seats, seats)
        points, times = play_once(game, deal_seed, dealer, levels,
                                  deal_seed * 2 + swap + 7)
        figures.append(side_difference(points, a_seats))
        all_times += times
    return sum(figures) / len(figures), all_times


def blunders_of_deal(task: tuple[str, str, int, int]) -> dict[str, Any]:
    """The deal played with every seat at ``level``: its settled blunders, and each partner
    kind's findings (``kind``) and those of them that were settled blunders (``settled:kind``);
    ``where``, a line for each settled blunder (the deal, the trick, the seat, the card played
    and the safe one)."""
    game, level, index, seed = task
    deal_seed = seed * 1_000_003 + index
    seats = game_module(game).SEATS
    played: list = []
    play_once(game, deal_seed, index % seats, [level] * seats, deal_seed * 2 + 7, played)
    found = blunders.count(played[0], seed=deal_seed)
    out: dict[str, Any] = {"blunders": len(found["blunders"]), "where": [
        f"# blunder: game={game} level={level} deal={index} trick={b.trick} seat={b.seat} "
        f"played={b.card} instead={b.instead}" for b in found["blunders"]]}
    for kind, findings in found["kinds"].items():
        out[kind] = len(findings)
        out[f"settled:{kind}"] = len(found["settled_kinds"][kind])
    return out


def blunder_lines(args, games: list[str], pool) -> list[str]:
    lines = []
    for game in games:
        for level in [lv for lv in args.levels.split(",") if lv]:
            tasks = [(game, level, i, args.seed) for i in range(args.first, args.first + args.deals)]
            start = time.perf_counter()
            results = (pool.map(blunders_of_deal, tasks, chunksize=4) if pool is not None
                       else [blunders_of_deal(t) for t in tasks])
            for result in results:
                for line in result["where"]:
                    print(line, flush=True)
            total = {key: sum(r[key] for r in results) for key in results[0] if key != "where"}
            per_100 = {key: 100 * value / len(results) for key, value in total.items()}
            kinds = " ".join(f"{kind}={per_100[kind]:.1f}" for kind in blunders.PARTNER_KINDS)
            settled = " ".join(f"{kind}={per_100['settled:' + kind]:.1f}"
                               for kind in blunders.PARTNER_KINDS)
            lines.append(f"blunders: game={game} level={level} hands={len(results)} "
                         f"per_100_hands={per_100['blunders']:.1f} partner_kinds: {kinds} "
                         f"settled: {settled}")
            print(f"# {game} {level}: {len(results)} hands in "
                  f"{time.perf_counter() - start:.0f} s", flush=True)
            print(lines[-1], flush=True)
    return lines


def summarise(values: list[float]) -> tuple[float, float]:
    """(mean, half-width of its 95% interval); no values: (0, inf)."""
    n = len(values)
    mean = sum(values) / n if n else 0.0
    if n < 2:
        return mean, float("inf")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--pairings", default="strong-easy,oracle-easy,strong-normal,normal-easy")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="the first deal's number")
    parser.add_argument("--blunders", action="store_true",
                        help="count blunders in self-play instead of duplicate matches")
    parser.add_argument("--levels", default="easy,normal,strong",
                        help="with --blunders: the levels, each playing every seat")
    args = parser.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    for game in games:
        if game not in GAMES + THREE_SEATS:
            parser.error(f"a game is one of {GAMES + THREE_SEATS}")
    pairings = [tuple(p.split("-")) for p in args.pairings.split(",") if p]
    for pair in pairings if not args.blunders else []:  # --blunders plays no pairing
        named = [level for side in pair for level in side.split("+")]
        if len(pair) != 2 or any(side.count("+") > 1 for side in pair) \
                or any(level not in BENCH_LEVELS for level in named):
            parser.error(f"a pairing is levelA-levelB, or with mixed partnerships "
                         f"levelA+partnerA-levelB+partnerB, with levels from {BENCH_LEVELS}")
        if set(games) & set(THREE_SEATS) and any(level not in ALL_LEVELS for level in named):
            parser.error(f"{', '.join(THREE_SEATS)} plays the levels {ALL_LEVELS} only "
                         "(its own computer players)")
        if set(games) & set(THREE_SEATS) and any("+" in side for side in pair):
            parser.error(f"{', '.join(THREE_SEATS)} has no partnerships to mix: one level a "
                         "side (levelA alone, levelB in the two other seats)")
    if args.blunders:
        for level in args.levels.split(","):
            if level and level not in BENCH_LEVELS:
                parser.error(f"a level is one of {BENCH_LEVELS}")
            if level and set(games) & set(THREE_SEATS) and level not in ALL_LEVELS:
                parser.error(f"{', '.join(THREE_SEATS)} plays the levels {ALL_LEVELS} only "
                             "(its own computer players)")
        pool = multiprocessing.get_context("spawn").Pool(args.workers) if args.workers > 1 else None
        try:
            lines = blunder_lines(args, games, pool)
        finally:
            if pool is not None:
                pool.close()
        print()
        print("\n".join(lines))
        return 0
    lines = []
    measured: dict[tuple[str, str, str], list[float]] = {}  # (game, A, B): figure per deal
    times_of: dict[str, list[float]] = {}
    pool = multiprocessing.get_context("spawn").Pool(args.workers) if args.workers > 1 else None
    try:
        for game in games:
            for level_a, level_b in pairings:
                tasks = [(game, level_a, level_b, i, args.seed)
                         for i in range(args.first, args.first + args.deals)]
                start = time.perf_counter()
                if pool is not None:
                    results = pool.map(duplicate_deal, tasks, chunksize=8)
                else:
                    results = [duplicate_deal(t) for t in tasks]
                values = [r[0] for r in results]
                timed = side_levels(level_a)[0]  # a mixed side A: its first level's times
                times = [t for r in results for level, t in r[1] if level == timed]
                for r in results:
                    for level, t in r[1]:
                        times_of.setdefault(level, []).append(t)
                mean, ci = summarise(values)
                measured[(game, level_a, level_b)] = values
                p95 = percentile(times, 0.95) * 1000
                elapsed = time.perf_counter() - start
                plays = 2 if game in GAMES else game_module(game).SEATS
                print(f"# {game} {level_a}-{level_b}: {args.deals} deals x {plays} in {elapsed:.0f} s, "
                      f"{len(times)} {timed} decisions, mean {1000 * sum(times) / max(1, len(times)):.1f} ms, "
                      f"max {1000 * max(times, default=0):.0f} ms", flush=True)
                lines.append(f"{game} {level_a}-{level_b}: mean={mean:.3f} ci95={ci:.3f} "
                             f"decision_p95={p95:.1f} ms")
                print(lines[-1], flush=True)
    finally:
        if pool is not None:
            pool.close()
    lines += gap_lines(games, measured)
    for level in BENCH_LEVELS:
        if times_of.get(level):
            values = times_of[level]
            lines.append(f"decisions {level}: n={len(values)} "
                         f"p50={1000 * percentile(values, 0.5):.1f} ms "
                         f"p95={1000 * percentile(values, 0.95):.1f} ms")
    print()
    for line in lines:
        print(line)
    return 0


def gap_closed(level: list[float], ceiling: list[float]) -> tuple[float, float]:
    """(L - easy) / (oracle - easy) from the deals' figures of both pairings against easy (the
    same deals, in the same order), and its 95% interval's half-width: the delta method,
    sd(x - r*y) / (sqrt(n) * |mean y|), which keeps the deals' pairing."""
    n = len(level)
    mean_x, mean_y = sum(level) / n, sum(ceiling) / n
    ratio = mean_x / mean_y
    residuals = [x - ratio * y for x, y in zip(level, ceiling, strict=True)]
    _mean, ci = summarise(residuals)
    return ratio, ci / abs(mean_y)


def gap_lines(games: list[str], measured: dict) -> list[str]:
    lines = []
    for game in games:
        ceiling = measured.get((game, "oracle", "easy"))
        if ceiling is None or sum(ceiling) <= 0:
            continue
        for (g, level_a, level_b), figure in measured.items():
            if g == game and level_b == "easy" and level_a not in ("oracle", "easy"):
                share, ci = gap_closed(figure, ceiling)
                lines.append(f"{game} {level_a} gap_closed={share:.3f} ci95={ci:.3f}")
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
