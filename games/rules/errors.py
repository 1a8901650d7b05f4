"""What an engine says to a player: the refusals it raises and the messages it marks.

Every refusal is a :class:`WhistError` carrying an English message and its translatable
template; :func:`N_` marks a message for translation without translating it, because the
engines cannot import Django (``games.engine_messages`` translates them on the site's side).
"""

from __future__ import annotations

from typing import Any


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
        return str(self.args[0])
