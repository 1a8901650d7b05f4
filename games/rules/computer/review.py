"""A review of one player's decisions in a finished hand: what ``strong`` would have chosen from
the same view, and what the difference was worth.

For each of the seat's own decisions where it had a choice, :func:`review` rebuilds the view the
player had at that moment (``state.view(seat)``: nothing they could not see), asks ``strong``,
and for a card values the player's card and strong's on the same deals sampled consistently with
that view (:func:`search.card_values`, with more deals than a decision at the table): the
difference is the expected score the choice cost, in the game's unit (Bid Whist points for the
side, Solo Whist units, Belgian Whist points).  Two cards of one run (nothing out between them)
are the same choice.  A call of the auction is valued by playing the hand out from each of the
two calls on deals consistent with what the seat saw (:func:`call_values`: the rest played by
the easy computer players, fast enough for many deals); a call made after the auction with
the kitty in hand (a discard, trumps) shows strong's call without a figure.

It runs in the computer players' worker pool (:mod:`games.reviews`), never in a process that serves
sockets.
"""

from __future__ import annotations

import random
import time
from typing import Any

from games.rules import game_module, records
from games.rules.base import HandView
from games.rules.cards import CARD_INDEX, mask_of

from . import choose_action
from . import knowledge as kn
from .double_dummy import OutOfTime, Solver
from .hooks import of as hooks_of
from .kernel import WIN
from .search import SEARCH_LEVELS, SearchLevel, card_values, legal_runs

LEVEL = "strong"
# More deals than strong takes at the table (its budget is a person's patience, here a review's
# 15 seconds for a whole hand).
VALUES = SearchLevel(samples=128, exact_tricks=4, budget=1.0, min_samples=16, transpositions=True,
                     habit_over_exact=False, club_leads=True)
COSTLY = 0.3  # in the game's unit per hand: a choice that cost this much or more is marked
CALL_DEALS = 64  # deals a call is played out on
# The double-dummy result's share of a review's time: from the first trick while 40% of it
# lasts, then from later tricks (as played), each search starting from the table of the last.
DOUBLE_DUMMY_SECONDS = 6.0
DOUBLE_DUMMY_FROM = ((0, 0.4), (2, 0.65), (3, 0.75), (4, 0.85), (5, 0.92), (6, 1.0), (8, 1.0))
# Where the count from the first trick does not settle in its share, the contract's own
# question -- would it have been made? -- from the first trick, until this share of the time:
# one search rather than the two the count needs at its exact value, and often far from the
# hand's critical count, so it settles where the count does not (a Solo hand's 13 tricks).
# Its answer then stands, rather than a count from a later trick, the tricks before as played.
CONTRACT_QUESTION_UNTIL = 0.6


def review_or_error(record: dict[str, Any], seat: int,
                    double_dummy: dict[str, Any] | None = None) -> dict[str, Any]:
    """:func:`review` for a worker process: a failure comes back as ``{"error": ...}`` (plain
    data: an engine's exception may not travel back, and must not break the pool)."""
    try:
        return review(record, seat, double_dummy=double_dummy)
    except Exception as exc:  # the caller logs it and marks the review failed
        return {"error": f"{type(exc).__name__}: {exc}"}


def review(record: dict[str, Any], seat: int, seed: int = 0,
           double_dummy: dict[str, Any] | None = None) -> dict[str, Any]:
    """The review of ``seat``'s decisions in a complete hand record (``docs/hand-records.md``):
    ``{"seat", "level", "moments": [{"index", "phase", "played", "suggested", "cost", "costly"}],
    "double_dummy"}``.
    ``index`` is the action's place in the record; ``cost`` None for a call.
    ``double_dummy``: the contract's result where another seat's review settled it (the same
    for every seat), else it is searched for (:func:`contract_double_dummy`)."""
    _module, state, actions = records.start_hand(record)
    overrides = state.rules.overrides()
    rng = random.Random(seed)
    moments = []
    for index, entry in enumerate(actions):
        if entry["seat"] == seat:
            view = state.view(seat)
            if overrides:
                view["rules"] = overrides
            if len(view.get("legal") or []) != 1:
                moments.append({"index": index, **judge(view, entry["action"], rng)})
        state.apply(entry["action"], entry["seat"])
    return {"seat": seat, "level": LEVEL, "moments": moments,
            "double_dummy": double_dummy or contract_double_dummy(record)}


def contract_double_dummy(record: dict[str, Any], seconds: float = DOUBLE_DUMMY_SECONDS
                          ) -> dict[str, Any] | None:
    """The contract's double-dummy result, for a game that offers it (its computer players' module's
    ``DOUBLE_DUMMY``): the tricks the declaring side takes in play with every card seen and
    best play by everyone -- from the first trick, or, where that does not settle within
    ``seconds``, from the first later trick that does (the tricks before it as played).
    ``{"settled": True, "declarers", "from_trick", "tricks", "contract_made", "made",
    "all_played", "of", "wants_tricks"}`` (``made``: the tricks the side took, ``all_played``
    False where play stopped once the result was certain; ``of``: the tricks of a whole hand;
    ``tricks`` None where only the contract's question settled from the first trick, then
    ``contract_made`` answers it), or ``{"settled": False}`` when nothing settled in time; None
    when the game has none or nobody declared."""
    _module, state, actions = records.start_hand(record)
    start = time.perf_counter()
    plays = [i for i, entry in enumerate(actions) if entry["action"].startswith("play ")]
    if not plays or not hooks_of(state.game).DOUBLE_DUMMY:
        return None
    applied = plays[0]  # actions applied so far
    for entry in actions[:applied]:
        state.apply(entry["action"], entry["seat"])
    view = state.view(state.to_act)
    overrides = state.rules.overrides()
    if overrides:
        view["rules"] = overrides
    hooks = kn.hooks(view)
    seats = len(record["hands"])
    declarers = [s for s in range(seats) if hooks.declaring(view, s)]
    if not declarers:
        return None
    spec = kn.read(view).spec
    side = spec.side[declarers[0]]
    wants_tricks = spec.aim[declarers[0]] == WIN
    solver = Solver(spec, side, wants_tricks)
    final = records.replay_hand(record).view(0)["tricks_won"]
    made = sum(won for s, won in enumerate(final) if spec.side[s] == side)
    declarer_view = state.view(declarers[0])
    if overrides:
        declarer_view["rules"] = overrides
    bound = contract_bound(kn.read(declarer_view).spec, side, wants_tricks)
    answer = {"settled": True, "declarers": declarers, "made": made,
              "all_played": len(plays) == spec.total_tricks * seats,
              "of": spec.total_tricks, "wants_tricks": wants_tricks}
    for trick, share in DOUBLE_DUMMY_FROM:
        if trick * seats >= len(plays):
            break  # the hand ended before (play stops once the result is certain)
        for entry in actions[applied:plays[trick * seats]]:
            state.apply(entry["action"], entry["seat"])
        applied = plays[trick * seats]
        view = state.view(state.to_act)
        if overrides:
            view["rules"] = overrides
        know = kn.read(view)
        hands = [mask_of(state.view(s)["hand"]) for s in range(seats)]
        before = sum(won for s, won in enumerate(view["tricks_won"]) if spec.side[s] == side)
        try:
            tricks = solver.side_tricks(kn.position(know, hands), made - before,
                                        start + share * seconds)
        except OutOfTime:
            if trick == 0 and bound is not None:
                try:  # wanting tricks: at least the bound; a misère: not more than it
                    reaches = solver.takes_at_least(
                        kn.position(know, hands), bound - before + (0 if wants_tricks else 1),
                        start + CONTRACT_QUESTION_UNTIL * seconds)
                    return answer | {"from_trick": 1, "tricks": None,
                                     "contract_made": reaches == wants_tricks}
                except OutOfTime:
                    pass
            continue
        total = before + tricks
        return answer | {"from_trick": trick + 1, "tricks": total, "contract_made":
                         None if bound is None or trick else
                         (total >= bound if wants_tricks else total <= bound)}
    return {"settled": False}


def contract_bound(spec, side: int, wants_tricks: bool) -> int | None:
    """The fewest tricks that make the side's contract (the most it may take, for a side that
    wants none), read from the score of the declarer's own view (``spec.me`` a declarer): the
    game's scoring is the one place that knows it.  None where no count makes the score change
    sign (a contract the score does not judge by tricks alone)."""
    ours = next(s for s in range(4) if spec.side[s] == side)
    theirs = next((s for s in range(4) if spec.side[s] != side), None)
    if theirs is None:
        return None
    made = []
    for tricks in range(spec.total_tricks + 1):
        split = [0, 0, 0, 0]
        split[ours], split[theirs] = tricks, spec.total_tricks - tricks
        made.append(spec.score(tuple(split)) > 0)
    if wants_tricks:
        bound = next((k for k, ok in enumerate(made) if ok), None)
        return bound if bound is not None and all(made[bound:]) and bound > 0 else None
    bound = next((k - 1 for k, ok in enumerate(made) if not ok), None)
    return bound if bound is not None and bound >= 0 and all(made[:bound + 1]) else None


def judge(view: HandView, played: str, rng: random.Random) -> dict[str, Any]:
    """One decision: strong's choice from the same view and, for a card, what the player's
    choice cost against it (0 when it was as good)."""
    suggested = choose_action(view, LEVEL, rng)
    phase = view.get("phase")
    if phase != "play":
        cost = 0.0 if suggested == played else None
        if suggested != played:
            values = call_values(view, [played, suggested], rng)
            if values is not None:
                cost = round(max(0.0, values[suggested] - values[played]), 2)
        return {"phase": phase, "played": played, "suggested": suggested, "cost": cost,
                "costly": cost is not None and cost >= COSTLY}
    if hooks_of(view["game"]).choose_action is not None:
        # Cutthroat's computer players play without the shared search: strong's card only
        return {"phase": phase, "played": played, "suggested": suggested, "cost": None,
                "costly": False}
    know = kn.read(view, SEARCH_LEVELS[LEVEL].conventions)  # what strong reads of the calls
    same_run = representative(know, view, played) == representative(know, view, suggested)
    cost = 0.0
    if not same_run:
        mine, theirs = CARD_INDEX[played[5:]], CARD_INDEX[suggested[5:]]
        worth = card_values(know, [mine, theirs], VALUES, rng)
        if worth is not None:
            cost = max(0.0, worth[theirs] - worth[mine])  # strong's noise is no gain
    cost = round(cost, 2)
    return {"phase": phase, "played": played, "suggested": played if same_run else suggested,
            "cost": cost, "costly": cost >= COSTLY}


def call_values(view: HandView, calls: list[str], rng: random.Random,
                deals: int = CALL_DEALS) -> dict[str, float] | None:
    """Each call's mean score for the seat, the hand played out from it on the same deals --
    the unseen cards dealt at random around the seat's own hand and the cards everyone knows
    (``auction_known``), kept when the auction so far replays on them -- the rest played by
    the easy computer players.  None when the seat's hand is not its dealt hand (a kitty
    taken) or no deal fits."""
    module = game_module(view["game"])
    rules = kn.rules_of(view)
    game_hooks = hooks_of(view["game"])  # every game's: a call of Cutthroat's is valued too
    me, dealer = kn.seat_of(view), view["dealer"]
    shape = module.deal(rules, dealer, rng)
    if len(view["hand"]) != len(shape.hands[me]):
        return None
    known: dict[int, Any] = game_hooks.auction_known(view)
    fixed = {me: list(view["hand"])}
    for seat, cards in known.items():
        fixed[seat] = fixed.get(seat, []) + list(cards)
    placed = {c for cards in fixed.values() for c in cards}
    unseen = [c for hand in shape.hands for c in hand if c not in placed] + \
        [c for c in shape.kitty or () if c not in placed]
    sizes = [len(hand) for hand in shape.hands]
    totals = dict.fromkeys(calls, 0.0)
    done = 0
    for _ in range(deals * 4):
        if done == deals:
            break
        rng.shuffle(unseen)
        rest = iter(unseen)
        hands = [fixed.get(s, []) + [next(rest) for _ in range(sizes[s] - len(fixed.get(s, [])))]
                 for s in range(len(sizes))]
        kitty = list(rest) or None
        game_hooks.order_dealt(view, hands)
        try:
            state = module.new_hand(rules, dealer, hands, kitty)
            for entry in view["auction"]:
                state.apply(entry["action"], entry["seat"])
        except Exception:  # the auction does not fit this deal (a trou without three aces)
            continue
        if state.to_act != me or state.view(me).get("legal") != view.get("legal"):
            return None  # the decision is not the auction's (trumps named after a discard)
        seed = rng.getrandbits(32)
        for call in calls:
            totals[call] += _played_out(state.copy(), call, me, random.Random(seed))
        done += 1
    return {call: total / done for call, total in totals.items()} if done else None


def _played_out(state, call: str, me: int, rng: random.Random) -> float:
    state.apply(call, me)
    while not state.complete:
        state.apply(choose_action(state.view(state.to_act), "easy", rng), state.to_act)
    result = state.result()
    points = result.get("points", result.get("units"))
    if len(points) == 2:  # a partnership's points: ours against theirs
        return points[me & 1] - points[1 - (me & 1)]
    return points[me]


def representative(know: kn.Knowledge, view: HandView, action: str) -> int:
    """The lowest card of ``action``'s run among the legal cards (cards that play alike)."""
    spec = know.spec
    card = CARD_INDEX[action[5:]]
    same_suit = [r for r in legal_runs(view, know) if spec.suit_id[r] == spec.suit_id[card]
                 and spec.strength[r] <= spec.strength[card]]
    return max(same_suit, key=lambda r: spec.strength[r]) if same_suit else card


assert LEVEL in SEARCH_LEVELS
