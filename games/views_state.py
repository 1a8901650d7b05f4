"""What one seat (or a spectator) is shown of a table: the one place hidden information is filtered.

The engine's ``view(seat)`` decides what a seat may know of the hand; this module adds only
public facts (players, scores, version).  The HTML table, the JSON protocol and the computer
players are all built from this dict and nothing else.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from games.models import Table
from games.tables import current_state


def player_name(seat) -> str:
    if seat.user_id:
        profile = getattr(seat.user, "profile", None)
        return (profile.display_name if profile and profile.display_name
                else seat.user.get_username())
    if seat.bot_level:
        return gettext("computer (%(level)s)") % {"level": gettext(seat.bot_level)}
    return ""


def presence_of(seat, now) -> dict[str, Any]:
    """Whether a person has dropped off, and when (or since when) a computer plays for them."""
    takeover = seat.takeover_at()
    if takeover is None:
        return {"away": False}
    return {"away": True, "takeover_at": takeover.isoformat(),
            "takeover_in": max(0, round((takeover - now).total_seconds())),
            "bot_playing": now >= takeover}


def table_view(table: Table, seat: int | None) -> dict[str, Any]:
    seats = list(table.seats.select_related("user__profile", "table"))
    state = current_state(table)
    now = timezone.now()
    hand = state.view(seat) if state is not None else None
    return {
        "table": table.pk,
        "game": table.game,
        "version": table.version,
        "status": table.status,
        "created_by": table.created_by_id,
        "seat": seat,
        "players": [
            {"seat": s.position, "name": player_name(s), "bot": s.bot_level or None,
             "free": s.is_free, **presence_of(s, now)}
            for s in seats
        ],
        "hands_played": table.hands.count(),
        "summary": table.summary or None,
        "hand": hand,
        "last_hand": last_hand_view(table),
    }


def last_hand_view(table: Table) -> dict[str, Any] | None:
    """The last finished hand as everyone may now see it: its result and all four hands."""
    from games.rules.records import replay_hand

    hand = table.hands.order_by("-number").first()
    if hand is None:
        return None
    view = replay_hand(hand.record).view(None)
    return {"number": hand.number, "result": view.get("result"), "deal": view.get("deal"),
            "tricks": view.get("tricks")}


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
    order = [(seat + i) % 4 for i in range(4)] if seat is not None else [0, 1, 2, 3]
    return {
        "my_cards": my_cards,
        "buttons": buttons,
        "discard_count": discard_count if discard_count and discard_count > 1 else None,
        "seats_in_order": [players[p] | {
            "hand_size": (hand.get("hand_sizes") or [0] * 4)[p],
            "tricks_won": (hand.get("tricks_won") or [0] * 4)[p],
            "is_dealer": hand.get("dealer") == p,
            "to_act": hand.get("to_act") == p,
            "is_me": p == seat,
            "position_class": ["south", "west", "north", "east"][i],
        } for i, p in enumerate(order)],
        "last_trick": (hand.get("tricks") or [None])[-1],
        "exposed": [e for e in exposed if e.get("seat") != seat],
    }
