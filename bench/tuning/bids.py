"""Tune Bid Whist's bids and kitty in real auctions: what a bid gains over a pass, measured.

    .venv/bin/python bench/tune_bids.py [--deals 3000] [--play normal] [--workers 2] [--seed 1]
                                        [--write]

``bench/tune_calls.py`` (:mod:`.calls`) measured the books a hand makes with the other three passing; bidding
from that model lost at a real table (docs/performance.md, "Bid Whist's books model"), because
a pass is not worth nothing: it leaves the auction to the other side.  Here the auction of every
deal is run by the level (``--play``) at every seat, with the calls of today's tuned levels, and
at each call where the seat could bid, the hand is played out from there several times, the same
random seed each time: with the seat passing (when its best bid's expectation, the number the
rule bids from, is within the window), bidding its best mode's cheapest bid, and each higher bid
of that mode a preempting rule could choose.  Everything after the branch is the level's: the
rest of the auction (which answers the bid or the pass), the kitty, the trumps, the card play.
A branch's figure is the seat's team's points minus the other team's.

From these paired figures the bench sets, by the total it would have gained over the sample:
``preempt_share`` (bid higher while the higher bid keeps this share of the cheapest one's
expectation), then the expectation a bid needs by who holds the auction (``bidding.BID_FROM``):
``bid_from`` when nobody has bid, ``overcall_opponent_from`` over an opponent's bid (a pass
then leaves the opponents their contract), ``overcall_partner_from`` over partner's.  The
kitty: at the end of each auction, the declarer's discard by today's weights
(``bidding.keep_value``) and by one variant of them (each weight set to none or doubled, in
turn) are both played out; a variant is taken when its gain's 95% interval excludes zero.

The bids are tuned on the even deals and judged on the odd ones (the held-out gain of the
tuned rule over today's, with its interval), then tuned on all (the kitty's variants are
judged by their own intervals).  ``--write`` adds them to Bid Whist's figures in
``games/rules/computer/tuned_calls.json`` (groups "bids" and "kitty" of ``bidding.HELD_BACK``; how
they were measured under the provenance "tune_bids"), which normal and strong bid from: they beat the hand-set ones in
duplicate (docs/performance.md).  A run starts from the playing level's own figures: running
it again is the next round of the same tuning, to be checked at a table (bench/computer_players.py) as
this one was (a second round swung the figures back: a call's worth depends on how the others
call, docs/performance.md).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import time
from pathlib import Path

from bench import levels
from bench.computer_players import summarise
from bench.tuning import tuned_file
from bench.tuning.calls import dealt
from bench.tuning.thresholds import best_threshold, even_and_odd, gain_by_deal, rounded_for_calls
from games.rules.computer import bidding, choose_action, search

levels.register()  # --play may name a level the benches compare

GAME = "bid_whist"


def calls_of(play: str) -> str:
    """The thresholds the playing level bids from (bidding.thresholds): the branches start
    from its own rule."""
    level = search.SEARCH_LEVELS.get(play)
    return level.calls if level is not None else "tuned"


# A pass is played out when the best bid's expectation is within this window: far below it
# every rule passes, far above it every rule bids.
WINDOW = (-4.0, 3.0)
# The preempting shares tried; a higher bid is played out while it keeps the lowest of them.
# 99: never bid higher than needed.
SHARES = (0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 99.0)
KEEP_VARIANTS = [(weight, factor) for weight in ("ace", "king", "notrump_length", "short_side")
                 for factor in (0.0, 2.0)]
MIN_RECORDS = 50  # a threshold measured on fewer calls keeps today's


# -- playing the branches out ----------------------------------------------------------------


def replay(module, rules, dealer, deal, actions):
    state = module.new_hand(rules, dealer, deal.hands, deal.kitty)
    for seat, action in actions:
        state.apply(action, seat)
    return state


def team_margin(result: dict, seat: int) -> float:
    """The seat's team's points minus the other team's."""
    points = result["points"]
    return float(points[seat % 2] - points[1 - seat % 2])


def finish(state, seat: int, play: str, seed: int, score_of=team_margin) -> float:
    """The seat's figure (``score_of`` the result) of the hand finished by ``play``."""
    rng = random.Random(seed)
    while not state.complete:
        to_act = state.to_act
        state.apply(choose_action(state.view(to_act), play, rng), to_act)
    return score_of(state.result(), seat)


def branches(module, rules, dealer, deal, actions, seat, choices, play, seed,
             score_of=team_margin) -> dict[str, float]:
    """Each of ``choices`` made by the seat after ``actions``, the hand finished by ``play``
    with the same seed: the seat's figure for each."""
    out = {}
    for action in choices:
        state = replay(module, rules, dealer, deal, actions)
        state.apply(action, seat)
        out[action] = finish(state, seat, play, seed, score_of)
    return out


def deal_records(task) -> tuple[list[dict], list[dict]]:
    """(bid records, kitty records) of one deal: every branched call, and the declarer's
    discard by today's weights and by the deal's variant."""
    module, rules, rng, dealer, deal, play = dealt(GAME, task)
    index = task[0]
    state = module.new_hand(rules, dealer, deal.hands, deal.kitty)
    actions: list[tuple[int, str]] = []
    bids, kitty = [], []
    while not state.complete:
        seat = state.to_act
        view = state.view(seat)
        phase = view["phase"]
        if phase == "play":
            break  # the rest is card play: nothing more to branch
        seed = index * 64 + len(actions)  # the same seed for every branch of one decision
        if phase == "auction":
            figures = bidding.thresholds(view, calls_of(play))
            # the bids the level may make: a 4 in a suit only with a joker where it keeps the
            # convention
            choice = bidding.bid_whist_choice(view, rules, figures["books"],
                                              figures.get("four_says_joker", False))
            if choice.cheapest is not None:
                # the higher bids the lowest share would still make: any share's choice
                higher = []
                for bid, value in choice.higher:
                    if value < max(min(SHARES) * choice.value, bidding.PREEMPT_FLOOR):
                        break
                    higher.append((bid, value))
                tried = [choice.cheapest, *(bid for bid, _value in higher)]
                if choice.can_pass and WINDOW[0] <= choice.value <= WINDOW[1]:
                    tried.append("pass")
                if len(tried) > 1:
                    bids.append({"deal": index, "holder": choice.holder,
                                 "value": choice.value, "cheapest": choice.cheapest,
                                 "higher": higher,
                                 "outcome": branches(module, rules, dealer, deal, actions, seat,
                                                     tried, play, seed)})
        elif phase == "discard":
            today = bidding.bid_whist_discard(view, rules, calls_of(play))
            weight, factor = KEEP_VARIANTS[index % len(KEEP_VARIANTS)]
            alternative = discard_with(view, rules, weight, factor, calls_of(play))
            gain = 0.0
            if alternative != today:
                outcome = branches(module, rules, dealer, deal, actions, seat,
                                   [today, alternative], play, seed)
                gain = outcome[alternative] - outcome[today]
            kitty.append({"deal": index, "variant": f"{weight} x{factor:g}", "gain": gain,
                          "changed": alternative != today})
        action = choose_action(view, play, rng)
        state.apply(action, seat)
        actions.append((seat, action))
    return bids, kitty


def discard_with(view, rules, weight: str, factor: float, calls: str) -> str:
    weights = dict(bidding.thresholds(view, calls)["keep"])
    weights[weight] *= factor
    _tricks, keep, _trump, _direction = bidding.best_keep(view["hand"], view["contract"]["mode"],
                                                          rules, weights, view["discard_count"])
    return "discard " + " ".join(sorted(c for c in view["hand"] if c not in keep))


# -- from the records to the figures ---------------------------------------------------------


Rule = dict  # {"preempt_share": ..., and a threshold for each of bidding.BID_FROM's names}


def chosen(record: dict, rule: Rule) -> str:
    """What the rule calls at the record's decision."""
    choice = bidding.BidChoice(cheapest=record["cheapest"], value=record["value"],
                               higher=[tuple(h) for h in record["higher"]])
    action = bidding.preempting_bid(choice, rule["preempt_share"])
    threshold = rule[bidding.BID_FROM[record["holder"]]]
    return action if record["value"] >= threshold else "pass"


def outcome_of(record: dict, action: str) -> float | None:
    """The branch's figure; None for a pass that was not played out (below the window: every
    rule tried passes there, so two rules' difference is nothing)."""
    return record["outcome"].get(action)


def difference(record: dict, rule: Rule, baseline: Rule) -> float:
    a, b = chosen(record, rule), chosen(record, baseline)
    if a == b:
        return 0.0
    x, y = outcome_of(record, a), outcome_of(record, b)
    if x is None or y is None:  # a pass below the window against a bid: count it as no call
        return 0.0
    return x - y


def tune_bids(records: list[dict], today: Rule) -> tuple[Rule, list[str]]:
    """The rule the sample gains most with: for each preempting share, the threshold of each
    holder of the auction (none, an opponent, partner) where bidding starts to gain over a
    pass; then the share whose total is highest."""
    lines = []
    best, best_total = today, None
    # the share nearest today's first: of equal totals, the least change is kept
    for share in sorted(SHARES, key=lambda s: (abs(s - today["preempt_share"]), s)):
        rule, total = {"preempt_share": share}, 0.0
        for holder, name in bidding.BID_FROM.items():
            points = []
            for r in records:
                if r["holder"] != holder:
                    continue
                bid = chosen(r, {**rule, name: -99.0})
                if "pass" in r["outcome"]:
                    points.append((r["value"], r["outcome"][bid] - r["outcome"]["pass"]))
                else:  # above the window every rule bids: only the preempt differs
                    total += r["outcome"][bid] - r["outcome"][r["cheapest"]]
            if len(points) < MIN_RECORDS:
                rule[name] = today[name]
                total += sum(g for v, g in points if v >= today[name])
            else:
                threshold, gained, _calls = best_threshold(points, "up")
                # never gains within the window: bid only above it, as every rule does
                # (rounded down: every call the sample bid from still bids)
                rule[name] = WINDOW[1] if threshold is None \
                    else rounded_for_calls(threshold, "up")
                total += gained
        lines.append((share, f"  {format_rule(rule)}: total {total:+.0f} points"))
        if best_total is None or total > best_total + 1e-9:
            best, best_total = rule, total
    return best, [line for _share, line in sorted(lines)]


def tune_kitty(records: list[dict], today: dict[str, float]) -> tuple[dict, list[str]]:
    keep, lines = dict(today), []
    best_gain: dict[str, float] = {}
    for weight, factor in KEEP_VARIANTS:
        name = f"{weight} x{factor:g}"
        gains = [r["gain"] for r in records if r["variant"] == name]
        if not gains:
            continue
        mean, ci = summarise(gains)
        changed = sum(r["changed"] for r in records if r["variant"] == name)
        taken = mean - ci > 0 and mean > best_gain.get(weight, 0.0)
        lines.append(f"  keep {name}: {mean:+.3f} ± {ci:.3f} points a hand over {len(gains)} "
                     f"hands ({changed} other discards){'  <- taken' if taken else ''}")
        if taken:
            keep[weight], best_gain[weight] = today[weight] * factor, mean
    return keep, lines


def held_out(bid_records: list[dict], today: Rule) -> list[str]:
    """Tuned on the even deals, judged on the odd ones."""
    even, odd = even_and_odd(bid_records, lambda r: r["deal"])
    rule, _lines = tune_bids(even, today)
    mean, ci, deals = gain_by_deal(odd, lambda r: difference(r, rule, today))
    return [f"held out: tuned on the even deals {format_rule(rule)}, on the {deals} odd "
            f"deals with a call branched it gains {mean:+.3f} ± {ci:.3f} points a deal over "
            f"today's rule (the calls of all four seats)"]


def format_rule(rule: Rule) -> str:
    return "(" + ", ".join(f"{name} {rule[name]:g}" for name in RULE_NAMES) + ")"


RULE_NAMES = ("preempt_share", *bidding.BID_FROM.values())


def play_deals(deal_function, tasks: list, workers: int) -> list:
    """``deal_function`` of every task, in order: in ``workers`` processes when more than
    one (each deal's branches are played out in one of them)."""
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            return pool.map(deal_function, tasks, chunksize=4)
    return [deal_function(t) for t in tasks]


def add_tuning_arguments(parser: argparse.ArgumentParser, deals: int) -> None:
    """The options of the benches that tune calls in real auctions."""
    parser.add_argument("--deals", type=int, default=deals)
    parser.add_argument("--play", default="normal", help="the level that calls and plays")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--records", type=Path,
                        help="save the played-out branches to this file (JSON), or, if it "
                             "exists, tune from it without playing")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_tuning_arguments(parser, deals=3000)
    args = parser.parse_args(argv)
    tasks = [(i, args.seed, args.play) for i in range(args.deals)]
    start = time.perf_counter()
    if args.records and args.records.exists():
        results = json.loads(args.records.read_text())
    else:
        results = play_deals(deal_records, tasks, args.workers)
    if args.records and not args.records.exists():
        args.records.write_text(json.dumps(results))
    bid_records = [r for bids, _kitty in results for r in bids]
    kitty_records = [r for _bids, kitty in results for r in kitty]
    hands = sum(len(r["outcome"]) for r in bid_records) \
        + 2 * sum(r["changed"] for r in kitty_records)
    print(f"# bid_whist: {args.deals} deals, {len(bid_records)} calls branched, "
          f"{len(kitty_records)} discards, {hands} hands played out by {args.play} in "
          f"{time.perf_counter() - start:.0f} s", flush=True)
    figures = bidding.thresholds({"game": GAME}, calls_of(args.play))
    today = {name: figures[name] for name in RULE_NAMES}
    print(f"today {format_rule(today)}")
    rule, lines = tune_bids(bid_records, today)
    for line in [*lines, *held_out(bid_records, today)]:
        print(line)
    print(f"tuned {format_rule(rule)}")
    keep, lines = tune_kitty(kitty_records, figures["keep"])
    for line in lines:
        print(line)
    print(f"keep today {figures['keep']}, tuned {keep}")
    if args.write:
        saved = tuned_file.read()
        tuned_file.figures(saved, GAME).update({**rule, "keep": keep})
        tuned_file.provenance(saved, GAME)[tuned_file.BIDS] = {
            "deals": args.deals, "play": args.play, "seed": args.seed,
            "calls": len(bid_records)}
        print(f"written to {tuned_file.write(saved)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
