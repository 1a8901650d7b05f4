"""The seat plate: who sits there, their badges, what they said, whose turn it is, and their
cards face down (face up in the replay).  Drawn four times in every table fragment, and the
fragment for each seat at each change of the table; the replay draws it for every step."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.urls import reverse
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from games.access import is_host
from games.html.cards import card_backs, card_face
from games.html.markup import EMPTY, Markup, csrf_input, html, joined


def seat_plate(context: Any, s: dict, ui: dict, view: dict, hand: Any,
               open_cards: Any = None) -> Markup:
    """The plate of seat ``s`` (an item of ``for_template(view)["seats_in_order"]``);
    ``context`` gives ``user`` and ``csrf_token``, as a template's would.  With ``open_cards``
    (the replay, where every hand is shown), the seat's cards face up instead of backs:
    ``s["just_taken"]`` marked (the kitty picked up), ``s["acted"]`` the seat that made the
    step shown."""
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
    words = _plate_words(get_language())
    name = words["empty seat"] if s.get("free") else s["name"]
    if s.get("is_me"):
        name = html("%s (%s)", name, words["you"])
    computer_badge = EMPTY
    if s.get("computer_badge"):
        computer_badge = html(' <span class="badge computer-badge"><span class="computer-mark" '
                         'aria-hidden="true">%s</span><span class="computer-level">%s</span></span>',
                         words["computer"], s["computer_badge"])
    label = html(' role="group" aria-label="%s"', s["name"]) if open_cards is not None \
        else EMPTY
    turn = away = facts = forms = EMPTY
    phase = ui.get("turn_phase")
    if s.get("to_act") and phase:
        said = (_("Your turn: %(phase)s") % {"phase": phase}) if s.get("is_me") else phase
        turn = html('<div class="turn" role="status">%s</div>\n', said)
    clock = s.get("move_clock")
    if s.get("away"):
        if s.get("computer_playing"):
            dropped = _("Dropped off: a computer player plays until they return.")
        else:
            # Whichever comes first, the end of the grace period or of the time for this
            # move, a computer plays for them then: one countdown, to the sooner.
            deadline, seconds = s.get("takeover_at"), s.get("takeover_in")
            if clock and clock["seconds"] is not None and clock["seconds"] < (seconds or 0):
                deadline, seconds = clock["deadline"], clock["seconds"]
            # The translation holds the countdown's markup, as a template's would: trusted
            # as it is, and what is put into it is escaped.
            dropped = Markup(_('Dropped off: a computer plays for %(name)s in <span '
                             'data-countdown-to="%(deadline)s">%(seconds)s</span> s.')) % {
                "name": s["name"], "deadline": deadline, "seconds": seconds}
        away = html('<div class="away" role="status">%s</div>\n', dropped)
    elif clock:
        # A timer, not a status: read when reached, never each second (site.js counts).
        if s.get("is_me"):
            left = _('<span data-countdown-to="%(deadline)s">%(seconds)s</span> s left, then '
                     'a computer plays this move for you.')
        else:
            left = _('<span data-countdown-to="%(deadline)s">%(seconds)s</span> s left to '
                     'play.')
        away = html('<div class="move-clock" role="timer">%s</div>\n', Markup(left) % {
            "deadline": clock["deadline"], "seconds": clock["seconds"]})
    if hand:
        if s.get("last_call") and not s.get("to_act"):
            call = _("said: %(call)s") % {"call": s["last_call"]}
            said_line = html('\n<div class="seat-call">%s</div>', call)
        else:
            said_line = EMPTY
        if open_cards is not None:
            facts = html('<div class="seat-facts">%s</div>%s\n<div class="replay-hand" '
                         'data-seat="%s">%s</div>\n', s["facts"], said_line, s["seat"],
                         _open_hand(open_cards, s.get("just_taken") or ()))
        elif not s.get("is_me"):
            facts = html('<div class="seat-facts">%s</div>%s\n<div class="backs" '
                         'aria-hidden="true">%s</div>\n', s["facts"], said_line,
                         card_backs(s["hand_size"]))
        else:
            facts = html('<div class="seat-facts">%s</div>%s\n', s["facts"], said_line)
    side = EMPTY
    if s.get("side_words"):
        side = html('<div class="seat-side">%s</div>\n', s["side_words"])
    user = context.get("user")
    signed_in = user is not None and user.is_authenticated
    if view.get("status") == "waiting" and signed_in and s.get("free"):
        forms = html("%s\n", _waiting_forms(context, view, s["seat"], user))
    elif view.get("status") == "waiting" and signed_in and s.get("is_me"):
        stand_up = _("Stand up")
        forms = html('<form method="post" action="%s" class="inline stand-up">%s<button '
                     'type="submit" class="secondary">%s</button></form>\n',
                     reverse("table_leave", args=[view["table"]]), csrf_input(context),
                     stand_up)
    return html('<div class="%s"%s>\n<div class="seat-name"><span class="name">%s</span>'
                '%s%s%s%s</div>\n%s%s%s%s%s</div>', " ".join(classes), label, name,
                words["dealer"] if s.get("is_dealer") else EMPTY,
                words["partner"] if s.get("is_partner") else EMPTY, computer_badge,
                words["declarer"] if s.get("is_declarer") else EMPTY, side, turn, away, facts,
                forms)


@lru_cache(maxsize=64)
def _plate_words(language: str | None) -> dict[str, Markup]:
    """The plate's own words in the active language (``language``, the cache's key: the
    words are in it, it is not an input), looked up and escaped once rather than at each of
    the four plates of every fragment."""
    return {
        "empty seat": html("<em>%s</em>", _("empty seat")),
        "you": html("%s", _("you")),
        "dealer": html(' <span class="dealer" title="%s">D</span>', _("dealer")),
        "partner": html(' <span class="badge partner-badge">%s</span>', _("partner")),
        # The short mark is what a phone shows (the words do not fit beside the name there);
        # the words stay for screen readers (site.css).
        "computer": html("%s", pgettext("a computer player, as a short mark on its seat", "bot")),
        "declarer": html(' <span class="badge declarer-badge">%s</span>', _("declarer")),
    }


def _open_hand(cards, just_taken) -> Markup:
    if not cards:
        return Markup('<span class="no-cards">—</span>')
    return joined(html('<span class="just-taken">%s</span>', card_face(c)) if c in just_taken
                  else card_face(c) for c in cards)


def _waiting_forms(context, view: dict, seat: int, user) -> Markup:
    """An empty seat's forms: "Sit here" for someone without a seat, and a computer player
    for the host alone (``games.access.is_host``)."""
    table = view["table"]
    csrf = csrf_input(context)
    out = []
    if view.get("seat") is None:
        sit = _("Sit here")
        out.append(html('<form method="post" action="%s" class="inline">%s<button '
                        'type="submit">%s</button></form>',
                        reverse("table_sit", args=[table, seat]), csrf, sit))
    if is_host(view.get("created_by"), user, view.get("seat") is not None):
        level_label, add = _("Computer player level"), _("Add a computer player")
        levels = joined(
            html('<option value="%s"%s>%s</option>', level,
                 " selected" if level == "normal" else "", label)
            for level, label in (("easy", _("easy")), ("normal", _("normal")),
                                 ("strong", _("strong"))))
        out.append(html(
            '<form method="post" action="%(add_url)s" class="inline">%(csrf)s\n'
            '<label class="visually-hidden" for="computer-level-%(seat)s">%(level_label)s</label>\n'
            '<select name="level" id="computer-level-%(seat)s">%(levels)s</select>\n'
            '<button type="submit">%(add)s</button></form>',
            add_url=reverse("table_add_computer_player", args=[table, seat]), csrf=csrf, seat=seat,
            level_label=level_label, levels=levels, add=add))
    return joined(out, "\n")
