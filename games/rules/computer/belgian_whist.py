"""The computer players' hooks for Belgian Whist (four players; emballage and trou pair two
of them for one hand, misère players each play alone).  What the shared computer players need to
know of this game: see :mod:`games.rules.computer.bid_whist`, the first of these modules, for the list.
"""

from __future__ import annotations

from games.rules import belgian_whist as engine
from games.rules.base import HandView
from games.rules.cards import ALL_CARDS, CARD_BIT, mask_of

from . import bidding, simple
from .hooks import DOUBLE_DUMMY as DOUBLE_DUMMY  # a review gives none
from .hooks import auction_known as auction_known  # none known before the play
from .hooks import choose_action as choose_action  # the shared players decide
from .hooks import deck as deck  # the 52 cards
from .hooks import defence_draws_trumps as defence_draws_trumps  # never
from .hooks import partner_of as partner_of  # the partner the contract names, if any
from .kernel import LOSE, SINK, WIN, PlaySpec
from .knowledge import ACE_MASK, Hidden, contract_of, plain_spec, seat_of

GAME = engine.GAME

CALLS = {
    "auction": bidding.belgian_call,
    "trou": bidding.belgian_call,
    "discard": bidding.belgian_discard,
    "trump": bidding.belgian_trump,
}

# The hand-set thresholds of the calls (bidding.thresholds, bidding.belgian_call): trick counts
# in the best suit (the chelems: or notrump), misère risks (piccolo: the hand but its ace;
# petite misère: but its highest card); the partnership calls: tricks in the suit proposed,
# joined (emballer) or maintained, and the tricks an emballeur's pair has to spare over a raise.
THRESHOLDS = {"grand_chelem": 12.6, "petit_chelem": 11.7, "misere_etalee": 0.05,
              "abondance 11": 11.3, "abondance 10": 10.3, "abondance 9": 9.3,
              "grande_misere": 0.6, "piccolo": 0.4, "solo 8": 8.4, "solo 7": 7.4,
              "solo 6": 6.4, "petite_misere": 0.6,
              "propose": 4.3, "emballer": 3.3, "maintain": 4.5, "raise": 0.4,
              # a misère étalée only from a hand certain to lose every trick (the convention
              # "advice", bidding.CONVENTIONS): off here, as the earlier levels called
              "advice": False}

HABIT_UNIT = 0.6  # points per hand


def declaring(view: HandView, seat: int) -> bool:
    contract = view.get("contract") or {}
    return seat in (contract.get("declarers") or ())


easy_call = simple.choose_belgian_call


def play_spec(view: HandView, rules) -> PlaySpec:
    me, contract = seat_of(view), contract_of(view)
    kind, level, declarers = contract["contract"], contract["level"], contract["declarers"]
    together = contract["together"]
    side = tuple((1 if together else 10 + s) if s in declarers else 0 for s in range(4))
    misere = kind in engine.MISERES
    aim = tuple((LOSE if s in declarers else SINK) if misere else WIN for s in range(4))
    total = 12 if kind == engine.PETITE_MISERE else 13

    def belgian_score(tricks):
        return float(engine.score_hand(rules, kind, list(declarers), list(tricks),
                                       level)["points"][me])

    return plain_spec(view, side, aim, total, belgian_score,
                      tuple(s in declarers for s in range(4)))


def read_hidden(view: HandView, rules, hidden: Hidden) -> None:
    """Exposed misère hands, the petite misère discards, and what the auction says of the
    dealt hands: ``passe_trou`` / ``trou`` = not / exactly three aces, ``emballer S`` = holds
    an S; at a trou, the two declarers hold all four aces."""
    me = view["seat"]
    for entry in view.get("exposed") or []:
        if entry["seat"] != me:
            hidden.fixed[entry["seat"]] |= mask_of(entry["cards"])
    if view.get("discard"):
        hidden.known_gone |= CARD_BIT[view["discard"]]
    if contract_of(view)["contract"] == engine.PETITE_MISERE:
        for seat in range(4):
            if seat != me:
                hidden.piles.append(("discard", 1, seat))
    for entry in view["auction"]:
        seat, action = entry["seat"], entry["action"]
        if seat == me:
            continue
        if action == "passe_trou":
            hidden.checks.append((seat, "not_three_aces", None))
        elif action == "trou":
            hidden.checks.append((seat, "three_aces", None))
        elif action.startswith("emballer "):
            hidden.checks.append((seat, "holds_suit", action[-1]))
    if contract_of(view)["contract"] == engine.TROU_CONTRACT:
        for seat in range(4):
            if seat not in contract_of(view)["declarers"]:
                hidden.forbidden[seat] |= ACE_MASK


def rebuild_deal(view: HandView, rules, dealt: list[int], pile_of: dict,
                 actions: list[tuple[int, str]]) -> None:
    """The petite misère discards go back to the hands they came from."""
    if view.get("discard"):
        dealt[seat_of(view)] |= CARD_BIT[view["discard"]]
    for (name, owner), cards in pile_of.items():
        if name == "discard":
            dealt[owner] |= cards
    return None


def rebuild_before_play(state, view: HandView, pile_of: dict) -> None:
    if state.phase == engine.DISCARD:
        for _ in range(4):
            seat = state.to_act
            if seat == view["seat"]:
                state.apply("discard " + view["discard"], seat)
            else:
                card = ALL_CARDS[pile_of[("discard", seat)].bit_length() - 1]
                state.apply("discard " + card, seat)
    if state.phase == engine.TRUMP:
        state.apply(f"trump {view['trump']}")


def order_dealt(view: HandView, cards: list[list[str]]) -> None:
    """Nothing: the order in which the cards were dealt does not matter here."""
