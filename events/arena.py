"""Running an arena (docs/events.md, "Arena"): for a set time, a table that finishes is formed
again at once from those waiting, by score.

Everything here is read from the database, nothing is held in memory: who waits is every
person registered who is not seated at one of the arena's tables still in play; when they
began waiting is when their last table played its last deal; whom they sat with is that
table's people; their score is their percentage so far.  So ``step`` -- the one thing that
re-seats the waiting, and ends the arena once its time is up and its last table has finished
-- is idempotent and may be called at any time, by anyone: on each table's end
(``games.signals.table_finished``, which may come twice), by the periodic command (a restart
leaves nobody stranded), by the event's page when a waiting person looks at it.  It holds the
event's row lock, so two tables finishing together are seated one after the other.

The arena is one ``EventRound`` (number 1, ending at the arena's end); each of its tables an
``EventTable`` whose ``first_deal`` says which block of ``deals_per_round`` deals of the
event's set it plays: the first block none of its people has played (``pairing.next_block``), so
nobody plays a deal twice, and players who keep pace play the same deals, compared.  The set
grows by a few blocks when a table needs one it does not have yet."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events import deals, live, pairing, policies
from events.models import (
    LEAST_MINUTES_PER_DEAL,
    MINUTES_PER_DEAL,
    Event,
    EventRound,
    EventTable,
    Registration,
)
from games import tables as game_tables
from games.models import Hand, Table
from games.rules import game_module

# How long a person waits for others before computer players fill their table, while other
# tables are in play (with no table in play nobody else will come: they are seated at once).
MAX_WAIT = timedelta(seconds=60)
# Blocks added to the deal set at a time when a table needs one beyond it.
BLOCKS_ADDED = 4


def arena_round(event: Event) -> EventRound | None:
    return event.event_rounds.filter(number=1).first()


def least_minutes(event: Event) -> int:
    """The time a new table needs before the arena's end: no table starts with less."""
    return event.deals_per_round * LEAST_MINUTES_PER_DEAL


def table_minutes(event: Event) -> int:
    """An arena table's own clock, in minutes: the usual pace for its deals
    (``MINUTES_PER_DEAL`` a deal, as a Swiss round's clock), never past the arena's end
    (``table_time_up``)."""
    return event.round_minutes_or_usual


def table_time_up(now: datetime, arena_ends_at: datetime, deals_count: int,
                  minutes: int) -> datetime | None:
    """When a table formed at ``now`` has its time up: its own clock (``minutes``) or the
    arena's end, whichever comes first; None when too little time is left for its
    ``deals_count`` deals (``LEAST_MINUTES_PER_DEAL`` a deal): no table is formed then.  So
    no table plays past the arena's end, and a table formed early ends by its own clock, its
    people seated again while the arena runs."""
    if arena_ends_at - now < timedelta(minutes=deals_count * LEAST_MINUTES_PER_DEAL):
        return None
    return min(now + timedelta(minutes=minutes), arena_ends_at)


def first_blocks(event: Event) -> int:
    """How many blocks of deals the set holds at the start: as many as a table keeping the
    usual pace (``MINUTES_PER_DEAL``) plays in the arena's time, and one more."""
    minutes = event.arena_minutes or 0
    return max(2, minutes // (event.deals_per_round * MINUTES_PER_DEAL) + 1)


def block_deals(event: Event, first_deal: int) -> range:
    return range(first_deal, first_deal + event.deals_per_round)


@dataclass
class Field:
    """The arena's people now: who waits, and each person's blocks played."""

    waiting: list[pairing.Waiting]
    played: dict[int, set[int]]
    in_play: int  # tables still playing
    opened: int  # tables opened so far


def field_of(event: Event, the_round: EventRound, people: Mapping[int, Registration],
             scores: Mapping[int, float]) -> Field:
    """Read from the database: everyone registered not seated at a table in play, and neither
    paused nor gone, waits (``pairing.arena_waiting``), since their last table's last deal (or
    the arena's start, or when they registered late or came back), apart from that table's
    people."""
    played: dict[int, set[int]] = {uid: set() for uid in people}
    # How many times each has held each direction (a side in Bid Whist, a seat otherwise), so
    # that their next table evens them out (``pairing.arena_tables``).
    directions: dict[int, list[int]] = {}
    sides = game_module(event.game).CHAIN.sides
    seated: set[int] = set()
    last: dict[int, tuple[datetime, frozenset[int]]] = {}
    event_tables = list(EventTable.objects.filter(round=the_round).select_related("table")
                        .only("first_deal", "table__status", "table_id")
                        .prefetch_related("table__seats"))
    ended = dict(Hand.objects.filter(table__event_table__round=the_round)
                 .values_list("table_id").annotate(Max("finished_at")))
    in_play = 0
    for event_table in event_tables:
        people_seats = [seat for seat in event_table.table.seats.all()
                        if seat.user_id is not None and not seat.computer_level]
        uids = frozenset(seat.user_id for seat in people_seats)
        for seat in people_seats:
            directions.setdefault(seat.user_id, [0] * sides)[
                deals.direction_of(event.game, seat.position)] += 1
        finished = event_table.table.status == Table.Status.FINISHED
        in_play += not finished
        for uid in uids:
            played.setdefault(uid, set()).add(event_table.first_deal or 0)
            if not finished:
                seated.add(uid)
            else:
                when = ended.get(event_table.table_id) or the_round.started_at
                if uid not in last or last[uid][0] < when:
                    last[uid] = (when, uids - {uid})
    entrants = []
    for uid, registration in people.items():
        when, mates = last.get(uid, (the_round.started_at, frozenset()))
        entrants.append(pairing.Entrant(
            id=uid, score=scores.get(uid, 0.0), seated=uid in seated,
            away=registration.is_away,
            last_table=mates, free_since=when.timestamp(),
            back_since=registration.back_at.timestamp() if registration.back_at else None,
            directions=tuple(directions.get(uid, ()))))
    return Field(pairing.arena_waiting(entrants), played, in_play, len(event_tables))


def start(event: Event) -> None:
    """The arena begins (``events.running.start``, the event's row locked): its deal set, its
    round (its clock), and everyone registered seated, computer players in the seats left."""
    chosen = deals.choose_deals(event.game, first_blocks(event) * event.deals_per_round,
                                rules=event.rules)
    event.deals = deals.to_document(chosen)
    event.save(update_fields=["deals"])
    now = timezone.now()
    the_round = EventRound.objects.create(
        event=event, number=1, started_at=now,
        ends_at=now + timedelta(minutes=event.arena_minutes or 0))
    _seat(event, the_round, _people(event), now, fill=True)


def step(event_id: int, now: datetime | None = None) -> list[int]:
    """Seat those waiting, or end the arena once its time is up and every table has finished.
    Idempotent; returns the ids of the ``games.Table`` opened."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event_id)
        if event.status != Event.Status.PLAYING or not event.is_arena:
            return []
        the_round = arena_round(event)
        if the_round is None or the_round.ends_at is None:
            return []
        now = now or timezone.now()
        playing = Table.objects.filter(event_table__round=the_round).exclude(
            status=Table.Status.FINISHED)
        if now >= the_round.ends_at:
            if not playing.exists():
                _finish(event, the_round, now)
            return []
        if _time_up_of_new_table(event, the_round, now) is None:
            return []  # too little time for a table's deals: they wait for the end
        opened = _seat(event, the_round, _people(event), now)
        if opened:
            live.changed(event.pk)  # those waiting have a table
        return opened


def _time_up_of_new_table(event: Event, the_round: EventRound,
                          now: datetime) -> datetime | None:
    assert the_round.ends_at is not None
    return table_time_up(now, the_round.ends_at, event.deals_per_round, table_minutes(event))


def _people(event: Event) -> dict[int, Registration]:
    """The registrations not withdrawn, by user id (paused and gone people among them: they
    are not seated, ``field_of``)."""
    return {each.user_id: each for each in
            event.registrations.filter(withdrawn_at__isnull=True).select_related("user")}


def _seat(event: Event, the_round: EventRound, people: Mapping[int, Registration], now: datetime,
          fill: bool = False) -> list[int]:
    from events.results import arena_scores

    time_up_at = _time_up_of_new_table(event, the_round, now)
    if time_up_at is None:
        return []
    found = field_of(event, the_round, people, arena_scores(event) if not fill else {})
    if not found.waiting:
        return []
    size = game_module(event.game).SEATS
    seating = pairing.arena_seating(found.waiting, size=size, partnership=deals.is_partnership(event.game),
                     seed=event.seed + found.opened, now=now.timestamp(),
                     others_in_play=found.in_play > 0,
                     max_wait=MAX_WAIT.total_seconds(), fill=fill)
    opened = []
    for number, players in enumerate(seating.tables, start=found.opened + 1):
        first = pairing.next_block([found.played.get(uid, set()) for uid in players
                            if isinstance(uid, int) and uid > 0], event.deals_per_round)
        _have_deals(event, first + event.deals_per_round)
        chosen = [event.deals["deals"][index] for index in block_deals(event, first)]
        # Each table has a clock of its own, up at the arena's end at the latest
        # (``table_time_up``): computer players then finish its deals at once, as at a Swiss
        # round's end (``games.Table.time_up_at``; ``running.finish_overdue_rounds``).
        table = game_tables.open_preset_table(
            event.game, event.rules, chosen, [people[uid].user if isinstance(uid, int) and
                                              uid > 0 else None for uid in players],
            level=event.computer_level, move_seconds=event.move_seconds,
            time_up_at=time_up_at, return_to=event.get_absolute_url())
        EventTable.objects.create(round=the_round, number=number, table=table,
                                  first_deal=first)
        opened.append(table.pk)
    return opened


def _have_deals(event: Event, count: int) -> None:
    """The event's deal set holds at least ``count`` deals: blocks added when it does not (the
    deals already there stay as they are: deal ``i`` is still dealt by seat ``i mod SEATS``)."""
    held = len(event.deals["deals"])
    if held >= count:
        return
    wanted = count + (BLOCKS_ADDED - 1) * event.deals_per_round
    more = deals.to_document(deals.choose_deals(event.game, wanted, rules=event.rules))
    event.deals = {**event.deals, "deals": event.deals["deals"] + more["deals"][held:]}
    event.save(update_fields=["deals"])


def _finish(event: Event, the_round: EventRound, now: datetime) -> None:
    """The arena is over: every table's play may be seen from the travellers (by whoever may
    see the event: ``policies.open_to_everyone``), and the standings are final."""
    the_round.finished_at = now
    the_round.save(update_fields=["finished_at"])
    live.changed(event.pk)
    if policies.open_to_everyone(event):
        Table.objects.filter(event_table__round=the_round).update(is_private=False)
    event.status = Event.Status.FINISHED
    event.finished_at = now
    event.save(update_fields=["status", "finished_at"])
    policies.finished(event)


def step_all(now: datetime | None = None) -> list[int]:
    """The periodic command's look at every arena in play: the waiting seated (after a
    restart, or past their longest wait), the arenas whose time is up ended."""
    opened = []
    for event_id in Event.objects.filter(status=Event.Status.PLAYING,
                                         format=Event.Format.ARENA).values_list("pk",
                                                                                 flat=True):
        opened += step(event_id, now)
    return opened


def current_table(event: Event, user_id: int) -> EventTable | None:
    """The arena table ``user_id`` is seated at now (not finished), if any."""
    return (EventTable.objects.filter(round__event=event, table__seats__user_id=user_id)
            .exclude(table__status=Table.Status.FINISHED).select_related("table").first())


def deals_played_by(event: Event, user_id: int) -> set[int]:
    """The deals (indexes in the set) ``user_id`` has finished at the arena's tables."""
    found: set[int] = set()
    if user_id is None:
        return found
    for first, number in Hand.objects.filter(
            table__event_table__round__event=event,
            table__seats__user_id=user_id).values_list("table__event_table__first_deal",
                                                       "number"):
        found.add((first or 0) + number - 1)
    return found


def deals_played(event: Event) -> set[int]:
    """The deals finished at one table at least."""
    return {(first or 0) + number - 1 for first, number in Hand.objects.filter(
        table__event_table__round__event=event).values_list(
        "table__event_table__first_deal", "number")}


# -- joining late, and the page's look -----------------------------------------------------


def late_entry_refusal(event: Event, the_round: EventRound | None, now: datetime) -> str | None:
    """Why nobody may join this running arena now, in words, or None: a person may while a
    table's deals still fit in the time left (``least_minutes``)."""
    if the_round is None or the_round.ends_at is None:
        return str(_("The arena is not open to newcomers."))
    if the_round.ends_at - now < timedelta(minutes=least_minutes(event)):
        return str(_("Too little time is left in the arena for another table: it is too late "
                     "to join."))
    return None


def may_seat(event: Event, user_id: int, now: datetime) -> bool:
    """Whether ``step`` may seat ``user_id`` now, so that their page need not wait for the
    periodic command: they wait (no table in play) and have waited the longest wait, or no
    table is in play at all.  A cheap look, so that a waiting page read again and again does
    not score the arena each time."""
    registration = event.registrations.filter(user_id=user_id).first()
    if registration is None or registration.withdrawn_at is not None or registration.is_away:
        return False  # not registered, paused or gone: never seated
    tables = Table.objects.filter(event_table__round__event=event).exclude(
        status=Table.Status.FINISHED)
    if tables.filter(seats__user_id=user_id).exists():
        return False
    if not tables.exists():
        return True
    last = Hand.objects.filter(table__event_table__round__event=event,
                               table__seats__user_id=user_id).aggregate(Max("finished_at"))
    ended = max((when for when in (last["finished_at__max"],
                                   registration.back_at if registration else None) if when),
                default=None)
    return ended is None or now - ended >= MAX_WAIT
