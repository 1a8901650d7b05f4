"""``{% seat_plate %}`` and ``{% auction_grid %}`` for the replay, built by ``games.html``."""

from django import template

from games.html import auction, plates

register = template.Library()

register.simple_tag(takes_context=True)(plates.seat_plate)
register.simple_tag(auction.auction_grid)
