"""No message to a seat, HTML or JSON, holds a card that seat may not see.

Hands of every game are replayed action by action through the real table path (the table's
record → ``table_view`` → JSON and the HTML fragment pushed over the socket).  What a seat may
see is worked out here from the record alone, independently of the engines' own views:
its own cards, cards already played, everything once the hand is over, the Solo Whist turn-up until the dealer plays to the first
trick, a spread misère / misère étalée hand once it is laid open, and in Bid Whist the kitty
only for the declarer once the auction is over (or for everyone with ``kitty_shown``).
"""

import json
import re

import pytest
from django.template.loader import render_to_string

from games import registry
from games.models import Seat, Table
from games.presentation import for_template
from games.rules.cards import ALL_CARDS
from games.rules.records import random_record, replay_hand
from games.snapshots import table_view
from tests.marks import slow_except

pytestmark = pytest.mark.django_db
CARDS = set(ALL_CARDS)
DATA_CARD = re.compile(r'data-card="([^"]+)"')


def cards_in_json(value) -> set[str]:
    found = set()
    if isinstance(value, dict):
        for item in value.values():
            found |= cards_in_json(item)
    elif isinstance(value, list):
        for item in value:
            found |= cards_in_json(item)
    elif isinstance(value, str):
        found |= {word for word in value.split() if word in CARDS}
    return found


def exposed_hands(record) -> list[tuple[int, int]]:
    """(seat, plays after which its hand lies face up) for open misères of this hand."""
    result = replay_hand(record).result()
    if record["game"] == "solo_whist" and result.get("contract") == "spread_misere":
        return [(result["declarer"], 4)]  # once trick 1 is complete
    if record["game"] == "belgian_whist":
        return [(seat, 5) for contract in result.get("contracts", [])
                if contract["contract"] == "misere_etalee" for seat in contract["declarers"]]
    return []


def visible_to(record, prefix, seat) -> set[str]:
    if len(prefix) == len(record["actions"]):
        return set(CARDS)  # a finished hand is shown whole to everyone (the result panel)
    dealt = record["hands"]
    plays = [(a["seat"], a["action"].split()[1]) for a in prefix
             if a["action"].startswith("play ")]
    visible = {card for _, card in plays}
    if seat is not None:
        visible |= set(dealt[seat])
    if record["game"] == "solo_whist" and record.get("rules", {}).get("turn_up", True):
        dealer = record["dealer"]
        if not any(s == dealer for s, _ in plays):
            visible.add(dealt[dealer][-1])
    for exposed_seat, after in exposed_hands(record):
        if len(plays) >= after:
            visible |= set(dealt[exposed_seat])
    if record["game"] in ("bid_whist", "cutthroat_bid_whist") and record.get("kitty"):
        # one round of calls, one a seat; then the declarer picks the kitty up
        auction_over = sum(a["action"].startswith(("pass", "bid ")) for a in prefix) >= len(
            dealt)
        declarer = replay_hand({**record, "actions": prefix}).view(None)["contract"]
        if record.get("rules", {}).get("kitty_shown") or (
                auction_over and declarer and declarer["declarer"] == seat):
            visible |= set(record["kitty"])
    return visible


GAMES_AND_RULES = [
    ("bid_whist", {}),
    ("bid_whist", {"kitty_shown": True}),
    ("solo_whist", {}),
    ("solo_whist", {"turn_up": False}),
    ("belgian_whist", {}),
]
# The variants share their game's views: one deal each is enough to catch a leak of their own.
VARIANTS = [
    ("bid_whist", {"kitty": "4_no_jokers"}),
    ("bid_whist", {"kitty": "5_one_joker", "kitty_shown": True}),
    ("bid_whist", {"kitty": "none"}),
    ("cutthroat_bid_whist", {}),
    ("cutthroat_bid_whist", {"kitty_shown": True}),
    ("solo_whist", {"prop_and_cop": False}),
]


# The quick suite keeps the first seed of each game and house rule.
@pytest.mark.parametrize("game, rules, seed", slow_except(
    [*((game, rules, seed) for game, rules in GAMES_AND_RULES for seed in range(3)),
     *((game, rules, 1) for game, rules in VARIANTS)],
    *((game, rules, 0) for game, rules in GAMES_AND_RULES)))
def test_no_seat_is_ever_sent_a_card_it_may_not_see(django_user_model, game, rules, seed):
    user = django_user_model.objects.create_user(f"u{seed}", f"u{seed}@example.org", "pw")
    table = Table.objects.create(game=game, rules=rules, created_by=user,
                                 status=Table.Status.PLAYING)
    seats = registry.game(game).seats
    Seat.objects.bulk_create(Seat(table=table, position=p, computer_level="easy")
                             for p in range(seats))
    record = random_record(game, seed, rules=rules, dealer=seed % seats)
    actions = record["actions"]
    for count in range(len(actions) + 1):
        prefix = actions[:count]
        table.current = {**record, "actions": prefix}
        table.version = count + 1
        table.save(update_fields=["current", "version"])
        for seat in (None, *range(seats)):
            allowed = visible_to(record, prefix, seat)
            view = table_view(table, seat)
            sent_json = json.loads(json.dumps({"type": "state", "state": view}))
            leaked = cards_in_json(sent_json) - allowed
            assert not leaked, (f"JSON to seat {seat} after {count} actions leaks {leaked}")
            html = render_to_string("games/partials/table_state.html",
                                    {"view": view, "ui": for_template(view), "oob": True})
            leaked = set(DATA_CARD.findall(html)) - allowed
            assert not leaked, (f"HTML to seat {seat} after {count} actions leaks {leaked}")
            hidden = {c for c in CARDS - allowed if re.search(rf"\b{c}\b", html)}
            assert not hidden, f"HTML to seat {seat} mentions hidden cards {hidden}"
