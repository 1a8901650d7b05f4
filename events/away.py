"""A person's own say in a running event (docs/events.md, "Pausing, leaving and joining
late"): pausing (not seated again until they come back), coming back, leaving for good (never
seated again).  Their results so far count whatever they choose, and a table they are at
plays on: they finish it, or a computer player covers their seat when they go, as at any
table.

The same three choices in both formats; only what "seated again" means differs.  In an arena
the paused and the gone never wait for a table (``events.arena.field_of``), and someone who
comes back waits from then, seated with the next table formed (``events.arena.step``).  In a
Swiss event they are away from each round formed meanwhile (``events.running``, through
``pairing.Standing.away``): neither seated nor sitting out, so a round they miss is scored as
a latecomer's missed rounds are: nothing, and no bye counted; someone who comes back is seated
from the next round formed.  A Swiss event's choices are open until its last round has
started: after that no round is left to miss."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events import live
from events.errors import EventError
from events.models import Event, Registration

PLAYING, PAUSED, LEFT = "playing", "paused", "left"


def state_of(registration: Registration | None) -> str | None:
    """Where a registered person stands in a running event: playing (seated, or to be),
    paused, or gone for good; None if they are not registered."""
    if registration is None or registration.withdrawn_at is not None:
        return None
    if registration.left_at is not None:
        return LEFT
    return PAUSED if registration.paused_at is not None else PLAYING


def last_round_started(event: Event) -> bool:
    """Whether a Swiss event has no round left to form: its last round is being played."""
    current = event.event_rounds.filter(finished_at__isnull=True).order_by("number").last()
    return current is None or current.number >= event.rounds


def _own_registration(event_id: int, user) -> tuple[Event, Registration]:
    """The event, locked, and ``user``'s registration in it, while it runs; a refusal in words
    otherwise."""
    event = Event.objects.select_for_update().get(pk=event_id)
    if event.status == Event.Status.REGISTRATION:
        raise EventError(_("The event has not started yet: if you cannot play, withdraw "
                           "instead."))
    if event.status == Event.Status.FINISHED:
        raise EventError(_("The event is over."))
    registration = event.registrations.filter(user=user, withdrawn_at__isnull=True).first()
    if registration is None:
        raise EventError(_("You are not registered for this event."))
    if registration.left_at is not None:
        raise EventError(_("You have left this event: you are not seated in it again."))
    if not event.is_arena and last_round_started(event):
        raise EventError(_("The last round has started: no round is left to pause or leave."))
    return event, registration


def pause(event: Event, user, now: datetime | None = None) -> None:
    """``user`` is not seated again until they come back.  A table they are at now plays on:
    they finish it, or a computer player covers their seat when they go, as at any table (the
    others at it keep their game; its deals are compared as any other's)."""
    with transaction.atomic():
        locked, registration = _own_registration(event.pk, user)
        if registration.paused_at is not None:
            raise EventError(_("You are already paused."))
        registration.paused_at = now or timezone.now()
        registration.save(update_fields=["paused_at"])
        live.changed(locked.pk)


def come_back(event: Event, user, now: datetime | None = None) -> list[int]:
    """``user`` is seated again: in an arena with the next table formed, waiting from now as
    someone whose table has just finished (so nobody who waited before them waits longer); in
    a Swiss event from the next round formed.  Returns the arena's tables opened at once."""
    from events import arena

    now = now or timezone.now()
    with transaction.atomic():
        locked, registration = _own_registration(event.pk, user)
        if registration.paused_at is None:
            raise EventError(_("You are not paused: you are seated with the next table "
                               "formed.") if locked.is_arena else
                             _("You are not paused: you are seated in the next round."))
        registration.paused_at = None
        registration.back_at = now
        registration.save(update_fields=["paused_at", "back_at"])
        live.changed(locked.pk)
    return arena.step(event.pk, now) if locked.is_arena else []


def leave(event: Event, user, now: datetime | None = None) -> None:
    """``user`` leaves the event for good: never seated in it again; their results so far stay
    in the standings.  A table they are at now plays on, as for a pause."""
    with transaction.atomic():
        locked, registration = _own_registration(event.pk, user)
        registration.left_at = now or timezone.now()
        registration.save(update_fields=["left_at"])
        live.changed(locked.pk)
