"""The table's talk: the panel under the table (its last lines, the phrases, a box for your own
words) and the lines a socket appends to it (``#chat-lines``, swapped out of band).

A line's words are a person's: escaped as they go in, as everything here (``html``).  Muting
is the page's (``static/js/table.js``: a list of authors kept in this browser): each line
names its author by ``data-author``.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.chat import MAX_TEXT, PRESETS, Line
from games.html.markup import EMPTY, Markup, html, joined

NEW_LINE = "\n"


def chat_line(line: Line, viewer_id: int | None) -> Markup:
    own = line.author_id == viewer_id
    classes = "chat-line" + (" own" if own else "") + (
        " from-spectator" if line.audience == "spectators" else "") + (
        " phrase" if line.phrase else "")
    watching = html(' <span class="chat-tag">%s</span>', _("watching")) \
        if line.audience == "spectators" else EMPTY
    mute = EMPTY if own else html(
        ' <button type="button" class="chat-mute link" data-mute="%s" '
        'aria-label="%s">%s</button>', line.author_id,
        _("Mute %(name)s") % {"name": line.author}, _("Mute"))
    # The colon from the catalogue: French spaces it ("Ana : Bien joué").
    colon = pgettext("the colon between who said a line and what they said", ":")
    return html('<li class="%s" data-author="%s"><span class="chat-author">%s</span>%s%s '
                '<span class="chat-words">%s</span>%s</li>', classes, line.author_id,
                line.author, watching, colon, line.words(), mute)


def chat_lines(lines: Iterable[Line], viewer_id: int | None, swap: str = "") -> Markup:
    """The list of lines; ``swap``: how a socket's message puts them in the page ("beforeend":
    appended, "innerHTML": the whole list again after a reconnect)."""
    oob = html(' hx-swap-oob="%s"', swap) if swap else EMPTY
    return html('<ol id="chat-lines" class="chat-lines"%s>%s</ol>', oob,
                joined((chat_line(line, viewer_id) for line in lines), NEW_LINE))


def chat_error(message: str, oob: bool = False) -> Markup:
    """Why a line was not said, beside the box it was written in (emptied once a line of this
    person's is said); a socket sends it out of band."""
    return html('<p id="chat-error" class="chat-error" role="alert"%s>%s</p>',
                Markup(' hx-swap-oob="true"') if oob else EMPTY, message)


def chat_panel(lines: list[Line], *, viewer_id: int | None, seat: int | None,
               quiet_during_hands: bool) -> Markup:
    """The panel as the page opens: the last lines this person may read, and what they may
    say (nothing for a visitor who is not signed in)."""
    title = _("Table talk")
    out = [html('<section class="chat-panel" aria-labelledby="chat-title">\n'
                '  <h2 id="chat-title">%s</h2>', title),
           html('  <div class="chat-log" role="log" aria-label="%s">%s</div>', title,
                chat_lines(lines, viewer_id))]
    if viewer_id is None:
        out.append(html('  <p class="helptext">%s</p>',
                        _("Log in, or play as a guest, to talk at the table.")))
    else:
        phrases = joined((html(
            '<form ws-send class="inline chat-say"><input type="hidden" name="type" '
            'value="say"><input type="hidden" name="phrase" value="%s">'
            '<button type="submit" class="secondary">%s</button></form>', key, words)
            for key, words in PRESETS.items()), NEW_LINE)
        out.append(html('  <div class="chat-phrases" role="group" aria-label="%s">%s</div>',
                        _("Phrases"), phrases))
        out.append(html(
            '  <form ws-send class="chat-form"><input type="hidden" name="type" value="say">'
            '<label for="chat-text" class="visually-hidden">%s</label>'
            '<input type="text" id="chat-text" name="text" maxlength="%s" autocomplete="off" '
            'placeholder="%s"><button type="submit">%s</button></form>',
            _("Your words"), MAX_TEXT, _("Your words"), _("Send")))
        out.append(Markup('  ') + chat_error(""))
        if seat is None:
            note = _("Only the other spectators read you; the players are not disturbed.")
        elif quiet_during_hands:
            note = _("During a hand only the phrases: whist is played in silence. Your own "
                     "words between hands.")
        else:
            note = _("This table allows your own words during a hand too.")
        out.append(html('  <p class="helptext">%s</p>', note))
        out.append(html('  <p class="chat-muted" hidden><button type="button" '
                        'class="link" data-unmute-all>%s</button></p>',
                        _("Hear everyone again")))
    out.append(Markup("</section>"))
    return joined(out, NEW_LINE)
