"""Tune Solo and Belgian Whist's calls still set by hand, in real auctions.

    .venv/bin/python bench/tune_auctions.py [--games solo_whist,belgian_whist] [--deals 2000]
                                            [--play normal] [--workers 2] [--seed 1]
                                            [--records FILE] [--write]

``bench/tune_calls.py`` measured the contracts a hand plays alone by forcing them (the others
pass).  The calls whose worth depends on what the others do are measured here, as
``bench/tune_bids.py`` measures Bid Whist's bids: Solo's prop, cop and the proposer's solo
when nobody accepted; Belgian proposals, emballage, maintaining a proposal and raising it;
and Belgian piccolo and petite misère (played alone, but called when the others have spoken).

Every deal's auction is run by the level (``--play``) at every seat, with the calls of the
playing level.  At each call where one of these thresholds decides between its call and
another (the call the rule makes with the threshold at the hand's figure, against the call
with the threshold just past it), and the hand's figure is within a window around today's
threshold, the hand is played out from there both ways with the same random seed: the rest of
the auction answers, then the trumps, the discards and the card play.  A branch's figure is
the seat's own score (Solo units, Belgian points).  Each threshold is set where calling starts
to gain over the sample (``thresholds.best_threshold``), checked by tuning on the even deals
and judging on the odd ones.

Solo's solo is measured here a second time, from the hands that could prop or cop instead
(``solo_over_partnership``): bench/tune_calls.py measured it against passing, so a hand that
passes its figure solos even where the prop (or the cop) would pay more.  Each threshold's
gain is printed by band of its figure as well.

``--write`` adds the figures measured (each threshold called at least ``MIN_RECORDS`` times)
to ``games/rules/computer/tuned_calls.json`` (how each was measured under the provenance
"tune_auctions"):
the group "auctions" of ``bidding.HELD_BACK``, which only the candidates ``normal_auctions``
and ``strong_auctions`` take (the figures won among computer players, but call a partnership
on less than the rule texts promise the partner: docs/computer-players.md, "A partner's promise"), and
the solo against the partnership calls, a group of its own ("partnership") that normal and
strong take; their figures then change at once, so check the new ones at a table
(bench/computer_players.py) as these were.  ``--tune NAMES`` sets some alone, the others keeping today's,
and plays out only their calls (a ``--records`` file says which it holds): the two sides of a
partnership are measured one after the other.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable
from typing import Any

from bench import levels
from bench.tuning import thresholds, tuned_file
from bench.tuning.bids import add_tuning_arguments, branches, calls_of, play_deals
from bench.tuning.calls import dealt
from bench.tuning.thresholds import best_threshold, even_and_odd, gain_by_deal, rounded_for_calls
from games.rules.computer import bidding, choose_action
from games.rules.computer.hooks import of as hooks_of
from games.rules.computer.knowledge import rules_of

levels.register()  # --play may name a level the benches compare

GAMES = ("solo_whist", "belgian_whist")
AUCTION_PHASES = ("auction", "trou")
MIN_RECORDS = 50  # a threshold measured on fewer calls keeps today's
# Only calls whose figure is this near today's threshold are played out (by direction: trick
# counts, misère risks): far from it every rule tried makes the same call.
WINDOW = {"up": 2.0, "down": 1.0}
EDGE = 0.1  # a threshold this near the last figure played is flagged: the optimum may lie beyond
EPSILON = 1e-6  # a threshold just past the hand's figure: the rule does not call


# -- the figure each threshold is compared with --------------------------------------------------


def _turn_tricks(view) -> float:
    return bidding.turn_up_tricks(view["hand"], view.get("turn_up_suit"))


def _by_suit(view) -> dict[str, float]:
    return bidding.belgian_evaluation(view["hand"])["by_suit"]


def _solo_prop(view) -> float | None:
    return _turn_tricks(view) if "prop" in view["legal"] else None


def _solo_cop(view) -> float | None:
    return _turn_tricks(view) if "cop" in view["legal"] else None


def _solo_after_prop(view) -> float | None:
    return _turn_tricks(view) if view["legal"] == bidding.SOLO_LAST_WORD else None


def _solo_over_partnership(view) -> float | None:
    """A solo from a hand that could prop (or cop) instead: its own threshold, so that the
    solo is measured against that call rather than against passing (bench/tune_calls.py)."""
    legal = view["legal"]
    return _turn_tricks(view) if "solo" in legal and bidding.partnership_offered(legal) \
        else None


def _propose(view) -> float | None:
    by_suit = _by_suit(view)
    return max((by_suit[a[-1]] for a in bidding.proposal_options(view["hand"], view["legal"])),
               default=None)


def _emballer(view) -> float | None:
    by_suit = _by_suit(view)
    return max((by_suit[a[-1]] for a in bidding.emballer_options(view["legal"])), default=None)


def _maintain(view) -> float | None:
    if "maintain" not in view["legal"]:
        return None
    return _by_suit(view).get(bidding.proposed_suit(bidding.seat_standing(view)), 0)


def _raise(view) -> float | None:
    suit = bidding.pair_suit(view, view["seat"])
    action = bidding.cheapest_raise(view["legal"], suit) if suit else None
    return bidding.raise_spare(_by_suit(view)[suit], action) if action else None


def _piccolo(view) -> float | None:
    risk = bidding.piccolo_risk(view["hand"])
    return risk if "piccolo" in view["legal"] and math.isfinite(risk) else None


def _petite_misere(view) -> float | None:
    return bidding.petite_misere_risk(view["hand"]) if "petite_misere" in view["legal"] else None


# threshold -> (direction: a trick count calls from it up, a risk from it down; its figure)
Figure = Callable[[dict[str, Any]], "float | None"]
DECISIONS: dict[str, dict[str, tuple[str, Figure]]] = {
    "solo_whist": {"prop": ("up", _solo_prop), "cop": ("up", _solo_cop),
                   "solo_after_prop": ("up", _solo_after_prop),
                   "solo_over_partnership": ("up", _solo_over_partnership)},
    "belgian_whist": {"propose": ("up", _propose), "emballer": ("up", _emballer),
                      "maintain": ("up", _maintain), "raise": ("up", _raise),
                      "piccolo": ("down", _piccolo), "petite_misere": ("down", _petite_misere)},
}


def call_with(view, figures: dict[str, Any]) -> str:
    """The game's call from these thresholds (the hook the levels call)."""
    hook = hooks_of(view["game"]).CALLS[view["phase"]]
    return hook(view, rules_of(view), figures)


def rule_calls(direction: str, figure: float, threshold: float) -> bool:
    return figure >= threshold if direction == "up" else figure <= threshold


# -- playing the branches out ----------------------------------------------------------------


def own_score(result: dict, seat: int) -> float:
    """The seat's own score: Solo units, Belgian points."""
    return float(result["units"][seat] if "units" in result else result["points"][seat])


def deal_records(task) -> list[dict]:
    """Every branched call of one deal: the threshold, the hand's figure, and the seat's score
    with the call made and with the other call."""
    game, index, seed, play, *only = task  # only: the names to play out (all by default)
    decisions = {name: decision for name, decision in DECISIONS[game].items()
                 if not only or name in only[0]}
    module, rules, rng, dealer, deal, _play = dealt(game, (index, seed, play))
    state = module.new_hand(rules, dealer, deal.hands, deal.kitty)
    actions: list[tuple[int, str]] = []
    records = []
    while not state.complete:
        seat = state.to_act
        view = state.view(seat)
        if view["phase"] == "play":
            break  # the rest is card play: nothing more to branch
        if view["phase"] in AUCTION_PHASES and len(view["legal"]) > 1:
            thresholds_now = bidding.thresholds(view, calls_of(play))
            for name, (direction, figure_of) in decisions.items():
                figure = figure_of(view)
                if figure is None or abs(figure - thresholds_now[name]) > WINDOW[direction]:
                    continue
                past = figure + EPSILON if direction == "up" else figure - EPSILON
                called = call_with(view, {**thresholds_now, name: figure})
                other = call_with(view, {**thresholds_now, name: past})
                if called == other:
                    continue  # a stronger call decides here
                outcome = branches(module, rules, dealer, deal, actions, seat, [called, other],
                                   play, index * 64 + len(actions), own_score)
                records.append({"deal": index, "name": name, "figure": figure,
                                "called": called, "other": other,
                                "gain": outcome[called] - outcome[other]})
        action = choose_action(view, play, rng)
        state.apply(action, seat)
        actions.append((seat, action))
    return records


# -- from the records to the figures ---------------------------------------------------------


def tune(game: str, records: list[dict], today: dict[str, float],
         names: set[str] | None = None) -> tuple[dict, list[str], set[str]]:
    """For each threshold (of ``names``; the others keep today's), where calling starts to
    gain over the sample's calls: (every threshold, the lines to print, the names measured --
    those called at least ``MIN_RECORDS`` times)."""
    tuned, lines, measured = {}, [], set()
    for name, (direction, _figure) in DECISIONS[game].items():
        if names is not None and name not in names:
            tuned[name] = today[name]
            continue
        points = [(r["figure"], r["gain"]) for r in records if r["name"] == name]
        if len(points) < MIN_RECORDS:
            tuned[name] = today[name]
            lines.append(f"  {name}: {len(points)} calls, today's {today[name]:g} kept")
            continue
        threshold, gained, calls = best_threshold(points, direction)
        today_total = sum(g for f, g in points if rule_calls(direction, f, today[name]))
        measured.add(name)
        tuned[name] = None if threshold is None else rounded_for_calls(threshold, direction)
        edge = min(f for f, _g in points) if direction == "up" else max(f for f, _g in points)
        at_edge = " -- at the window's edge: calling may gain beyond it" \
            if threshold is not None and abs(threshold - edge) <= EDGE else ""
        lines.append(f"  {name}: {len(points)} calls ({direction}), today {today[name]:g} "
                     f"gains {today_total:+.0f}, tuned {format_figure(tuned[name])} gains "
                     f"{gained:+.0f} ({calls} calls){at_edge}")
        lines.append("    calling gains, by figure: " + ", ".join(
            f"{low:g}-{low + BAND:g} {mean:+.2f} ± {ci:.2f} ({n})"
            for low, n, mean, ci in gain_by_band(points)))
    return tuned, lines, measured


BAND = 0.5  # the width of the figure's bands the gains are printed by


def gain_by_band(points: list[tuple[float, float]]) -> list[tuple[float, int, float, float]]:
    """(band's lowest figure, calls, mean gain of calling, its 95% half-width) by band."""
    return thresholds.gain_by_band(points, BAND)


def format_figure(value: float | None) -> str:
    return "never" if value is None else f"{value:g}"


def difference(game: str, record: dict, rule: dict, baseline: dict) -> float:
    direction = DECISIONS[game][record["name"]][0]
    new, old = rule[record["name"]], baseline[record["name"]]
    calls_new = new is not None and rule_calls(direction, record["figure"], new)
    calls_old = old is not None and rule_calls(direction, record["figure"], old)
    return record["gain"] * (calls_new - calls_old)


def held_out(game: str, records: list[dict], today: dict, names: set[str] | None = None
             ) -> list[str]:
    """Tuned on the even deals, judged on the odd ones (the calls of ``names`` only)."""
    records = [r for r in records if names is None or r["name"] in names]
    even, odd = even_and_odd(records, lambda r: r["deal"])
    rule, _lines, _measured = tune(game, even, today, names)
    mean, ci, deals = gain_by_deal(odd, lambda r: difference(game, r, rule, today))
    shown = ", ".join(f"{name} {format_figure(value)}" for name, value in rule.items())
    return [f"  held out: tuned on the even deals ({shown}), on the {deals} odd deals "
            f"with a call branched it gains {mean:+.3f} ± {ci:.3f} a deal over today's "
            f"(the calls of all four seats)"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default=",".join(GAMES))
    add_tuning_arguments(parser, deals=2000)
    parser.add_argument("--tune", help="the thresholds to set (comma-separated; all of the "
                                       "games' by default): the others keep today's")
    args = parser.parse_args(argv)
    games = args.games.split(",")
    unknown = set(games) - set(GAMES)
    if unknown:
        parser.error(f"unknown games {', '.join(sorted(unknown))} (known: {', '.join(GAMES)})")
    if args.tune is not None:
        known = {name for game in games for name in DECISIONS[game]}
        unknown = set(args.tune.split(",")) - known
        if unknown:
            parser.error(f"unknown thresholds {', '.join(sorted(unknown))} "
                         f"(known: {', '.join(sorted(known))})")
    kept = json.loads(args.records.read_text()) if args.records and args.records.exists() \
        else {}
    played = {}
    saved = tuned_file.read()
    for game in games:
        start = time.perf_counter()
        names = set(DECISIONS[game])
        if args.tune is not None:  # only these calls are played out
            names &= set(args.tune.split(","))
        if game in kept:  # tuned again from the branches of an earlier run, as it was played
            run = kept[game]
            missing = names - set(run.get("decisions", DECISIONS[game]))
            if missing:
                parser.error(f"{args.records} holds no calls of {', '.join(sorted(missing))} "
                             f"(it played out {', '.join(run['decisions'])}): name them "
                             f"with --tune, or give a new file")
        else:
            tasks = [(game, i, args.seed, args.play, names) for i in range(args.deals)]
            results = play_deals(deal_records, tasks, args.workers)
            run = {"deals": args.deals, "seed": args.seed, "play": args.play,
                   "decisions": sorted(names),
                   "records": [r for deal in results for r in deal]}
        played[game] = run
        records = run["records"]
        print(f"# {game}: {run['deals']} deals, {len(records)} calls branched "
              f"({2 * len(records)} hands played out by {run['play']}) in "
              f"{time.perf_counter() - start:.0f} s", flush=True)
        level_thresholds = bidding.thresholds({"game": game}, calls_of(run["play"]))
        today = {name: level_thresholds[name] for name in DECISIONS[game]}
        rule, lines, measured = tune(game, records, today, names)
        for line in [*lines, *held_out(game, records, today, names)]:
            print(line, flush=True)
        print(f"  tuned: {', '.join(f'{n} {format_figure(rule[n])}' for n in sorted(measured))}"
              if measured else "  tuned: nothing (too few calls)")
        figures = tuned_file.figures(saved, game)
        measured_by = tuned_file.provenance(saved, game).setdefault(tuned_file.AUCTIONS, {})
        for name in measured:  # the figure, and how it was measured
            figures[name] = rule[name]
            measured_by[name] = {
                "deals": run["deals"], "play": run["play"], "seed": run["seed"],
                "calls": sum(1 for r in records if r["name"] == name)}
    if args.records and not args.records.exists():
        args.records.write_text(json.dumps(played))
    if args.write:
        print(f"written to {tuned_file.write(saved)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
