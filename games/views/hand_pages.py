"""A table's hands: the list, a hand's replay step by step, its review and its record."""

import json

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_http_methods

from games import registry, tables, words
from games.access import get_table_for_viewer
from games.models import (
    Hand,
    HandReview,
    Table,
)
from games.presentation import for_template
from games.rules.records import apply_actions, start_hand
from games.snapshots import build_snapshot, table_view


def hand_list(request, table_id):
    """Each finished hand with its result in words (the contract is in the sentence), as the
    table page says it, for whoever looks (their own seat is "you")."""
    table = get_table_for_viewer(request, table_id)
    seat = tables.seat_of(table, request.user)
    names = words.Names(table_view(table, None)["players"], seat)
    said = words.of(table.game)
    hands = [{"number": hand.number, "redeal": bool(hand.result.get("redeal")),
              "result": said.result({"result": hand.result}, names)}
             for hand in table.hands.order_by("number")]
    return render(request, "games/hand_list.html",
                  {"table": table, "hands": hands, "can_review": seat is not None})


def _cards_in_words(cards) -> str:
    """Cards as players read them: "10♥, 4♠, big joker" (never the record's codes)."""
    jokers = {"BJ": pgettext("in a sentence", "big joker"),
              "LJ": pgettext("in a sentence", "little joker")}
    return ", ".join(jokers.get(card) or words.action_label(card) for card in cards)


def replay_steps(record: dict, names: words.Names) -> list[dict]:
    """Each step of a finished hand as its players lived it: the deal, each call, the kitty
    taken, the discard, each card.  The hands at each step are the engine's own views of each
    seat (``view(seat)``), so they are what each player held, kitty and discards included."""
    _module, state, actions = start_hand(record)
    seats = range(len(state.dealt_hands))

    def now(**step):
        return {"view": state.view(None), "hands": [state.view(s)["hand"] for s in seats],
                **step}

    dealer = names.capital(state.dealer)
    steps = [now(kind="deal", said=_("%(name)s deals.") % {"name": dealer})]
    for entry in actions:
        before = steps[-1]
        apply_actions(state, [entry])  # a stored hand replays: it was checked when played
        seat, action = entry["seat"], entry["action"]
        verb, _sep, rest = action.partition(" ")
        name = names.capital(seat)
        if verb == "play":
            steps.append(now(kind="play", seat=seat, card=rest,
                             said=_("%(name)s plays %(card)s.") % {
                                 "name": name, "card": _cards_in_words([rest])}))
            continue
        if verb == "discard":
            gone = [c for c in before["hands"][seat] if c not in state.view(seat)["hand"]]
            steps.append(now(kind="discard", seat=seat, cards=gone,
                             said=_("%(name)s discards %(cards)s.") % {
                                 "name": name, "cards": _cards_in_words(gone)}))
            continue
        after = now(kind="call", seat=seat, said=_("%(name)s: %(call)s") % {
            "name": name, "call": words.action_label(action)})
        taken = {s: [c for c in after["hands"][s] if c not in before["hands"][s]] for s in seats}
        taker = next((s for s in seats if taken[s]), None)
        if taker is None:
            steps.append(after)
            continue
        # The last call hands the kitty to the declarer: the call, then the kitty taken.
        steps.append(after | {"view": before["view"], "hands": before["hands"]})
        steps.append(after | {"kind": "kitty", "seat": taker, "cards": taken[taker],
                              "said": _("%(name)s takes the kitty: %(cards)s.") % {
                                  "name": names.capital(taker),
                                  "cards": _cards_in_words(taken[taker])}})
    return steps


def _trick_marks(steps: list[dict]) -> list[int]:
    """The steps a trick-by-trick move lands on: the start, the last step before the first
    card (the contract set), the end of each trick, the end of the hand."""
    marks = {0, len(steps) - 1}
    for number, step in enumerate(steps):
        if step["kind"] == "play" and number and steps[number - 1]["kind"] != "play":
            marks.add(number - 1)
        if step["kind"] == "play" and not step["view"].get("trick"):
            marks.add(number)
    return sorted(marks)


def hand_replay(request, table_id, number):
    """A finished hand step by step: ``?step=N`` (or ``end``) shows the table after N steps
    (the deal is step 0); ``?trick=N`` the end of trick N.  ``?partial=1`` gives the step alone
    (static/js/replay.js steps with the arrow keys without reloading the page)."""
    table = get_table_for_viewer(request, table_id)
    hand = get_object_or_404(Hand, table=table, number=number)
    # Names only: who is at the live table now (dropped off, a computer playing for them, a
    # countdown) says nothing of a hand that is over.
    players = build_snapshot(table).players()
    names = words.Names(players, None)
    steps = replay_steps(hand.record, names)
    last = len(steps) - 1
    marks = _trick_marks(steps)
    wanted = request.GET.get("step", "")
    if wanted == "end":
        step = last
    elif "trick" in request.GET and not wanted:
        trick_ends = [n for n in marks if steps[n]["kind"] == "play"
                      and not steps[n]["view"].get("trick")]
        try:
            trick = int(request.GET["trick"])
        except ValueError:
            trick = 0
        step = trick_ends[min(trick, len(trick_ends)) - 1] if trick > 0 and trick_ends else 0
    else:
        try:
            step = min(max(int(wanted or 0), 0), last)
        except ValueError:
            step = 0
    shown = steps[step]
    final = steps[-1]["view"]
    table_like = {"game": table.game, "seat": None, "players": players, "hand": shown["view"],
                  "house_rules": hand.record.get("rules") or {}, "hands_played": 0,
                  "status": "finished", "last_hand": None}
    ui = for_template(table_like)
    hands = shown["hands"]
    discarded = [{"name": names.capital(s["seat"]), "cards": s["cards"]}
                 for s in steps[:step + 1] if s["kind"] == "discard"]
    kitty = hand.record.get("kitty") or []
    taken = any(s["kind"] == "kitty" for s in steps[:step + 1])
    tricks_done = len(shown["view"].get("tricks") or [])
    context = {
        "table": table, "hand": hand, "players": players, "ui": ui,
        "seats": [s | {"cards": hands[s["seat"]], "acted": shown.get("seat") == s["seat"],
                       "just_taken": shown.get("cards") or [] if shown.get("kind") == "kitty"
                       and shown.get("seat") == s["seat"] else []}
                  for s in ui["seats_in_order"]],
        "step": step, "last": last, "shown": shown, "marks": marks,
        "prev_trick": max([m for m in marks if m < step], default=0),
        "next_trick": min([m for m in marks if m > step], default=last),
        "trick_number": tricks_done + (1 if shown["view"].get("trick") else 0),
        "trick_count": len(final.get("tricks") or []),
        "kitty": kitty if kitty and not taken else [],
        "discarded": discarded,
        "result_words": words.of(table.game).result(final, names) if step == last else None,
        "turn_up": shown["view"].get("turn_up"),
        # what the table is waiting for before the first card: bidding, discarding, trumps
        "centre_note": ui.get("turn_phase") if step and not tricks_done
        and shown["view"].get("phase") != "play" and step != last else None,
    }
    # The viewer's own review, where it is ready: its word on the step shown.
    seat = tables.seat_of(table, request.user)
    context["can_review"] = seat is not None
    ready = seat is not None and HandReview.objects.filter(
        hand=hand, seat=seat, status=HandReview.Status.READY).first()
    if ready:
        context["review_note"] = next(
            (m for m in _review_moments(table, hand, ready.result, steps)
             if m["step"] == step and not m["agreed"]), None)
    if request.GET.get("partial"):
        return render(request, "games/partials/replay_step.html", context)
    return render(request, "games/hand_replay.html", context)


@require_http_methods(["GET", "POST"])
def hand_review(request, table_id, number):
    """A player's review of their own decisions in a finished hand (games.reviews): asked for
    with a POST, prepared in the computer players' worker processes, shown when ready
    (``?partial=1``: the part of the page that changes while it is prepared)."""
    table = get_table_for_viewer(request, table_id)
    hand = get_object_or_404(Hand, table=table, number=number)
    seat = tables.seat_of(table, request.user)
    context = {"table": table, "hand": hand, "seat": seat}
    if seat is None:  # each player sees the review of their own decisions, nobody else
        return render(request, "games/hand_review.html", context, status=403)
    from games import reviews

    if request.method == "POST":
        try:
            reviews.request_review(hand, seat, request.user)
        except reviews.Refused as refusal:  # too many on the way: words, and nothing stored
            messages.warning(request, str(refusal))
        return redirect("hand_review", table_id=table.pk, number=hand.number)
    entry = HandReview.objects.filter(hand=hand, seat=seat).first()
    if entry is not None and entry.status == HandReview.Status.QUEUED:
        reviews.dispatch()  # a worker of this process may be free (rows outlive processes)
        entry.refresh_from_db()
    if entry is not None and reviews.is_lost(entry):  # offer to ask again, not wait forever
        entry.status = HandReview.Status.FAILED
    ready = entry is not None and entry.status == HandReview.Status.READY
    if entry is not None and entry.status == HandReview.Status.QUEUED:
        context["ahead"] = reviews.place_in_queue(entry)
    context |= {"review": entry,
                "moments": _review_moments(table, hand, entry.result) if ready else [],
                "double_dummy": _double_dummy_words(entry.result) if ready else None}
    if request.GET.get("partial"):
        return render(request, "games/partials/hand_review_body.html", context)
    return render(request, "games/hand_review.html", context)


def _review_moments(table: Table, hand: Hand, result: dict,
                    steps: list[dict] | None = None) -> list[dict]:
    """The review's moments in words, each with the replay step that shows it."""
    from django.utils.formats import number_format

    unit = registry.game(table.game).unit
    if steps is None:
        steps = replay_steps(hand.record, words.Names(build_snapshot(table).players(), None))
    step_of_action = [n for n, step in enumerate(steps) if n and step["kind"] != "kitty"]
    seats = len(hand.record["hands"])
    plays_before = [0]
    for entry in hand.record["actions"]:
        plays_before.append(plays_before[-1] + entry["action"].startswith("play "))
    out = []
    for moment in result.get("moments", []):
        index, played, suggested = moment["index"], moment["played"], moment["suggested"]
        is_card = moment["phase"] == "play"
        cost = moment["cost"]
        said_as = (lambda a: _cards_in_words([a[5:]])) if is_card else words.action_label
        chose = {"mine": said_as(played), "theirs": said_as(suggested)}
        if suggested == played:
            said = _("you chose %(mine)s, as the strong computer player would.") % chose
        elif cost is None:  # a call: what it was worth is not estimated
            said = _("you chose %(mine)s; the strong computer player would have chosen "
                     "%(theirs)s.") % chose
        elif cost >= 0.05:  # shown to one decimal: a smaller figure reads "about as good"
            said = _("you chose %(mine)s; the strong computer player would have chosen "
                     "%(theirs)s, about %(cost)s %(unit)s better on average.") % (
                chose | {"cost": number_format(cost, 1), "unit": unit})
        else:
            said = _("you chose %(mine)s; the strong computer player would have chosen "
                     "%(theirs)s, about as good.") % chose
        out.append({
            "step": step_of_action[index],
            "when": (_("Trick %(n)s:") % {"n": plays_before[index] // seats + 1}) if is_card
            else _("Before the play:"),
            "said": said,
            "costly": moment["costly"],
            "agreed": suggested == played,
        })
    return out


def _double_dummy_words(result: dict) -> str | None:
    """The contract's double-dummy result (review.contract_double_dummy) in a sentence."""
    found = result.get("double_dummy")
    if not found:
        return None
    if not found["settled"]:
        return _("The best result with every card seen could not be worked out in time for "
                 "this hand.")
    figures = {"best": found["tricks"], "of": found["of"], "trick": found["from_trick"],
               "made": found["made"]}
    if found["tricks"] is None:  # only the contract's question settled
        said = _("With every card seen and best play on both sides, the declaring side would "
                 "have made its contract.") if found["contract_made"] else \
            _("With every card seen and best play on both sides, the declaring side could not "
              "have made its contract.")
    elif found["from_trick"] == 1:
        said = _("With every card seen and best play on both sides, the declaring side would "
                 "have taken %(best)s of the %(of)s tricks.") % figures
        if found.get("contract_made") is not None:  # older reviews lack it
            said += " " + (_("Enough for its contract.") if found["contract_made"]
                           else _("Not enough for its contract."))
    else:
        said = _("With every card seen and best play on both sides from trick %(trick)s on "
                 "(the tricks before it as played), the declaring side would have taken "
                 "%(best)s of the %(of)s tricks.") % figures
    then = _("It took %(made)s.") % figures if found["all_played"] \
        else _("Play stopped once the result was certain.")
    return f"{said} {then}"


def hand_download(request, table_id, number):
    table = get_table_for_viewer(request, table_id)
    hand = get_object_or_404(Hand, table=table, number=number)
    response = HttpResponse(json.dumps(hand.record, indent=1), content_type="application/json")
    response["Content-Disposition"] = (
        f'attachment; filename="whistclub-{table.game}-{table.pk}-hand-{hand.number}.json"')
    return response
