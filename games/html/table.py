"""The live table's fragment: the felt, your hand and your call, the table's forms, and the
last hand's result beside it (``#table-state``, ``#table-result``, ``#table-announcer``).

The page and the HTTP fragment render it through ``{% table_fragment %}`` in
``templates/games/partials/table_state.html``; the socket calls ``table_fragment_html``.
Every message is looked up outside the template it goes into, where makemessages finds it
(the words of every fragment once per language: ``_table_words``); the catalogues' words are
escaped as they go in, as everything else that is not ``Markup``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.urls import reverse
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from games import how_to_play, registry, words
from games.access import is_host
from games.html.auction import auction_grid
from games.html.cards import card_face, card_faces, dimmed_card, trick_spots
from games.html.markup import EMPTY, Markup, csrf_input, html, joined
from games.html.plates import seat_plate
from games.templatetags.cards import seat_name

SWAP_BY_ID = Markup(' hx-swap-oob="true"')
NEW_LINE = "\n"


def table_fragment_html(view: dict[str, Any], ui: dict[str, Any], *, user=None,
                        csrf_token: str = "", oob: bool = False, result_oob: bool = False,
                        result_unchanged: bool = False) -> Markup:
    """``view``: the seat's view (``games.snapshots``); ``ui``: ``for_template(view)``.
    ``oob``: sent over the socket (swapped in by id); ``result_unchanged``: the socket already
    holds the last hand's result, which is left out."""
    # The plates and the hand's forms take what a template context would give them.
    context = {"csrf_token": csrf_token, "user": user}
    finished = view.get("status") == "finished"
    # a finished table ends on a screen of its own; a hand left unfinished by closing the
    # table is not shown
    hand = None if finished else view.get("hand")
    act_url = ui.get("act_url") or ""
    out = [_state_open(view, hand, oob), _status(view, ui)]
    if finished:
        out.append(_end_screen(context, view))
    if hand:
        out.append(_felt(context, view, ui, hand))
        out.append(_exposed(view, ui))
        if view.get("seat") is not None:
            out.append(_my_hand(context, view, ui, hand, act_url))
        out.append(_hand_info(ui, hand))
    else:
        plates = joined((seat_plate(context, s, ui, view, hand) for s in ui["seats_in_order"]),
                        NEW_LINE)
        out.append(html('<div class="seats">\n%s\n</div>', plates))
    out.append(_table_forms(context, view, user))
    out.append(Markup("</div>"))
    if not result_unchanged:
        out.append(_result(view, ui, oob or result_oob))
    if oob:
        out.append(html('<div id="table-announcer" hx-swap-oob="innerHTML">%s</div>',
                        ui.get("announcement") or ""))
    return joined(out, NEW_LINE)


def _state_open(view, hand, oob: bool) -> Markup:
    seat = view.get("seat")
    played = "yes" if hand and (hand.get("trick") or hand.get("tricks")) else "no"
    return html('<div id="table-state" class="%s" data-table="%s" data-version="%s" '
                'data-seat="%s" data-cards-played="%s"%s>', "in-hand" if hand else "no-hand",
                view["table"], view["version"], "" if seat is None else seat, played,
                SWAP_BY_ID if oob else EMPTY)


def _status(view, ui) -> Markup:
    status = view.get("status")
    if status == "playing" and view.get("paused"):
        state = "paused"
    else:
        state = status if status in ("waiting", "playing") else "finished"
    word = _table_words(get_language())[state]
    n = view.get("deals_played") or 0  # a hand everyone passed was not played
    played = ngettext("%(n)s hand played", "%(n)s hands played", n) % {"n": n}
    score = html(' · <strong class="score">%s</strong>', ui["score"]) if ui.get("score") \
        else EMPTY
    return html('<p class="table-status">\n  <span class="status-%s">%s</span>\n  · %s\n  %s\n'
                '%s</p>', status, word, played, score, _time_left(view))


def _time_left(view) -> Markup:
    """A table whose time is up at a set time (an event's round): the time left, counted down
    by site.js from the seconds the server gives (right after a reload, whatever the device's
    clock says); once it is up, what happens to the deals left."""
    if view.get("status") != "playing" or not view.get("time_up_at"):
        return EMPTY
    if view.get("time_up"):
        return html('  · <span class="time-left time-up" role="status">%s</span>\n',
                    _("Time is up: computer players finish the deals."))
    # The translation holds the clock's place, filled with markup made here.
    left = Markup(html("%s", _("Time left: %(clock)s"))) % {
        "clock": countdown(view.get("time_up_in") or 0)}
    return html('  · <span class="time-left" role="timer">%s</span>\n', left)


def countdown(seconds: int) -> Markup:
    """A clock of ``seconds`` left, "12:34" (hours first past an hour), that site.js counts
    down (``data-seconds-left``)."""
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    text = f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
    return html('<span class="clock" data-seconds-left="%s">%s</span>', seconds, text)


def _felt(context, view, ui, hand) -> Markup:
    trick = ui.get("trick") or {}
    seats = trick.get("seats", "")
    out = [html('<div class="felt seats-%s%s">', seats,
                " quiet" if ui.get("trick_quiet") else "")]
    out += [seat_plate(context, s, ui, view, hand) for s in ui["seats_in_order"]
            if s["position_class"] != "south"]
    table_words = _table_words(get_language())
    current_trick, none_yet = table_words["Current trick"], table_words["No card played yet."]
    out.append(html('<section class="trick" aria-label="%(name)s">\n'
                    '  <h2 class="visually-hidden">%(name)s</h2>', name=current_trick))
    finished = trick.get("finished")
    out.append(html('  <div id="trick-centre" class="table-centre seats-%s%s" '
                    'data-trick-pause="%s">', seats,
                    " just-finished" if trick.get("just_finished") else "",
                    trick.get("pause", "")))
    empty = EMPTY if hand.get("trick") else \
        html('\n      <li class="compass-middle"><em>%s</em></li>', none_yet)
    out.append(html('    <ol class="compass trick-now">%s%s</ol>',
                    trick_spots(trick.get("current")), empty))
    if finished:
        won_by = _("won by %(name)s") % {"name": finished["winner"]}
        winner = html('\n      <li class="compass-middle trick-winner">%s</li>', won_by)
        spots = trick_spots(finished["spots"])
        out.append(html('    <ol class="compass trick-finished won-%s" data-trick-key="%s">'
                        '%s%s</ol>', finished["winner_position"], finished["key"], spots,
                        winner))
    out.append(_result_in_the_middle(view, ui, hand))
    out.append(Markup("  </div>"))
    if finished:
        last_trick = table_words["Last trick"]
        out.append(html('  <div class="last-trick seats-%s">\n'
                        '    <input type="checkbox" id="last-trick-toggle" class="toggle-input" '
                        'aria-controls="last-trick-panel">\n'
                        '    <label for="last-trick-toggle" class="toggle-button">%s</label>\n'
                        '    <ol class="compass small last-trick-panel" id="last-trick-panel">'
                        '%s%s</ol>\n  </div>', seats, last_trick, spots, winner))
    out.append(Markup("</section>"))
    if ui.get("contract") or hand.get("turn_up"):
        info = [Markup('<div class="felt-info">')]
        if ui.get("contract"):
            info.append(html('  <p class="contract">%s</p>', ui["contract"]))
        if hand.get("turn_up"):
            info.append(html('  <p class="turn-up">%s %s</p>', table_words["Turn-up:"],
                             card_face(hand["turn_up"])))
        info.append(Markup("</div>"))
        out.append(joined(info, NEW_LINE))
    if view.get("seat") is None:
        out += [seat_plate(context, s, ui, view, hand) for s in ui["seats_in_order"]
                if s["position_class"] == "south"]
    out.append(Markup("</div>"))
    return joined(out, NEW_LINE)


def _result_in_the_middle(view, ui, hand) -> Markup:
    """The hand just played, in words, in the middle of the table while nothing of the next
    hand is played: shown once its final trick's pause is over (site.css hides it during the
    pause), never over the player's hand or call; the whole deal is in ``#table-result``."""
    last = view.get("last_hand")
    if not last or not ui.get("result") or hand.get("trick") or hand.get("tricks"):
        return EMPTY
    title = _("Hand %(n)s:") % {"n": last["number"]}  # the colon too: French spaces it
    whole = _("The whole deal")
    return html('    <p class="last-hand-words" data-hand="%s"><strong>%s</strong> %s '
                '<a class="whole-deal" href="#table-result">%s</a></p>',
                last["number"], title, ui["result"], whole)


def _exposed(view, ui) -> Markup:
    out = []
    for open_hand in ui.get("exposed") or ():
        label = _("Hand laid open")
        title = _("%(name)s's hand, laid open") % {
            "name": seat_name(view["players"], open_hand.get("seat"))}
        out.append(html('<section class="exposed" aria-label="%s">\n  <h2>%s</h2>\n'
                        '  <div class="cards-row">%s</div>\n</section>', label, title,
                        card_faces(open_hand.get("cards"))))
    return joined(out, NEW_LINE)


def _my_hand(context, view, ui, hand, act_url: str) -> Markup:
    classes = "my-hand"
    if ui.get("bid_box") or ui.get("buttons"):
        classes += " my-call"
    if ui.get("discard_count"):
        classes += " discarding"
    your_hand = _table_words(get_language())["Your hand"]
    out = [html('<section class="%s" aria-label="%s">', classes, your_hand),
           html('  <h2 class="visually-hidden">%s</h2>', your_hand)]
    out += [seat_plate(context, s, ui, view, hand) for s in ui["seats_in_order"]
            if s.get("is_me")]
    csrf = csrf_input(context)
    version = view["version"]
    if ui.get("discard_count"):
        n = ui["discard_count"]
        choose, discard = _("Choose %(n)s cards to discard.") % {"n": n}, _("Discard")
        # "3 of 6" as the boxes are ticked (static/js/table.js fills in {chosen}; the button
        # waits for the count there, and is never disabled for a browser without script)
        chosen = _("%(chosen)s of %(n)s") % {"chosen": "{chosen}", "n": n}
        picks = joined(html('<label class="pick card-tap">%s<input type="checkbox" '
                            'name="cards" value="%s"></label>', card_face(c["card"]), c["card"])
                       for c in ui["my_cards"])
        out.append(html('    <form class="discard-form" data-count="%(n)s" method="post" '
                        'action="%(url)s" ws-send>%(csrf)s\n'
                        '      <input type="hidden" name="type" value="discard">\n'
                        '      <input type="hidden" name="version" value="%(version)s">\n'
                        '      <p>%(choose)s <strong class="discard-chosen" data-of="%(of)s" '
                        'aria-live="polite">%(none)s</strong></p>\n'
                        '      <div class="cards-row">%(picks)s</div>\n'
                        '      <button type="submit">%(discard)s</button>\n    </form>',
                        n=n, url=act_url, csrf=csrf, version=version, choose=choose,
                        of=chosen, none=chosen.replace("{chosen}", "0"), picks=picks,
                        discard=discard))
    else:
        if ui.get("bid_box"):
            out.append(_bid_box(ui["bid_box"], csrf, act_url, version, view.get("game")))
        elif ui.get("buttons"):
            forms = joined(
                html('\n    <form method="post" action="%(url)s" ws-send class="inline">%(csrf)s\n'
                     '      <input type="hidden" name="action" value="%(action)s">'
                     '<input type="hidden" name="version" value="%(version)s">\n'
                     '      <button type="submit" data-action="%(action)s">%(label)s</button>'
                     '</form>', url=act_url, csrf=csrf, action=action, version=version,
                     label=words.action_label(action))
                for action in ui["buttons"])
            out.append(html('  <div class="action-buttons">%s</div>', forms))
        out.append(html('  <div class="cards-row hand-row%s">\n    %s\n  </div>',
                        " long" if len(ui["my_cards"]) > 13 else "",
                        hand_cards(csrf, ui["my_cards"], act_url, version)))
        if ui.get("why_dimmed"):
            # Shown for a moment when a dimmed card is tapped (static/js/table.js), over the
            # table above the hand, so that nothing moves.
            out.append(html('  <p class="why-dimmed" role="status" hidden>%s</p>',
                            ui["why_dimmed"]))
    out.append(Markup("</section>"))
    return joined(out, NEW_LINE)


def hand_cards(csrf: Markup, cards, act_url: str, version) -> Markup:
    """The viewer's hand: each card it may play a form of its own (sent over the socket by
    htmx, or posted without script; its ``label`` the play in words), the others dimmed."""
    return joined((
        html('<form method="post" action="%s" ws-send class="inline card-form card-tap">%s'
             '<input type="hidden" name="action" value="%s">'
             '<input type="hidden" name="version" value="%s">'
             '<button type="submit" class="card-button" aria-label="%s">%s</button></form>',
             act_url, csrf, c["action"], version, c["label"],
             card_face(c["card"]))
        if c["action"] else dimmed_card(c["card"]) for c in cards or ()), NEW_LINE)


def _bid_box(box, csrf: Markup, url: str, version, game: str | None) -> Markup:
    your_call = _table_words(get_language())["Your call"]
    meanings = _call_meanings(box, game)
    out = [html('<div class="action-buttons bid-box%s" role="group" aria-label="%s">',
                " many" if box.get("many") else "", your_call)]
    for group in box["groups"]:
        title = group.get("title")
        named = html(' role="group" aria-label="%(title)s"><h3 class="bid-group-title" '
                     'aria-hidden="true">%(title)s</h3>', title=title) if title else Markup(">")
        out.append(html('  <div class="bid-group%s"%s', " ladder" if group.get("ladder") else "",
                        named))
        columns = group.get("columns")
        if columns:
            heads = joined(html('<span class="bid-column">%s</span>', c) for c in columns)
            out.append(html('    <div class="bid-row bid-columns" aria-hidden="true">'
                            '<span class="bid-row-label"></span>%s</div>', heads))
        for row in group["rows"]:
            if row.get("label"):
                label = html('<span class="bid-row-label">%s</span>', row["label"])
            elif columns:
                label = Markup('<span class="bid-row-label"></span>')
            else:
                label = EMPTY
            cells = joined(_bid_cell(cell, csrf, url, version, meanings)
                           for cell in row["cells"])
            out.append(html('    <div class="bid-row%s">%s%s</div>',
                            " bid-grid-row" if columns else "", label, cells))
        out.append(Markup("  </div>"))
    if meanings and game:
        out.append(_meanings_list(meanings, game))
    out.append(Markup("</div>"))
    return joined(out, NEW_LINE)


def _call_meanings(box, game: str | None) -> dict[str, tuple[str, str]]:
    """The calls open now in ``box`` that the game's how-to-play page explains, by their
    entry's id (one for all the bids of a mode), in the box's order: (name, sentence)."""
    if not game:
        return {}
    explained = how_to_play.call_meanings(game)
    found: dict[str, tuple[str, str]] = {}
    for group in box["groups"]:
        for row in group["rows"]:
            for cell in row["cells"]:
                if not cell["action"]:
                    continue  # a call not open now (too low): no action to look up
                anchor = how_to_play.call_anchor(cell["action"])
                if anchor in explained:
                    found.setdefault(anchor, explained[anchor])
    return found


def _meanings_list(meanings: dict[str, tuple[str, str]], game: str) -> Markup:
    """What each call commits you to, one sentence a call, folded below the calls (a phone has
    no hover: the player opens it), each linked to its entry on the how-to-play page (a new tab:
    the table stays)."""
    page = how_to_play.url(game)
    entries = joined(html('<dt><a href="%s#%s" target="_blank" rel="noopener">%s</a></dt>'
                          '<dd id="meaning-%s">%s</dd>', page, anchor, name, anchor, sentence)
                     for anchor, (name, sentence) in meanings.items())
    title = _table_words(get_language())["What the calls mean"]
    return html('  <details class="call-meanings"><summary>%s</summary><dl>%s</dl></details>',
                title, entries)


def _bid_cell(cell, csrf: Markup, url: str, version, meanings) -> Markup:
    suit = cell.get("suit")
    aria = html(' aria-label="%s"', cell["name"]) if cell.get("name") != cell.get("label") \
        else EMPTY
    anchor = how_to_play.call_anchor(cell["action"]) if cell["action"] else None
    if anchor in meanings:  # a screen reader says what the call commits to
        aria = html('%s aria-describedby="meaning-%s"', aria, anchor)
    detail = html(' <span class="bid-detail">%s</span>', cell["detail"]) \
        if cell.get("detail") else EMPTY
    if cell.get("enabled"):
        return html('\n      <form method="post" action="%(url)s" ws-send '
                    'class="inline bid-cell">%(csrf)s\n'
                    '        <input type="hidden" name="action" value="%(action)s">'
                    '<input type="hidden" name="version" value="%(version)s">\n'
                    '        <button type="submit" data-action="%(action)s"%(suit)s%(aria)s>'
                    '%(label)s%(detail)s</button></form>', url=url, csrf=csrf,
                    action=cell["action"], version=version,
                    suit=html(' class="suit suit-%s"', suit) if suit else EMPTY, aria=aria,
                    label=cell["label"], detail=detail)
    return html('\n      <span class="inline bid-cell"><button type="button" '
                'class="unavailable%s" disabled aria-disabled="true"%s>%s%s</button></span>',
                html(" suit suit-%s", suit) if suit else EMPTY, aria, cell["label"], detail)


def _hand_info(ui, hand) -> Markup:
    table_words = _table_words(get_language())
    out = [Markup('<section class="hand-info">')]
    if ui.get("auction"):
        so_far = table_words["Bidding so far"]
        out.append(html('  <details class="auction-history"><summary>%s</summary>%s</details>',
                        so_far, auction_grid(ui["auction"])))
    if hand.get("kitty"):
        kitty = table_words["Kitty"]
        out.append(html('  <p class="kitty">%s: %s</p>', kitty, card_faces(hand["kitty"])))
    out.append(Markup("</section>"))
    return joined(out, NEW_LINE)


def _table_forms(context, view, user) -> Markup:
    """Filling the seats while the table waits, and closing it."""
    out = []
    table, status = view["table"], view.get("status")
    signed_in = bool(getattr(user, "is_authenticated", False))
    creator = signed_in and user.pk == view.get("created_by")
    csrf = csrf_input(context)
    if status == "waiting" and is_host(view.get("created_by"), user, view.get("seat") is not None):
        label, fill = _("Computer players' level"), _("Fill the empty seats with computer players")
        starts = _("The game starts as soon as every seat is filled.")
        levels = joined(
            html('<option value="%s"%s>%s</option>', level,
                 " selected" if level == "normal" else "", name)
            for level, name in (("easy", _("easy")), ("normal", _("normal")),
                                ("strong", _("strong"))))
        out.append(html('<form method="post" action="%s" class="fill-seats">%s\n'
                        '  <label for="fill-level">%s</label>\n'
                        '  <select name="level" id="fill-level">%s</select>\n'
                        '  <button type="submit">%s</button>\n'
                        '  <span class="helptext">%s</span>\n</form>',
                        _url("table_fill_seats", table), csrf, label, levels, fill, starts))
    if status != "finished" and creator:
        table_words = _table_words(get_language())
        close, ends = table_words["Close the table…"], table_words["Ends the session"]
        out.append(html('<p class="close-table"><a class="button secondary" href="%s">%s</a>\n'
                        '  <span class="helptext">%s</span></p>',
                        _url("table_close", table), close, ends))
    return joined(out, NEW_LINE)


def _end_screen(context, view) -> Markup:
    """A finished table's screen of its own, in place of the felt: who won (or the balances),
    the score hand by hand, "Play again" (the rematch) and the hand history."""
    table = view["table"]
    csrf = csrf_input(context)
    out = [_the_end(view)]
    rematch = _("Play again")
    out.append(html('<section class="rematch" aria-label="%s">', rematch))
    if view.get("return_to"):
        # An event's table: its players' next table, or the results, are on the event's page.
        back = _("Back to the event")
        next_ = _("Your next table, or the results, are there.")
        out.append(html('  <p role="status"><a class="button" href="%s">%s</a>\n'
                        '    <span class="helptext">%s</span></p>',
                        view["return_to"], back, next_))
    elif view.get("rematch_table"):
        join = _("Rematch: join table %(n)s") % {"n": view["rematch_table"]}
        out.append(html('  <p role="status"><a class="button" href="%s">%s</a></p>',
                        _url("table", view["rematch_table"]), join))
    elif view.get("seat") is not None:
        same = _("A new table of the same game and house rules, with the same players in "
                 "the same seats.")
        out.append(html('  <form method="post" action="%s">%s\n'
                        '    <button type="submit">%s</button>\n'
                        '    <span class="helptext">%s</span></form>',
                        _url("table_rematch", table), csrf, rematch, same))
    history = _("Every hand, card by card")
    out.append(html('  <p class="hand-history-link"><a href="%s">%s</a></p>',
                    _url("hand_list", table), history))
    out.append(Markup("</section>\n</section>"))
    return joined(out, NEW_LINE)


def _the_end(view) -> Markup:
    """Who won, or the balances, and the score hand by hand: each hand's points and the
    running total below."""
    names = words.Names(view["players"], view.get("seat"))
    game = registry.game(view["game"])
    heading = _("The match is over") if game.is_match else _("The session is over")
    out = [html('<section class="match-end" aria-labelledby="match-end-title">\n'
                '  <h2 id="match-end-title">%s</h2>\n  <p class="match-winner">%s</p>',
                heading, words.the_end(view, names))]
    counted = game.engine.CHAIN.counted
    seats = len(view["players"])
    sides = [(s, s + 2) for s in (0, 1)] if game.is_partnership_match and seats == 4 \
        else [(s,) for s in range(seats)]
    played = [h for h in view.get("hand_results") or ()
              if not h["result"].get("redeal") and h["result"].get(counted)]
    if played:
        by_hand = _("Score by hand")
        head = joined(html('<th scope="col">%s</th>', words.capitalise(names.together(side)))
                      for side in sides)
        rows = joined(
            html('<tr><th scope="row">%s</th>%s</tr>', h["number"],
                 joined(html("<td>%s</td>", words.signed(v)) for v in h["result"][counted]))
            for h in played)
        totals = words.scores_so_far(view) or []
        total = _("Total")
        # a balance is written as a hand's points are (+5), a match's score as players keep it
        total_of = words.score_number if game.is_match else words.signed
        foot = joined(html("<td>%s</td>", total_of(v)) for v in totals)
        out.append(html('  <table class="score-by-hand">\n    <caption>%s</caption>\n'
                        '    <thead><tr><th scope="col">%s</th>%s</tr></thead>\n'
                        '    <tbody>%s</tbody>\n'
                        '    <tfoot><tr><th scope="row">%s</th>%s</tr></tfoot>\n  </table>',
                        by_hand, _("Hand"), head, rows, total, foot))
    return joined(out, NEW_LINE)


def _result(view, ui, swap_by_id: bool) -> Markup:
    """The last hand's result, beside the table: it changes once a hand, so a socket sends it
    only when it changed (``games.consumers.TableConsumer``, ``result_unchanged``) rather than
    at every card, and an open panel stays as the player left it."""
    oob = SWAP_BY_ID if swap_by_id else EMPTY
    last = view.get("last_hand")
    if not last:
        return html('<div id="table-result"%s></div>', oob)
    # "Hide", never "Close": the table's own "Close the table…" ends the session
    title, hide = _("Result of hand %(n)s") % {"n": last["number"]}, _("Hide")
    out = [html('<div id="table-result"%s>', oob),
           html('<details class="result-panel" id="result-panel" data-hand="%s">',
                last["number"]),
           html('  <summary><span class="result-title">%s</span> '
                '<span class="close-hint" aria-hidden="true">%s</span></summary>', title, hide)]
    if ui.get("result"):
        out.append(html('  <p class="result-words">%s</p>', ui["result"]))
    deal = joined(html('<p><span class="deal-name">%s</span> %s</p>',
                       pgettext("a player's name before their cards", "%(name)s:")
                       % {"name": seat_name(view["players"], h["seat"])}, card_faces(h["cards"]))
                  for h in ui.get("last_deal") or ())
    out.append(html('  <div class="deal">%s</div>', deal))
    if last.get("kitty") or last.get("discards"):
        parts = []
        if last.get("kitty"):
            kitty = _("Kitty")
            parts.append(html('    <p class="kitty">%s: %s</p>', kitty,
                              card_faces(last["kitty"])))
        if last.get("discards"):
            discards = _("Discards")
            parts.append(html('    <p class="discards">%s: %s</p>', discards,
                              card_faces(last["discards"])))
        out.append(html('  <div class="kitty-and-discards">\n%s</div>',
                        joined(parts, NEW_LINE)))
    if view.get("seat") is not None:  # a player of the hand: their own review (games.reviews)
        review = _("Review my play")
        url = reverse("hand_review", args=[view["table"], last["number"]])
        out.append(html('  <p class="result-review"><a href="%s">%s</a></p>', url, review))
    out.append(Markup("</details>\n</div>"))
    return joined(out, NEW_LINE)


@lru_cache(maxsize=64)
def _table_words(language: str | None) -> dict[str, Markup]:
    """The words of every fragment in the active language (``language``, the cache's key: the
    words are in it, it is not an input), looked up and escaped once rather than in each
    fragment."""
    looked_up = {
        "waiting": _("Waiting for players"), "playing": _("Playing"), "finished": _("Finished"),
        "paused": _("Paused until a player comes back"),
        "Current trick": _("Current trick"), "No card played yet.": _("No card played yet."),
        "Last trick": _("Last trick"), "Your hand": _("Your hand"),
        "Turn-up:": pgettext("before the turned-up card's face", "Turn-up:"),
        "Your call": _("Your call"), "Bidding so far": _("Bidding so far"), "Kitty": _("Kitty"),
        "What the calls mean": _("What the calls mean"),
        "Close the table…": _("Close the table…"),
        "Ends the session": _("Ends the session for everyone; the hand in play is not scored."),
    }
    return {key: html("%s", word) for key, word in looked_up.items()}


@lru_cache(maxsize=8192)
def _url(name: str, table: int) -> str:
    return reverse(name, args=[table])
