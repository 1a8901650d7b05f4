"""Blunders in a played hand: cards that cost a trick where the position was settled, and the
blunders a partner notices, each its own named kind.

A **blunder** (:func:`settled_blunders`) is a card that, with best play by everyone afterwards
(double-dummy: :class:`double_dummy.Solver`, the solver the hand reviews use), takes at least
one trick fewer for the seat's side than another legal card (one more, for a side that wants
no tricks: a misère), where the position was **settled**: the same card is that much better on
the actual deal *and* on every one of ``worlds`` deals sampled from what the seat could know
(:func:`knowledge.sample`: its own hand, the cards played, the voids shown, the discards and
kitty it saw).  So a blunder is a loss the seat could have seen, not bad luck in the hidden
cards; that better card is the safe alternative.  Only the last ``tricks_left`` tricks of a
hand are judged (the current one included): there the solver is exact and fast; earlier
positions are not settled by this count.  A call is not judged (a discard's worth would need
the whole hand solved): the kitty's kind below is the one call counted.  In Cutthroat Bid
Whist the seat's side is the declarer alone or the two defenders, partners for the hand
(its computer players' module gives the three-seat ``play_spec``; the kernel plays tricks of
three).

The **partner kinds** (:data:`PARTNER_KINDS`) are pure functions over a hand record
(docs/hand-records.md): each returns the :class:`Finding` s -- the action's index in the
record, the trick (from 1), the seat and the card -- where the thing a partner notices
happened, whatever the cards it cost:

- ``trump_partner``: ruffing a trick partner is winning, with a card of another suit to throw,
  when the seat plays last or partner's card is the best of its suit still out;
- ``no_return``: in notrump (not a misère), leading another suit at the first lead after partner's first lead
  of a suit, while holding a card of partner's suit;
- ``joker_kept`` (Bid Whist, Cutthroat): in notrump (where a joker never wins a trick), throwing a card
  that is the best of its suit still out while a joker stays in the hand;
- ``dead_trumps``: leading a trump when, from what the seat could know, no opponent holds one
  (shown void in trumps, or no trump left unseen they could hold) while partner may (so the
  lead only pulls partner's trumps), holding a card of another suit;
- ``kitty_void`` (Bid Whist, Cutthroat, a trump contract): the declarer's discard of the kitty keeps one small card of a side suit
  (not among its suit's three best in the contract's order), where throwing it too would have
  made the void, and throws instead a trump or an ace-high card (the best card of its suit).

:func:`count` gathers both for one record: the bench's figures (bench/computer_players.py
``--blunders``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.rules import records
from games.rules.cards import ALL_CARDS, CARD_INDEX, mask_of

from . import knowledge as kn
from .double_dummy import Solver
from .kernel import NO_SUIT, WIN, PlaySpec, Position, bits, distinct_cards, legal_mask, play

SETTLED_TRICKS = 5  # the hand's last tricks judged, the current one included
WORLDS = 8  # deals sampled from the seat's view besides the actual one


@dataclass(frozen=True)
class Finding:
    kind: str
    index: int  # the action's place in the record's actions
    trick: int  # from 1; 0 for a call before the play
    seat: int
    card: str  # the card played, or the card a call kept
    instead: str | None = None  # a settled blunder's safe alternative (the lowest of its run)


# -- walking a record ----------------------------------------------------------------------------


def _decisions(record: dict[str, Any]):
    """(index, seat, action, the seat's view just before it, the state before it) for each
    action of the record, the state being replayed along."""
    _module, state, actions = records.start_hand(record)
    overrides = state.rules.overrides()
    for index, entry in enumerate(actions):
        seat, action = entry["seat"], entry["action"]
        view = state.view(seat)
        if overrides:
            view["rules"] = overrides
        yield index, seat, action, view, state
        state.apply(action, seat)


def _plays(record: dict[str, Any], with_hands: bool = False):
    """(index, seat, card index, view, knowledge, hands) for each card played; ``hands`` the
    four hands' masks before it when asked for (else None; at three seats the fourth is
    empty, as the knowledge reads it)."""
    for index, seat, action, view, state in _decisions(record):
        if action.startswith("play "):
            hands = None
            if with_hands:
                hands = [0, 0, 0, 0]
                for s in range(len(state.dealt_hands)):
                    hands[s] = mask_of(state.view(s)["hand"])
            yield index, seat, CARD_INDEX[action[5:]], view, kn.read(view), hands


def _trumps(spec: PlaySpec) -> int:
    return spec.follow[spec.trump_group] if spec.trump_group >= 0 else 0


def _outstanding(know: kn.Knowledge) -> int:
    """The cards not yet played (the seat's own, the unseen and the placed ones)."""
    return know.hand | know.unseen | know.fixed[0] | know.fixed[1] | know.fixed[2] | know.fixed[3]


def _is_boss(spec: PlaySpec, card: int, out: int) -> bool:
    """``card`` is the best of its suit among the cards ``out`` (and itself)."""
    group = spec.suit_id[card]
    if group == NO_SUIT:
        return False
    return all(spec.strength[o] < spec.strength[card] for o in bits(out & spec.follow[group])
               if o != card)


def _finding(kind: str, index: int, know: kn.Knowledge, seat: int, card: int) -> Finding:
    return Finding(kind, index, know.tricks_done + 1, seat, ALL_CARDS[card])


# -- the partner kinds ----------------------------------------------------------------------------


def trump_partner(record: dict[str, Any]) -> list[Finding]:
    found = []
    for index, seat, card, _view, know, _hands in _plays(record):
        spec = know.spec
        if not know.trick:
            continue
        pos = kn.position(know, [0, 0, 0, 0])
        if pos.led < 0 or pos.best_seat < 0 or pos.best_seat == seat:
            continue
        if spec.side[pos.best_seat] != spec.side[seat] or spec.aim[seat] != WIN:
            continue
        trumps = _trumps(spec)
        ruff = trumps >> card & 1 and not spec.follow[pos.led] >> card & 1
        could_throw = know.hand & ~trumps & ~spec.follow[pos.led]
        if not ruff or not could_throw or know.hand & spec.follow[pos.led]:
            continue
        partner_card = next(c for s, c in know.trick if s == pos.best_seat)
        last = len(know.trick) == spec.seats - 1
        if last or _is_boss(spec, partner_card, _outstanding(know) | 1 << partner_card):
            found.append(_finding("trump_partner", index, know, seat, card))
    return found


def no_return(record: dict[str, Any]) -> list[Finding]:
    found = []
    waiting: dict[int, int] = {}  # seat -> partner's first led suit group, until its next lead
    first_lead: dict[int, int] = {}  # seat -> its first led suit group
    for index, seat, card, view, know, _hands in _plays(record):
        spec = know.spec
        if view.get("trump") is not None or spec.trump_group >= 0 or know.trick \
                or any(aim != WIN for aim in spec.aim):
            continue  # a trump contract, not a lead, or a misère (no suit to set up)
        group = spec.suit_id[card]
        if seat in waiting:
            suit = waiting.pop(seat)
            if group != suit and know.hand & spec.follow[suit]:
                found.append(_finding("no_return", index, know, seat, card))
        if seat not in first_lead and group != NO_SUIT:
            first_lead[seat] = group
            for partner in range(4):
                if partner != seat and spec.side[partner] == spec.side[seat] \
                        and partner not in first_lead:
                    waiting.setdefault(partner, group)
    return found


def joker_kept(record: dict[str, Any]) -> list[Finding]:
    found = []
    jokers = mask_of(["BJ", "LJ"])
    for index, seat, card, _view, know, _hands in _plays(record):
        spec = know.spec
        if spec.trump_group >= 0 or not know.trick or not know.hand & jokers:
            continue
        pos = kn.position(know, [0, 0, 0, 0])
        if pos.led < 0 or know.hand & spec.follow[pos.led] or jokers >> card & 1:
            continue  # following suit, or throwing the joker itself
        if _is_boss(spec, card, _outstanding(know)):
            found.append(_finding("joker_kept", index, know, seat, card))
    return found


def dead_trumps(record: dict[str, Any]) -> list[Finding]:
    found = []
    for index, seat, card, _view, know, _hands in _plays(record):
        spec = know.spec
        trumps = _trumps(spec)
        if know.trick or not trumps >> card & 1 or not know.hand & ~trumps:
            continue
        def may_hold(other: int, trumps: int = trumps, know: kn.Knowledge = know) -> bool:
            return bool(know.fixed[other] & trumps or know.unseen & trumps & ~know.forbidden[other])

        others = [s for s in range(4) if s != seat]
        partners = [s for s in others if spec.side[s] == spec.side[seat]]
        if not any(may_hold(o) for o in others if o not in partners) \
                and any(may_hold(p) for p in partners):
            found.append(_finding("dead_trumps", index, know, seat, card))
    return found


def kitty_void(record: dict[str, Any]) -> list[Finding]:
    found = []
    discard = None
    for index, seat, action, view, state in _decisions(record):
        if action.startswith("discard ") and len(action.split()) > 2:  # a kitty's discard
            discard = (index, seat, mask_of(view["hand"]), mask_of(action.split()[1:]))
            continue
        if not action.startswith("trump ") or discard is None:
            continue
        d_index, d_seat, held, thrown = discard
        discard = None
        after = state.copy()
        after.apply(action, seat)
        declarer_view = after.view(d_seat)
        if view.get("rules"):
            declarer_view["rules"] = view["rules"]
        spec = kn.play_spec(declarer_view, kn.rules_of(declarer_view))
        strength, follow, trumps = spec.strength, spec.follow, _trumps(spec)
        kept = held & ~thrown
        throws_value = bool(thrown & trumps) or any(
            all(strength[o] <= strength[c] for o in bits(follow[g] & ~trumps))
            for g in range(4) if not follow[g] & trumps for c in bits(thrown & follow[g]))
        for group in range(4):
            mine = kept & follow[group]
            if follow[group] & trumps or mine.bit_count() != 1 or not throws_value:
                continue
            card = mine.bit_length() - 1
            above = sum(1 for o in bits(follow[group] & ~trumps) if strength[o] > strength[card])
            if above >= 3:  # not among its suit's three best: a small card
                found.append(Finding("kitty_void", d_index, 0, d_seat, ALL_CARDS[card]))
    return found


PARTNER_KINDS: dict[str, Callable[[dict[str, Any]], list[Finding]]] = {
    "trump_partner": trump_partner,
    "no_return": no_return,
    "joker_kept": joker_kept,
    "dead_trumps": dead_trumps,
    "kitty_void": kitty_void,
}


# -- settled blunders ----------------------------------------------------------------------------


def _tricks_after(solver: Solver, spec: PlaySpec, pos: Position, card: int, side: int) -> int:
    """The side's tricks from ``pos`` on after ``card``, best play by everyone after it."""
    child = pos.copy()
    play(spec, child, card)
    now = sum(w for s, w in enumerate(child.won) if spec.side[s] == side) - \
        sum(w for s, w in enumerate(pos.won) if spec.side[s] == side)
    return now + solver.side_tricks(child, 0, float("inf"))


def _gains(spec: PlaySpec, pos: Position, seat: int, played: int, candidates: list[int]
           ) -> set[int]:
    """The candidates that take at least one trick more than ``played`` for the seat's side (one
    fewer for a side that wants none) from ``pos``, every card seen."""
    side, wants = spec.side[seat], spec.aim[seat] == WIN
    solver = Solver(spec, side, wants)
    base = _tricks_after(solver, spec, pos, played, side)
    better = set()
    for card in candidates:
        if card == played:
            continue
        tricks = _tricks_after(solver, spec, pos, card, side)
        if (tricks >= base + 1) if wants else (tricks <= base - 1):
            better.add(card)
    return better


def settled_blunders(record: dict[str, Any], tricks_left: int = SETTLED_TRICKS,
                     worlds: int = WORLDS, seed: int = 0) -> list[Finding]:
    """The cards of ``record`` that were blunders where the position was settled (above)."""
    rng = random.Random(seed)
    found = []
    for index, seat, card, _view, know, hands in _plays(record, with_hands=True):
        spec = know.spec
        if spec.total_tricks - know.tricks_done > tricks_left:
            continue
        pos = kn.position(know, hands)
        candidates = distinct_cards(spec, legal_mask(spec, pos),
                                    hands[0] | hands[1] | hands[2] | hands[3],
                                    pos.best if pos.count else -1)
        if len(candidates) < 2:
            continue
        played = _representative(spec, candidates, card)
        better = _gains(spec, pos, seat, played, candidates)
        for _ in range(worlds):
            if not better:
                break
            sample = kn.sample(know, rng)
            if sample is None:  # no deal fits what the seat knows: not settled
                better = set()
                break
            better &= _gains(spec, kn.position(know, sample[0]), seat, played, sorted(better))
        if better:
            found.append(Finding("blunder", index, know.tricks_done + 1, seat, ALL_CARDS[card],
                                 ALL_CARDS[min(better, key=lambda c: (spec.suit_id[c],
                                                                      spec.strength[c]))]))
    return found


def _representative(spec: PlaySpec, candidates: list[int], card: int) -> int:
    """The candidate of ``card``'s run (the lowest card of the run: distinct_cards' choice)."""
    if card in candidates:
        return card
    same = [c for c in candidates if spec.suit_id[c] == spec.suit_id[card]
            and spec.strength[c] <= spec.strength[card]]
    return max(same, key=lambda c: spec.strength[c]) if same else card


def count(record: dict[str, Any], tricks_left: int = SETTLED_TRICKS, worlds: int = WORLDS,
          seed: int = 0) -> dict[str, Any]:
    """``{"blunders": [...], "kinds": {kind: [...]}, "settled_kinds": {kind: [...]}}``: the
    settled blunders, each partner kind's findings, and those of them that were also settled
    blunders (the same action)."""
    blunders = settled_blunders(record, tricks_left, worlds, seed)
    at = {b.index for b in blunders}
    kinds = {name: kind(record) for name, kind in PARTNER_KINDS.items()}
    return {"blunders": blunders, "kinds": kinds,
            "settled_kinds": {name: [f for f in found if f.index in at]
                              for name, found in kinds.items()}}
