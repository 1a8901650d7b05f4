"""Computer players.  A computer player sees exactly what a person in its seat sees: the
seat's view.

``choose_action(view, level, rng=None)`` is all the rest of the site calls.  ``view`` is
``state.view(seat)`` of the seat to act (plus, optionally, ``view["rules"]``: the table's
house-rule overrides, which are public; without them the defaults are assumed).

Levels (docs/computer-players.md):
- ``random``: any legal action (benchmarks only);
- ``easy``: the heuristics of :mod:`.simple` -- count honours to bid, win cheaply, never
  overtake partner;
- ``normal`` and ``strong``: bids from a hand evaluation (:mod:`.bidding`) with thresholds
  measured by self-play, and card play that searches sampled deals (:mod:`.search`): ``strong``
  samples six times the deals and solves more of the last tricks exactly;
- the benches add the levels they compare against (earlier settings of a level, candidates for
  the next: bench/levels.py) to ``search.SEARCH_LEVELS`` while they run; no table offers them.
"""

from __future__ import annotations

import random
from typing import Any

from games.rules.base import HandView

from . import search, simple
from .hooks import of, shared
from .knowledge import rules_of

LEVELS = ("easy", "normal", "strong")
ALL_LEVELS = ("random", *LEVELS)


def choose_action(view: HandView, level: str = "normal",
                  rng: random.Random | None = None) -> str:
    """The action the computer player at ``view["seat"]`` takes, from that view alone."""
    if not view.get("legal") and not view.get("discard_count"):
        raise ValueError("the computer player was asked to act in a view that offers no legal action")
    if level not in ALL_LEVELS and level not in search.SEARCH_LEVELS:  # or a bench's level
        raise ValueError(f"unknown computer player level {level!r} (known: {', '.join(ALL_LEVELS)})")
    rng = rng or random.Random()
    own = of(view["game"]).choose_action
    if own is not None:  # a game the shared computer players cannot play decides everything itself
        return own(view, level, rng)
    legal = view.get("legal") or []
    if level == "random":
        return random_action(view, rng)
    if len(legal) == 1:
        return legal[0]
    if level == "easy":
        return simple.choose(view, rng)
    phase = view.get("phase")
    if phase == "play":
        return search.choose_card(view, search.SEARCH_LEVELS[level], rng)
    return call(view, rng, level)


def random_action(view: HandView, rng: random.Random) -> str:
    legal = view.get("legal") or []
    if not legal:  # Bid Whist discards: the view gives a count instead of 18,564 choices
        cards = rng.sample(view["hand"], view["discard_count"])
        return "discard " + " ".join(sorted(cards))
    return rng.choice(legal)


def call(view: HandView, rng: random.Random, level: str = "normal") -> str:
    """Every decision but a card to play, for the normal and strong levels: the game's hook
    for the phase (``CALLS`` of ``games/rules/computer/<game>.py``), else the easy heuristics.
    The level chooses the thresholds its calls are made from (``bidding.thresholds``)."""
    hook = shared(view["game"]).CALLS.get(view["phase"])
    if hook is None:
        return simple.choose(view, rng)
    return hook(view, rules_of(view), search.SEARCH_LEVELS[level].calls)


def played_record(game: str, seed: int, level: str = "easy") -> dict[str, Any] | None:
    """A complete hand record dealt from ``seed`` and played by computer players of ``level``
    at every seat: contracts as computer players call them, which a random record's rarely are
    (tests, benchmarks). None when everybody passed."""
    from games.rules import game_module, records

    module = game_module(game)
    rules = module.Rules()
    rng = random.Random(seed)
    dealer = seed % module.SEATS  # a seat of this game's table: Cutthroat's has three
    deal = module.deal(rules, dealer, rng)
    state = module.new_hand(rules, dealer, deal.hands, deal.kitty)
    while not state.complete:
        state.apply(choose_action(state.view(state.to_act), level, rng), state.to_act)
    if state.result().get("redeal"):
        return None
    return records.record_of(state)
