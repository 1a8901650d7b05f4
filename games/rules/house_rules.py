"""House rules: each game's ``Rules`` is a frozen dataclass of fields declared with
:func:`rule` (a default, a plain-language help text, what values it accepts), whose
:class:`BaseRules` reads overrides from a hand record or a form and refuses bad ones with
:class:`RulesError`."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from .errors import N_, RulesError


def rule(default: Any, help: str, *, label: str = "", choices: tuple[Any, ...] | None = None,
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
    def from_overrides(cls, overrides: Mapping[str, Any] | None = None) -> Self:
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
    def _check_value(field: dataclasses.Field[Any], value: Any) -> Any:
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
            default = f.default
            if default is dataclasses.MISSING:
                default = f.default_factory()  # type: ignore[operator]  # a list or dict rule's
            out.append({"name": f.name, "default": default, **dict(f.metadata)})
        return out
