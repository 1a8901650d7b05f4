"""Running an event: registering and withdrawing before the start, the start (the deal set
chosen, round 1 formed), and each next round once every table of the last one has played its
deals (docs/events.md, "What is built").  An arena's running is ``events.arena``'s; its start
and its tables' ends come through here.

Each table is a ``games.Table`` opened by ``games.tables.open_preset_table``: private (only
its own players see it while the round is played), playing the round's deals from the
event's set, computer players in the seats nobody fills.  When a round is over for everyone
its tables are opened to all, so that the travellers can link each table's replay.  games
never imports events: we hear of a finished table through ``games.signals.table_finished``
(connected in ``EventsConfig.ready``)."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events import arena, away, deals, live, pairing, policies
from events.errors import EventError
from events.models import Event, EventRound, EventTable, Registration
from events.results import history
from games import computer_players, followups
from games import tables as game_tables
from games.models import Table
from games.rules import game_module


def _locked(event_id: int) -> Event:
    return Event.objects.select_for_update().get(pk=event_id)


def register(event: Event, user) -> Registration:
    """``user`` registers: before the start, or late while the event runs (``late_refusal``
    says until when).  A latecomer to an arena waits from now and is seated with the next
    table formed; to a Swiss event, they play from the next round, at 0, no bye counted for
    the rounds they missed."""
    with transaction.atomic():
        event = _locked(event.pk)
        now = timezone.now()
        late = event.status != Event.Status.REGISTRATION
        if late:
            refusal = late_refusal(event, now)
            if refusal:
                raise EventError(refusal)
        refusal = policies.registration_refusal(event, user)
        if refusal:
            raise EventError(refusal)
        registration, created = Registration.objects.get_or_create(
            event=event, user=user, defaults={"registered_at": now,
                                              "back_at": now if late else None})
        if not created:
            if registration.left_at is not None:
                raise EventError(_("You have left this event: you are not seated in it "
                                   "again."))
            if registration.withdrawn_at is None:
                raise EventError(_("You are already registered."))
            registration.withdrawn_at = None
            registration.registered_at = now
            registration.back_at = now if late else None
            registration.save(update_fields=["withdrawn_at", "registered_at", "back_at"])
        policies.registration_changed(event, user, True)
        live.changed(event.pk)
    if late and event.is_arena:
        arena.step(event.pk)  # seated at once when others wait (or nobody plays)
    return registration


def late_refusal(event: Event, now=None) -> str | None:
    """Why nobody may register now that the event has started, in words, or None: a Swiss
    event takes newcomers until its last round starts (they play from the next round), an
    arena while a table's deals still fit in its time."""
    now = now or timezone.now()
    if event.status == Event.Status.FINISHED:
        return str(_("The event is over."))
    if event.status != Event.Status.PLAYING:
        return None
    if event.is_arena:
        return arena.late_entry_refusal(event, arena.arena_round(event), now)
    if away.last_round_started(event):
        return str(_("The last round has started: it is too late to join."))
    return None


def next_round_for_newcomers(event: Event) -> int | None:
    """The round a person registering now would play first in a running Swiss event."""
    current = event.event_rounds.filter(finished_at__isnull=True).order_by("number").last()
    return None if current is None else current.number + 1


def withdraw(event: Event, user) -> None:
    with transaction.atomic():
        event = _locked(event.pk)
        if event.status != Event.Status.REGISTRATION:
            raise EventError(_("The event has started: you can no longer withdraw."))
        updated = Registration.objects.filter(event=event, user=user,
                                              withdrawn_at__isnull=True).update(
            withdrawn_at=timezone.now())
        if not updated:
            raise EventError(_("You are not registered for this event."))
        policies.registration_changed(event, user, False)
        live.changed(event.pk)


def registered(event: Event):
    """The people registered and not withdrawn, first registered first."""
    return [each.user for each in
            event.registrations.filter(withdrawn_at__isnull=True).select_related("user")]


def start(event: Event, user=None) -> Event:
    """The event begins: its deals are chosen with the OS's secure source and kept, and round
    1 is formed.  ``user``: who asks (the organiser alone may); None for the periodic start."""
    with transaction.atomic():
        event = _locked(event.pk)
        if user is not None and event.organiser_id != user.pk:
            raise EventError(_("Only the organiser can start the event."))
        if event.status != Event.Status.REGISTRATION:
            raise EventError(_("This event has already started."))
        if not registered(event):
            raise EventError(_("Nobody is registered: the event cannot start."))
        event.status = Event.Status.PLAYING
        event.started_at = timezone.now()
        live.changed(event.pk)
        if event.is_arena:
            event.save(update_fields=["status", "started_at"])
            arena.start(event)
            return event
        chosen = deals.choose_deals(event.game, event.rounds * event.deals_per_round,
                                    rules=event.rules)
        event.deals = deals.to_document(chosen)
        event.save(update_fields=["deals", "status", "started_at"])
        _form_round(event, 1)
    return event


def start_due(now=None) -> list[int]:
    """Start every event whose start time has come (the management command's work); the ids
    started.  An event nobody registered for stays as it is."""
    started = []
    due = Event.objects.filter(status=Event.Status.REGISTRATION,
                               starts_at__lte=now or timezone.now())
    for event in due:
        try:
            start(event)
        except EventError:
            continue
        started.append(event.pk)
    return started


def _form_round(event: Event, number: int) -> EventRound:
    """Round ``number``'s tables, by the standings so far (``events.pairing.swiss_round``);
    the seats nobody fills go to computer players (negative ids in the pairing, last in
    score), each table playing the round's deals."""
    module = game_module(event.game)
    registrations = list(event.registrations.filter(withdrawn_at__isnull=True)
                         .select_related("user"))
    people = {each.user_id: each.user for each in registrations}
    past = history(event)
    # Those paused or gone are away: neither seated nor sitting out (``pairing.swiss_round``).
    field = [pairing.Standing(id=each.user_id, score=past.score[each.user_id],
                              opponents=frozenset(past.opponents[each.user_id]),
                              partners=frozenset(past.partners[each.user_id]),
                              byes=past.byes[each.user_id],
                              directions=tuple(past.directions.get(each.user_id, ())),
                              away=each.is_away)
             for each in registrations]
    if event.partners_are_fixed_pairs:
        formed = _fixed_pairs_formed(event, field, seed=event.seed + number)
    else:
        missing = (-sum(not each.away for each in field)) % module.SEATS
        field += [pairing.Standing(id=-(k + 1), score=-1.0) for k in range(missing)]
        formed = pairing.swiss_round(field, size=module.SEATS,
                                     partnership=deals.is_partnership(event.game),
                                     seed=event.seed + number)
    started = timezone.now()
    event_round = EventRound.objects.create(
        event=event, number=number, started_at=started,
        ends_at=started + timedelta(minutes=event.round_minutes_or_usual),
        sitting_out=[uid for uid in formed.sitting_out if isinstance(uid, int) and uid > 0])
    chosen = [event.deals["deals"][index] for index in event.round_deals(number)]
    for table_number, players in enumerate(formed.tables, start=1):
        # The round clock is each table's: when it is up, computer players finish the deals
        # at once, found by the per-move clock's timer, its sweep or a restart's catch-up.
        table = game_tables.open_preset_table(
            event.game, event.rules, chosen, [people.get(uid) for uid in players],
            level=event.computer_level, move_seconds=event.move_seconds,
            time_up_at=event_round.ends_at, return_to=event.get_absolute_url(),
            match_ends_it=event.plays_matches)
        EventTable.objects.create(round=event_round, number=table_number, table=table)
    return event_round


def _fixed_pairs_formed(event: Event, field: list[pairing.Standing], seed: int) -> pairing.Round:
    """A round of an event whose partners are fixed pairs (``policies.fixed_pairs``): a pair
    plays when both its members are registered and neither is away; a member whose partner is
    not is neither seated nor sitting out.  An odd number of pairs here: the last pair's
    opponents are a computer pair (negative ids, last in score), as computer players fill the
    seats of any other event."""
    by_id = {each.id: each for each in field}
    pairs = [(by_id[first], by_id[second]) for first, second in policies.fixed_pairs(event)
             if first in by_id and second in by_id]
    if sum(not (first.away or second.away) for first, second in pairs) % 2:
        pairs.append((pairing.Standing(id=-1, score=-1.0), pairing.Standing(id=-2, score=-1.0)))
    return pairing.fixed_pairs_round(pairs, seed=seed)


def waits_for_partner(event: Event, user_id: int | None) -> bool:
    """In an event of fixed pairs, whether ``user_id`` cannot be seated now: they are in no
    pair, or their partner is not registered or is away (``_fixed_pairs_formed``'s rule; the
    page's notes say which, ``policies.notes``)."""
    if not event.partners_are_fixed_pairs or user_id is None:
        return False
    here = {each.user_id for each in event.registrations.filter(withdrawn_at__isnull=True)
            if not each.is_away}
    return not any(user_id in pair and set(pair) <= here
                   for pair in policies.fixed_pairs(event))


def advance(event_id: int) -> None:
    """Once every table of the round in play has played its deals: the round is over for
    everyone (its results and tables shown), and the next round is formed or the event ends.
    Idempotent: nothing changes while a table plays on, or twice.  An arena seats its
    waiting people instead, or ends (``events.arena.step``)."""
    if Event.objects.filter(pk=event_id, format=Event.Format.ARENA).exists():
        arena.step(event_id)
        return
    with transaction.atomic():
        event = _locked(event_id)
        if event.status != Event.Status.PLAYING:
            return
        current = event.event_rounds.filter(finished_at__isnull=True).first()
        if current is None:
            return
        playing = Table.objects.filter(event_table__round=current).exclude(
            status=Table.Status.FINISHED)
        if playing.exists():
            return
        current.finished_at = timezone.now()
        current.save(update_fields=["finished_at"])
        live.changed(event.pk)
        # The round is over for everyone: each table's replay may be seen from its traveller,
        # by whoever may see the event (a members-only one's stay with their players).
        if policies.open_to_everyone(event):
            Table.objects.filter(event_table__round=current).update(is_private=False)
        if current.number >= event.rounds:
            event.status = Event.Status.FINISHED
            event.finished_at = timezone.now()
            event.save(update_fields=["status", "finished_at"])
            policies.finished(event)
        else:
            _form_round(event, current.number + 1)


# How long after a round's time is up its tables may still be playing before the periodic
# command finishes them itself: the serving processes do it within seconds (the move clock's
# timers and sweep); this is for when none of them is there to look.
OVERDUE_AFTER = timedelta(minutes=1)


def finish_overdue_rounds(now=None) -> list[int]:
    """The periodic command's look at the clocks (``manage.py start_events``): every event
    table still playing whose time is up past ``OVERDUE_AFTER`` -- its round's (a Swiss round,
    an arena's end) or its own (an arena table's clock, ``arena.table_time_up``) -- has its
    deals finished here by the computer players, at once, and every such event goes on
    (``advance``: the round ended and the next formed, or an arena's people seated again or
    the arena ended).  What no serving process did -- a restart with nobody connected -- is
    done from the database.  Returns the tables finished here."""
    now = now or timezone.now()
    overdue = EventRound.objects.filter(finished_at__isnull=True,
                                        ends_at__lte=now - OVERDUE_AFTER)
    late = Table.objects.filter(status=Table.Status.PLAYING).filter(
        Q(event_table__round__in=overdue)
        | Q(event_table__isnull=False, event_table__round__finished_at__isnull=True,
            time_up_at__lte=now - OVERDUE_AFTER))
    # Before any is ended or finished: a round nobody plays ends with its clock too.
    event_ids = set(overdue.values_list("event_id", flat=True)) | set(
        late.values_list("event_table__round__event_id", flat=True))
    playing = list(late.values_list("pk", flat=True))
    for table_id in playing:
        Table.objects.filter(pk=table_id).update(computer_turn=True)
        computer_players.run_computer_players(table_id, 0)
    followups.process_due()  # each table's end, heard by ``on_table_finished``
    for event_id in sorted(event_ids):
        advance(event_id)
    return playing


def on_table_finished(sender, table, **kwargs) -> None:
    """``games.signals.table_finished``: an event's table may end its round."""
    event_id = (EventTable.objects.filter(table=table)
                .values_list("round__event_id", flat=True).first())
    if event_id is not None:
        advance(event_id)


def tables_of(user, event: Event) -> dict[int, int]:
    """The round number → table id of each table ``user`` sat at in ``event``."""
    found: dict[int, int] = defaultdict(int)
    for number, table_id in (EventTable.objects.filter(round__event=event,
                                                       table__seats__user=user)
                             .values_list("round__number", "table_id")):
        found[number] = table_id
    return dict(found)
