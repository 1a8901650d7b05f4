"""The table view arranged for the HTML page: which card does what, which buttons to show,
the seats in order around the viewer.  Only what the view (``games.snapshots``) holds."""

from __future__ import annotations

from typing import Any

# Where each seat sits around the viewer (at the bottom, "south"), clockwise, by seat count.
POSITIONS = {
    3: ("south", "west", "east"),
    4: ("south", "west", "north", "east"),
    5: ("south", "west", "north-west", "north-east", "east"),
}


def for_template(view: dict[str, Any]) -> dict[str, Any]:
    """Arrange a table view for the HTML page: which card does what, which buttons to show."""
    hand = view.get("hand") or {}
    legal = hand.get("legal") or []
    card_actions: dict[str, str] = {}
    buttons = []
    for action in legal:
        verb, _sep, rest = action.partition(" ")
        if verb in ("play", "discard") and len(rest) == 2:
            card_actions.setdefault(rest, action)
        elif verb == "discard":
            continue  # many-card discards get a form of checkboxes instead
        else:
            buttons.append(action)
    my_cards = [{"card": c, "action": card_actions.get(c)} for c in hand.get("hand") or []]
    discard_count = hand.get("discard_count")  # only in the acting seat's view
    exposed = hand.get("exposed") or []
    if isinstance(exposed, dict):  # Solo Whist lays one hand open, Belgian Whist maybe several
        exposed = [exposed]
    players = view["players"]
    seat = view.get("seat")
    count = len(players)
    first = seat if seat is not None else 0  # the viewer sits at the bottom; a watcher sees seat 0
    order = [(first + i) % count for i in range(count)]
    places = POSITIONS[count]
    return {
        "my_cards": my_cards,
        "buttons": buttons,
        "discard_count": discard_count if discard_count and discard_count > 1 else None,
        "seats_in_order": [players[p] | {
            "hand_size": (hand.get("hand_sizes") or [0] * count)[p],
            "tricks_won": (hand.get("tricks_won") or [0] * count)[p],
            "is_dealer": hand.get("dealer") == p,
            "to_act": hand.get("to_act") == p,
            "is_me": p == seat,
            "position_class": places[i],
        } for i, p in enumerate(order)],
        "last_trick": (hand.get("tricks") or [None])[-1],
        "exposed": [e for e in exposed if e.get("seat") != seat],
    }
