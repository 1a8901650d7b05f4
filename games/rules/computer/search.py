"""Card play that searches: sampled deals, playouts, exact search near the end of the hand.

For a card to play the computer player
1. reads its view (:func:`knowledge.read`) and keeps one card of each run of equivalent cards;
2. deals the unseen cards many times consistently with what it has seen
   (:func:`knowledge.sample`);
3. on every sampled deal plays each candidate card and finishes the hand with the playout
   policy, or solves it exactly when few tricks remain (:func:`kernel.solve`); every candidate
   is tried on the same deals and with the same playout seed, so the comparison is fair;
4. picks the best mean score, with a small bonus for the habits a partner expects -- return
   partner's suit, do not ruff partner's winner, draw trumps as declarer -- which decides
   between cards the search finds (nearly) equal;
5. at the levels offered at a table (``habits_within_noise``), plays the card a club player
   expects -- last to play, take an opponent's trick cheaply; on lead, return partner's suit,
   or lead trumps against an abundance -- unless the sampled deals find another card better by
   more than their noise (:func:`clearly_better`).
A soft time budget stops sampling early on a slow machine; at least a few deals are always used.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from games.rules.base import HandView
from games.rules.cards import ALL_CARDS, CARD_INDEX, mask_of

from . import knowledge as kn
from .kernel import TRUMP, WIN, beating, bits, distinct_cards, play, playout, solve


@dataclass(frozen=True)
class SearchLevel:
    samples: int  # deals sampled per decision
    exact_tricks: int  # solve exactly when at most this many tricks are left (current included)
    budget: float  # seconds: stop sampling after this (soft), once min_samples are done
    min_samples: int = 4
    transpositions: bool = False  # the exact search remembers positions (kernel.solve's table)
    # Draw trumps by habit even where the search would solve the hand exactly (the first
    # strong did; an exact search knows better when drawing loses the contract).
    habit_over_exact: bool = True
    club_leads: bool = False  # the playouts lead as club players do (kernel.PlaySpec.club_leads)
    # Weight sampled deals by the auction: a deal in which the other seats' calls are not what
    # the level's own bidding would have made with those hands counts less in the mean
    # (calls_weight: INFERENCE_FLOOR to the power of the calls that do not fit).
    infer_calls: bool = False
    # Draw them by the play: a deal in which a seat that let an opponent's card stand holds a
    # card of the suit that beats it is kept less often (sample_inferred).
    infer_play: bool = False
    # Calls from the thresholds measured by bench/tune_calls.py instead of the hand-set ones
    # (bidding.thresholds).
    tuned_calls: bool = False
    # With tuned_calls, also these groups of the measured figures held back from the others
    # (bidding.HELD_BACK): normal's and strong's Bid Whist bids and kitty, measured in real
    # auctions; the candidate strong_books' Bid Whist books model, which lost to strong in
    # duplicate (docs/performance.md, "Bid Whist's books model").
    measured: tuple[str, ...] = ()
    # A club player's habit decides unless the sampled deals find another card clearly better
    # (:func:`habit_card`, :func:`clearly_better`): last to play, take an opponent's trick
    # cheaply; on lead, return partner's suit, or against an abundance lead trumps.  The small
    # bonuses of :func:`habits` alone lose to the samples' noise (a duck the samples rarely see
    # punished).
    habits_within_noise: bool = False
    # On lead, a trump costs a habit's unit when no opponent can hold a trump and partner may:
    # the lead would only pull partner's trumps (the blunder kind ``dead_trumps``,
    # games/rules/computer/blunders.py).
    spare_partners_trumps: bool = False
    # The conventions the level keeps, in its calls and in what it reads of its partner's
    # (bidding.CONVENTIONS): Bid Whist's "four_says_joker", an opening bid of 4 in a suit
    # made only with a joker and read as one (knowledge.read).  Only with tuned_calls.
    conventions: tuple[str, ...] = ()
    # Where the rest of the hand is solved exactly, the habits' bonuses only break exact ties:
    # a solved value differs by a trick (0.02 where the score cannot change) or not at all,
    # and a habit's unit must not throw a trick (the settled blunders).
    solved_ties_only: bool = False

    @property
    def calls(self) -> str:
        """Which thresholds the level's calls come from (bidding.thresholds), and the
        conventions it keeps."""
        if not self.tuned_calls:
            return "hand"
        return "+".join(("tuned", *self.measured, *self.conventions))


INFERENCE_FLOOR = 0.2
INFERENCE_TRIES = 4  # deals drawn at most for one sample
# A card beats the habit's card only by more than this many standard errors: three, not two,
# since a deal's value has long tails (a Belgian contract made or lost is a 20-point swing).
NOISE_SE = 3.0


# strong: twice the deals strong_v2 takes (closes more of Bid Whist's gap to perfect card play:
# docs/computer-players.md), and a club player's habits decide where its samples cannot tell.
# Both bid Bid Whist from the figures measured in real auctions (bench/tune_bids.py), which
# beat the hand-set ones in duplicate (docs/performance.md, "Bid Whist's bids in real
# auctions"): the groups "bids" and "kitty" of bidding.HELD_BACK.  Neither takes the group
# "auctions" (Solo's prop and Belgian Whist's proposals and emballage measured in real
# auctions, bench/tune_auctions.py): those figures win among computer players but call a
# partnership with fewer tricks than a partner is promised (docs/rules/), who may be a club
# player (the positions "prop_promises_four_tricks", "propose_promises_five_tricks",
# "no_emballage_without_tricks"; docs/computer-players.md, "A partner's promise").
# Both take the group "partnership": Solo's solo from a hand that could prop or cop instead,
# measured against that call; where the measurement cannot tell the two apart (4.3 to 4.55
# tricks), the prop a club player makes (the position "prop_with_four_tricks").
# Exact in the last five tricks, as the oracle: at five, playouts still threw a trick (or a
# contract) that every deal the seat could imagine showed lost -- the blunders a partner sees
# (docs/computer-players.md, "Blunders a partner notices"); fewer deals solved exactly beat
# more deals played out at random there.
STRONG = SearchLevel(samples=96, exact_tricks=5, budget=0.22, transpositions=True,
                     habit_over_exact=False, club_leads=True, tuned_calls=True,
                     habits_within_noise=True, measured=("bids", "kitty", "partnership"),
                     spare_partners_trumps=True, conventions=("four_says_joker", "advice"),
                     solved_ties_only=True)
NORMAL = SearchLevel(samples=16, exact_tricks=3, budget=0.07, transpositions=True,
                     club_leads=True, tuned_calls=True, habits_within_noise=True,
                     measured=("bids", "kitty", "partnership"),
                     conventions=("four_says_joker", "advice"),
                     solved_ties_only=True)
# The levels a player can choose that search (computer.LEVELS).  The benches add the levels they
# compare against, earlier settings and candidates, when they run (bench/levels.py).
SEARCH_LEVELS: dict[str, SearchLevel] = {
    # about a third of strong's thinking, from the same measured calls (beat normal_v1 in every
    # game in duplicate: docs/performance.md, "normal")
    "normal": NORMAL,
    "strong": STRONG,
}
# The benches' ceiling (:mod:`.oracle`): the search on the real deal instead of sampled ones,
# solved exactly from five tricks from the end.  Fixed, so that the share of the gap a level
# closes can be compared from one version of the computer players to the next.
ORACLE = SearchLevel(samples=28, exact_tricks=5, budget=0.15, transpositions=True,
                     habit_over_exact=False)


def choose_card(view: HandView, level: SearchLevel, rng: random.Random,
                seen_hands: list[int] | None = None) -> str:
    """The card to play.  ``seen_hands`` (four masks of the cards still in each hand) is for
    the benches' oracle alone: every "sample" is then the real deal."""
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    know = kn.read(view, level.conventions)
    spec = know.spec
    spec.club_leads = level.club_leads
    candidates = legal_runs(view, know)
    if len(candidates) == 1:
        return "play " + ALL_CARDS[candidates[0]]
    tricks_left = know.spec.total_tricks - know.tricks_done
    drawing = draw_trumps(view, know, candidates) \
        if level.habit_over_exact or tricks_left > level.exact_tricks else None
    if drawing is not None:
        return "play " + ALL_CARDS[drawing]
    bonus = habits(view, know, candidates, level.spare_partners_trumps)
    per_deal: dict[int, list[float]] | None = {} if level.habits_within_noise else None
    values = card_values(know, candidates, level, rng, seen_hands, view, per_deal)
    if values is None:
        from . import simple
        return simple.choose(view, rng)
    if level.solved_ties_only and tricks_left <= level.exact_tricks:
        choice = max(candidates, key=lambda c: (round(values[c], 9), bonus.get(c, 0.0), -c))
    else:
        choice = max(candidates, key=lambda c: (values[c] + bonus.get(c, 0.0), -c))
    if per_deal is not None:
        habit = habit_card(view, know, candidates, values)
        if habit is not None and choice != habit and not clearly_better(per_deal, choice, habit):
            choice = habit
    return "play " + ALL_CARDS[choice]


def habit_card(view: HandView, know: kn.Knowledge, candidates: list[int],
               values: dict[int, float]) -> int | None:
    """The card a club partner expects, if the position calls for one: last to play with an
    opponent winning, the cheapest card that takes the trick; on lead, against an abundance
    (the game's ``defence_draws_trumps``), a trump; on lead, the suit partner led first.  Of
    several cards that fit, the one the search values most."""
    spec, me = know.spec, know.me
    if spec.aim[me] != WIN:
        return None
    if know.trick:
        return last_seat_taker(know, candidates)
    hooks = kn.hooks(view)
    fitting: list[int] = []
    if hooks.defence_draws_trumps(view) and not hooks.declaring(view, me):
        fitting = [c for c in candidates if spec.strength[c] >= TRUMP]
    suit = partners_suit(view, know)
    if not fitting and suit is not None:
        fitting = [c for c in candidates if spec.suit_id[c] == suit and spec.strength[c] < TRUMP]
    return max(fitting, key=lambda c: (values[c], -c)) if fitting else None


def partners_suit(view: HandView, know: kn.Knowledge) -> int | None:
    """The side suit partner led first in this hand (a suit group), if any."""
    spec, me = know.spec, know.me
    partner = [s for s in range(4) if s != me and spec.side[s] == spec.side[me]]
    for trick in view["tricks"]:
        lead = trick["cards"][0]
        card = CARD_INDEX[lead["card"]]
        if lead["seat"] in partner and spec.strength[card] < TRUMP:
            return spec.suit_id[card]
    return None


def last_seat_taker(know: kn.Knowledge, candidates: list[int]) -> int | None:
    """Last to play, an opponent winning the trick: the cheapest card that takes it (None
    otherwise)."""
    spec, me = know.spec, know.me
    probe = kn.position(know, [0, 0, 0, 0])
    if probe.count != 3 or probe.best_seat < 0 or spec.side[probe.best_seat] == spec.side[me]:
        return None
    takers = bits(beating(spec, sum(1 << c for c in candidates), probe.led, probe.best))
    return min(takers, key=lambda c: spec.strength[c]) if takers else None


def clearly_better(per_deal: dict[int, list[float]], card: int, other: int) -> bool:
    """Whether ``card`` is worth more than ``other`` by more than NOISE_SE standard errors of
    their difference over the same sampled deals: more than the samples' noise."""
    diffs = [a - b for a, b in zip(per_deal[card], per_deal[other], strict=True)]
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > NOISE_SE * (variance / n) ** 0.5


def sample_inferred(know: kn.Knowledge, rng: random.Random, level: SearchLevel):
    """A sampled deal; with ``level.infer_play``, kept with probability INFERENCE_FLOOR to the
    power of the other seats' plays it does not fit (:func:`knowledge.play_misfit`, a mask
    test: drawing again is cheap).  Rejection sampling: after INFERENCE_TRIES draws, the
    best-fitting one."""
    if not level.infer_play:
        return kn.sample(know, rng)
    best, best_misfit = None, None
    for _ in range(INFERENCE_TRIES):
        drawn = kn.sample(know, rng)
        if drawn is None:
            return best
        misfit = kn.play_misfit(know, drawn[0])
        if rng.random() < INFERENCE_FLOOR ** misfit:
            return drawn
        if best_misfit is None or misfit < best_misfit:
            best, best_misfit = drawn, misfit
    return best


def calls_weight(view: HandView, know: kn.Knowledge, drawn, level: SearchLevel) -> float:
    """How much a sampled deal counts in the search's mean: INFERENCE_FLOOR to the power of the
    other seats' calls it does not fit (:func:`knowledge.calls_misfit`, with the level's own
    thresholds).  A weight, not a rejection: fitting a deal replays the auction, about ten
    times the cost of drawing one, so every deal drawn is used."""
    return INFERENCE_FLOOR ** kn.calls_misfit(view, know, drawn[0], drawn[1], level.calls)


def legal_runs(view: HandView, know: kn.Knowledge) -> list[int]:
    """One card of each run of equivalent legal cards (the lowest): the choices that differ."""
    legal_mask = mask_of(a[5:] for a in view["legal"])
    unplayed = know.hand | know.unseen | know.fixed[0] | know.fixed[1] | know.fixed[2] \
        | know.fixed[3]
    best = -1
    if know.trick:
        probe = kn.position(know, [0, 0, 0, 0])
        best = probe.best if probe.count else -1
    return distinct_cards(know.spec, legal_mask, unplayed, best)


def card_values(know: kn.Knowledge, candidates: list[int], level: SearchLevel,
                rng: random.Random, seen_hands: list[int] | None = None,
                view: HandView | None = None,
                per_deal: dict[int, list[float]] | None = None) -> dict[int, float] | None:
    """Each candidate card's mean value for the seat over the same sampled deals (every card
    is tried on the same deals, with the same playout seed; each deal counts by its
    :func:`calls_weight` where the level reads the auction), or None if no deal could be
    sampled.  The search's choice and the hand review's figures both come from here.
    ``per_deal``, when given, receives each card's value on each deal, in order (unweighted)."""
    spec = know.spec
    totals = dict.fromkeys(candidates, 0.0)
    start = time.perf_counter()
    done, weights = 0, 0.0
    # Solved exactly, a deal's values depend on its hands alone: one table of positions serves
    # every deal (its keys are whole positions), and a deal drawn again is not solved again --
    # near the end the unseen cards have few layouts, and more deals fit in the budget.
    table: dict[Any, Any] | None = {} if level.transpositions else None
    solved: dict[tuple[int, ...], list[float]] = {}
    for _ in range(level.samples):
        drawn = (seen_hands, []) if seen_hands is not None else sample_inferred(know, rng, level)
        if drawn is None:
            break
        weight = calls_weight(view, know, drawn, level) \
            if level.infer_calls and view is not None and seen_hands is None else 1.0
        pos = kn.position(know, drawn[0])
        seed = rng.getrandbits(32)
        exact = pos.left <= level.exact_tricks
        layout = tuple(pos.hands)
        known = solved.get(layout) if exact else None
        values = []
        for index, card in enumerate(candidates):
            if known is not None:
                value = known[index]
            else:
                child = pos.copy()
                play(spec, child, card)
                value = solve(spec, child, table=table) if exact else \
                    playout(spec, child, random.Random(seed))
            values.append(value)
            totals[card] += weight * value
            if per_deal is not None:
                per_deal.setdefault(card, []).append(value)
        if exact and known is None:
            solved[layout] = values
        done += 1
        weights += weight
        if exact and seen_hands is not None:
            break  # the real deal solved exactly: more of the same would add nothing
        if done >= level.min_samples and time.perf_counter() - start > level.budget:
            break
    if done == 0:
        return None
    return {card: total / weights for card, total in totals.items()}


def habits(view: HandView, know: kn.Knowledge, candidates: list[int],
           spare_partners_trumps: bool = False) -> dict[int, float]:
    """Small bonuses for the partnership habits (see the module docstring); with
    ``spare_partners_trumps``, a trump led where it would only pull partner's trumps costs one
    (:class:`SearchLevel`)."""
    spec, me = know.spec, know.me
    unit = kn.hooks(view).HABIT_UNIT  # in the game's own score unit (points or units)
    partner = [s for s in range(4) if s != me and spec.side[s] == spec.side[me]]
    if spec.aim[me] != WIN:
        return {}
    out: dict[int, float] = {}
    trump = view.get("trump")
    if know.trick:  # following: do not ruff partner's winning card
        probe = kn.position(know, [0, 0, 0, 0])
        if probe.count and probe.best_seat in partner and probe.best < TRUMP:
            for card in candidates:
                if spec.strength[card] >= TRUMP:
                    out[card] = -unit
        return out
    # leading: return partner's first led suit; draw trumps when declaring
    suit = partners_suit(view, know)
    if suit is not None:
        for card in candidates:
            if spec.suit_id[card] == suit and spec.strength[card] < TRUMP:
                out[card] = out.get(card, 0.0) + unit
    declaring = kn.hooks(view).declaring(view, me)
    if declaring and trump is not None:
        trumps_out = know.unseen & spec.follow[kn.SUIT_ORDER.index(trump)]
        opponents = [s for s in range(4) if spec.side[s] != spec.side[me]]
        if trumps_out and any(not know.forbidden[s] & trumps_out for s in opponents):
            for card in candidates:
                if spec.strength[card] >= TRUMP:
                    out[card] = out.get(card, 0.0) + unit
    if spare_partners_trumps and trump is not None and pulls_only_partners_trumps(know):
        for card in candidates:
            if spec.strength[card] >= TRUMP and any(spec.strength[c] < TRUMP for c in candidates):
                out[card] = out.get(card, 0.0) - unit
    return out


def pulls_only_partners_trumps(know: kn.Knowledge) -> bool:
    """No opponent can hold a trump (shown void, or none unseen it could hold) and a partner
    may: a trump lead would only pull partner's."""
    spec, me = know.spec, know.me
    trumps = spec.follow[spec.trump_group] if spec.trump_group >= 0 else 0

    def may_hold(seat: int) -> bool:
        return bool(know.fixed[seat] & trumps or know.unseen & trumps & ~know.forbidden[seat])

    others = [s for s in range(4) if s != me]
    return bool(trumps) and not any(may_hold(s) for s in others if spec.side[s] != spec.side[me]) \
        and any(may_hold(s) for s in others if spec.side[s] == spec.side[me])


def draw_trumps(view: HandView, know: kn.Knowledge, candidates: list[int]) -> int | None:
    """A declarer on lead holding the best trump still out, with trumps possibly left in an
    opponent's hand, draws them: the club habit, played without searching (playouts undervalue
    it, their partner discarding too carelessly while trumps are drawn)."""
    spec, me, trump = know.spec, know.me, view.get("trump")
    if know.trick or trump is None or spec.aim[me] != WIN or not kn.hooks(view).declaring(view, me):
        return None
    group = kn.SUIT_ORDER.index(trump)
    trumps_out = know.unseen & spec.follow[group]
    for seat in range(4):
        if spec.side[seat] == spec.side[me]:
            trumps_out &= ~know.fixed[seat]
    opponents = [s for s in range(4) if spec.side[s] != spec.side[me]]
    if not trumps_out or all(know.forbidden[s] & trumps_out == trumps_out for s in opponents):
        return None
    top_out = max(spec.strength[c] for c in bits(trumps_out))
    winners = [c for c in candidates if spec.strength[c] > top_out]
    return min(winners, key=lambda c: spec.strength[c]) if winners else None
