"""The bridge from a paper score sheet to the engines in ``games.rules``.

A deal is entered as plain facts (Solo: contract, declarer, partner, tricks; Bid Whist: bidding
team, bid, mode, books, revoke).  Every point is computed by the engines' pure ``score_hand``
functions and Bid Whist's ``Match``; nothing here knows a rule.  Engine refusals come back as
:class:`EntryError` with a translated message.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from games.engine_messages import engine_message
from games.rules.base import WhistError

SOLO, BID, BELGIAN = "solo_whist", "bid_whist", "belgian_whist"


class EntryError(Exception):
    """A result entry refused; nothing was changed.  ``message`` is translated."""

    def __init__(self, message):
        self.message = message
        super().__init__(str(message))


def engine(game: str):
    """The engine module of ``game`` (ImportError while a module is not written yet)."""
    return importlib.import_module(f"games.rules.{game}")


def game_available(game: str) -> bool:
    try:
        engine(game)
    except ImportError:
        return False
    return True


def engine_rules(game: str, overrides: dict | None):
    return engine(game).Rules.from_overrides(overrides or {})


def normalise_rules(game: str, overrides: Any) -> dict:
    """Only the non-default house rules, validated by the engine (ValidationError if bad)."""
    try:
        return engine_rules(game, overrides).overrides()
    except ImportError as exc:
        raise ValidationError(_("This game is not available yet.")) from exc
    except WhistError as exc:
        raise ValidationError(engine_message(exc)) from exc


def rules_description(game: str) -> list[dict]:
    return engine(game).Rules.describe()


@dataclass
class Outcome:
    points: list  # per seat (Solo, Belgian) or per team (Bid Whist), JSON numbers
    contract: str
    declarer: int | None
    made: bool | None


def score_deal(game: str, rules, facts: dict) -> Outcome:
    """Scores one deal's facts, or raises EntryError (nothing is written by the caller then)."""
    try:
        if game == SOLO:
            return _score_solo(rules, facts)
        if game == BID:
            return _score_bid(rules, facts)
        if game == BELGIAN:
            return _score_belgian(rules, facts)
    except WhistError as exc:
        raise EntryError(engine_message(exc)) from exc
    except (KeyError, TypeError, ValueError) as exc:
        raise EntryError(_("This deal is incomplete or malformed.")) from exc
    raise EntryError(_("Unknown game."))


def _score_solo(rules, facts: dict) -> Outcome:
    solo = engine(SOLO)
    contract, declarer, partner = facts["contract"], facts["declarer"], facts.get("partner")
    units = solo.score_hand(rules, contract, declarer, partner,
                            _tricks_on_declarer(declarer, facts["tricks"]), facts.get("revoke"))
    # Every stake is positive, so the declarer gains exactly when the contract is made.
    return Outcome(points=list(units), contract=contract, declarer=declarer,
                   made=units[declarer] > 0)


def _tricks_on_declarer(declarer, side_tricks) -> list:
    """Per-seat tricks for an engine from the sheet's one number, the declaring side's tricks:
    only the side's total matters to the score, so they all go on the declarer."""
    if type(side_tricks) is not int or not 0 <= side_tricks <= 13:
        raise EntryError(_("Tricks taken must be a number from 0 to 13."))
    tricks = [0, 0, 0, 0]
    if type(declarer) is int and 0 <= declarer <= 3:
        tricks[declarer] = side_tricks
    return tricks


def _score_bid(rules, facts: dict) -> Outcome:
    bid = engine(BID)
    score = bid.score_hand(rules, facts["bid"], facts["mode"], facts["team"], facts["books"],
                           facts.get("revoke"))
    return Outcome(points=list(score["points"]), contract=f'{facts["bid"]} {facts["mode"]}',
                   declarer=facts["team"], made=score["made"] or score["boston"])


def _score_belgian(rules, facts: dict) -> Outcome:
    belgian = engine(BELGIAN)
    contract, declarer, partner = facts["contract"], facts["declarer"], facts.get("partner")
    if partner is not None and contract in belgian.MISERES:
        # Each misère player is settled on their own tricks: one line of the sheet each.
        raise EntryError(_("Enter one line per misère or piccolo player."))
    declarers = [declarer] if partner is None else [declarer, partner]
    result = belgian.score_hand(rules, contract, declarers,
                                _tricks_on_declarer(declarer, facts["tricks"]),
                                facts.get("level"))
    label = contract if facts.get("level") is None else f'{contract} {facts["level"]}'
    return Outcome(points=list(result["points"]), contract=label, declarer=declarer,
                   made=result["contracts"][0]["made"])


def replay_match(game: str, rules, hands: list[dict]):
    """A partnership match's engine ``Match`` replayed over the hands entered on paper."""
    return bid_match(rules, hands)


def bid_match(rules, hands: list[dict]):
    """The engine's Match replayed over the entered hands, in order.  Raises EntryError when a
    hand comes after the match ended (at ±game_target or on a Boston)."""
    bid = engine(BID)
    match = bid.Match(rules)
    for number, facts in enumerate(hands, start=1):
        if match.complete:
            raise EntryError(_("The match was over after hand %(number)s; hands after it cannot "
                               "be kept.") % {"number": number - 1})
        try:
            result = bid.score_hand(rules, facts["bid"], facts["mode"], facts["team"],
                                    facts["books"], facts.get("revoke"))
            match.add_result(match.next_dealer, {**result, "declarer": facts["team"]})
        except WhistError as exc:
            raise EntryError(engine_message(exc)) from exc
    return match


def format_units(value) -> str:
    """A balance as people write it: 12, -3, 1.5 (no trailing zeros)."""
    if value is None:
        return ""
    value = Decimal(value)
    if value == value.to_integral():
        return str(value.quantize(Decimal(1)))
    return format(value.normalize(), "f")
