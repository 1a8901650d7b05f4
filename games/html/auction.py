"""The calls of a hand as a table, one column per seat from the dealer's left
(``games.presentation.auction_grid``): in every fragment of the auction, and in the replay."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.html.markup import EMPTY, Markup, html, joined


def auction_grid(grid: dict) -> Markup:
    caption = _("Bidding")
    # Each cell's end and the next one's start join its values: a call of ``html`` a row.
    head = joined(grid["seats"], '</th><th scope="col">')
    body = joined(html("<tr><td>%s</td></tr>", joined(row, "</td><td>")) if row
                  else Markup("<tr></tr>") for row in grid["rows"])
    return html('<table class="auction">\n  <caption>%s</caption>\n'
                '  <thead><tr>%s</tr></thead>\n  <tbody>%s</tbody>\n</table>', caption,
                html('<th scope="col">%s</th>', head) if grid["seats"] else EMPTY, body)
