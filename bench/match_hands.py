"""How many hands a match takes, played by the computer players: what a round of matches'
clock must leave time for (docs/events.md, "League evenings played as events").

    .venv/bin/python bench/match_hands.py [--matches 200] [--level normal] [--seed 2026]
                                          [--games bid_whist,cutthroat_bid_whist]

Every seat of each match is a computer player of ``--level``, at the game's usual house rules
(Bid Whist to 7, Cutthroat Bid Whist to 30); the deals are shuffled from ``--seed``.  Prints,
per game, the hands of a match (all-pass redeals included: each is a deal of an event's
round): median, 90th and 95th percentiles, longest, and how many matches would end within
each number of hands a round of the longest clock holds at the usual minutes a deal.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.rules import game_module  # noqa: E402
from games.rules.computer import choose_action  # noqa: E402

# The events' clock (events.models): the longest round, and the usual minutes a deal.
LONGEST_ROUND_MINUTES = 120
MINUTES_PER_DEAL = 6


def match_hands(game: str, level: str, rng: random.Random) -> int:
    """The hands one match of ``game`` took, every seat played by ``level``."""
    module = game_module(game)
    rules = module.Rules()
    match = module.CHAIN(rules, first_dealer=0)
    hands = 0
    while not match.complete:
        dealer = match.next_dealer
        dealt = module.deal(rules, dealer, rng)
        state = module.new_hand(rules, dealer, dealt.hands, dealt.kitty)
        while not state.complete:
            state.apply(choose_action(state.view(state.to_act), level, rng))
        match.add_result(dealer, state.result())
        hands += 1
    return hands


def percentile(values: list[int], share: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--level", default="normal")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--games", default="bid_whist,cutthroat_bid_whist")
    args = parser.parse_args()
    held = LONGEST_ROUND_MINUTES // MINUTES_PER_DEAL
    for game in args.games.split(","):
        rng = random.Random(args.seed)
        lengths = [match_hands(game, args.level, rng) for _ in range(args.matches)]
        within = sum(length <= held for length in lengths)
        print(f"{game}: {args.matches} matches, hands median {statistics.median(lengths):g}, "
              f"p90 {percentile(lengths, 0.9)}, p95 {percentile(lengths, 0.95)}, "
              f"longest {max(lengths)}; {within} of {args.matches} within {held} hands "
              f"({LONGEST_ROUND_MINUTES} minutes at {MINUTES_PER_DEAL} a deal)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
