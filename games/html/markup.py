"""HTML put together by type: a value is written as it is when it is ``Markup`` (a fragment
built here, a card face, a catalogue's words escaped once) and escaped otherwise (a display
name, a translated sentence, a number).

``html(template, ...)`` is ``Markup(template) % (...)`` and ``joined(parts)`` is
``Markup("").join(parts)``: the same rule, markupsafe's ``escape`` for anything that is not
``Markup``.  A fragment makes some fifty of these for every seat at every change
(``bench/fragment.py``): ``%`` on arguments escaped first costs about half of markupsafe's
own ``%`` (which wraps each argument in Python) and less than ``Markup.format`` (whose
formatter is Python too), and the texts that come back in every fragment (names, the seats'
facts) are escaped once.  Templates are literals of this package, never text from outside it; a ``%``
in one is written ``%%``.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

__all__ = ["EMPTY", "Markup", "csrf_input", "html", "joined"]

EMPTY = Markup("")


def html(template: str, *args: Any, **kwargs: Any) -> Markup:
    """``template`` with each ``%s`` (or ``%(name)s``) replaced by its value, escaped unless
    it is ``Markup``."""
    if kwargs:
        text = template % {name: value if type(value) is Markup else _escaped(value)
                           for name, value in kwargs.items()}
    else:
        text = template % tuple([value if type(value) is Markup else _escaped(value)
                                 for value in args])
    # ``Markup(text)`` without its look for an ``__html__``, which a ``str`` has not.
    return str.__new__(Markup, text)


def joined(parts: Iterable[Any], separator: str = "") -> Markup:
    """The parts one after the other, each escaped unless it is ``Markup``; ``separator`` is
    markup."""
    return str.__new__(Markup, separator.join(
        [part if type(part) is Markup else _escaped(part) for part in parts]))


def _escaped(value: Any) -> str:
    kind = type(value)
    if kind is str:
        return _escaped_text(value)
    if kind is int:  # its digits (not a ``bool``, which is a type of its own)
        return str(value)
    return escape(value)  # ``Markup`` as it is (any ``__html__``), anything else escaped


@lru_cache(maxsize=16384)
def _escaped_text(text: str) -> Markup:
    return escape(text)


def csrf_input(context: Any) -> Markup:
    """The CSRF field of a form built here: what the template's ``{% csrf_token %}`` writes
    (nothing where the context has no token, as a fragment sent over a socket)."""
    token = context.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return EMPTY
    return html('<input type="hidden" name="csrfmiddlewaretoken" value="%s">', token)
