"""The live table's fragment: the felt, your hand and your call, the table's forms, and the
last hand's result beside it (``#table-state``, ``#table-result``, ``#table-announcer``).

Built in Python, as the seat plates are (``games.templatetags.plates``), rather than by the
template engine: the fragment is rendered for every seat at every change of every table, and
Django's template machinery (its variable lookups, ``if`` and ``for`` nodes and translate
tags) was three quarters of that cost (bench/fragment.py; docs/performance.md).  The page and
the HTTP fragment use it through ``{% table_fragment %}`` in
``templates/games/partials/table_state.html``; the socket calls ``table_fragment_html``.
Every message is looked up outside the f-strings, where makemessages would not see it; as
in a template, the catalogues' words are written as they are and what is put into them is
escaped.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import template
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import words
from games.templatetags.cards import (
    card_face,
    card_faces,
    csrf_input,
    esc,
    hand_cards,
    seat_name,
    trick_spots,
)
from games.templatetags.plates import auction_grid, seat_plate

register = template.Library()
SWAP_BY_ID = ' hx-swap-oob="true"'


@register.simple_tag(takes_context=True)
def table_fragment(context) -> str:
    """The fragment from the template's context: ``view``, ``ui``, and optionally ``oob`` (sent
    over the socket: swapped in by id), ``result_oob``, ``result_unchanged``, ``user`` and the
    CSRF token."""
    return mark_safe(table_fragment_html(
        context["view"], context["ui"], user=context.get("user"),
        csrf_token=str(context.get("csrf_token") or ""), oob=bool(context.get("oob")),
        result_oob=bool(context.get("result_oob")),
        result_unchanged=bool(context.get("result_unchanged"))))


def table_fragment_html(view: dict[str, Any], ui: dict[str, Any], *, user=None,
                        csrf_token: str = "", oob: bool = False, result_oob: bool = False,
                        result_unchanged: bool = False) -> str:
    """``view``: the seat's view (``games.snapshots``); ``ui``: ``for_template(view)``.
    ``result_unchanged``: the socket already holds the last hand's result, which is left out."""
    # The plates and the hand's forms take what a template context would give them.
    context = {"csrf_token": csrf_token, "user": user}
    hand = view.get("hand")
    act_url = ui.get("act_url") or ""
    out = [_state_open(view, hand, oob), _status(view, ui)]
    if hand:
        out.append(_felt(context, view, ui, hand))
        out.append(_exposed(view, ui))
        if view.get("seat") is not None:
            out.append(_my_hand(context, view, ui, hand, act_url))
        out.append(_hand_info(ui, hand))
    else:
        plates = "".join(seat_plate(context, s, ui, view, hand) for s in ui["seats_in_order"])
        out.append(f'<div class="seats">\n{plates}\n</div>')
    out.append(_table_forms(context, view, user))
    out.append("</div>")
    if not result_unchanged:
        out.append(_result(view, ui, oob or result_oob))
    if oob:
        out.append(f'<div id="table-announcer" hx-swap-oob="innerHTML">'
                   f'{esc(str(ui.get("announcement") or ""))}</div>')
    return "\n".join(out)


def _state_open(view, hand, oob: bool) -> str:
    seat = view.get("seat")
    played = "yes" if hand and (hand.get("trick") or hand.get("tricks")) else "no"
    return (f'<div id="table-state" class="{"in-hand" if hand else "no-hand"}" '
            f'data-table="{view["table"]}" data-version="{view["version"]}" '
            f'data-seat="{"" if seat is None else seat}" data-cards-played="{played}"'
            f'{SWAP_BY_ID if oob else ""}>')


def _status(view, ui) -> str:
    status = view.get("status")
    if status == "waiting":
        word = _("Waiting for players")
    elif status == "playing" and view.get("paused"):
        word = _("Paused until a player comes back")
    elif status == "playing":
        word = _("Playing")
    else:
        word = _("Finished")
    n = view.get("deals_played") or 0  # a hand everyone passed was not played
    played = ngettext("%(n)s hand played", "%(n)s hands played", n) % {"n": n}
    score = f' · <strong class="score">{esc(str(ui["score"]))}</strong>' if ui.get("score") \
        else ""
    return (f'<p class="table-status">\n  <span class="status-{esc(str(status))}">{esc(word)}'
            f'</span>\n  · {played}\n  {score}\n</p>')


def _felt(context, view, ui, hand) -> str:
    trick = ui.get("trick") or {}
    out = [f'<div class="felt seats-{trick.get("seats", "")}'
           f'{" quiet" if ui.get("trick_quiet") else ""}">']
    out += [seat_plate(context, s, ui, view, hand) for s in ui["seats_in_order"]
            if s["position_class"] != "south"]
    current_trick, none_yet = _("Current trick"), _("No card played yet.")
    out.append(f'<section class="trick" aria-label="{current_trick}">\n'
               f'  <h2 class="visually-hidden">{current_trick}</h2>')
    finished = trick.get("finished")
    out.append(f'  <div id="trick-centre" class="table-centre seats-{trick.get("seats", "")}'
               f'{" just-finished" if trick.get("just_finished") else ""}" '
               f'data-trick-pause="{esc(str(trick.get("pause", "")))}">')
    empty = "" if hand.get("trick") else \
        f'\n      <li class="compass-middle"><em>{none_yet}</em></li>'
    out.append(f'    <ol class="compass trick-now">{trick_spots(trick.get("current"))}{empty}</ol>')
    if finished:
        won_by = _("won by %(name)s") % {"name": esc(str(finished["winner"]))}
        winner = f'\n      <li class="compass-middle trick-winner">{won_by}</li>'
        spots = trick_spots(finished["spots"])
        out.append(f'    <ol class="compass trick-finished won-{finished["winner_position"]}" '
                   f'data-trick-key="{esc(finished["key"])}">{spots}{winner}</ol>')
    out.append("  </div>")
    if finished:
        last_trick = _("Last trick")
        out.append(f'  <div class="last-trick seats-{trick.get("seats", "")}">\n'
                   '    <input type="checkbox" id="last-trick-toggle" class="toggle-input" '
                   'aria-controls="last-trick-panel">\n'
                   f'    <label for="last-trick-toggle" class="toggle-button">{last_trick}'
                   '</label>\n'
                   f'    <ol class="compass small last-trick-panel" id="last-trick-panel">'
                   f'{spots}{winner}</ol>\n  </div>')
    out.append("</section>")
    if ui.get("contract") or hand.get("turn_up"):
        info = ['<div class="felt-info">']
        if ui.get("contract"):
            info.append(f'  <p class="contract">{esc(str(ui["contract"]))}</p>')
        if hand.get("turn_up"):
            turn_up = _("Turn-up")
            info.append(f'  <p class="turn-up">{turn_up}: {card_face(hand["turn_up"])}</p>')
        info.append("</div>")
        out.append("\n".join(info))
    if view.get("seat") is None:
        out += [seat_plate(context, s, ui, view, hand) for s in ui["seats_in_order"]
                if s["position_class"] == "south"]
    out.append("</div>")
    return "\n".join(out)


def _exposed(view, ui) -> str:
    out = []
    for open_hand in ui.get("exposed") or ():
        label = _("Hand laid open")
        title = _("%(name)s's hand, laid open") % {
            "name": esc(str(seat_name(view["players"], open_hand.get("seat"))))}
        out.append(f'<section class="exposed" aria-label="{label}">\n'
                   f'  <h2>{title}</h2>\n'
                   f'  <div class="cards-row">{card_faces(open_hand.get("cards"))}</div>\n'
                   '</section>')
    return "\n".join(out)


def _my_hand(context, view, ui, hand, act_url: str) -> str:
    classes = "my-hand"
    if ui.get("bid_box") or ui.get("buttons"):
        classes += " my-call"
    if ui.get("discard_count"):
        classes += " discarding"
    your_hand = _("Your hand")
    out = [f'<section class="{classes}" aria-label="{your_hand}">',
           f'  <h2 class="visually-hidden">{your_hand}</h2>']
    out += [seat_plate(context, s, ui, view, hand) for s in ui["seats_in_order"]
            if s.get("is_me")]
    csrf = csrf_input(context)
    url, version = esc(act_url), esc(str(view["version"]))
    if ui.get("discard_count"):
        n = ui["discard_count"]
        choose, discard = _("Choose %(n)s cards to discard.") % {"n": n}, _("Discard")
        picks = "".join(f'<label class="pick card-tap">{card_face(c["card"])}<input '
                        f'type="checkbox" name="cards" value="{esc(c["card"])}"></label>'
                        for c in ui["my_cards"])
        out.append(f'    <form class="discard-form" data-count="{n}" method="post" '
                   f'action="{url}" ws-send>{csrf}\n'
                   '      <input type="hidden" name="type" value="discard">\n'
                   f'      <input type="hidden" name="version" value="{version}">\n'
                   f'      <p>{choose}</p>\n'
                   f'      <div class="cards-row">{picks}</div>\n'
                   f'      <button type="submit">{discard}</button>\n    </form>')
    else:
        if ui.get("bid_box"):
            out.append(_bid_box(ui["bid_box"], csrf, url, version))
        elif ui.get("buttons"):
            forms = "".join(
                f'\n    <form method="post" action="{url}" ws-send class="inline">{csrf}\n'
                f'      <input type="hidden" name="action" value="{esc(action)}">'
                f'<input type="hidden" name="version" value="{version}">\n'
                f'      <button type="submit" data-action="{esc(action)}">'
                f'{esc(words.action_label(action))}</button></form>' for action in ui["buttons"])
            out.append(f'  <div class="action-buttons">{forms}</div>')
        long = " long" if len(ui["my_cards"]) > 13 else ""
        out.append(f'  <div class="cards-row hand-row{long}">\n    '
                   f'{hand_cards(context, ui["my_cards"], act_url, view["version"])}\n  </div>')
    out.append("</section>")
    return "\n".join(out)


def _bid_box(box, csrf: str, url: str, version: str) -> str:
    your_call = _("Your call")
    out = [f'<div class="action-buttons bid-box{" many" if box.get("many") else ""}" '
           f'role="group" aria-label="{your_call}">']
    for group in box["groups"]:
        title = esc(str(group["title"])) if group.get("title") else ""
        named = (f' role="group" aria-label="{title}">'
                 f'<h3 class="bid-group-title" aria-hidden="true">{title}</h3>') if title else ">"
        out.append(f'  <div class="bid-group{" ladder" if group.get("ladder") else ""}"{named}')
        columns = group.get("columns")
        if columns:
            heads = "".join(f'<span class="bid-column">{esc(str(c))}</span>' for c in columns)
            out.append('    <div class="bid-row bid-columns" aria-hidden="true">'
                       f'<span class="bid-row-label"></span>{heads}</div>')
        for row in group["rows"]:
            if row.get("label"):
                label = f'<span class="bid-row-label">{esc(str(row["label"]))}</span>'
            elif columns:
                label = '<span class="bid-row-label"></span>'
            else:
                label = ""
            cells = "".join(_bid_cell(cell, csrf, url, version) for cell in row["cells"])
            out.append(f'    <div class="bid-row{" bid-grid-row" if columns else ""}">'
                       f'{label}{cells}</div>')
        out.append("  </div>")
    out.append("</div>")
    return "\n".join(out)


def _bid_cell(cell, csrf: str, url: str, version: str) -> str:
    suit = f'suit suit-{esc(str(cell["suit"]))}' if cell.get("suit") else ""
    suit_class = f' class="{suit}"' if suit else ""
    aria = f' aria-label="{esc(str(cell["name"]))}"' if cell.get("name") != cell.get("label") \
        else ""
    detail = f' <span class="bid-detail">{esc(str(cell["detail"]))}</span>' \
        if cell.get("detail") else ""
    label = esc(str(cell["label"]))
    if cell.get("enabled"):
        action = esc(str(cell["action"]))
        return (f'\n      <form method="post" action="{url}" ws-send class="inline bid-cell">'
                f'{csrf}\n        <input type="hidden" name="action" value="{action}">'
                f'<input type="hidden" name="version" value="{version}">\n'
                f'        <button type="submit" data-action="{action}"'
                f'{suit_class}{aria}>{label}{detail}</button></form>')
    return (f'\n      <span class="inline bid-cell"><button type="button" class="unavailable'
            f'{" " + suit if suit else ""}" disabled aria-disabled="true"{aria}>{label}{detail}'
            '</button></span>')


def _hand_info(ui, hand) -> str:
    out = ['<section class="hand-info">']
    if ui.get("auction"):
        so_far = _("Bidding so far")
        out.append(f'  <details class="auction-history"><summary>{so_far}</summary>'
                   f'{auction_grid(ui["auction"])}</details>')
    if hand.get("kitty"):
        kitty = _("Kitty")
        out.append(f'  <p class="kitty">{kitty}: {card_faces(hand["kitty"])}</p>')
    out.append("</section>")
    return "\n".join(out)


def _table_forms(context, view, user) -> str:
    """Filling the seats while the table waits, closing it, and the rematch once it is over."""
    out = []
    table, status = view["table"], view.get("status")
    signed_in = bool(getattr(user, "is_authenticated", False))
    creator = signed_in and user.pk == view.get("created_by")
    csrf = csrf_input(context)
    if status == "waiting" and signed_in and (view.get("seat") is not None or creator):
        label, fill = _("Computer players' level"), _("Fill the empty seats with computer players")
        starts = _("The game starts as soon as every seat is filled.")
        levels = "".join(
            f'<option value="{level}"{" selected" if level == "normal" else ""}>{esc(name)}'
            '</option>' for level, name in (("easy", _("easy")), ("normal", _("normal")),
                                            ("strong", _("strong"))))
        out.append(f'<form method="post" action="{_url("table_fill_seats", table)}" '
                   f'class="fill-seats">{csrf}\n'
                   f'  <label for="fill-level">{label}</label>\n'
                   f'  <select name="level" id="fill-level">{levels}</select>\n'
                   f'  <button type="submit">{fill}</button>\n'
                   f'  <span class="helptext">{starts}</span>\n</form>')
    if status != "finished" and creator:
        close, ends = _("Close the table…"), _("Ends the session for everyone; the hand in "
                                                 "play is not scored.")
        out.append(f'<p class="close-table"><a class="button secondary" '
                   f'href="{_url("table_close", table)}">{close}</a>\n'
                   f'  <span class="helptext">{ends}</span></p>')
    if status == "finished":
        rematch = _("Rematch")
        out.append(f'<section class="rematch" aria-label="{rematch}">')
        if view.get("rematch_table"):
            join = _("Rematch: join table %(n)s") % {"n": view["rematch_table"]}
            out.append(f'  <p role="status"><a class="button" '
                       f'href="{_url("table", view["rematch_table"])}">{join}</a></p>')
        elif view.get("seat") is not None:
            same = _("A new table of the same game and house rules, with the same players in "
                     "the same seats.")
            out.append(f'  <form method="post" action="{_url("table_rematch", table)}">{csrf}\n'
                       f'    <button type="submit">{rematch}</button>\n'
                       f'    <span class="helptext">{same}</span></form>')
        out.append("</section>")
    return "\n".join(out)


def _result(view, ui, swap_by_id: bool) -> str:
    """The last hand's result, beside the table: it changes once a hand, so a socket sends it
    only when it changed (``games.consumers.TableConsumer``, ``result_unchanged``) rather than
    at every card, and an open panel stays as the player left it."""
    oob = SWAP_BY_ID if swap_by_id else ""
    last = view.get("last_hand")
    if not last:
        return f'<div id="table-result"{oob}></div>'
    title, close = _("Result of hand %(n)s") % {"n": last["number"]}, _("Close")
    out = [f'<div id="table-result"{oob}>',
           f'<details class="result-panel" data-hand="{last["number"]}"'
           f'{" open" if view.get("status") == "finished" else ""}>',
           f'  <summary><span class="result-title">{title}</span> '
           f'<span class="close-hint" aria-hidden="true">{close}</span></summary>']
    if ui.get("result"):
        out.append(f'  <p class="result-words">{esc(str(ui["result"]))}</p>')
    deal = "".join(f'<p><span class="deal-name">{esc(str(seat_name(view["players"], h["seat"])))}'
                   f':</span> {card_faces(h["cards"])}</p>' for h in ui.get("last_deal") or ())
    out.append(f'  <div class="deal">{deal}</div>')
    if last.get("kitty") or last.get("discards"):
        parts = []
        if last.get("kitty"):
            kitty = _("Kitty")
            parts.append(f'    <p class="kitty">{kitty}: {card_faces(last["kitty"])}</p>')
        if last.get("discards"):
            discards = _("Discards")
            parts.append(f'    <p class="discards">{discards}: '
                         f'{card_faces(last["discards"])}</p>')
        out.append('  <div class="kitty-and-discards">\n' + "\n".join(parts) + "</div>")
    if view.get("seat") is not None:  # a player of the hand: their own review (games.reviews)
        review = _("Review my play")
        url = reverse("hand_review", args=[view["table"], last["number"]])
        out.append(f'  <p class="result-review"><a href="{url}">{review}</a></p>')
    out.append("</details>\n</div>")
    return "\n".join(out)


@lru_cache(maxsize=8192)
def _url(name: str, table: int) -> str:
    return reverse(name, args=[table])
