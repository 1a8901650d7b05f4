"""Tune the computer players' calls by self-play: the evaluation a call needs, measured.

    .venv/bin/python bench/tune_calls.py [--deals 20000] [--games solo_whist,bid_whist,belgian_whist]
                                         [--workers 2] [--seed 1] [--write]

For every deal and every seat, the seat's hand is made to declare each contract it could call
(the others pass), and the hand is played out on the real deal by the search's playout policy
for every seat (:func:`games.rules.computer.kernel.playout` with the strong level's club leads: win
cheaply, return partner's suit, defenders lead side suits).  The declarer's score is recorded
against the hand's evaluation (:mod:`games.rules.computer.bidding`): trick count for contracts to
make, misère risk for contracts to lose.

A contract played alone is worth calling from the threshold that maximises the declarer's total
score over the sample had it called the contract from there and passed below it (a pass scores
nothing); the bench prints, per contract, the mean score by evaluation band, today's threshold
and the tuned one with its gain per call.  In Bid Whist a team's books are fitted against the
bidder's trick count (least squares: base, per-trick, spread), the model the bids are chosen
from (``bidding.bid_expectation``).  ``--write`` saves the tuned figures to
``games/rules/computer/tuned_calls.json`` (:mod:`.tuned_file`), which the levels with ``tuned_calls``
read; Bid Whist's
books model there is held back from them (``bidding.HELD_BACK``) and taken by the candidate
``strong_books`` alone, until a duplicate match (bench/computer_players.py) shows it better at a table
(measured with the others passing, it lost to the hand-set model: docs/performance.md).

Left to bench/tune_auctions.py, which measures them in real auctions: the calls made in
partnership (Solo's prop and cop, Belgian proposals and emballage), whose value depends on a
second hand, and Belgian piccolo and petite misère.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import time
from pathlib import Path

from bench import levels
from bench.tuning import tuned_file
from bench.tuning.thresholds import bands, best_threshold, even_and_odd
from games.rules import game_module
from games.rules.cards import mask_of
from games.rules.computer import bidding, choose_action, simple
from games.rules.computer import knowledge as kn
from games.rules.computer.hooks import of as hooks_of
from games.rules.computer.kernel import playout
from games.rules.errors import IllegalAction

levels.register()  # --play may name a level the benches compare
GAMES = ("solo_whist", "bid_whist", "belgian_whist")
Record = tuple  # (call, evaluation, declarer's score, hand: deal x 4 + seat)


# -- playing one contract out ------------------------------------------------------------------


def force(state, declarer: int, call: str) -> bool:
    """Run the auction with everyone passing but ``declarer``, who calls ``call``; then the
    declarer's other decisions before the play (trumps, kitty) by the computer players' own hooks.
    False when the call cannot be made here."""
    called = False
    for _ in range(40):
        if state.complete or state.view(state.to_act)["phase"] == "play":
            return called and not state.complete
        seat = state.to_act
        view = state.view(seat)
        phase = view["phase"]
        if phase == "auction":
            if seat == declarer and not called:
                if call not in view["legal"]:
                    return False
                action, called = call, True
            else:
                action = "pass" if "pass" in view["legal"] else None
                if action is None:
                    return False
        else:
            action = _other_decision(view)
        try:
            state.apply(action, seat)
        except IllegalAction:
            return False
    return False


def _other_decision(view) -> str:
    hook = hooks_of(view["game"]).CALLS.get(view["phase"])
    if hook is not None:
        return hook(view, kn.rules_of(view))
    return simple.choose(view, random.Random(0))


def play_out(state, seat: int, rng: random.Random, play: str = "policy"
             ) -> tuple[float, list[int] | None]:
    """The seat's score, and the tricks per seat (None when a level played: the books are in
    the result then), of the hand played out by the policy or a level."""
    if play != "policy":
        while not state.complete:
            to_act = state.to_act
            state.apply(choose_action(state.view(to_act), play, rng), to_act)
        result = state.result()
        points = result.get("points", result.get("units"))
        return float(points[seat] if len(points) == 4 else points[seat % 2]), None  # or teams
    view = state.view(seat)
    know = kn.read(view)
    know.spec.club_leads = True
    hands = [mask_of(state.view(s)["hand"]) for s in range(4)]
    pos = kn.position(know, hands)
    value = playout(know.spec, pos, rng)
    return value, list(pos.won)


def dealt(game: str, task: tuple[int, int, str]):
    """(engine module, rules, rng, dealer, deal, who plays) of the task's deal."""
    index, seed, play = task
    module = game_module(game)
    rules = module.Rules()
    rng = random.Random(seed * 1_000_003 + index)
    dealer = index % 4
    return module, rules, rng, dealer, module.deal(rules, dealer, rng), play


def played_alone(game: str, task, calls: dict, features_of, action_of) -> list[Record]:
    """(contract, feature value, declarer's score, hand) for every seat and contract of one
    deal; ``hand`` names the deal and seat (deal x 4 + seat)."""
    module, rules, rng, dealer, deal, play = dealt(game, task)
    out = []
    for seat in range(4):
        features = features_of(module.new_hand(rules, dealer, deal.hands, deal.kitty).view(seat))
        for call, (feature, direction) in calls.items():
            if not in_window(game, call, direction, features[feature], play):
                continue
            state = module.new_hand(rules, dealer, deal.hands, deal.kitty)
            if not force(state, seat, action_of(call, features)):
                continue
            value, _won = play_out(state, seat, rng, play)
            out.append((call, features[feature], value, task[0] * 4 + seat))
    return out


# -- Solo Whist ------------------------------------------------------------------------------


def judged_by(features: dict[str, str]) -> dict[str, tuple[str, str]]:
    """contract -> (feature, direction): a misère qualifies from its risk down (the calls
    bidding.RISK_CALLS names), every other contract from its trick count up."""
    return {call: (feature, "down" if call in bidding.RISK_CALLS else "up")
            for call, feature in features.items()}


# in the order bidding.solo_call tries them (the first that qualifies is called)
SOLO_CALLS = judged_by({
    "abundance_declared": "best_tricks",
    "spread_misere": "misere_risk",
    "royal_abundance": "turn_tricks",
    "abundance": "other_tricks",
    "misere": "misere_risk",
    "solo": "turn_tricks",
})


def solo_deal(task) -> list[Record]:
    return played_alone("solo_whist", task, SOLO_CALLS,
                        lambda view: bidding.solo_evaluation(view["hand"],
                                                             view.get("turn_up_suit")),
                        lambda call, features: call)


# -- Belgian Whist -----------------------------------------------------------------------------


BELGIAN_LEVELS = {f"solo {n}": n for n in (6, 7, 8)} | {f"abondance {n}": n for n in (9, 10, 11)}


BELGIAN_CALLS = judged_by({  # in bidding.belgian_call's order
    "grand_chelem": "chelem_tricks",
    "petit_chelem": "chelem_tricks",
    "misere_etalee": "misere_risk",
    **{f"abondance {n}": "best_tricks" for n in (11, 10, 9)},
    "grande_misere": "misere_risk",
    **{f"solo {n}": "best_tricks" for n in (8, 7, 6)},
})


def belgian_deal(task) -> list[Record]:
    return played_alone("belgian_whist", task, BELGIAN_CALLS,
                        lambda view: bidding.belgian_evaluation(view["hand"]),
                        belgian_action)


def belgian_action(call: str, features: dict) -> str:
    if call in BELGIAN_LEVELS:
        return f"{call} {features['best_suit']}"  # played in the hand's best suit
    if call.endswith("chelem"):
        return f"{call} {features['chelem_suit']}"  # or without trumps, as belgian_call does
    return call


# -- Bid Whist ---------------------------------------------------------------------------------


def bid_whist_deal(task) -> list[Record]:
    """("books", the bidder's trick count, the books its team made) for every seat's best way
    to play its hand (declared at the lowest bid: the books do not depend on the bid)."""
    module, rules, rng, dealer, deal, play = dealt("bid_whist", task)
    out = []
    for seat in range(4):
        tricks, mode, _trump, _direction = bidding.bid_whist_options(
            list(deal.hands[seat]), rules)[0]
        state = module.new_hand(rules, dealer, deal.hands, deal.kitty)
        if not force(state, seat, f"bid {rules.min_bid} {mode}"):
            continue
        kitty_book = 1 if rules.kitty != "none" else 0  # the discards are a book
        _value, won = play_out(state, seat, rng, play)
        if won is None:
            books = state.result()["books"][seat % 2]
        else:
            books = won[seat] + won[(seat + 2) % 4] + kitty_book
        out.append(("books" if mode != "notrump" else "books_notrump", tricks, float(books),
                    task[0] * 4 + seat))
    return out


# Played by a level, only the hands near today's threshold are played out (a level is about a
# hundred times slower than the policy): trick counts from WINDOW below it up, misère risks from
# WINDOW above it down.  The tuned threshold is searched inside the window.
WINDOW = 2.0


def in_window(game: str, call: str, direction: str, feature: float, play: str) -> bool:
    if play == "policy":
        return True
    today = today_threshold(game, call)
    if today is None:
        return True
    return feature >= today - WINDOW if direction == "up" else feature <= today + WINDOW


DEALERS = {"solo_whist": solo_deal, "belgian_whist": belgian_deal, "bid_whist": bid_whist_deal}
CALLS = {"solo_whist": SOLO_CALLS, "belgian_whist": BELGIAN_CALLS}


# -- from the records to the thresholds ------------------------------------------------------------


MIN_HANDS = 50  # a call played fewer times than this keeps today's threshold
# The figures measured in real auctions, by bench/tune_bids.py (Bid Whist) and
# bench/tune_auctions.py (Solo and Belgian Whist): every held-back group but the books model
# this bench measures itself.  It keeps them as they are when it writes its own.
AUCTION_FIGURES = {name for group, names in bidding.HELD_BACK.items() if group != "books"
                   for name in names}


def today_threshold(game: str, call: str) -> float | None:
    return hooks_of(game).THRESHOLDS.get(call)


def fit_books(points: list[tuple[float, float]]) -> dict[str, float]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    slope, base = statistics.linear_regression(xs, ys)
    spread = statistics.pstdev([y - (base + slope * x) for x, y in points])
    return {"base": round(base, 3), "per_trick": round(slope, 3), "sd": round(spread, 3),
            "hands": len(points)}


def tune(game: str, records: list[Record], deals: int) -> tuple[dict, list[str]]:
    lines = []
    tuned: dict = {}
    if game == "bid_whist":
        trumps = [(f, v) for name, f, v, _hand in records if name == "books"]
        notrump = [(f, v) for name, f, v, _hand in records if name == "books_notrump"]
        model = fit_books(trumps + notrump)
        mean_trumps = statistics.fmean(v - (model["base"] + model["per_trick"] * f)
                                       for f, v in trumps)
        mean_notrump = statistics.fmean(v - (model["base"] + model["per_trick"] * f)
                                        for f, v in notrump) if notrump else 0.0
        today = hooks_of(game).THRESHOLDS["books"]
        # notrump is rarely a hand's best way to play: too few of them keep today's figure
        model["notrump"] = round(mean_notrump - mean_trumps, 3) \
            if len(notrump) >= MIN_HANDS else today["notrump"]
        tuned["books"] = model
        lines.append(f"bid_whist books = {model['base']:.2f} + {model['per_trick']:.3f} x tricks "
                     f"(sd {model['sd']:.2f}; notrump {model['notrump']:+.2f} from "
                     f"{len(notrump)} notrump hands; {model['hands']} hands)  today: {today['base']} + "
                     f"{today['per_trick']} x tricks (sd {today['sd']}; notrump "
                     f"{today['notrump']:+})")
        for band, count, mean in bands(trumps, 1.0):
            lines.append(f"  tricks {band:>5.1f}+  hands {count:>6}  books {mean:5.2f}")
        return tuned, lines
    calls = CALLS[game]
    hands = by_hand(records)
    enough = {call for call in calls
              if sum(call in entry for entry in hands.values()) >= MIN_HANDS}
    for call in calls:
        if call not in enough:
            lines.append(f"{game} {call}: too few hands played: today's threshold stays")
    tuned = tune_thresholds(game, hands, enough)
    today = {call: today_threshold(game, call) for call in calls}
    for call, (_feature, direction) in calls.items():
        if call not in enough:
            continue
        sign = ">=" if direction == "up" else "<="
        made, made_today = called(game, hands, tuned, call), called(game, hands, today, call)
        tuned_text = "never" if tuned[call] is None else f"{sign} {tuned[call]:.2f}"
        lines.append(f"{game} {call}: tuned {tuned_text} ({len(made)} calls, "
                     f"{statistics.fmean(made or [0]):+.2f} each); today {sign} "
                     f"{today[call]:.2f} ({len(made_today)} calls, "
                     f"{statistics.fmean(made_today or [0]):+.2f} each)")
        points = [entry[call][:2] for entry in hands.values() if call in entry]
        for band, count, mean in bands(points, 0.1 if direction == "down" else 0.5):
            if count >= 20:
                lines.append(f"  {band:>5.1f}  hands {count:>6}  mean {mean:+6.2f}")
    # out of sample: thresholds tuned on the even deals, judged on the odd ones
    even, odd = (dict(half) for half in even_and_odd(hands.items(), lambda item: item[0] // 4))
    held_out = tune_thresholds(game, even, enough)
    seats = 4 * (deals // 2)  # every seat of the odd deals, those that call nothing included
    lines.append(f"{game} held out (tuned on the even deals, judged on the odd): declarer's "
                 f"score from the contracts played alone, per seat and hand: today "
                 f"{total(game, odd, today) / seats:+.3f}, tuned "
                 f"{total(game, odd, held_out) / seats:+.3f}")
    return {call: (None if value is None else round(value, 3))
            for call, value in tuned.items() if call in enough}, lines


def by_hand(records: list[Record]) -> dict[int, dict[str, tuple[float, float]]]:
    hands: dict[int, dict[str, tuple[float, float]]] = {}
    for call, feature, value, hand in records:
        hands.setdefault(hand, {})[call] = (feature, value)
    return hands


def qualifies(direction: str, feature: float, threshold: float | None) -> bool:
    if threshold is None:
        return False
    return feature >= threshold if direction == "up" else feature <= threshold


def first_call(game: str, entry: dict, thresholds: dict, *, skip: str | None = None,
               force: str | None = None) -> str | None:
    """The contract the bidder calls with this hand (the first in order that qualifies), with
    ``force`` qualifying and ``skip`` not; None: none of these."""
    for call, (_feature, direction) in CALLS[game].items():
        if call == skip or call not in entry:
            continue
        if call == force or qualifies(direction, entry[call][0], thresholds[call]):
            return call
    return None


def value_of(game: str, entry: dict, thresholds: dict, **which) -> float:
    call = first_call(game, entry, thresholds, **which)
    return 0.0 if call is None else entry[call][1]  # no contract alone: pass, about nothing


def total(game: str, hands: dict, thresholds: dict) -> float:
    return sum(value_of(game, entry, thresholds) for entry in hands.values())


def called(game: str, hands: dict, thresholds: dict, call: str) -> list[float]:
    return [entry[call][1] for entry in hands.values()
            if first_call(game, entry, thresholds) == call]


def tune_thresholds(game: str, hands: dict, enough: set[str], rounds: int = 3) -> dict:
    """Every threshold in turn set where the sample gains most, the others held: a hand that
    reaches it gains its value over what it would call without it (an earlier contract in
    order still comes first).  Starts from today's thresholds, the last contract in order
    first (a contract tried earlier would hide what a later one gains); a few rounds settle
    it."""
    calls = CALLS[game]
    thresholds = {call: today_threshold(game, call) for call in calls}
    for _ in range(rounds):
        for call, (_feature, direction) in reversed(calls.items()):
            if call not in enough:
                continue
            points = [(entry[call][0],
                       value_of(game, entry, thresholds, force=call)
                       - value_of(game, entry, thresholds, skip=call))
                      for entry in hands.values() if call in entry]
            best, _gain, _count = best_threshold(points, direction)
            reached = [p for p in points if qualifies(direction, p[0], thresholds[call])]
            if best is None and len(reached) < MIN_HANDS // 5:
                continue  # "never" from too few strong hands: keep today's
            thresholds[call] = best
    return thresholds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--play", default="normal",
                        help="who plays the hands out: policy (the playouts' policy, fast and "
                             "too kind to declarers), or a level: easy, normal, strong")
    parser.add_argument("--records", help="save the hands played out to this file (JSON)")
    parser.add_argument("--from-records", help="tune from hands saved by --records, "
                                               "playing none")
    parser.add_argument("--write", action="store_true",
                        help="save the tuned figures to games/rules/computer/tuned_calls.json")
    args = parser.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    for game in games:
        if game not in DEALERS:
            parser.error(f"games are among {', '.join(GAMES)}")
    saved = tuned_file.read()
    pool = multiprocessing.get_context("spawn").Pool(args.workers) if args.workers > 1 else None
    summary = []
    played: dict = {}
    try:
        for game in games:
            start = time.perf_counter()
            if args.from_records:
                kept = json.loads(Path(args.from_records).read_text())[game]
                records = [tuple(r) for r in kept["records"]]
                args.deals, args.seed, args.play = kept["deals"], kept["seed"], kept["play"]
            else:
                tasks = [(i, args.seed, args.play) for i in range(args.deals)]
                if pool is not None:
                    chunks = pool.map(DEALERS[game], tasks, chunksize=32)
                else:
                    chunks = [DEALERS[game](t) for t in tasks]
                records = [r for chunk in chunks for r in chunk]
                played[game] = {"deals": args.deals, "seed": args.seed, "play": args.play,
                                "records": records}
            elapsed = time.perf_counter() - start
            print(f"# {game}: {args.deals} deals, {len(records)} hands played out by "
                  f"{args.play} in {elapsed:.0f} s", flush=True)
            tuned, lines = tune(game, records, args.deals)
            for line in lines:
                print(line, flush=True)
            summary += [line for line in lines if not line.startswith("  ")]
            figures = tuned_file.figures(saved, game)  # the auctions' figures stay
            kept = {name: value for name, value in figures.items() if name in AUCTION_FIGURES}
            figures.clear()
            figures.update({**kept, **tuned})
            tuned_file.provenance(saved, game)[tuned_file.CALLS] = {
                "deals": args.deals, "seed": args.seed, "play": args.play}
    finally:
        if pool is not None:
            pool.close()
    if args.records:
        Path(args.records).write_text(json.dumps(played))
    print()
    for line in summary:
        print(line)
    if args.write:
        print(f"# written: {tuned_file.write(saved)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
