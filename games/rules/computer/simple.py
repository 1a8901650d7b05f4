"""Simple, legal, sensible play from a seat's view: count honours to bid, win cheaply, never
overtake a partner who is already winning, and throw the lowest card when the trick is lost."""

from __future__ import annotations

import random
from collections import Counter

from games.rules.base import HandView

from .knowledge import seat_of

RANK_ORDER = "23456789TJQKA"
SUITS = "SHDC"


def rank_value(card: str) -> int:
    if card == "BJ":
        return 16
    if card == "LJ":
        return 15
    return RANK_ORDER.index(card[0]) + 2


def suit_of(card: str, trump: str | None) -> str | None:
    if card in ("BJ", "LJ"):
        return trump  # jokers are trumps in a trump hand, suitless in notrump
    return card[1]


def strength(card: str, led: str | None, trump: str | None, downtown: bool) -> int:
    """Bigger wins the trick; 0 = cannot win (off-suit, not trump)."""
    suit = suit_of(card, trump)
    value = rank_value(card)
    if downtown and card not in ("BJ", "LJ"):
        value = 16 - value if card[0] != "A" else 15  # the ace stays high downtown (default)
    if trump is not None and suit == trump:
        return 100 + value
    if suit is not None and suit == led:
        return value
    return 0


def partner_of(view: HandView, seat: int) -> int | None:
    return _hooks(view).partner_of(view, seat)


def wants_to_lose(view: HandView, seat: int) -> bool:
    contract = view.get("contract") or {}
    name = str(contract.get("contract") or contract.get("name") or "")
    return "mis" in name and contract.get("declarer") == seat


def choose_card(view: HandView, cards: list[str], actions: dict[str, str]) -> str:
    seat = seat_of(view)
    trump = view.get("trump")
    downtown = view.get("direction") == "downtown" or (
        (view.get("contract") or {}).get("mode") == "downtown")
    trick = view.get("trick") or []
    if not trick and not wants_to_lose(view, seat):
        habit = habitual_lead(view, seat, cards, trump)
        if habit is not None:
            return actions[habit]
    if not trick:
        # Lead: the best card of our longest plain suit.
        counts = Counter(c[1] for c in cards if c not in ("BJ", "LJ"))
        def lead_key(card):
            return (counts.get(card[1], 0) if card not in ("BJ", "LJ") else 0,
                    strength(card, suit_of(card, trump), trump, downtown))
        card = (min if wants_to_lose(view, seat) else max)(cards, key=lead_key)
        return actions[card]
    led = next((suit_of(p["card"], trump) for p in trick if suit_of(p["card"], trump)), None)
    best = max(trick, key=lambda p: strength(p["card"], led, trump, downtown))
    best_strength = strength(best["card"], led, trump, downtown)
    by_strength = sorted(cards, key=lambda c: (strength(c, led, trump, downtown), rank_value(c)))
    if wants_to_lose(view, seat):
        losing = [c for c in by_strength if strength(c, led, trump, downtown) < best_strength]
        return actions[losing[-1] if losing else by_strength[0]]
    if best["seat"] == partner_of(view, seat):
        return actions[min(cards, key=lambda c: (strength(c, led, trump, downtown) > 0,
                                                 rank_value(c)))]
    winners = [c for c in by_strength if strength(c, led, trump, downtown) > best_strength]
    if winners:
        return actions[winners[0]]
    return actions[min(cards, key=lambda c: (strength(c, led, trump, downtown) > 0,
                                             rank_value(c)))]


def declaring(view: HandView, seat: int) -> bool:
    return _hooks(view).declaring(view, seat)


def _hooks(view: HandView):
    from .hooks import shared  # the games' modules import this one

    return shared(view["game"])


def habitual_lead(view: HandView, seat: int, cards: list[str],
                  trump: str | None) -> str | None:
    """What a partner expects: draw trumps when declaring with four or more, lead a small trump
    against an abundance (the game's ``defence_draws_trumps``), else return the suit partner
    led first."""
    trumps = [c for c in cards if suit_of(c, trump) == trump] if trump else []
    if trump and declaring(view, seat) and len(trumps) >= 4:
        return max(trumps, key=rank_value)
    if trumps and _hooks(view).defence_draws_trumps(view) and not declaring(view, seat):
        return min(trumps, key=rank_value)
    partner = partner_of(view, seat)
    if partner is None:
        return None
    for done in view.get("tricks") or []:
        first = done["cards"][0]
        if first["seat"] == partner and suit_of(first["card"], trump) not in (None, trump):
            suit = first["card"][1]
            mine = [c for c in cards if c not in ("BJ", "LJ") and c[1] == suit]
            if mine:
                top = max(mine, key=rank_value)
                return top if top[0] in "AK" else min(mine, key=rank_value)
            return None
    return None


def honour_count(cards: list[str]) -> float:
    return sum({"BJ": 1, "LJ": 1, "A": 1, "K": 0.6, "Q": 0.3}.get(
        c if c in ("BJ", "LJ") else c[0], 0) for c in cards)


def longest_suit(cards: list[str]) -> tuple[str, int]:
    counts = Counter(c[1] for c in cards if c not in ("BJ", "LJ"))
    suit = max(SUITS, key=lambda s: (counts.get(s, 0),
                                     sum(rank_value(c) for c in cards if c[1:] == s)))
    return suit, counts.get(suit, 0)


def choose_bid_whist_call(view, cards, legal) -> str:
    _suit, length = longest_suit(cards)
    jokers = sum(c in ("BJ", "LJ") for c in cards)
    low = sum(c[0] in "A23" for c in cards if c not in ("BJ", "LJ"))
    uptown = honour_count(cards) + max(0, length + jokers - 4) * 0.8 + 1.0
    downtown = jokers + low * 0.8 + max(0, length + jokers - 4) * 0.8 + 1.0
    mode, estimate = ("uptown", uptown) if uptown >= downtown else ("downtown", downtown)
    bids = [a for a in legal if a.startswith("bid ") and a.endswith(" " + mode)]
    affordable = [b for b in bids if int(b.split()[1]) <= int(estimate)]
    if affordable:
        return min(affordable, key=lambda b: int(b.split()[1]))
    if "pass" in legal:
        return "pass"
    return min((a for a in legal if a.startswith("bid ")), key=lambda b: int(b.split()[1]))


def choose_discard(view, cards) -> str:
    count = view.get("discard_count") or 6
    suit, _length = longest_suit(cards)
    downtown = (view.get("contract") or {}).get("mode") == "downtown"
    def keep_value(card):
        if card in ("BJ", "LJ"):
            return 100
        value = rank_value(card) if not downtown else (16 - rank_value(card)
                                                       if card[0] != "A" else 15)
        return value + (30 if card[1] == suit else 0)
    return "discard " + " ".join(sorted(sorted(cards, key=keep_value)[:count]))


def choose_trump(cards, legal) -> str:
    suit, _ = longest_suit(cards)
    wanted = f"trump {suit}"
    if wanted in legal:
        return wanted
    options = [a for a in legal if a.startswith("trump ")]
    counts = Counter(c[1] for c in cards if c not in ("BJ", "LJ"))
    return max(options, key=lambda a: counts.get(a.split()[1], 0))


def choose_solo_call(view, cards, legal) -> str:
    turn_up = view.get("turn_up")
    trump = turn_up[1] if turn_up else longest_suit(cards)[0]
    trumps = sum(c[1] == trump for c in cards)
    aces = sum(c[0] == "A" for c in cards)
    honours = honour_count(cards)
    if "solo" in legal and trumps >= 5 and honours >= 3.5:
        return "solo"
    if "cop" in legal and honours >= 3:
        return "cop"
    if "prop" in legal and honours >= 3.5 and aces >= 2:
        return "prop"
    if "misere" in legal and max(rank_value(c) for c in cards) <= 10 and honours == 0:
        return "misere"
    return "pass" if "pass" in legal else legal[0]


def choose_belgian_call(view, cards, legal) -> str:
    non_pass = [a for a in legal if a != "pass"]
    if "pass" not in legal:
        return legal[0]
    for action in non_pass:
        words = action.split()
        if words[0] in ("propose", "accept", "emballer", "join") and len(words) >= 2:
            suit = words[-1]
            length = sum(c[1] == suit for c in cards)
            strong = sum(c[1] == suit and c[0] in "AKQ" for c in cards)
            if length >= 5 and strong >= 2 or words[0] != "propose" and length >= 4:
                return action
    return "pass"


def choose(view: HandView, rng: random.Random) -> str:
    legal = view.get("legal") or []
    cards = view.get("hand") or []
    if view.get("phase") == "discard" and view.get("discard_count", 1) > 1:
        return choose_discard(view, cards)
    if len(legal) == 1:
        return legal[0]
    card_actions = {}
    for action in legal:
        verb, _sep, rest = action.partition(" ")
        if verb in ("play", "discard") and len(rest) == 2:
            card_actions[rest] = action
    if card_actions and len(card_actions) == len(legal):
        if legal[0].startswith("discard "):
            return card_actions[min(card_actions, key=rank_value)]
        return choose_card(view, list(card_actions), card_actions)
    if any(a.startswith("trump ") for a in legal) and all(
            a.startswith("trump ") for a in legal):
        return choose_trump(cards, legal)
    if all(a.startswith("direction ") for a in legal):
        mode = "downtown" if sum(c[0] in "A23" for c in cards) > 3 else "uptown"
        return f"direction {mode}"
    return _hooks(view).easy_call(view, cards, legal)
