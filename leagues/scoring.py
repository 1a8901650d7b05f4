"""The bridge from a paper score sheet to the engines in ``games.rules``.

A deal is entered as plain facts (Solo: contract, declarer, partner, tricks; Bid Whist: bidding
team, bid, mode, books, revoke).  Every point is computed by the engines' pure ``score_hand``
functions and Bid Whist's ``Match``; nothing here knows a rule.  Engine refusals come back as
:class:`EntryError` with a translated message.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _

from games import registry
from games.engine_messages import engine_message
from games.rules.errors import WhistError

# The facts of a deal that name a seat of the table (at a five-seat table, one of the four who
# play it: :func:`score_five_seat_deal` gives the engine their seats among the four).
SEAT_FACTS = ("declarer", "partner", "revoke")


class EntryError(Exception):
    """A result entry refused; nothing was changed.  ``message`` is translated."""

    def __init__(self, message):
        self.message = message
        super().__init__(str(message))


def engine(game: str):
    """The engine module of ``game`` (KeyError for a game the site does not offer)."""
    return registry.game(game).engine


def engine_rules(game: str, overrides: dict | None):
    return engine(game).Rules.from_overrides(overrides or {})


def normalise_rules(game: str, overrides: Any) -> dict:
    """Only the non-default house rules, validated by the engine (ValidationError if bad)."""
    try:
        return engine_rules(game, overrides).overrides()
    except KeyError as exc:
        raise ValidationError(_("Choose a game from the list.")) from exc
    except WhistError as exc:
        raise ValidationError(engine_message(exc)) from exc


@dataclass
class Outcome:
    points: list  # per seat (Solo, Belgian) or per team (Bid Whist), JSON numbers
    contract: str
    declarer: int | None
    made: bool | None


def score_deal(game: str, rules, facts: dict) -> Outcome:
    """Scores one deal's facts, or raises EntryError (nothing is written by the caller then).
    A five-seat table's deal (``sits_out`` in its facts) is the four others' deal, scored as
    at a table of four: :func:`score_five_seat_deal`."""
    from leagues import paper  # each game's sheet (it imports Outcome and EntryError from here)

    if "sits_out" in facts:
        return score_five_seat_deal(game, rules, facts)
    try:
        return paper.of(game).score(rules, facts)
    except WhistError as exc:
        raise EntryError(engine_message(exc)) from exc
    except (KeyError, TypeError, ValueError) as exc:
        raise EntryError(_("This deal is incomplete or malformed.")) from exc


def score_five_seat_deal(game: str, rules, facts: dict) -> Outcome:
    """A deal of a five-seat table: the dealer (``sits_out``, a seat of the five) sits it out;
    the four others play it as a table of four, in their order round the table, and are scored
    by the same engine; the sitter's points are 0.  The facts keep the table's seats, so the
    sheet and its history name the five as they sit."""
    from leagues import paper

    description = registry.game(game)
    seats = description.seats + 1
    if description.score_kind != registry.RUNNING_BALANCE or description.seats != 4:
        raise EntryError(_("%(game)s is not played at tables of five.")
                         % {"game": description.label})
    sitter = facts["sits_out"]
    if type(sitter) is not int or not 0 <= sitter < seats:
        raise EntryError(_("Say who sits out this deal: one of the five at the table."))
    playing = [seat for seat in range(seats) if seat != sitter]
    four = {key: value for key, value in facts.items() if key != "sits_out"}
    for key in SEAT_FACTS:
        seat = facts.get(key)
        if seat is None:
            continue
        if seat == sitter:
            raise EntryError(_("The player who sits out this deal cannot play in it: choose "
                               "one of the four who play it."))
        if type(seat) is not int or seat not in playing:
            raise EntryError(_("This deal is incomplete or malformed."))
        four[key] = playing.index(seat)
    try:
        outcome = paper.of(game).score(rules, four)
    except WhistError as exc:
        raise EntryError(engine_message(exc)) from exc
    except (KeyError, TypeError, ValueError) as exc:
        raise EntryError(_("This deal is incomplete or malformed.")) from exc
    points: list = [0] * seats
    for index, seat in enumerate(playing):
        points[seat] = outcome.points[index]
    declarer = None if outcome.declarer is None else playing[outcome.declarer]
    return Outcome(points=points, contract=outcome.contract, declarer=declarer,
                   made=outcome.made)


def replay_match(game: str, rules, hands: list[dict]):
    """The engine's match (its ``CHAIN``) replayed over the lines entered, in order (a game played as a
    match).  Raises EntryError when a line comes after the match ended (at the target, or on
    a Boston) or is refused by the engine."""
    from leagues import paper

    paper_entry = paper.of_match(game)
    match = engine(game).CHAIN(rules)
    for number, facts in enumerate(hands, start=1):
        if match.complete:
            raise EntryError(_("The match was over after hand %(number)s; hands after it cannot "
                               "be kept.") % {"number": number - 1})
        try:
            match.add_result(match.next_dealer, paper_entry.match_result(rules, facts))
        except WhistError as exc:
            raise EntryError(engine_message(exc)) from exc
        except (KeyError, TypeError, ValueError) as exc:
            raise EntryError(_("This deal is incomplete or malformed.")) from exc
    return match


def format_units(value) -> str:
    """A balance as people write it: 12, -3, 1.5 (no trailing zeros)."""
    if value is None:
        return ""
    value = Decimal(value)
    if value == value.to_integral():
        return str(value.quantize(Decimal(1)))
    return format(value.normalize(), "f")


MINUS = "\u2212"


def number(value) -> str:
    """A score as people write it, in the reader's language: 7, −5, 1.5 (1,5 in French)."""
    value = Decimal(str(value))
    text = number_format(abs(value).normalize() if value != value.to_integral() else
                         abs(value).quantize(Decimal(1)), use_l10n=True)
    return f"{MINUS}{text}" if value < 0 else text


def long_date(value) -> str:
    """An evening's day as the reader's language writes it, its weekday first: "Thursday 10
    December 2026", "jeudi 10 décembre 2026", "quinta-feira, 10 de dezembro de 2026" (the
    language's own date format, Django's ``DATE_FORMAT``)."""
    if not value:
        return ""
    return _("%(weekday)s %(date)s") % {"weekday": date_format(value, "l"),
                                         "date": date_format(value, "DATE_FORMAT")}


def signed(value) -> str:
    """A gain or a loss: +3, −9, 0."""
    text = number(value)
    return f"+{text}" if Decimal(str(value)) > 0 else text
