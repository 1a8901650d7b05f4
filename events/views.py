"""The events' pages, phone first: the site's list, creating one, an event's page (its
lobby: who is registered, Register / Withdraw, the organiser's Start now, each person's own
table once the round is formed, or in an arena their table or their wait), the standings,
each deal's traveller, and the page that stops the e-mails before events.  Nothing of a round
in play leaves here: its results and cards wait until every table has played it
(``events.results``); an arena's deal, until the reader has played it themselves
(``arena_deals_shown``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy, pgettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events import arena, away, deals, policies, reminders, results, running
from events.forms import EventForm
from events.models import AVERAGE_MINUS_PERCENT, Event, EventTable
from games import registry, words
from games.access import person_id
from games.html.table import countdown
from games.snapshots import seat_names
from whistclub.accounts.guests import accounts_only


def event_list(request):
    now = timezone.now()
    listed = Event.objects.filter(visibility=Event.Visibility.PUBLIC)
    upcoming = listed.exclude(status=Event.Status.FINISHED).order_by("starts_at", "pk")[:50]
    finished = listed.filter(status=Event.Status.FINISHED).order_by("-finished_at", "-pk")[:10]
    mine = []
    uid = person_id(request.user)
    if uid is not None:
        mine = list(Event.objects.filter(organiser_id=uid).exclude(
            status=Event.Status.FINISHED).order_by("starts_at", "pk")[:20])
    return render(request, "events/list.html", {
        "upcoming": list(upcoming), "finished": list(finished), "mine": mine, "now": now,
        "organise": [(game.label, reverse("event_new", args=[game.id]))
                     for game in registry.all_games()]})


@login_required
@accounts_only
def event_new(request, game):
    description = registry.game_or_404(game)
    form = EventForm(game, request.POST or None)
    if request.method == "POST" and form.is_valid():
        event = form.create(request.user)
        messages.success(request, _("The event is created: people can register now."))
        return redirect(event)
    return render(request, "events/new.html", {"form": form, "game_name": description.label})


def _event(request, event_id) -> Event:
    """The event, for whoever may see it (``events.policies``: a club's members-only event is
    its members' alone); anyone else finds nothing (404)."""
    event = get_object_or_404(Event.objects.select_related("organiser"), pk=event_id)
    if not policies.may_see(event, request.user):
        raise Http404
    return event


def event_page(request, event_id):
    event = _event(request, event_id)
    return render(request, "events/event.html", _page_context(request, event))


def event_live(request, event_id):
    """What changes on the event's page (its state, the lobby, the person's table or wait,
    the results so far, who is registered): fetched again by the page when its socket says
    the event changed (``events.live``); the same context, so the same hidden information."""
    event = _event(request, event_id)
    return render(request, "events/_event_live.html", _page_context(request, event))


def _page_context(request, event) -> dict:
    uid = person_id(request.user)
    people = running.registered(event)
    registered = uid is not None and any(person.pk == uid for person in people)
    context = {
        "event": event, "people": people, "registered": registered,
        "is_organiser": uid is not None and uid == event.organiser_id,
        "game_name": registry.game(event.game).label, "average_minus": AVERAGE_MINUS_PERCENT,
        "scoring": scoring_words(event), "notes": policies.notes(event, request.user)}
    if event.status == Event.Status.PLAYING and not registered:
        # Late entry: open while the event takes newcomers, else why not, in words.
        context["late_refusal"] = running.late_refusal(event)
        context["late_round"] = (None if event.is_arena
                                 else running.next_round_for_newcomers(event))
    gone = event.registrations.filter(withdrawn_at__isnull=True).values_list(
        "user_id", "paused_at", "left_at")
    context["paused_ids"] = [each for each, paused, left in gone if paused and not left]
    context["left_ids"] = [each for each, _paused, left in gone if left]
    state = away.state_of(event.registrations.filter(user_id=uid).first()) if uid else None
    context["away_state"] = state
    if event.is_arena:
        return {**context, **_arena_context(event, uid, registered, state)}
    current = event.event_rounds.filter(finished_at__isnull=True).first()
    own_table = None
    if current is not None and uid is not None:
        own_table = (EventTable.objects.filter(round=current, table__seats__user_id=uid)
                     .select_related("table").first())
    clock = None
    if current is not None and current.ends_at is not None:
        left = (current.ends_at - timezone.now()).total_seconds()
        clock = {"time_up": left <= 0, "countdown": countdown(round(max(0.0, left)))}
    rounds = [{"number": each.number, "finished": each.finished_at is not None,
               "deals": [index + 1 for index in event.round_deals(each.number)]}
              for each in event.event_rounds.all()]
    return {**context, "current": current, "own_table": own_table, "clock": clock,
            "sitting_out": current is not None and uid in (current.sitting_out or []),
            # Registered during this round: they play from the next one (in an event of fixed
            # pairs, once their partner is here too: the notes say so).
            "joins_next": state == away.PLAYING and current is not None and own_table is None
            and uid not in (current.sitting_out or [])
            and not running.waits_for_partner(event, uid),
            "rounds": rounds, "deals_in_all": event.rounds * event.deals_per_round,
            "has_results": any(each["finished"] for each in rounds),
            # Pause, come back, leave: while a round is left to form.
            "away_choices": state in (away.PLAYING, away.PAUSED)
            and event.status == Event.Status.PLAYING and not away.last_round_started(event)}


# A waiting person's page looks again this often: their table, once formed, shows.
WAITING_RELOAD_SECONDS = 15


def _arena_context(event, uid, registered, state) -> dict:
    """An arena's page: its clock, the person's table or their wait, the standings so far and
    the deals they may see (``arena_deals_shown``)."""
    the_round = arena.arena_round(event)
    now = timezone.now()
    playing = event.status == Event.Status.PLAYING and the_round is not None
    if the_round is not None and playing and (
            state == away.PLAYING and arena.may_seat(event, uid, now)
            or now >= the_round.ends_at):
        # A person waiting past the longest wait, or an arena whose time is up, is not left
        # to the periodic command alone (``arena.step`` is idempotent).
        arena.step(event.pk)
        event.refresh_from_db()
        playing = event.status == Event.Status.PLAYING
    clock: dict | None = None
    table_clock: dict | None = None
    own_table = None
    too_late = waiting = False
    if the_round is not None and playing:
        left = (the_round.ends_at - now).total_seconds()
        clock = {"time_up": left <= 0, "countdown": countdown(round(max(0.0, left)))}
        too_late = 0 < left < arena.least_minutes(event) * 60
        if registered:
            own_table = arena.current_table(event, uid)
        if own_table is not None and own_table.table.time_up_at is not None:
            # The table's own clock (``arena.table_time_up``): the arena's end at the latest.
            table_left = (own_table.table.time_up_at - now).total_seconds()
            table_clock = {"time_up": table_left <= 0,
                           "countdown": countdown(round(max(0.0, table_left)))}
        waiting = state == away.PLAYING and own_table is None and left > 0
    shown = arena_deals_shown(event, uid)
    return {"arena": the_round, "arena_playing": playing, "own_table": own_table,
            # Pause, come back, leave: while new tables still start.
            "away_choices": state in (away.PLAYING, away.PAUSED) and clock is not None
            and not clock["time_up"] and not too_late,
            "clock": clock, "table_clock": table_clock, "waiting": waiting, "too_late": too_late,
            "reload_in": countdown(WAITING_RELOAD_SECONDS),
            "arena_deals": [index + 1 for index in shown],
            "has_results": the_round is not None and bool(arena.deals_played(event))}


def arena_deals_shown(event, uid) -> list[int]:
    """The deals of an arena whose traveller ``uid`` may see: those they have played
    themselves while it runs (nobody learns anything of a deal before finishing it), every
    deal played once it is over."""
    if event.status == Event.Status.FINISHED:
        return sorted(arena.deals_played(event))
    if uid is None or event.status != Event.Status.PLAYING:
        return []
    return sorted(arena.deals_played_by(event, uid))


def _changed(request, event, change, done: str):
    try:
        change(event, request.user)
    except running.EventError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
    return redirect(event)


def _one_button(change, done):
    """The view of a button that changes the event for whoever presses it (``change(event,
    user)``, refused in words by ``running.EventError``), then says ``done``."""
    @login_required
    @require_POST
    def view(request, event_id):
        return _changed(request, _event(request, event_id), change, str(done))

    return view


@login_required
@accounts_only
@require_POST
def register(request, event_id):
    event = _event(request, event_id)
    if event.status == Event.Status.REGISTRATION:
        done = _("You are registered. Come back at the start: your table is shown here.")
    elif event.is_arena:
        done = _("You are registered: you are seated with the next table formed. Stay on "
                 "this page: your table is shown here.")
    else:
        done = _("You are registered: you play from round %(n)s. Stay on this page: your "
                 "table is shown here when the round is formed.") % {
            "n": running.next_round_for_newcomers(event)}
    return _changed(request, event, running.register, done)


@login_required
@require_POST
def pause(request, event_id):
    """A player pauses: not seated again until they come back (an arena's next table, a Swiss
    event's next round)."""
    event = _event(request, event_id)
    at_a_table = arena.current_table(event, request.user.pk) is not None
    if event.is_arena:
        done = _("You are paused: you will not be seated again after your table. Finish it, "
                 "or a computer player covers your seat when you go.") if at_a_table else _(
            "You are paused: you will not be seated again until you come back.")
    else:
        done = _("You are paused: you are not seated in the next rounds until you come back. "
                 "Finish your table, or a computer player covers your seat when you go."
                 ) if at_a_table else _("You are paused: you are not seated in the next "
                                        "rounds until you come back.")
    return _changed(request, event, away.pause, done)


@login_required
@require_POST
def come_back(request, event_id):
    event = _event(request, event_id)
    return _changed(request, event, away.come_back, _(
        "Welcome back: you are seated with the next table formed.") if event.is_arena else _(
        "Welcome back: you are seated from the next round."))


@login_required
def leave(request, event_id):
    """Leaving an event for good: asked first (a page), done by its button (a POST)."""
    event = _event(request, event_id)
    registration = event.registrations.filter(user_id=person_id(request.user)).first()
    if request.method != "POST":
        if not (event.status == Event.Status.PLAYING
                and away.state_of(registration) in (away.PLAYING, away.PAUSED)
                and (event.is_arena or not away.last_round_started(event))):
            return redirect(event)
        return render(request, "events/leave.html", {
            "event": event,
            "at_a_table": arena.current_table(event, person_id(request.user)) is not None})
    return _changed(request, event, away.leave, _(
        "You have left the arena. Your results so far stay in the standings.")
        if event.is_arena else _(
        "You have left the event. Your results so far stay in the standings."))


withdraw = _one_button(running.withdraw, gettext_lazy("You have withdrawn from the event."))
start = _one_button(running.start,
                    gettext_lazy("The event has started: the tables of round 1 are formed."))


# What a round over for everyone shows (its travellers, the standings after it) changes no
# more; kept this long, so that a player renamed since reads under the new name soon enough.
KEPT_FOR = 600


def _finished_key(rounds) -> str:
    """The rounds over so far, as a key: a round finished (or a database emptied and filled
    again, between two tests) makes another."""
    return ",".join(f"{r.pk}@{r.finished_at.timestamp()}" for r in rounds)


def standings(request, event_id):
    event = _event(request, event_id)
    if event.is_arena:
        # Live while the arena runs (its deals are scored as tables play them); kept once it
        # is over.
        final = event.status == Event.Status.FINISHED
        rows = (cache.get_or_set(f"events:standings:{event.pk}:"
                                 f"{event.finished_at.timestamp()}",
                                 lambda: results.standings(event), KEPT_FOR) if final
                else results.standings(event))
        return render(request, "events/standings.html", {
            "event": event, "rows": _signed_rows(event, rows), "arena": True, "final": final,
            "scoring": scoring_words(event),
            "computers": rows and results.computer_players_played(event)})
    finished = results.finished_rounds(event)
    # Kept: at the end of a round of a hundred tables everyone opens the same pages at once.
    rows = cache.get_or_set(f"events:standings:{event.pk}:{_finished_key(finished)}",
                            lambda: results.standings(event), KEPT_FOR)
    return render(request, "events/standings.html", {
        "event": event, "rows": _signed_rows(event, rows), "rounds_done": len(finished),
        "scoring": scoring_words(event),
        "computers": rows and results.computer_players_played(event)})


def scoring_words(event) -> dict:
    """How the event is scored, for its pages: the method's name, and in a difference event
    its cap in the game's numbers ("at most 7 points up or down a deal")."""
    if not event.by_difference:
        return {"difference": False, "name": event.get_scoring_display()}
    cap = {"cap": floatformat(event.difference_cap, -2),
           "unit": registry.game(event.game).unit}
    return {"difference": True, "name": event.get_scoring_display(),
            "cap": _("at most %(cap)s %(unit)s up or down a deal") % cap,
            "unit": cap["unit"]}


def signed(value: float) -> str:
    """A difference as players read it: +3.5, −2, 0 (one decimal at most, in the reader's
    language; a minus sign, never a hyphen)."""
    value = round(value, 1)  # a sum of thirds read as −3.9999…: "−4", never "−4.0"
    if value == 0:
        return "0"
    said = floatformat(value, -1)
    return "−" + said[1:] if said.startswith("-") else "+" + said


def _signed_rows(event, rows) -> list:
    """The standings' rows with a difference event's totals in words (a kept list is left as
    it is: each row is given its words again)."""
    for row in rows:
        row.difference_words = signed(row.difference) if event.by_difference else ""
    return rows


def traveller(request, event_id, number):
    """Deal ``number`` (from 1) at every table, once every table of its round has played it;
    before that, a sentence and nothing else."""
    event = _event(request, event_id)
    index = number - 1
    if event.is_arena:
        return _arena_traveller(request, event, index)
    if not 0 <= index < event.rounds * event.deals_per_round:
        raise Http404
    round_number = results.round_of_deal(event, index)
    event_round = event.event_rounds.filter(number=round_number,
                                            finished_at__isnull=False).first()
    context = {"event": event, "number": number, "round_number": round_number,
               "deals_in_all": event.rounds * event.deals_per_round,
               "scoring": scoring_words(event)}
    if event_round is None or event.deals is None:
        return render(request, "events/traveller.html", {**context, "shown": False})
    event_round.event = event
    rows = cache.get_or_set(
        f"events:traveller:{event.pk}:{_finished_key([event_round])}:{index}:{get_language()}",
        lambda: _traveller_rows(event, results.deal_results(event, event_round, index)),
        KEPT_FOR)
    return render(request, "events/traveller.html", {
        **context, "shown": True, "rows": rows, **_cards(event, index)})


def _arena_traveller(request, event, index: int):
    """An arena's deal at every table that has played it so far: to those who have played it
    themselves while the arena runs, to everyone once it is over (``arena_deals_shown``);
    before that, a sentence and nothing else."""
    played = arena.deals_played(event) if event.deals is not None else set()
    if index < 0 or (event.deals is not None and index >= len(event.deals["deals"])):
        raise Http404
    final = event.status == Event.Status.FINISHED
    context = {"event": event, "number": index + 1, "arena": True, "final": final,
               "deals_in_all": max(played, default=-1) + 1, "scoring": scoring_words(event)}
    if index not in arena_deals_shown(event, person_id(request.user)):
        return render(request, "events/traveller.html", {**context, "shown": False})

    def rows():
        return _traveller_rows(event, results.arena_deal_results(event, index),
                               replays=final)
    rows_ = (cache.get_or_set(f"events:traveller:{event.pk}:{event.finished_at.timestamp()}:"
                              f"{index}:{get_language()}", rows, KEPT_FOR) if final else rows())
    return render(request, "events/traveller.html", {
        **context, "shown": True, "rows": rows_, **_cards(event, index)})


def _cards(event, index: int) -> dict:
    deal = event.deals["deals"][index]
    hands = [{"seat": seat + 1, "cards": [_card_in_words(card) for card in cards]}
             for seat, cards in enumerate(deal["hands"])]
    return {"hands": hands, "dealer": deal["dealer"] + 1}


def _traveller_rows(event, table_results, replays: bool = True) -> list[dict]:
    """Each table's line of a deal (``events.results.deal_results``), in words; ``replays``:
    whether its tables' play may be seen (a Swiss round over, an arena over)."""
    said = words.of(event.game)
    rows = []
    for row in table_results:
        names = words.Names(seat_names(row.event_table.table, row.seats), None)
        directions = []
        for direction, score in enumerate(row.scores):
            seats = [seat.position for seat in row.seats
                     if deals.direction_of(event.game, seat.position) == direction]
            # a cell, not a sentence: names as written; a minus sign, never a hyphen
            directions.append({"names": names.together(seats),
                               "points": "" if row.late else
                               words.score_number(row.values[direction]),
                               "score": score, "difference": signed(score.difference)})
        if row.late and event.by_difference:
            said_result = _("Not finished in time: everyone at this table scores average "
                            "minus (%(difference)s).") % {
                "difference": signed(row.scores[0].difference)}
        elif row.late and event.is_arena:
            said_result = _("Not finished when the arena's time was up: everyone at this "
                            "table scores average minus (%(percent)s%%).") % {
                "percent": AVERAGE_MINUS_PERCENT}
        elif row.late:
            said_result = _("Not finished when the round's time was up: everyone at this "
                            "table scores average minus (%(percent)s%%).") % {
                "percent": AVERAGE_MINUS_PERCENT}
        else:
            said_result = (said.result({"result": row.hand.result}, names)
                           or _("Everyone passed: nobody scores."))
        rows.append({"number": row.event_table.number, "table_id": row.event_table.table_id,
                     "hand": row.hand.number if row.hand and replays else None,
                     "late": row.late,
                     "result": said_result, "directions": directions})
    return rows


def _card_in_words(card: str) -> str:
    """A card as players read it: "10♥", "big joker" (never the record's codes)."""
    jokers = {"BJ": pgettext("in a sentence", "big joker"),
              "LJ": pgettext("in a sentence", "little joker")}
    return jokers.get(card) or words.action_label(card)


def reminders_stop(request, token):
    """The link at the foot of every e-mail before an event: asks, then stops them (a POST, so
    that a mail scanner following links changes nothing).  Turned on again from the profile."""
    user, problem = reminders.person_of_stop_token(token)
    if problem == reminders.INVALID:
        return render(request, "events/reminders_stop.html", {"invalid": True}, status=404)
    if problem == reminders.CHANGED:
        return render(request, "events/reminders_stop.html", {"changed": True}, status=410)
    done = request.method == "POST"
    if done:
        reminders.set_wanted(user, False)
    return render(request, "events/reminders_stop.html", {
        "stopped": not reminders.wanted(user), "done": done,
        "theirs": request.user.is_authenticated and request.user.pk == user.pk})
