"""A seat's plate at the table: who sits there, their role in the hand, whose turn it is, and
their cards face down. Built in Python rather than included as a template: the plate is drawn
four times in every table fragment, and the fragment for each seat at each change of the table
(bench/ws_load.py, html scenario: the include and its translate tags were a third of the
render)."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.templatetags.cards import card_backs, card_face, csrf_input, esc

register = template.Library()


@register.simple_tag(takes_context=True)
def seat_plate(context, s: dict, ui: dict, view: dict, hand, open_cards=None) -> str:
    """The plate of seat ``s`` (an item of ``for_template(view)["seats_in_order"]``). With
    ``open_cards`` (the replay, where every hand is shown), the seat's cards face up instead of
    backs: ``s["just_taken"]`` marked (the kitty picked up), ``s["acted"]`` the seat that made
    the step shown."""
    classes = ["seat", f"seat-{s['position_class']}"]
    if open_cards is not None:
        classes.append("replay-seat")
        if s.get("acted"):
            classes.append("acted")
    if s.get("side"):
        classes += ["side", f"side-{s['side']}"]
    classes += [name for flag, name in (("to_act", "to-act"), ("is_me", "me"),
                                        ("is_partner", "partner"), ("is_declarer", "declarer"),
                                        ("free", "free")) if s.get(flag)]
    # Every message is looked up outside the f-strings: makemessages does not see a gettext
    # call inside one, and its message then drops out of the catalogues.
    if s.get("free"):
        empty = _("empty seat")
        name = f"<em>{esc(empty)}</em>"
    else:
        name = esc(str(s["name"]))
    if s.get("is_me"):
        you = _("you")
        name += f" ({esc(you)})"
    badges = ""
    if s.get("is_dealer"):
        dealer = _("dealer")
        badges += f' <span class="dealer" title="{esc(dealer)}">D</span>'
    if s.get("is_partner"):
        partner = _("partner")
        badges += f' <span class="badge partner-badge">{esc(partner)}</span>'
    if s.get("bot_badge"):
        # The short mark is what a phone shows (the words do not fit beside the name there);
        # the words stay for screen readers (site.css).
        mark = pgettext("a computer player, as a short mark on its seat", "bot")
        badges += (f' <span class="badge bot-badge"><span class="bot-mark" aria-hidden="true">'
                   f'{esc(mark)}</span><span class="bot-level">{esc(str(s["bot_badge"]))}'
                   '</span></span>')
    if s.get("is_declarer"):
        declarer = _("declarer")
        badges += f' <span class="badge declarer-badge">{esc(declarer)}</span>'
    label = f' role="group" aria-label="{esc(str(s["name"]))}"' if open_cards is not None else ""
    parts = [f'<div class="{" ".join(classes)}"{label}>',
             f'<div class="seat-name"><span class="name">{name}</span>{badges}</div>']
    phase = ui.get("turn_phase")
    if s.get("to_act") and phase:
        said = (_("Your turn: %(phase)s") % {"phase": phase}) if s.get("is_me") else str(phase)
        parts.append(f'<div class="turn" role="status">{esc(said)}</div>')
    if s.get("away"):
        if s.get("bot_playing"):
            away = esc(_("Dropped off: a computer player plays until they return."))
        else:
            # The translation holds the countdown's markup: only the numbers are put in it.
            away = _('Dropped off: a computer player takes over in <span '
                     'data-countdown-to="%(deadline)s">%(seconds)s</span> s.') % {
                "deadline": esc(str(s.get("takeover_at"))),
                "seconds": esc(str(s.get("takeover_in")))}
        parts.append(f'<div class="away" role="status">{away}</div>')
    if hand:
        parts.append(f'<div class="seat-facts">{esc(s["facts"])}</div>')
        if s.get("last_call") and not s.get("to_act"):
            call = _("said: %(call)s") % {"call": s["last_call"]}
            parts.append(f'<div class="seat-call">{esc(call)}</div>')
        if open_cards is not None:
            parts.append(f'<div class="replay-hand" data-seat="{s["seat"]}">'
                         f'{_open_hand(open_cards, s.get("just_taken") or ())}</div>')
        elif not s.get("is_me"):
            parts.append(f'<div class="backs" aria-hidden="true">{card_backs(s["hand_size"])}'
                         '</div>')
    user = context.get("user")
    if view.get("status") == "waiting" and s.get("free") and user is not None \
            and user.is_authenticated:
        parts.append(_waiting_forms(context, view["table"], s["seat"]))
    parts.append("</div>")
    return mark_safe("\n".join(parts))


def _open_hand(cards, just_taken) -> str:
    if not cards:
        return '<span class="no-cards">—</span>'
    return "".join(f'<span class="just-taken">{card_face(c)}</span>' if c in just_taken
                   else card_face(c) for c in cards)


def _waiting_forms(context, table: int, seat: int) -> str:
    csrf = csrf_input(context)
    # Looked up outside the f-strings below, where makemessages would not find them.
    sit, level_label, add = _("Sit here"), _("Computer player level"), _("Add a computer player")
    levels = "".join(
        f'<option value="{level}"{" selected" if level == "normal" else ""}>{esc(label)}'
        '</option>' for level, label in (("easy", _("easy")), ("normal", _("normal")),
                                         ("strong", _("strong"))))
    return (
        f'<form method="post" action="{reverse("table_sit", args=[table, seat])}" '
        f'class="inline">{csrf}<button type="submit">{esc(sit)}</button></form>\n'
        f'<form method="post" action="{reverse("table_add_bot", args=[table, seat])}" '
        f'class="inline">{csrf}\n'
        f'<label class="visually-hidden" for="bot-level-{seat}">'
        f'{esc(level_label)}</label>\n'
        f'<select name="level" id="bot-level-{seat}">{levels}</select>\n'
        f'<button type="submit">{esc(add)}</button></form>')


@register.simple_tag
def auction_grid(grid: dict) -> str:
    """The calls of a hand as a table, one column per seat from the dealer's left
    (``games.presentation.auction_grid``); in every fragment of the auction, so built here."""
    caption = _("Bidding")
    head = "".join(f'<th scope="col">{esc(str(name))}</th>' for name in grid["seats"])
    body = "".join("<tr>" + "".join(f"<td>{esc(str(call))}</td>" for call in row) + "</tr>"
                   for row in grid["rows"])
    return mark_safe(f'<table class="auction">\n  <caption>{esc(caption)}</caption>\n'
                     f'  <thead><tr>{head}</tr></thead>\n  <tbody>{body}</tbody>\n</table>')
