"""Each game's sentences, one module per game: ``games/words/<game id>.py``.

What a table page says in words of a game, from the seat's view (``games.snapshots``) and
nothing else, so a sentence never names a card the view does not hold.  Each module is a
:class:`TableWords`:

- ``PHASES``: the phase of whoever's turn it is ("bidding", "discarding", ...), by engine phase
  (``phases(...)``: the ones most games share, and its own);
- ``ACTION_WORDS``: the words of its own calls ("prop", "emballer"), beside the ones several
  games make (:data:`ACTION_WORDS` here: pass, play, bid, trumps, ...);
- ``contract(view, names) -> str | None``: the contract of the hand in play;
- ``score(view, names) -> str | None``: where the table stands (scores or balances, by name);
- ``result(last_hand, names) -> str | None``: the last hand's result;
- ``bid_box(legal, view) -> dict``: the calls of the seat to act, in the game's own order.

``names`` is a :class:`Names`: how each seat is called for this viewer ("you" for their own).
Nothing else names a game: ``games.presentation`` asks :func:`of` for the module of a table's
game.  Change how a contract reads in that game's module (docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from importlib import import_module
from typing import Any, Protocol, cast, runtime_checkable

from django.utils.translation import get_language, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext as _

from games import registry
from games.html.cards import SUIT_SYMBOLS, rank_label


@runtime_checkable
class TableWords(Protocol):
    """What a table and a replay say of one game (``games/words/<game id>.py``)."""

    GAME: str
    PHASES: Mapping[str, Any]
    ACTION_WORDS: Mapping[str, Any]

    def contract(self, view: dict[str, Any], names: Names) -> str | None: ...

    def score(self, view: dict[str, Any], names: Names) -> str | None: ...

    def result(self, last_hand: dict[str, Any], names: Names) -> str | None: ...

    def bid_box(self, legal: list[str], view: dict[str, Any]) -> dict[str, Any]: ...

    def declared(self, result: dict[str, Any]) -> list[tuple[tuple[int, ...], bool]]: ...


# What a finished hand's result says of its contracts: for each, the seats that declared it
# and whether it was made (several in one hand where a game allows it: Belgian misères); none
# for a hand dealt again.  A person's own page counts from it.
Declarations = list[tuple[tuple[int, ...], bool]]


def declared_by_one(result: dict[str, Any]) -> Declarations:
    """One declarer and the result's ``made`` (Cutthroat; Solo's prop and cop adds a partner)."""
    if result.get("redeal") or result.get("declarer") is None:
        return []
    seats = (result["declarer"],) + ((result["partner"],)
                                    if result.get("partner") is not None else ())
    return [(seats, bool(result.get("made")))]


def of(game_id: str) -> TableWords:
    """The words of ``game_id`` (a game of ``games.registry``)."""
    return cast(TableWords, import_module(f"{__name__}.{game_id}"))


# The words of the action grammar that several games' calls share, as players read them on
# buttons and in the bidding history; each game's own calls are in its module's
# ``ACTION_WORDS``.  Contract names stay the game's own words where players use them as such
# (translators decide).
ACTION_WORDS = {
    "pass": pgettext_lazy("action", "pass"),
    "play": pgettext_lazy("action", "play"),
    "discard": pgettext_lazy("action", "discard"),
    "trump": pgettext_lazy("action", "trumps"),
    "direction": pgettext_lazy("action", "direction"),
    "NT": pgettext_lazy("action", "no trumps"),
    # a Bid Whist bid, four players or cutthroat: books or tricks and a mode
    "bid": pgettext_lazy("action", "bid"),
    "uptown": pgettext_lazy("action", "uptown"),
    "downtown": pgettext_lazy("action", "downtown"),
    # the words of the bid box's column and of the contract's sentence, not the engine's id
    "notrump": pgettext_lazy("action", "no trump"),
}


@lru_cache(maxsize=64)
def _action_words(game_ids: tuple[str, ...]) -> dict[str, Any]:
    """The shared words and every offered game's own (``tests/games/test_one_place_per_game.py``
    checks that no two of them say one call differently, so a call reads the same at every table)."""
    words = dict(ACTION_WORDS)
    for game_id in game_ids:
        words.update(of(game_id).ACTION_WORDS)
    return words


def call_word(word: str) -> str:
    """One word of a call in words ("emballer"), or the word as it is (a number)."""
    return str(_action_words(registry.game_ids()).get(word, word))


def action_label(action: str) -> str:
    """A readable label for an action string (cards shown with their suit symbols)."""
    # Every call of the auction is labelled again in every fragment: remembered per language
    # (the active one, which the labels are in: it is the cache's key, not an input) and per
    # list of games (a game registered later brings its own words).
    return _action_label(get_language(), registry.game_ids(), action)


@lru_cache(maxsize=8192)
def _action_label(language: str | None, game_ids: tuple[str, ...], action: str) -> str:
    known = _action_words(game_ids)
    out = []
    for word in action.split():
        if len(word) == 2 and word[1] in SUIT_SYMBOLS and word not in ("BJ", "LJ"):
            out.append(rank_label(word[0], language) + SUIT_SYMBOLS[word[1]])
        elif len(word) == 1 and word in SUIT_SYMBOLS:
            out.append(SUIT_SYMBOLS[word])
        elif word in known:
            out.append(str(known[word]))
        else:
            out.append(word)
    return " ".join(out)


# The phases most games share; a game's module adds its own.
PHASES = {
    "auction": pgettext_lazy("phase", "bidding"),
    "discard": pgettext_lazy("phase", "discarding"),
    "declare": pgettext_lazy("phase", "naming trumps"),
    "trump": pgettext_lazy("phase", "naming trumps"),
    "play": pgettext_lazy("phase", "playing"),
}


def phases(**more) -> dict[str, Any]:
    return {**PHASES, **more}


SUITS = {"S": pgettext_lazy("trumps", "spades"), "H": pgettext_lazy("trumps", "hearts"),
         "D": pgettext_lazy("trumps", "diamonds"), "C": pgettext_lazy("trumps", "clubs")}


class Names:
    """How each seat of a table is called for the one who reads: their own seat is "you"."""

    def __init__(self, players: Sequence[dict[str, Any]], me: int | None):
        self.players = {p["seat"]: p["name"] or _("empty seat") for p in players}
        self.me = me

    def __call__(self, seat: int | None) -> str:
        if seat is None:
            return ""
        if seat == self.me:
            return _("you")
        return str(self.players.get(seat, ""))

    def capital(self, seat: int) -> str:
        """The name at the start of a sentence ("You made ...")."""
        return capitalise(self(seat))

    def together(self, seats: Sequence[int]) -> str:
        """Two or more players: "you & Ada", "Ana, Bob & Cy" (the viewer first)."""
        ordered = sorted(seats, key=lambda s: (s != self.me, s))
        names = [self(s) for s in ordered]
        if len(names) == 1:
            return names[0]
        return _("%(some)s & %(last)s") % {"some": ", ".join(names[:-1]), "last": names[-1]}

    def capital_together(self, seats: Sequence[int]) -> str:
        return capitalise(self.together(seats))


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def goal(tricks: int, exactly: bool = False) -> str:
    """What a contract asks: "no trick to take", "exactly one trick", "8 tricks to take"."""
    if tricks == 0:
        return _("no trick to take")
    if exactly:
        return ngettext("exactly %(n)s trick", "exactly %(n)s tricks", tricks) % {"n": tricks}
    return ngettext("%(n)s trick to take", "%(n)s tricks to take", tricks) % {"n": tricks}


def with_tricks(tricks: int) -> str:
    """"with 1 trick", "with 4 tricks"."""
    return ngettext("with %(n)s trick", "with %(n)s tricks", tricks) % {"n": tricks}


def signed(number: int | float) -> str:
    """+6, −5, 0: a score as players write it."""
    return f"+{number}" if number > 0 else (f"−{-number}" if number < 0 else "0")


def score_number(value: int | float) -> str:
    """A running score as players write it: 7, 0, −10 (a minus sign, never a hyphen)."""
    return f"−{-value:g}" if value < 0 else f"{value:g}"


def scores_so_far(view: dict[str, Any]) -> list[int | float] | None:
    """The running scores or balances of the table, zeros before the first hand is over; None
    before the first deal."""
    summary = view.get("summary") or {}
    values = summary.get("scores") or summary.get("balances")
    if values:
        return list(values)
    return [0] * len(view.get("players") or ()) if view.get("hand") else None


def the_end(view: dict[str, Any], names: Names) -> str:
    """How a finished table ended, for its end screen: who won the match, or who ends the
    session with the best balance, or that it was closed before anyone won."""
    summary = view.get("summary") or {}
    winner = summary.get("winner")
    if winner is not None:
        if len(summary.get("scores") or ()) == 2:  # two sides: a seat and the one opposite
            return _("%(side)s win the match.") % {
                "side": names.capital_together((winner % 2, winner % 2 + 2))}
        return you_win(winner, names)
    values = summary.get("balances")
    if values and any(values):
        best = max(values)
        leaders = [s for s, v in enumerate(values) if v == best]
        return ngettext("%(names)s ends with the best balance, %(score)s.",
                        "%(names)s end with the best balance, %(score)s each.",
                        len(leaders)) % {"names": names.capital_together(leaders),
                                         "score": signed(best)}
    if summary.get("scores"):
        return _("The table was closed before the match was won.")
    return _("The table was closed.")


def you_win(winner: int, names: Names) -> str:
    """One player won the match: "You win the match." to them, "Ana wins the match." else."""
    if winner == names.me:
        return _("You win the match.")
    return _("%(name)s wins the match.") % {"name": names.capital(winner)}


def each_score(values: Sequence[int], names: Names) -> str:
    """Everyone by name: "you +6, Ada −2, ..."."""
    return ", ".join(_("%(name)s %(score)s") % {"name": names(seat), "score": signed(v)}
                     for seat, v in enumerate(values))


def exchange(values: Sequence[int], names: Names, declarers: Sequence[int]) -> str:
    """What a hand exchanged: the declarers by name, the others together when alike."""
    others = [s for s in range(len(values)) if s not in declarers]
    if declarers and others and len({values[s] for s in others}) == 1:
        parts = [_("%(name)s %(score)s") % {"name": names(s), "score": signed(values[s])}
                 for s in declarers]
        parts.append(_("others %(score)s") % {"score": signed(values[others[0]])})
        return ", ".join(parts)
    return each_score(values, names)


def contract_word(game_id: str, contract: str) -> str:
    """A contract's name in words (``games.registry``), never its id."""
    return registry.game(game_id).contract_label(contract).lower()


def trumps(suit: str | None) -> str:
    """"hearts trumps", "no trumps"."""
    if suit in SUITS:
        return _("%(suit)s trumps") % {"suit": str(SUITS[suit])}
    return _("no trumps")


def balances(view: dict[str, Any], names: Names, unit: str) -> str | None:
    """A running balance by name, the leader first: "Ana +12, you −4, ..." with its unit."""
    values = scores_so_far(view)
    if not values:
        return None
    order = sorted(range(len(values)), key=lambda s: -values[s])
    line = ", ".join(_("%(name)s %(score)s") % {"name": names(s), "score": signed(values[s])}
                     for s in order)
    return _("Balances in %(unit)s: %(line)s") % {"unit": unit, "line": line}


def last_result(outcome_words):
    """A game's ``result(last_hand, names)`` from its words of a played hand's outcome (the
    engine's ``result()``); a hand everyone passed reads the same in every game."""

    def result(last_hand: dict[str, Any], names: Names) -> str | None:
        outcome = last_hand.get("result") or {}
        if outcome.get("redeal"):
            if outcome.get("reason") == "prop_not_accepted":  # Solo Whist's lone prop
                return _("Nobody accepted the prop: the cards are dealt again.")
            return _("Everyone passed: the cards are dealt again.")
        return outcome_words(outcome, names) if outcome else None

    return result


def house_rules(view: dict[str, Any]):
    """The table's house rules as its game's engine reads them."""
    return registry.game(view["game"]).rules_class.from_overrides(view.get("house_rules") or {})


def bid_trumps(trump: str | None, mode: str, direction: str | None) -> str:
    """A Bid Whist bid's trumps as the hand stands: "clubs trumps", "played downtown" (no
    trump), or still to be named by the declarer."""
    if mode == "notrump":  # the bid already says no trump: only the direction is left
        if direction:
            return _("played %(direction)s") % {
                "direction": str(registry.BID_WHIST_MODES.get(direction, direction)).lower()}
        return _("the direction still to be named")
    return trumps(trump) if trump else _("trumps still to be named")


def bid_words(game_id: str, hand: dict[str, Any], names: Names) -> dict[str, Any] | None:
    """A Bid Whist contract's words (four players or cutthroat): who bid what, which trumps;
    with ``declarer`` and ``bid`` (the number) for the game's own sentence."""
    bid = hand.get("contract")
    if not bid:
        return None
    return {"declarer": bid["declarer"], "number": bid["bid"],
            "name": names.capital(bid["declarer"]),
            "bid": contract_word(game_id, f"{bid['bid']} {bid['mode']}"),
            "trumps": bid_trumps(hand.get("trump"), bid["mode"], hand.get("direction"))}


# -- the bid box: a game's calls arranged as its players think of them ---------------------------
# Each game's ``bid_box(legal, view)`` returns ``{"groups": [group, ...]}`` for the page
# (``games.presentation``): a group is ``{"title", "columns", "rows", "ladder"}``, a row
# ``{"label", "cells"}``, a cell ``{"action", "label", "detail", "name", "enabled"}`` and a
# suit row's ``suit`` (``action`` is the engine's string, posted as it is; ``name`` the call in
# words for a screen reader).  Every legal
# action appears once, enabled; a call that is not legal now is disabled, never posted.

SUIT_ORDER = ("S", "H", "D", "C")
NO_TRUMPS_SHORT = pgettext_lazy("a button: no trumps", "NT")


def call(action: str, legal, label: Any, name: Any = None, detail: Any = None) -> dict[str, Any]:
    enabled = action in legal
    return {"action": action if enabled else None, "label": str(label),
            "detail": str(detail) if detail else None,
            "name": str(name) if name else action_label(action), "enabled": enabled}


def row(cells: list[dict[str, Any]], label: Any = None) -> dict[str, Any]:
    return {"label": str(label) if label else None, "cells": cells}


def group(rows: list[dict[str, Any]], title: Any = None, columns=(),
          ladder: bool = False) -> dict[str, Any]:
    """Rows with a legal call in them; a ``ladder`` keeps every row while one is legal (the
    calls too low now shown disabled, so the order of the calls reads)."""
    live = [r for r in rows if any(c["enabled"] for c in r["cells"])]
    return {"title": str(title) if title else None, "columns": [str(c) for c in columns],
            "rows": rows if ladder and live else live, "ladder": ladder}


def box(groups: list[dict[str, Any]], legal) -> dict[str, Any]:
    """The groups with a legal call in them, and any legal action they left out (a last row in
    the engine's words), so that no call is ever missing from the page."""
    kept = [g for g in groups if g["rows"]]
    placed = {c["action"] for g in kept for r in g["rows"] for c in r["cells"] if c["enabled"]}
    rest = [a for a in legal if a not in placed]
    if rest:
        kept.append(group([row([call(a, legal, action_label(a)) for a in rest])]))
    return {"groups": kept, "many": len(kept) > 3}


def first_word(action: str) -> str:
    return capitalise(call_word(action))


def suit_row(legal, prefix: str, label: Any = None, extra=()) -> dict[str, Any]:
    """One button per suit (spades, hearts, diamonds, clubs, then ``extra``: "NT"), the suit
    as its symbol and in words for a screen reader: ``prefix`` + " S" is the action."""
    spoken = action_label(prefix)
    cells = []
    for suit in (*SUIT_ORDER, *extra):
        word = SUITS.get(suit) or call_word(suit)
        cell = call(f"{prefix} {suit}", legal, SUIT_SYMBOLS.get(suit, NO_TRUMPS_SHORT),
                    name=f"{spoken} {word}")
        cells.append(cell | {"suit": suit if suit in SUIT_SYMBOLS else None})
    return row(cells, label)


def passes(legal, *actions: str) -> dict[str, Any]:
    """The calls that are no contract (pass, and a game's own) that are legal now, first."""
    return group([row([call(a, legal, first_word(a)) for a in ("pass", *actions)
                       if a in legal])])


def trump_rows(legal) -> list[dict[str, Any]]:
    """Naming trumps (``trump S``) and, for a no-trump bid, the direction."""
    return [suit_row(legal, "trump", first_word("trump")),
            row([call(f"direction {d}", legal, registry.BID_WHIST_MODES[d])
                 for d in ("uptown", "downtown")], first_word("direction"))]


def bid_grid(legal, numbers) -> dict[str, Any]:
    """A Bid Whist box (four players or cutthroat): pass, then one row per number (ascending)
    and one column per mode, from the lowest number that may still be bid."""
    modes = tuple(registry.BID_WHIST_MODES)
    bids = [int(a.split()[1]) for a in legal if a.startswith("bid ")]
    rows = [row([call(f"bid {n} {mode}", legal, n) for mode in modes])
            for n in numbers if bids and min(bids) <= n <= max(bids)]
    return box([passes(legal),
                group(rows, columns=registry.BID_WHIST_MODES.values()),
                group(trump_rows(legal))], legal)


# -- what a screen reader announces ----------------------------------------------------------

# With their article, which other languages choose by the rank ("la dame", "le roi").
RANK_WORDS = {"A": pgettext_lazy("card, with its article", "the ace"),
              "K": pgettext_lazy("card, with its article", "the king"),
              "Q": pgettext_lazy("card, with its article", "the queen"),
              "J": pgettext_lazy("card, with its article", "the jack")}
JOKER_WORDS = {"BJ": pgettext_lazy("in a sentence", "big joker"),
               "LJ": pgettext_lazy("in a sentence", "little joker")}
SUIT_WORDS = {"S": pgettext_lazy("card suit", "spades"), "H": pgettext_lazy("card suit", "hearts"),
              "D": pgettext_lazy("card suit", "diamonds"), "C": pgettext_lazy("card suit", "clubs")}


def spoken_card(code: str) -> str:
    """A card as it is said aloud: "the queen of spades", "the 10 of hearts", "the big
    joker"."""
    if code in JOKER_WORDS:
        return pgettext("card, with its article", "the %(joker)s") % {"joker": JOKER_WORDS[code]}
    rank = RANK_WORDS.get(code[0]) or pgettext("card, with its article", "the %(number)s") % {
        "number": "10" if code[0] == "T" else code[0]}
    return _("%(rank)s of %(suit)s") % {"rank": rank, "suit": SUIT_WORDS[code[1]]}


def announcement(view: dict[str, Any], names: Names) -> str:
    """The table's latest event in one sentence, for the page's live region (read aloud by a
    screen reader at each update): the last card played and who won a finished trick, else the
    last call of the auction.  From the seat's view only, like every sentence here."""
    hand = view.get("hand") or {}
    trick, tricks = hand.get("trick") or [], hand.get("tricks") or []
    if trick:
        return _played(trick[-1], names)
    if tricks:
        done = tricks[-1]
        played = _played(done["cards"][-1], names)
        if done.get("winner") == names.me:
            return played + " " + _("You win the trick.")
        return played + " " + _("%(name)s wins the trick.") % {"name": names.capital(
            done["winner"])}
    auction = hand.get("auction") or []
    if auction:
        last = auction[-1]
        if last["seat"] == names.me:
            return _("You call %(call)s.") % {"call": action_label(last["action"])}
        return _("%(name)s calls %(call)s.") % {"name": names.capital(last["seat"]),
                                                "call": action_label(last["action"])}
    return ""


def _played(entry: dict[str, Any], names: Names) -> str:
    if entry["seat"] == names.me:
        return _("You play %(card)s.") % {"card": spoken_card(entry["card"])}
    return _("%(name)s plays %(card)s.") % {"name": names.capital(entry["seat"]),
                                               "card": spoken_card(entry["card"])}
