"""The computer players' hooks for Bid Whist (four players, two fixed partnerships).

Everything the shared computer players (:mod:`.simple`, :mod:`.search`, :mod:`.knowledge`)
need to know of this game and nothing else: its calls by phase, who declares, the trick rules
and score of the hand for the search, what the seat knows of the hidden cards (the declarer's discards, a shown
kitty), and how a sampled deal goes back to an engine state.  Each game has such a module,
``games/rules/computer/<game>.py`` (:func:`games.rules.computer.hooks.of`).
"""

from __future__ import annotations

from games.rules import bid_whist as engine
from games.rules.base import HandView
from games.rules.cards import ALL_CARDS, JOKER_MASK, mask_of

from . import bidding, simple
from .hooks import auction_known as auction_known  # none known before the play
from .hooks import choose_action as choose_action  # the shared players decide
from .hooks import defence_draws_trumps as defence_draws_trumps  # never
from .kernel import WIN, PlaySpec, bits
from .knowledge import Hidden, contract_of, memo, seat_of, trump_group

GAME = engine.GAME

# The normal and strong levels' decisions other than a card, by phase: (view, rules, calls)
# -> action, ``calls`` naming the thresholds the level bids from (bidding.thresholds).
CALLS = {
    "auction": bidding.bid_whist_call,
    "discard": bidding.bid_whist_discard,
    "declare": bidding.bid_whist_declare,
}

# The hand-set thresholds of the calls (bidding.thresholds).  The books a team makes when a
# hand declares, measured in self-play (bench/computer_players.py machinery, 300 deals): about base +
# per_trick x the hand's own trick count (bidding.bid_whist_options), the kitty book, kitty and
# partner included, with sd of spread; notrump makes that many more.
THRESHOLDS = {
    "books": {"base": 8.0, "per_trick": 0.5, "sd": 1.6, "notrump": -0.3},
    # bid when the best bid is expected to gain at least this many points (over an opponent's
    # bid, over partner's: these many), bid higher than needed while the higher bid keeps this
    # share of that expectation (bidding.bid_whist_call); bench/tune_bids.py measures them in
    # real auctions
    "bid_from": 0.25,
    "overcall_opponent_from": 0.25,
    "overcall_partner_from": 1.5,
    "preempt_share": 0.7,
    # what the declarer keeps from hand and kitty (bidding.keep_value)
    "keep": {"ace": 40.0, "king": 12.0, "notrump_length": 3.0, "short_side": 2.0},
    # an opening bid of 4 uptown or downtown says a joker (the convention a level's calls
    # name, bidding.CONVENTIONS): off here, as the earlier levels bid
    "four_says_joker": False,
    # the rule text's advice on what a bid needs (the convention "advice", bidding.CONVENTIONS):
    # off here, as the earlier levels bid
    "advice": False,
}

HABIT_UNIT = 0.12  # what a partnership habit is worth, in points per hand
DOUBLE_DUMMY = True  # a hand's review gives its contract's double-dummy result (review.py)


def declaring(view: HandView, seat: int) -> bool:
    contract = view.get("contract") or {}
    return contract.get("declarer") is not None and contract["declarer"] % 2 == seat % 2


def partner_of(view: HandView, seat: int) -> int | None:
    return (seat + 2) % 4


easy_call = simple.choose_bid_whist_call


def deck(rules) -> int:
    return rules.shape.deck_mask  # the kitty rule's deck (with or without the jokers)


def play_spec(view: HandView, rules) -> PlaySpec:
    me, contract = seat_of(view), contract_of(view)
    strength, suit_id, follow = engine._order_tables(
        view["trump"], view["direction"], rules.downtown_ace, rules.downtown_side_suits)
    team = contract["declarer"] & 1
    bid, mode = contract["bid"], contract["mode"]
    shape = rules.shape
    kitty_book = 1 if shape.kitty_size else 0  # the discards are a book

    def bid_score(tricks):
        books = (tricks[team] + tricks[team + 2]) + kitty_book
        points = engine.score_hand(rules, bid, mode, team, books)["points"]
        return points[me & 1] - points[1 - (me & 1)]

    side, aim = (0, 1, 0, 1), (WIN,) * 4
    return PlaySpec(strength, suit_id, follow, side, aim, shape.tricks,
                    memo(bid_score, side, aim, me), me,
                    tuple(s & 1 == team for s in range(4)), trump_group(view["trump"]))


def read_hidden(view: HandView, rules, hidden: Hidden) -> None:
    """The declarer's discards (known to the declarer, a hidden pile to the others), a
    kitty shown to everyone (only the declarer can hold its cards), and, for a level that
    keeps the convention "four_says_joker", a partner's opening bid of 4 in a suit: partner
    was dealt a joker (:func:`partner_said_joker`)."""
    me, declarer = seat_of(view), contract_of(view)["declarer"]
    said = partner_said_joker(view, rules) if "four_says_joker" in hidden.conventions else 0
    if said:
        hidden.checks.append(((me + 2) % 4, "holds_any", said))
    if "discards" in view:  # the declarer's own discards
        hidden.known_gone |= mask_of(view["discards"])
    elif rules.shape.kitty_size:
        hidden.piles.append(("discards", rules.shape.kitty_size, declarer))
    kitty = view.get("kitty")
    if kitty and declarer != me:
        for seat in range(4):
            if seat != declarer:
                hidden.forbidden[seat] |= mask_of(kitty)


def partner_said_joker(view: HandView, rules) -> int:
    """The jokers partner's opening said it holds one of (a mask), or 0: partner opened the
    auction (every call before its bid a pass) with 4 uptown or downtown at a table where that
    says a joker (bidding.says_joker).  A 4 over a bid, partner's or an opponent's, says
    nothing.  A kitty shown to everyone was not dealt to partner: its jokers are left out
    (partner, declaring, holds the kitty's cards too; when the kitty is hidden, a joker of
    partner's cards or discards may have come from it, and the check cannot tell: it asks only
    that partner's cards, played and discarded included, hold one)."""
    partner = (seat_of(view) + 2) % 4
    opened = bidding.opening_bid(view["auction"])
    if opened is None or opened["seat"] != partner or not bidding.joker_four(opened["action"]) \
            or not bidding.says_joker(rules):
        return 0
    return rules.shape.deck_mask & JOKER_MASK & ~mask_of(view.get("kitty") or [])


def rebuild_deal(view: HandView, rules, dealt: list[int], pile_of: dict,
                 actions: list[tuple[int, str]]) -> list[str] | None:
    """The dealt hands and kitty of a sample, and the calls after the auction; the kitty."""
    declarer = contract_of(view)["declarer"]
    kitty = None
    if rules.shape.kitty_size:  # kitty=none: nothing taken, nothing discarded
        discards = (mask_of(view["discards"]) if "discards" in view
                    else pile_of[("discards", declarer)])
        kitty_mask = mask_of(view["kitty"]) if view.get("kitty") else discards
        dealt[declarer] = (dealt[declarer] | discards) & ~kitty_mask
        kitty = list(view["kitty"]) if view.get("kitty") else [ALL_CARDS[i]
                                                                for i in bits(kitty_mask)]
        actions.append((declarer, "discard " + " ".join(ALL_CARDS[i] for i in bits(discards))))
    actions.append((declarer, f"trump {view['trump']}" if contract_of(view)["mode"] != "notrump"
                    else f"direction {view['direction']}"))
    return kitty


def rebuild_before_play(state, view: HandView, pile_of: dict) -> None:
    """Nothing: the auction, the discard and the trumps were all replayed as actions."""


def order_dealt(view: HandView, cards: list[list[str]]) -> None:
    """Nothing: the order in which the cards were dealt does not matter here."""
