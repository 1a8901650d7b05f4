"""The table view arranged for the HTML page: which card does what, which buttons to show,
the seats in order around the viewer.  Only what the view (``games.snapshots``) holds."""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import registry, words
from games.computer_names import level_badge
from games.rules.cards import SUITS, sort_for_display

# Where each seat sits around the viewer (at the bottom, "south"), clockwise, by seat count.
POSITIONS = {
    3: ("south", "west", "east"),
    4: ("south", "west", "north", "east"),
    5: ("south", "west", "north-west", "north-east", "east"),
}


def for_template(view: dict[str, Any], with_result: bool = True) -> dict[str, Any]:
    """Arrange a table view for the HTML page: which card does what, which buttons to show.

    ``with_result=False``: the last hand's result panel is not sent this time (a socket that
    already has it, ``games.consumers``), so its words and sorted hands are not made."""
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
    # Once the contract is known its own trump decides (none in a misère or a no-trump
    # contract, even with a card turned up); during the auction the turn-up is the likely one.
    trump = hand.get("trump") if hand.get("contract") else hand.get("turn_up_suit")
    my_cards = [{"card": c, "action": card_actions.get(c),
                 "label": words.action_label(card_actions[c]) if c in card_actions else None}
                for c in held_in_order(hand.get("hand") or [], trump)]
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
    names = words.Names(players, seat)
    game_id = view.get("game")  # a view without one (a test's) gets no sentences
    said = words.of(game_id) if game_id else None
    partnership = bool(game_id and registry.game(game_id).is_partnership_match and count == 4)
    declaring = declarers(hand)
    calls = last_calls(hand)
    return {
        "my_cards": my_cards,
        "buttons": buttons,
        # The calls arranged as the game's players think of them (games/words/<game>.py).
        "bid_box": said.bid_box(buttons, view) if said and buttons else None,
        "discard_count": discard_count if discard_count and discard_count > 1 else None,
        # why the cards it may not play are dimmed, said when one is tapped (static/js/table.js)
        "why_dimmed": why_dimmed(hand, card_actions, seat),
        "seats_in_order": [players[p] | {
            "is_dealer": hand.get("dealer") == p,
            "to_act": hand.get("to_act") == p,
            "is_me": p == seat,
            "position_class": places[i],
            "side": ("a" if p % 2 == 0 else "b") if partnership else None,
            "is_partner": partnership and seat is not None and p == (seat + 2) % 4,
            "computer_badge": level_badge(players[p]["computer"]) if players[p].get("computer") else None,
            "is_declarer": p in declaring,
            "last_call": calls.get(p),
            "side_words": side_words(players, p, names) if partnership else None,
            "move_clock": move_clock(view, p),
        } | seat_facts((hand.get("hand_sizes") or [0] * count)[p],
                       (hand.get("tricks_won") or [0] * count)[p])
            for i, p in enumerate(order)],
        # nothing played yet in this hand: the middle of the table can be small (the auction)
        "trick_quiet": not hand.get("trick") and not hand.get("tricks"),
        # the hands of the last hand, each sorted as its player held it
        "last_deal": last_deal(view.get("last_hand"), players) if with_result else [],
        "last_trick": (hand.get("tricks") or [None])[-1],
        "trick": trick_centre(view, dict(zip(order, places, strict=True)), names),
        "exposed": [e for e in exposed if e.get("seat") != seat],
        "auction": auction_grid(hand, names, count) if hand.get("auction") else None,
        # the latest call, card or trick in a sentence, for the live region read aloud
        "announcement": words.announcement(view, names),
        **(sentences(said, view, names, with_result) if said else {}),
        "act_url": act_url(view["table"]) if "table" in view else "",
    }


def why_dimmed(hand: dict[str, Any], card_actions: dict[str, str], seat: int | None) -> str:
    """Why the viewer may not play some of their cards now, in a sentence: from the engine's
    legal actions (the cards it offers share the suit led: "You must follow hearts."), whose
    turn it is, or the phase (no card is played in the auction)."""
    held = hand.get("hand") or []
    if seat is None or not held or len(card_actions) == len(held):
        return ""
    if hand.get("to_act") != seat:
        return str(_("Wait for your turn."))
    if not card_actions:
        return str(_("It is not yet time to play a card."))
    suits = {card[1] for card in card_actions if card[1] in SUITS}
    trump = hand.get("trump")
    if not suits and trump and trump in SUITS:
        suits = {trump}  # only jokers offered: they are trumps, and trumps were led
    if len(suits) == 1:
        return str(_("You must follow %(suit)s.") % {"suit": words.SUIT_WORDS[suits.pop()]})
    return ""


def side_words(players: list[dict[str, Any]], seat: int, names: words.Names) -> str | None:
    """Before anyone sits in an empty seat of a partnership game, whose side it is on: the
    partner's name once someone sits across it ("Ana's partner"), else the opponents' seated
    beside it ("against Ana"); nothing for a taken seat, the viewer's partner's seat (its
    badge says so) or a table still empty around it."""
    if not players[seat]["free"]:
        return None
    partner = (seat + 2) % 4
    if partner == names.me:
        return None  # the seat's "partner" badge says it to the viewer
    if not players[partner]["free"]:
        return _("%(name)s's partner") % {"name": names(partner)}
    opponents = [s for s in ((seat + 1) % 4, (seat + 3) % 4) if not players[s]["free"]]
    if not opponents:
        return None
    return _("against %(names)s") % {"names": names.together(opponents)}


def move_clock(view: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The countdown of ``seat``'s turn at a table with a time for each move: when it runs out
    and the seconds left, for a person who is to act and plays for themselves (a computer
    playing their seat needs no clock, nor does a table paused for its people or whose time
    is up: computers make every move then)."""
    hand = view.get("hand") or {}
    player = view["players"][seat]
    if (not view.get("move_deadline") or view.get("paused") or hand.get("to_act") != seat
            or view.get("status") != "playing" or view.get("time_up") or player.get("computer") or player.get("free")
            or player.get("computer_playing")):
        return None
    return {"deadline": view["move_deadline"], "seconds": view.get("move_in")}


@lru_cache(maxsize=4096)
def act_url(table_id: int) -> str:
    """Where a table's forms post (reversed once per table: it is in every fragment)."""
    return reverse("table_act", args=[table_id])


def seat_facts(hand_size: int, tricks_won: int) -> dict[str, Any]:
    """A seat's cards left and tricks won, in numbers and as its plate says them."""
    return {"hand_size": hand_size, "tricks_won": tricks_won,
            "facts": ngettext("%(n)s card", "%(n)s cards", hand_size) % {"n": hand_size} + " · "
            + ngettext("%(n)s trick", "%(n)s tricks", tricks_won) % {"n": tricks_won}}


def trick_centre(view: dict[str, Any], places: dict[int, str],
                 names: words.Names) -> dict[str, Any] | None:
    """The middle of the table: the trick in play, one spot per seat in front of it (in the
    order of play, then the seats still to play), and the last finished trick with its winner:
    the hand's last one, or the final trick of the hand before while this one has none.
    ``just_finished`` while nobody has led to the next trick: the page shows it whole for
    the table's pause (``view["trick_pause"]``, seconds; static/js/table.js) before gathering
    it."""
    hand = view.get("hand") or {}
    if not hand and not view.get("last_hand"):
        return None
    current = hand.get("trick") or []
    tricks = hand.get("tricks") or []
    number = (view.get("hands_played") or 0) + 1
    from_last_hand = False
    if not tricks and not current and view.get("last_hand"):
        tricks = view["last_hand"].get("tricks") or []
        number -= 1
        from_last_hand = True
    finished = tricks[-1] if tricks else None
    if finished and len(finished.get("cards") or []) != len(places):
        finished = None

    def spots(cards: list[dict[str, Any]], winner: int | None = None) -> list[dict[str, Any]]:
        played = [c["seat"] for c in cards]
        return [{"seat": c["seat"], "card": c["card"], "position": places[c["seat"]],
                 "name": names.capital(c["seat"]), "winner": c["seat"] == winner}
                for c in cards] + [
            {"seat": s, "card": None, "position": places[s], "name": names.capital(s),
             "winner": False} for s in places if s not in played]

    return {
        "seats": len(places),
        "current": spots(current),
        "finished": {
            "key": f"{number}-{len(tricks)}",
            "spots": spots(finished["cards"], finished.get("winner")),
            "winner": names(finished.get("winner")),
            "winner_position": places.get(finished.get("winner"), ""),
        } if finished else None,
        "just_finished": bool(finished) and not current and (
            not from_last_hand or not hand.get("auction")),
        # a number for the script, never localised ("1,5" in French would read as 1)
        "pause": f"{view.get('trick_pause', settings.TRICK_PAUSE_SECONDS):g}",
    }


RED = {"H", "D"}


def suit_order(suits: set[str], trump: str | None = None) -> str:
    """The suits of a hand from left to right: black and red alternating as far as the suits
    held allow (spades, hearts, clubs, diamonds with all four), the trump suit first."""
    return _suit_order(frozenset(suits), trump)


@lru_cache(maxsize=64)  # 16 sets of suits × 5 trumps: worked out once each, not at every card
def _suit_order(suits: frozenset[str], trump: str | None) -> str:
    best = ""
    best_key: tuple[int, ...] | None = None
    held = [s for s in SUITS if s in suits]
    for order in permutations(held):
        if trump in held and order[0] != trump:
            continue
        same = sum((a in RED) == (b in RED) for a, b in zip(order, order[1:], strict=False))
        key = (same, *("SHCD".index(s) for s in order))
        if best_key is None or key < best_key:
            best, best_key = "".join(order), key
    return best + "".join(s for s in SUITS if s not in best)


def held_in_order(cards: list[str], trump: str | None = None) -> list[str]:
    """A hand sorted as a player holds it: jokers, then the suits by ``suit_order``, each
    from high to low."""
    return sort_for_display(cards, suit_order({c[1] for c in cards if len(c) == 2
                                               and c[1] in SUITS}, trump))


def last_calls(hand: dict[str, Any]) -> dict[int, str]:
    """Each seat's latest call of the auction in words, for its plate while the auction lasts."""
    if hand.get("contract") or hand.get("trick") or hand.get("tricks"):
        return {}
    return {call["seat"]: words.action_label(call["action"]) for call in hand.get("auction") or []}


def last_deal(last_hand: dict[str, Any] | None,
              players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The last hand's deal, each seat's cards sorted as it held them (its trump first)."""
    if not last_hand or not last_hand.get("deal"):
        return []
    trump = (last_hand.get("result") or {}).get("trump")
    return [{"seat": seat, "cards": held_in_order(list(cards), trump)}
            for seat, cards in enumerate(last_hand["deal"])]


def declarers(hand: dict[str, Any]) -> list[int]:
    """The seats playing the contract once it is known: the declarer, and the partner of a
    Solo Whist Prop and Cop, or every declarer of a Belgian emballage, trou or misères."""
    contract = hand.get("contract") or {}
    if "declarers" in contract:
        return list(contract["declarers"])
    return [s for s in (contract.get("declarer"), contract.get("partner")) if s is not None]


def sentences(said, view: dict[str, Any], names: words.Names,
              with_result: bool = True) -> dict[str, str | None]:
    """The game's words (``games.words.<game>``) for this view: whose turn is doing what, the
    contract, the score and the last hand's result (unless ``with_result`` is false and a
    card of the next hand was played)."""
    hand = view.get("hand") or {}
    return {
        "turn_phase": str(said.PHASES.get(hand.get("phase"), "")),
        "contract": said.contract(view, names) if hand else None,
        "score": said.score(view, names),
        # also while nothing of the next hand is played: the table shows it in its middle
        "result": said.result(view["last_hand"], names) if view.get("last_hand") and (
            with_result or not (hand.get("trick") or hand.get("tricks"))) else None,
    }


def auction_grid(hand: dict[str, Any], names: words.Names, count: int) -> dict[str, Any]:
    """The calls of the hand as players write them: one column per seat from the dealer's
    left, one row per round (a seat that no longer speaks leaves its cell empty)."""
    dealer = hand.get("dealer") or 0
    columns = [(dealer + 1 + i) % count for i in range(count)]
    rows: list[list[str]] = []
    last = count
    for call in hand["auction"]:
        column = columns.index(call["seat"])
        if not rows or column <= last:
            rows.append([""] * count)
        rows[-1][column] = words.action_label(call["action"])
        last = column
    return {"seats": [names.capital(s) for s in columns], "rows": rows}
