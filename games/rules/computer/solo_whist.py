"""The computer players' hooks for Solo Whist (four players; Prop and Cop pairs two of them
for one hand).  What the shared computer players need to know of this game: see
:mod:`games.rules.computer.bid_whist`, the first of these modules, for the list.
"""

from __future__ import annotations

from games.rules import solo_whist as engine
from games.rules.base import HandView
from games.rules.cards import CARD_BIT, mask_of

from . import bidding, simple
from .hooks import choose_action as choose_action  # the shared players decide
from .hooks import deck as deck  # the 52 cards
from .hooks import partner_of as partner_of  # the partner the contract names, if any
from .kernel import LOSE, SINK, WIN, PlaySpec
from .knowledge import Hidden, contract_of, plain_spec, seat_of

GAME = engine.GAME

CALLS = {
    "auction": bidding.solo_call,
    "declare": bidding.solo_declare,
}

# The hand-set thresholds of the calls (bidding.thresholds, bidding.solo_call): trick counts
# with the turn-up suit (solo, royal abundance, prop, cop), the best other suit (abundance) or
# either (abundance declared); misère risks.
THRESHOLDS = {"abundance_declared": 12.6, "spread_misere": 0.05, "royal_abundance": 9.3,
              "abundance": 9.3, "misere": 0.7, "solo": 5.4, "solo_after_prop": 5.3,
              "prop": 4.2, "cop": 3.3, "solo_over_partnership": 5.4,
              # a spread misère only from a hand certain to lose every trick (the convention
              # "advice", bidding.CONVENTIONS): off here, as the earlier levels called
              "advice": False}

HABIT_UNIT = 0.25  # units per hand
DOUBLE_DUMMY = True  # a hand's review gives its contract's double-dummy result (review.py)


def declaring(view: HandView, seat: int) -> bool:
    contract = view.get("contract") or {}
    return seat in (contract.get("declarer"), contract.get("partner"))


easy_call = simple.choose_solo_call


def play_spec(view: HandView, rules) -> PlaySpec:
    me, contract = seat_of(view), contract_of(view)
    name, declarer, partner = contract["name"], contract["declarer"], contract["partner"]
    side = tuple(1 if s in (declarer, partner) else 0 for s in range(4))
    misere = name in ("misere", "spread_misere")
    aim = tuple((LOSE if s == declarer else SINK) if misere else WIN for s in range(4))

    def solo_score(tricks):
        units = engine.score_hand(rules, name, declarer, partner, list(tricks))
        return float(units[me])

    return plain_spec(view, side, aim, 13, solo_score,
                      tuple(s in (declarer, partner) for s in range(4)))


def read_hidden(view: HandView, rules, hidden: Hidden) -> None:
    """The turned-up trump is the dealer's (or at least a card of its suit is); a spread
    misère's cards are known."""
    me, dealer = view["seat"], view["dealer"]
    turn_up = view.get("turn_up")
    if turn_up and dealer != me:
        hidden.fixed[dealer] |= CARD_BIT[turn_up]
    elif view.get("turn_up_suit") and dealer != me:
        hidden.checks.append((dealer, "holds_suit", view["turn_up_suit"]))
    exposed = view.get("exposed")
    if exposed and exposed["seat"] != me:
        hidden.fixed[exposed["seat"]] |= mask_of(exposed["cards"])


def auction_known(view: HandView) -> dict[int, list[str]]:
    """Before the play: the turned-up card lying on the table is the dealer's."""
    turn_up = view.get("turn_up")
    return {view["dealer"]: [turn_up]} if turn_up and view["dealer"] != view["seat"] else {}


def rebuild_deal(view: HandView, rules, dealt: list[int], pile_of: dict,
                 actions: list[tuple[int, str]]) -> None:
    return None  # no kitty, and the auction's calls are all in the view


def order_dealt(view: HandView, cards: list[list[str]]) -> None:
    """The turned-up card is the last the dealer was dealt."""
    if view.get("turn_up_suit"):
        hand = cards[view["dealer"]]
        turned = next((c for c in hand if c == view.get("turn_up")), None) or \
            next(c for c in hand if c[1] == view["turn_up_suit"])
        hand.remove(turned)
        hand.append(turned)


def rebuild_before_play(state, view: HandView, pile_of: dict) -> None:
    if state.phase == engine.DECLARE:
        state.apply(f"trump {view['trump']}")


def defence_draws_trumps(view: HandView) -> bool:
    """Against an abundance the defenders lead trumps: the declarer's nine tricks come from
    ruffs, and each round of trumps drawn takes one away."""
    return (view.get("contract") or {}).get("name") in ("abundance", "royal_abundance")
