"""The engine contract shared by every game (docs/rules.md gives the conventions around it).

Each game module (one per game, listed in ``games.rules.GAME_MODULES``) exposes:

* ``GAME`` -- its name as in hand records (the module's own name),
* ``SEATS`` -- how many players sit at its table (3 to 5; seats ``0..SEATS-1`` clockwise),
* ``Rules`` -- a frozen dataclass of house rules; ``Rules.from_overrides(mapping)`` refuses
  unknown names and bad values with :class:`RulesError`; ``rules.overrides()`` gives back
  only the non-default values (what a record stores),
* ``deal(rules, dealer, rng) -> Deal`` -- a shuffled deal (live play passes
  ``secrets.SystemRandom()``; tests and benchmarks pass a seeded ``random.Random``),
* ``new_hand(rules, dealer, hands, kitty=None) -> HandState`` -- validates the deal
  (:class:`DealError`) and starts the hand,
* ``Match`` (or ``Session``) -- chains hands: dealer rotation, running scores, end.

A :class:`HandState` has ``phase``, ``to_act``, ``legal_actions()`` (sorted strings),
``apply(action)`` (raises :class:`IllegalAction`), ``random_action(rng)``, ``view(seat)``,
``complete`` and ``result()``.  Actions are the short strings of the hand-record grammar.

Nothing here imports Django: ``games.rules`` must run without it.
"""

from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar


def N_(message: str) -> str:
    """Marks a message for translation without translating it (``makemessages -k N_``).

    The engine cannot import Django; the Django side translates ``WhistError.template`` and
    interpolates ``params`` itself, so every message a player sees is translatable.
    """
    return message


class WhistError(ValueError):
    """Base of every refusal: carries an English message and a translatable template."""

    def __init__(self, template: str, **params: Any):
        self.template = template
        self.params = {key: _shown(value) for key, value in params.items()}
        params = self.params
        super().__init__(template % params if params else template)


class _Shown(str):
    """A value too long to quote whole in a refusal; ``%r`` of it prints the shortened text."""

    def __repr__(self) -> str:
        return str(self)


MAX_SHOWN_CHARS = 200
TOO_LARGE = N_("a number too large to write out")


def _shown(value: Any) -> Any:
    """Parameters are quoted back to the person who sent them: a huge number or a long text is
    shortened (``repr`` of an int of 5,000 digits even raises in Python 3.11)."""
    if isinstance(value, bool) or not isinstance(value, (int, str, list, dict, tuple)):
        return value
    if isinstance(value, int):
        return value if abs(value) < 10**60 else _Shown(TOO_LARGE)
    try:
        text = value if isinstance(value, str) else repr(value)
    except (ValueError, RecursionError):
        return _Shown(TOO_LARGE)
    if len(text) <= MAX_SHOWN_CHARS:
        return value
    return _Shown((repr(value) if isinstance(value, str) else text)[:MAX_SHOWN_CHARS] + "…")


class RulesError(WhistError):
    """Unknown house rule name or a bad value."""


class DealError(WhistError):
    """The dealt cards do not form a legal deal for the game."""


class IllegalAction(WhistError):
    """An action refused by the engine; the state is unchanged.

    ``str(exc)`` reads "seat 2, 'play AS': seat 2 must follow hearts"; ``exc.reason`` is the
    part after the colon.
    """

    def __init__(self, seat: int | None, action: object, template: str, /, **params: Any):
        self.seat = seat
        self.action = action
        self.reason = template % params if params else template
        super().__init__(template, **params)
        self.args = (f"seat {seat}, {action!r}: {self.reason}",)

    def __str__(self) -> str:
        return self.args[0]


# -- house rules -------------------------------------------------------------------------------


def seat_values_to_count(session: Any, dealer: int, result: Any, key: str, missing: str,
                         seats: int) -> list:
    """The per-seat numbers ``result[key]`` (one per seat of the session's game) of a hand that
    ``session`` may count next: the session is not over and ``dealer`` is its next dealer.
    Raises WhistError otherwise (``missing``: the message when the numbers are not there)."""
    if session.complete:
        raise WhistError(N_("the session is over"))
    if dealer != session.next_dealer:
        raise WhistError(N_("seat %(dealer)s dealt this hand, but seat %(expected)s is to deal"),
                         dealer=dealer, expected=session.next_dealer)
    values = result.get(key) if isinstance(result, dict) else None
    if not (isinstance(values, (list, tuple)) and len(values) == seats
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)):
        raise WhistError(missing)
    return list(values)


def rule(default: Any, help: str, *, label: str = "", choices: tuple | None = None,
         choice_labels: Mapping[str, str] | None = None,
         entry_labels: Mapping[str, str] | None = None, minimum: float | None = None,
         maximum: float | None = None, kind: type | None = None, paper_only: bool = False) -> Any:
    """A house-rule field: its default, a plain-language help text and what values it accepts.

    What players read, each marked with ``N_`` (``makemessages`` collects ``N_`` and the help
    text, ``rule:2``): ``label`` names the rule on a form (a statement for a yes/no rule: "The
    kitty is turned face up"), ``choice_labels`` gives each of ``choices`` in words (the ids
    stay what records store), ``entry_labels`` the entries of a table of points by their path
    ("emballage.made": "made, by the tricks taken").  ``paper_only``: a rule of what happens at
    a real table that online play never meets (a revoke): offered to leagues, not online tables.
    """
    meta = {"help": help, "label": label, "choices": choices, "paper_only": paper_only,
            "choice_labels": dict(choice_labels or {}), "entry_labels": dict(entry_labels or {}),
            "minimum": minimum, "maximum": maximum, "kind": kind or type(default)}
    if isinstance(default, (dict, list)):
        return dataclasses.field(default_factory=lambda: default, metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


@dataclass(frozen=True)
class BaseRules:
    """House rules: subclasses declare fields with :func:`rule`."""

    GAME: ClassVar[str] = ""

    @classmethod
    def from_overrides(cls, overrides: Mapping[str, Any] | None = None):
        if overrides is None:
            overrides = {}
        if not isinstance(overrides, Mapping):
            raise RulesError(N_("rules must be an object of house-rule names and values"))
        fields = {f.name: f for f in dataclasses.fields(cls)}
        values = {}
        for name, value in overrides.items():
            if name not in fields:
                raise RulesError(
                    N_("unknown house rule %(name)r for %(game)s (known: %(known)s)"),
                    name=name, game=cls.GAME, known=", ".join(sorted(fields)),
                )
            values[name] = cls._check_value(fields[name], value)
        rules = cls(**values)
        rules.validate()
        return rules

    @staticmethod
    def _check_value(field: dataclasses.Field, value: Any) -> Any:
        meta = field.metadata
        kind = meta.get("kind")
        bad = N_("house rule %(name)s: %(value)r is not %(expected)s")
        if kind is bool:
            if not isinstance(value, bool):
                raise RulesError(bad, name=field.name, value=value, expected="true or false")
        elif kind is int:
            if isinstance(value, float) and value.is_integer():
                value = int(value)  # JSON's 4.0 is the whole number 4, as the forms take it
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(bad, name=field.name, value=value, expected="a whole number")
        elif kind is float:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise RulesError(bad, name=field.name, value=value, expected="a number")
        elif kind is str:
            if not isinstance(value, str):
                raise RulesError(bad, name=field.name, value=value, expected="a string")
        choices = meta.get("choices")
        if choices is not None and value not in choices:
            raise RulesError(bad, name=field.name, value=value,
                             expected="one of " + ", ".join(map(str, choices)))
        lo, hi = meta.get("minimum"), meta.get("maximum")
        if lo is not None and value < lo or hi is not None and value > hi:
            raise RulesError(bad, name=field.name, value=value,
                             expected=f"between {lo} and {hi}")
        return value

    def validate(self) -> None:
        """Cross-field checks; subclasses extend."""

    def overrides(self) -> dict[str, Any]:
        """Only the values that differ from the defaults (what a hand record stores)."""
        default = type(self)()
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if getattr(self, f.name) != getattr(default, f.name)}

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def describe(cls) -> list[dict[str, Any]]:
        """Every house rule with its default, accepted values, help, label and the words of its
        choices (for forms and docs)."""
        out = []
        for f in dataclasses.fields(cls):
            default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
            out.append({"name": f.name, "default": default, **dict(f.metadata)})
        return out


@dataclass
class Deal:
    hands: list[list[str]]
    kitty: list[str] | None = None


class HandState(ABC):
    """One hand from the deal to the last card.  See the module docstring."""

    game: ClassVar[str]
    phase: str  # e.g. "auction", "discard", "declare", "play", "complete"
    to_act: int | None  # None once complete
    history: list[tuple[int, str]]  # (seat, action) in order

    @abstractmethod
    def legal_actions(self) -> list[str]:
        """Sorted legal actions of ``to_act``; empty only once complete."""

    @abstractmethod
    def apply(self, action: str) -> None:
        """Apply ``to_act``'s action or raise :class:`IllegalAction` leaving the state unchanged."""

    def random_action(self, rng: random.Random) -> str:
        """A uniformly random legal action (engines override when the list is huge)."""
        return rng.choice(self.legal_actions())

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may know, nothing more; ``None`` = a spectator.  JSON-ready."""

    @property
    def complete(self) -> bool:
        return self.phase == "complete"

    @abstractmethod
    def result(self) -> dict[str, Any]:
        """The replay result: ``{"complete": true, ...}`` or the incomplete form with ``legal``."""
