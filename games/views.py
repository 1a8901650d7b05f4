import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_http_methods, require_POST

from games import chat, registry, tables, words
from games.access import get_table_for_viewer, person_id, remember_invite
from games.forms import TableForm
from games.how_to_play import page_context as how_to_play_context
from games.how_to_play import template_of as how_to_play_template
from games.html.chat import chat_panel
from games.models import COMPUTER_LEVELS, Hand, HandReview, Table, tables_in_play
from games.presentation import for_template
from games.rules.records import apply_actions, start_hand
from games.snapshots import build_snapshot, table_view
from whistclub.accounts import guests


def lobby_tables(user):
    """Open tables anyone may join or watch, newest first, with their seats."""
    return (Table.objects.filter(is_private=False)
            .exclude(status=Table.Status.FINISHED)
            .annotate(free_seats=Count("seats", filter=Q(seats__user__isnull=True,
                                                         seats__computer_level="",
                                                         seats__former_player=False)))
            .prefetch_related("seats__user__profile")
            .select_related("created_by")[:50])


def lobby(request):
    return render(request, "games/lobby.html", {"tables": lobby_tables(request.user),
                                                "your_tables": tables_in_play(person_id(request.user)),
                                                "games": registry.choices()})


@require_POST
def play_now(request, game):
    """The home page's "Play now": straight to a seat with computer players around it."""
    try:
        registry.game(game)
    except KeyError:
        raise Http404 from None
    if not request.user.is_authenticated:
        try:
            guests.start(request)  # a visitor plays at once, as a guest
        except guests.Refused as too_many:
            messages.error(request, too_many.message)
            return redirect("signup")
    if refusal := _no_room_for_a_table(request):
        return refusal
    table = tables.play_now(request.user, game)
    return redirect(table)


def _no_room_for_a_table(request):
    """A guest with as many tables in play as a guest may keep is sent home, where they are
    listed, with the reason; None for anyone else."""
    user = request.user
    if guests.has_room_for_a_table(user, len(tables_in_play(person_id(user)))):
        return None
    messages.error(request, _("As a guest you can have %(count)s tables in play: go on with "
                              "one of them, or create your account.")
                   % {"count": settings.GUEST_TABLES_IN_PLAY})
    return redirect("home")


@login_required
def new_table(request, game):
    try:
        description = registry.game(game)
    except KeyError:
        raise Http404 from None
    form = TableForm(game, request.POST or None)
    if request.method == "POST" and (refusal := _no_room_for_a_table(request)):
        return refusal
    if request.method == "POST" and form.is_valid():
        table = tables.create_table(request.user, game, form.rules.overrides(),
                                    is_private=form.cleaned_data["is_private"],
                                    deals_limit=form.cleaned_data.get("deals_limit"),
                                    grace_seconds=form.cleaned_data.get("grace_seconds") or 60,
                                    trick_pause_ms=form.cleaned_data.get("trick_pause_ms"),
                                    move_seconds=form.cleaned_data.get("move_seconds"),
                                    chat_during_play=form.cleaned_data["chat_during_play"])
        try:
            tables.take_seat(table.pk, request.user, 0)
        except tables.TableError as exc:
            messages.error(request, exc.message)
        return redirect(table)
    return render(request, "games/new_table.html", {"form": form, "game": game,
                                                    "game_name": description.label})


def how_to_play(request, game):
    """A game's rules for a newcomer, open to everyone: its own page in the reader's language."""
    try:
        description = registry.game(game)
    except KeyError:
        raise Http404 from None
    return render(request, how_to_play_template(game), how_to_play_context(
        description, [each for each in registry.all_games() if each.id != game]))


def table_page(request, table_id):
    table = get_table_for_viewer(request, table_id)
    seat = tables.seat_of(table, request.user)
    view = table_view(table, seat)
    invite_url = None
    invite_path = reverse("table_invite", args=[table.pk, table.invite_token])
    if not table.is_private:
        invite_url = request.build_absolute_uri(table.get_absolute_url())  # open to anyone
    elif ((seat is not None or table.created_by_id == person_id(request.user))
          and guests.may_invite(request.user)):  # a guest passes on no invite link
        invite_url = request.build_absolute_uri(invite_path)
    # A visitor who is not signed in comes back here after logging in or signing up: to the
    # invite link of a private table (they could only see it through that link).
    back_to = invite_path if table.is_private else table.get_absolute_url()
    return render(request, "games/table.html", {
        "table": table, "view": view, "ui": for_template(view), "computer_levels": COMPUTER_LEVELS,
        "invite_url": invite_url, "back_to": back_to,
        "can_renew_invite": table.is_private and invite_url is not None
        and table.created_by_id == person_id(request.user),
        "chat_panel": chat_panel(chat.lines_for(table, seat), viewer_id=person_id(request.user),
                                 seat=seat, quiet_during_hands=not table.chat_during_play),
    })


def table_state(request, table_id):
    """The table's current state fragment (htmx polling fallback and no-JavaScript refresh)."""
    table = get_table_for_viewer(request, table_id)
    view = table_view(table, tables.seat_of(table, request.user))
    if request.GET.get("format") == "json":
        return HttpResponse(json.dumps({"type": "state", "version": view["version"],
                                        "state": view}), content_type="application/json")
    # The result beside the table is swapped in by its id, as the socket sends it.
    return render(request, "games/partials/table_state.html",
                  {"view": view, "ui": for_template(view), "result_oob": True})


def table_invite(request, table_id, token):
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not constant_time_compare(token, table.invite_token):
        # In words, and the same for a table that does not exist: a wrong link tells nobody
        # whether a private table has that number.
        return render(request, "games/invite_invalid.html", status=404)
    remember_invite(request, table)
    return redirect(table)


@login_required
@require_POST
def renew_invite(request, table_id):
    def renew():
        tables.renew_invite(table_id, request.user)
        messages.success(request, _("Here is a new invite link: the old one no longer works."))
    return _table_post(request, table_id, renew)


def _table_post(request, table_id, change):
    get_table_for_viewer(request, table_id)
    try:
        change()
    except tables.TableError as exc:
        messages.error(request, exc.message)
    return redirect("table", table_id)


def _computer_level(request) -> str:
    """The computer players' level posted, or normal for anything else."""
    level = request.POST.get("level", "normal")
    return level if level in dict(COMPUTER_LEVELS) else "normal"


@login_required
@require_POST
def sit(request, table_id, position):
    return _table_post(request, table_id,
                       lambda: tables.take_seat(table_id, request.user, position))


@login_required
@require_POST
def add_computer_player(request, table_id, position):
    level = _computer_level(request)
    return _table_post(request, table_id,
                       lambda: tables.add_computer_player(table_id, request.user, position, level))


@login_required
@require_POST
def fill_seats(request, table_id):
    level = _computer_level(request)

    def fill():
        filled = tables.fill_seats(table_id, request.user, level)
        if filled:
            messages.success(request, ngettext(
                "%(n)d computer player sat down.", "%(n)d computer players sat down.",
                filled) % {"n": filled})
        else:
            messages.info(request, _("Every seat was already taken: nothing was changed."))
    return _table_post(request, table_id, fill)


@login_required
@require_POST
def rematch(request, table_id):
    get_table_for_viewer(request, table_id)
    try:
        new = tables.rematch(table_id, request.user)
    except tables.TableError as exc:
        finished = Table.objects.filter(pk=table_id).values_list("rematch_table", flat=True)
        if finished and finished[0]:  # a click that lost a race to another: the same table
            return redirect("table", finished[0])
        messages.error(request, exc.message)
        return redirect("table", table_id)
    return redirect(new)


@login_required
@require_POST
def leave(request, table_id):
    return _table_post(request, table_id, lambda: tables.leave_seat(table_id, request.user))


@login_required
@require_http_methods(["GET", "POST"])
def close(request, table_id):
    """GET: the question (are you sure?); POST: the table closes.  A page of its own, so the
    confirmation works with the keyboard, without JavaScript and under live updates."""
    if request.method == "GET":
        table = get_table_for_viewer(request, table_id)
        if table.created_by_id != person_id(request.user):
            messages.error(request, _("Only the person who opened the table can close it."))
            return redirect(table)
        if table.status == Table.Status.FINISHED:
            messages.error(request, _("This table has finished."))
            return redirect(table)
        return render(request, "games/close_table.html", {"table": table})
    return _table_post(request, table_id, lambda: tables.close_table(table_id, request.user))


@login_required
@require_POST
def act(request, table_id):
    """The same action as over the WebSocket, for browsers without JavaScript."""
    version = request.POST.get("version", "")  # parsed, and refused in words, by play()
    action = tables.action_from_message(request.POST.get("type", "action"),
                                        request.POST.get("action"), request.POST.getlist("cards"))
    return _table_post(request, table_id, lambda: tables.play(
        table_id, request.user, action, version))


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
