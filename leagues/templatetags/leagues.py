from decimal import Decimal, InvalidOperation

from django import template

from leagues.scoring import long_date, number

register = template.Library()
register.filter("long_date", long_date)


@register.filter
def units(value):
    """A balance or score as people read it, in their language: 12, −3, 1.5 (1,5 in French),
    with the minus sign the history and the charts use.  Text that is not a number (a pair's
    "7–5") is left as it is; None is blank."""
    if value is None or value == "":
        return ""
    if isinstance(value, bool):
        return value
    try:
        Decimal(str(value))
    except InvalidOperation:
        return value
    return number(value)


@register.simple_tag
def dealer_of(sides, line):
    """Who deals, and so sits out, deal ``line`` (1, 2 ...) of a five-seat table's printed
    sheet: the first seat deals the first deal, the deal passing to the left."""
    sides = list(sides)
    return sides[(line - 1) % len(sides)]["who"] if sides else ""
