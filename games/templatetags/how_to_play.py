"""What the how-to-play pages write besides words: a hand of card faces, a call's entry, a
part of the page under its heading."""

from django import template
from django.utils.html import format_html

from games.how_to_play import SECTIONS, call_anchor
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


@register.tag
def section(parser, token):
    """``{% section "aim" %}...{% endsection %}``, or ``{% section "example" "worked-hand" %}``
    with a class: one part of the page under its heading, the title ``SECTIONS`` gives it."""
    name, *css_class = [parser.compile_filter(bit) for bit in token.split_contents()[1:]]
    nodelist = parser.parse(("endsection",))
    parser.delete_first_token()
    return SectionNode(name, css_class[0] if css_class else None, nodelist)


class SectionNode(template.Node):
    def __init__(self, name, css_class, nodelist):
        self.name, self.css_class, self.nodelist = name, css_class, nodelist

    def render(self, context):
        name = self.name.resolve(context)
        css_class = format_html(' class="{}"', self.css_class.resolve(context)) \
            if self.css_class else ""
        return format_html('<section id="{}"{} aria-labelledby="{}-title">\n'
                           '    <h2 id="{}-title">{}</h2>{}</section>',
                           name, css_class, name, name, SECTIONS[name],
                           self.nodelist.render(context))
