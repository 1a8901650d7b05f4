"""Engine refusals in the reader's language: the one place that turns a ``WhistError`` into a
sentence for a person (tables, the create form, paper entry in the leagues).

The engines are pure Python and speak English; each refusal carries its English template
(marked with ``N_`` so ``makemessages`` finds it) and its parameters.  Words among the
parameters (suit names, "a number too large to write out") are translated too.
"""

from __future__ import annotations

from django.utils.translation import gettext

from games.rules.base import WhistError


def engine_message(exc: WhistError) -> str:
    template = getattr(exc, "template", None)
    if not template:
        return str(exc)
    params = {key: gettext(value) if isinstance(value, str) and value else value
              for key, value in (getattr(exc, "params", None) or {}).items()}
    try:
        return gettext(template) % params if params else gettext(template)
    except (KeyError, TypeError, ValueError):  # a translation that lost a parameter
        return template % exc.params if exc.params else template
