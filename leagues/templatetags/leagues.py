from django import template

from leagues.scoring import format_units

register = template.Library()


@register.filter
def units(value):
    """A balance or score as people write it: 12, -3, 1.5."""
    return format_units(value)
