"""Engine refusals in the reader's language: the one place that turns a ``WhistError`` into a
sentence for a person (tables, the create form, paper entry in the leagues).

The engines are pure Python and speak English; each refusal carries its English template
(marked with ``N_`` so ``makemessages`` finds it) and its parameters.  Words among the
parameters (suit names, "a number too large to write out") are translated too.  The
engines' wording is a clause ("discard exactly 6 cards, not 3"); a person reads a sentence: it
begins with a capital and ends with a full stop.
"""

from __future__ import annotations

from django.utils.translation import gettext

from games.rules.errors import WhistError


def engine_message(exc: WhistError) -> str:
    return as_sentence(_in_words(exc))


def as_sentence(clause: str) -> str:
    """``clause`` with a capital first letter and a full stop, unless it has its own."""
    clause = clause.strip()
    if not clause:
        return clause
    clause = clause[:1].upper() + clause[1:]
    return clause if clause[-1] in ".!?…" else clause + "."


def _in_words(exc: WhistError) -> str:
    template = getattr(exc, "template", None)
    if not template:
        return str(exc)
    params = {key: gettext(value) if isinstance(value, str) and value else value
              for key, value in (getattr(exc, "params", None) or {}).items()}
    try:
        return gettext(template) % params if params else gettext(template)
    except (KeyError, TypeError, ValueError):  # a translation that lost a parameter
        return template % exc.params if exc.params else template
