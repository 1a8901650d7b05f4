"""Presence and the grace period: whether a seated person is at the table, and when a computer
player steps in for someone who is gone.

Presence is a **lease**.  Each open socket of a seated person is a ``Presence`` row that its
process renews every ``PRESENCE_HEARTBEAT_SECONDS`` (one UPDATE per process, not per socket); a
row not renewed for ``PRESENCE_LEASE_SECONDS`` belongs to a process that died and no longer
counts.  A seat is *present* while it has a live row, or while its person was seen (took the
seat, opened or closed a socket) within the lease.

Marking a seat away is the only presence change others see, so it is the only one that makes a
new table version, and it waits ``PRESENCE_AWAY_AFTER_SECONDS`` after the last socket closed: a
page reload (close, then open) changes nothing.  Each seat has at most one pending check in a
process, replaced by the next and cancelled when the person comes back.  The sweep of every
process (``sweep``, run with the heartbeat) finds seats whose people vanished without a close:
a killed process, a socket that never opened after taking a seat over HTTP.

The same timers watch a turn with a time limit (``Table.move_deadline``): once it runs out
with a person still to act, a computer player makes that one move for them
(``check_move``), and the sweep finds a deadline whose timer died with its process
(``look_at_overdue_moves``).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import secrets
import threading
from datetime import datetime, timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max, Q
from django.utils import timezone

from games import computer_players
from games.access import seat_held_by
from games.models import Presence, Seat, Table, takeover_at, waits_for_its_people
from games.versions import bump, locked

logger = logging.getLogger(__name__)

# This process's name on its presence rows: its heartbeat renews them all in one statement.
PROCESS_ID = secrets.token_hex(8)


def lease_cutoff(now: datetime) -> datetime:
    return now - timedelta(seconds=settings.PRESENCE_LEASE_SECONDS)


def _live(seat: Seat, now: datetime) -> bool:
    return seat.presences.filter(seen_at__gte=lease_cutoff(now)).exists()


# -- the events ----------------------------------------------------------------------------


def connected(table_id: int, user, channel_name: str) -> None:
    """A seated person opened a socket: present at once, their seat back if they were away."""
    now = timezone.now()
    with transaction.atomic():
        table = locked(table_id)
        seats = list(Seat.objects.filter(table=table))
        position = seat_held_by(seats, user)
        if position is None:
            return
        seat = seats[position]
        Presence.objects.update_or_create(
            channel_name=channel_name,
            defaults={"seat": seat, "seen_at": now, "process": PROCESS_ID})
        seat.seen_at = now
        fields = ["seen_at"]
        came_back = seat.away_since is not None
        if came_back:
            seat.away_since = None
            fields.append("away_since")
        seat.save(update_fields=fields)
        wake_computer_players = came_back and table.status == Table.Status.PLAYING
        if came_back:
            # A table that waited for its people goes on, and a computer that played for this
            # person stops: the computer players' loop looks whose turn it is (recorded with
            # the change, so that a restart cannot lose it).
            table.computer_turn = table.computer_turn or wake_computer_players
            bump(table)  # the others saw "away": they see the person back
    cancel_check(table_id, position)
    if wake_computer_players:
        computer_players.schedule_computer_players(table_id, own_thread=True)


def seat_changed(table_id: int, user, channel_name: str, position: int | None) -> None:
    """A socket's person sat down or left while it was open: its row moves with them."""
    disconnected(table_id, channel_name)
    if position is not None:
        connected(table_id, user, channel_name)


def disconnected(table_id: int, channel_name: str) -> None:
    """A socket closed.  With the seat's last socket gone, look again a little later: only
    then, if the person has not come back, is the seat away (and a new version made)."""
    now = timezone.now()
    with transaction.atomic():
        presence = Presence.objects.select_related("seat").filter(
            channel_name=channel_name, seat__table_id=table_id).first()
        if presence is None:
            return
        seat = presence.seat
        presence.delete()
        if _live(seat, now):
            return
        Seat.objects.filter(pk=seat.pk).update(seen_at=now)  # nobody sees this: no version
        position = seat.position
    schedule_check(table_id, position, settings.PRESENCE_AWAY_AFTER_SECONDS)


def check_seat(table_id: int, position: int, now: datetime | None = None) -> None:
    """Mark the seat away if its person is gone, and wake the computer players once the grace
    period has run out; otherwise look again when something is due."""
    now = now or timezone.now()
    look_again_at = None
    wake_computer_players = False
    with transaction.atomic():
        table = locked(table_id)
        seat = Seat.objects.filter(table=table, position=position).first()
        if (seat is None or seat.user_id is None or seat.computer_level
                or table.status == Table.Status.FINISHED):
            return
        if _live(seat, now):
            return
        if seat.away_since is None:
            last_seen = _last_seen(seat)
            away_at = last_seen and last_seen + timedelta(
                seconds=settings.PRESENCE_AWAY_AFTER_SECONDS)
            if away_at is not None and away_at > now:
                look_again_at = away_at  # just closed: maybe a reload, give it a moment
            else:
                _mark_away(table, seat, last_seen or now)
        if seat.away_since is not None:
            takeover = takeover_at(seat.user_id, seat.away_since, table.grace_seconds)
            if now >= takeover:
                wake_computer_players = table.status == Table.Status.PLAYING
                if wake_computer_players and not table.computer_turn:
                    # Recorded with the takeover, so that a restart cannot lose the move.
                    Table.objects.filter(pk=table.pk).update(computer_turn=True)
            else:
                look_again_at = takeover
    if look_again_at is not None:
        schedule_check(table_id, position, (look_again_at - now).total_seconds())
    if wake_computer_players:
        computer_players.schedule_computer_players(table_id, own_thread=True)


def check_move(table_id: int, now: datetime | None = None) -> bool:
    """The turn in play ran out (``Table.move_deadline``) and a person is to act: mark the
    move a computer's, with the mark a restart finds (``Table.computer_turn``), and wake the
    computer players, who make that one move (``games.models.computer_plays``).  Before the
    deadline, look again then.  Whether a computer was asked to move."""
    now = now or timezone.now()
    look_again_at = None
    with transaction.atomic():
        table = locked(table_id)
        deadline = table.move_deadline
        if table.status != Table.Status.PLAYING or deadline is None or table.computer_turn:
            return False  # no limit, or a computer's move pending already
        if now < deadline:
            look_again_at = deadline
        elif waits_for_its_people(list(Seat.objects.filter(table=table)), table.current,
                                  table.preset_deals is not None):
            return False  # paused for its people: nobody plays on in their names
        else:
            Table.objects.filter(pk=table.pk).update(computer_turn=True)
    if look_again_at is not None:
        watch_move(table_id, look_again_at, now)
        return False
    computer_players.schedule_computer_players(table_id, own_thread=True)
    return True


def look_at_overdue_moves(now: datetime | None = None) -> list[int]:
    """Every table in play whose turn ran out with no computer marked to make the move (the
    timer of its deadline died with a killed process): the move is made now.  Returns the
    tables whose move was handed to a computer."""
    now = now or timezone.now()
    overdue = Table.objects.filter(status=Table.Status.PLAYING, computer_turn=False,
                                   move_deadline__lte=now).values_list("pk", flat=True)
    handed = []
    for table_id in list(overdue):
        try:
            if check_move(table_id, now):
                handed.append(table_id)
        except Exception:  # one broken table must not stop the look at the others
            logger.exception("move clock check failed at table %s", table_id)
    return handed


def _last_seen(seat: Seat) -> datetime | None:
    """The latest sign of the person: taking the seat, any socket's last renewal or close."""
    renewed = seat.presences.aggregate(last=Max("seen_at"))["last"]
    return max((t for t in (seat.seen_at, renewed) if t is not None), default=None)


def _mark_away(table: Table, seat: Seat, since: datetime) -> None:
    seat.away_since = since  # the grace period counts from the last sign of the person
    seat.save(update_fields=["away_since"])
    seat.presences.all().delete()  # leases of a dead process: they will never be renewed
    bump(table)


# -- the heartbeat and the sweep -----------------------------------------------------------


def renew_leases(now: datetime | None = None) -> int:
    """This process's sockets are alive: renew all their rows in one statement."""
    return Presence.objects.filter(process=PROCESS_ID).update(seen_at=now or timezone.now())


def sweep(now: datetime | None = None) -> list[tuple[int, int]]:
    """Find seats at tables in play whose person is gone without a close (their process died,
    or they took the seat and never opened a socket) and check each; returns them."""
    now = now or timezone.now()
    cutoff = lease_cutoff(now)
    gone = list(
        Seat.objects.filter(table__status=Table.Status.PLAYING, user__isnull=False,
                            computer_level="", away_since__isnull=True)
        .filter(Q(seen_at__isnull=True) | Q(seen_at__lt=cutoff))
        .exclude(presences__seen_at__gte=cutoff)
        .values_list("table_id", "position"))
    for table_id, position in gone:
        try:
            check_seat(table_id, position, now)
        except Exception:  # one broken table must not stop the sweep of the others
            logger.exception("presence check failed at table %s seat %s", table_id, position)
    return gone


def look_at_away_seats(now: datetime | None = None) -> list[tuple[int, int]]:
    """Check every away seat at a table in play where no computer is marked to act and no
    check is pending in this process: a takeover whose timer died with a killed process is
    made now (or its timer set again).  Returns the seats looked at."""
    now = now or timezone.now()
    with _checks_lock:
        pending = set(_checks)
    away = [key for key in Seat.objects.filter(
        table__status=Table.Status.PLAYING, table__computer_turn=False, user__isnull=False,
        computer_level="", away_since__isnull=False).values_list("table_id", "position")
        if key not in pending]
    for table_id, position in away:
        try:
            check_seat(table_id, position, now)
        except Exception:
            logger.exception("presence check failed at table %s seat %s", table_id, position)
    return away


def heartbeat_once() -> None:
    """The heartbeat: renew this process's leases, then find what a dead process left: seats
    whose people vanished, takeovers never made, timed moves run out, computer moves never
    made."""
    renew_leases()
    sweep()
    look_at_away_seats()
    look_at_overdue_moves()
    computer_players.resume_stalled(stalled_since_last_look=True)


_heartbeat_started: set[int] = set()
# The event loop of this process's sockets: pending checks wait on it (a timer handle each, no
# thread), and run on the database thread, whose broadcasts reach the sockets of this loop.
_loop: asyncio.AbstractEventLoop | None = None


def ensure_heartbeat() -> None:
    """Start this process's heartbeat on the running event loop (once per loop): called by
    every socket that opens, so a restarted process sweeps as soon as anyone is back."""
    global _loop
    loop = asyncio.get_running_loop()
    _loop = loop
    if id(loop) in _heartbeat_started or settings.PRESENCE_HEARTBEAT_SECONDS <= 0:
        return
    _heartbeat_started.add(id(loop))
    loop.create_task(_heartbeat_loop())


async def _heartbeat_loop() -> None:
    while True:
        await asyncio.sleep(settings.PRESENCE_HEARTBEAT_SECONDS)
        try:
            await database_sync_to_async(heartbeat_once)()
        except Exception:
            logger.exception("presence heartbeat failed")


# -- one pending check per seat ------------------------------------------------------------


_checks: dict[tuple[int, int], asyncio.TimerHandle | threading.Timer] = {}
_checks_lock = threading.Lock()
# The key of a table's move clock among the seats' checks: no seat has this position.
MOVE_CLOCK = -1


def watch_move(table_id: int, deadline: datetime, now: datetime | None = None) -> None:
    """Look at the table once its turn's ``deadline`` has passed (``check_move``); one pending
    look per table, replaced by the next turn's."""
    seconds = (deadline - (now or timezone.now())).total_seconds()
    schedule_check(table_id, MOVE_CLOCK, seconds)


def _run_check(key) -> None:
    table_id, position = key
    if position == MOVE_CLOCK:
        check_move(table_id)
    else:
        check_seat(table_id, position)


def schedule_check(table_id: int, position: int, after_seconds: float) -> None:
    """Look at the seat again in ``after_seconds`` (``position`` ``MOVE_CLOCK``: the table's
    move clock), replacing any check already pending for it (so a person who comes and goes
    leaves one pending check, not one per close)."""
    key = (table_id, position)
    delay = max(0.0, after_seconds) + 0.05
    loop = _loop
    if loop is not None and not loop.is_closed():
        # A fresh context: the caller is on the database thread, inside asgiref's executor,
        # and a check that inherited that context could not go back to it.
        loop.call_soon_threadsafe(_schedule_on_loop, loop, key, delay,
                                  context=contextvars.Context())
        return
    # No event loop in this process (a management command): a timer thread of its own.
    timer = threading.Timer(delay, _check_in_thread, args=(key,))
    timer.daemon = True
    _replace(key, timer)
    timer.start()


def _replace(key, pending) -> None:
    with _checks_lock:
        old = _checks.pop(key, None)
        _checks[key] = pending
    if old is not None:
        old.cancel()


def _forget(key, pending) -> bool:
    with _checks_lock:
        if _checks.get(key) is pending:
            del _checks[key]
            return True
    return False


def _schedule_on_loop(loop, key, delay: float) -> None:
    def fire():
        if _forget(key, handle):
            loop.create_task(_check_on_loop(key))

    handle = loop.call_later(delay, fire)
    _replace(key, handle)


async def _check_on_loop(key) -> None:
    try:
        await database_sync_to_async(_run_check)(key)
    except Exception:
        logger.exception("presence check failed at table %s seat %s", *key)


def _check_in_thread(key) -> None:
    with _checks_lock:
        if isinstance(_checks.get(key), threading.Timer):
            del _checks[key]
    try:
        _run_check(key)
    except Exception:
        logger.exception("presence check failed at table %s seat %s", *key)
    finally:
        connection.close()  # a thread of our own must not keep its connection


def cancel_check(table_id: int, position: int) -> None:
    with _checks_lock:
        pending = _checks.pop((table_id, position), None)
    if pending is not None:
        loop = _loop
        if isinstance(pending, asyncio.TimerHandle) and loop is not None \
                and not loop.is_closed():
            loop.call_soon_threadsafe(pending.cancel)
        else:
            pending.cancel()


def pending_checks() -> int:
    with _checks_lock:
        return len(_checks)


def cancel_all_checks() -> None:
    """Stop every pending check of this process (tests, shutdown)."""
    with _checks_lock:
        pending = list(_checks.values())
        _checks.clear()
    for each in pending:
        each.cancel()
