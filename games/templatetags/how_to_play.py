"""What the how-to-play pages write besides words: a hand of card faces, a call's entry."""

from django import template
from django.utils.html import format_html

from games.how_to_play import call_anchor
from games.html.cards import card_faces
from games.words import action_label

register = template.Library()


@register.simple_tag
def hand(codes: str):
    """Cards written as codes ("AS KH 7D", "BJ" for the big joker) shown face up, in a row."""
    return format_html('<span class="cards-row worked-cards">{}</span>',
                       card_faces(codes.split()))


@register.simple_tag
def call_term(action: str):
    """A call's name as the table's bid box says it, with the id its explanation is found by."""
    label = str(action_label(action))
    return format_html('<dt id="{}">{}</dt>', call_anchor(action), label[:1].upper() + label[1:])
