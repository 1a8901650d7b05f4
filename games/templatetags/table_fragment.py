"""``{% table_fragment %}``: the live table's fragment, built by ``games.html.table``."""

from __future__ import annotations

from django import template

from games.html.table import table_fragment_html

register = template.Library()


@register.simple_tag(takes_context=True)
def table_fragment(context):
    """The fragment from the template's context: ``view``, ``ui``, and optionally ``oob``,
    ``result_oob``, ``result_unchanged``, ``user`` and the CSRF token."""
    return table_fragment_html(
        context["view"], context["ui"], user=context.get("user"),
        csrf_token=str(context.get("csrf_token") or ""), oob=bool(context.get("oob")),
        result_oob=bool(context.get("result_oob")),
        result_unchanged=bool(context.get("result_unchanged")))
