"""The versions of a table a process holds, and what one seat (or a spectator) is shown of
each: the one place hidden information is filtered.

The engine's ``view(seat)`` decides what a seat may know of the hand; this module adds only
public facts (players, scores, version).  The HTML table (``games.presentation``), the JSON
protocol and the computer players are all built from this dict and nothing else.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cached_property
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from games.access import seat_held_by
from games.computer_names import computer_name
from games.models import Table, takeover_at, time_is_up, waits_for_its_people
from games.rules.records import replay_hand


def current_state(table: Table):
    """The engine state of the hand in play, rebuilt from its record (None before the deal)."""
    if not table.current:
        return None
    return replay_hand(table.current)


@dataclass(frozen=True)
class SeatFacts:
    position: int
    user_id: int | None
    username: str
    display_name: str
    computer_level: str
    away_since: datetime | None
    former_player: bool = False

    @property
    def free(self) -> bool:
        return self.user_id is None and not self.computer_level and not self.former_player


def player_name(seat: SeatFacts, names_key: int) -> str:
    """``names_key``: the table id computer players are named by (``Table.computer_names_key``)."""
    if seat.user_id:
        return seat.display_name or seat.username
    if seat.computer_level:
        return computer_name(names_key, seat.position, seat.computer_level)
    if seat.former_player:
        return _("former player")
    return ""


def presence_of(seat: SeatFacts, grace_seconds: int, now: datetime) -> dict[str, Any]:
    """Whether a person has dropped off, and when (or since when) a computer plays for them."""
    takeover = takeover_at(seat.user_id, seat.away_since, grace_seconds)
    if takeover is None:
        return {"away": False}
    return {"away": True, "takeover_at": takeover.isoformat(),
            "takeover_in": max(0, round((takeover - now).total_seconds())),
            "computer_playing": now >= takeover}


def move_clock(deadline: datetime | None, now: datetime) -> dict[str, Any]:
    """When the turn in play runs out and how many seconds are left (a computer then makes the
    move for the person to act), or None at a table without a time limit."""
    if deadline is None:
        return {"move_deadline": None, "move_in": None}
    return {"move_deadline": deadline.isoformat(),
            "move_in": max(0, round((deadline - now).total_seconds()))}


def time_clock(time_up_at: datetime | None, now: datetime) -> dict[str, Any]:
    """When the table's time is up (an event's round), the seconds left and whether it is up
    already; None at a table without one."""
    if time_up_at is None:
        return {"time_up_at": None, "time_up_in": None, "time_up": False}
    return {"time_up_at": time_up_at.isoformat(),
            "time_up_in": max(0, round((time_up_at - now).total_seconds())),
            "time_up": time_is_up(time_up_at, now)}


@dataclass(frozen=True)
class TableSnapshot:
    """Everything of one version of a table that any seat's view is made from.

    Read once per version and process, then shared by every socket of the table in that
    process: each socket only asks the engine for its own seat's view.
    """

    table_id: int
    game: str
    version: int
    status: str
    created_by: int
    grace_seconds: int
    trick_pause_ms: int  # how long a finished trick stays whole (the creator's choice)
    house_rules: dict  # the table's overrides of its game's rules (public: the create form's)
    summary: dict
    seats: tuple[SeatFacts, ...]
    hands_played: int  # finished hands, redeals included: the last one's number
    deals_played: int  # the hands that were played out (a redeal is not a deal played)
    last_hand: dict | None
    # The hand in play: its record and the engine's state (never changed once cached: a play
    # applies to a copy), or None between hands.
    record: dict | None
    state: Any
    rematch_table: int | None = None  # the table of the rematch, once a player asked for one
    computer_names_of: int | None = None  # as ``Table.computer_names_of``: a rematch's origin
    move_seconds: int = 0  # the time for a move (0: none)
    move_deadline: datetime | None = None  # when the turn in play runs out
    # A finished table's hands as (number, engine result), in order: its end shows the score
    # hand by hand.  Empty while it is played (every hand would be read at every change).
    hand_results: tuple[tuple[int, dict], ...] = ()
    # A table of preset deals (an event's) plays on for its absent people: never paused.
    plays_on: bool = False
    time_up_at: datetime | None = None  # when the table's time is up (an event's round)
    return_to: str = ""  # where its players go once it has finished (an event's page)

    def seat_of(self, user) -> int | None:
        return seat_held_by(self.seats, user)

    def players(self, now: datetime | None = None) -> list[dict[str, Any]]:
        """Who sits where; with ``now``, whether each person is at the table as of then (a
        countdown, a computer playing for them); without, names only (``"away": False``), as
        a finished hand's replay shows them."""
        return [{"seat": s.position, "name": player_name(s, self.computer_names_of or self.table_id),
                 "computer": s.computer_level or None, "free": s.free,
                 **(presence_of(s, self.grace_seconds, now) if now else {"away": False})}
                for s in self.seats]

    @cached_property
    def paused(self) -> bool:
        """Once a version, not once a seat: the same for every seat's view."""
        return self.status == Table.Status.PLAYING and waits_for_its_people(
            self.seats, self.record, self.plays_on)

    def view(self, seat: int | None) -> dict[str, Any]:
        now = timezone.now()
        return {
            "table": self.table_id,
            "game": self.game,
            "version": self.version,
            "status": self.status,
            "paused": self.paused,
            "created_by": self.created_by,
            "seat": seat,
            "players": self.players(now),
            "house_rules": self.house_rules,
            "trick_pause": self.trick_pause_ms / 1000,
            "hands_played": self.hands_played,
            "deals_played": self.deals_played,
            "summary": self.summary or None,
            "hand": self.state.view(seat) if self.state is not None else None,
            "last_hand": self.last_hand,
            "rematch_table": self.rematch_table,
            "return_to": self.return_to,
            "move_seconds": self.move_seconds,
            **move_clock(self.move_deadline, now),
            **time_clock(self.time_up_at, now),
            "hand_results": [{"number": n, "result": r} for n, r in self.hand_results],
        }


def seat_facts(seat) -> SeatFacts:
    """What a ``Seat`` row (its user and their profile read with it) says of its player."""
    user = seat.user if seat.user_id else None
    return SeatFacts(seat.position, seat.user_id, user.get_username() if user else "",
                     (getattr(getattr(user, "profile", None), "display_name", "") or "")
                     if user else "", seat.computer_level, seat.away_since, seat.former_player)


def seat_names(table: Table, seats) -> list[dict[str, Any]]:
    """Who sits where, names only, from ``Seat`` rows already read with their users and
    profiles: what ``words.Names`` needs, without reading the table's snapshot (a list of
    many tables, as an event's traveller)."""
    return [{"seat": s.position, "name": player_name(seat_facts(s), table.computer_names_key)}
            for s in seats]


def build_snapshot(table: Table) -> TableSnapshot:
    seats = tuple(seat_facts(s) for s in table.seats.select_related("user__profile"))
    hands = list(table.hands.order_by("-number")[:1])
    redeals = table.hands.filter(result__redeal=True).count() if hands else 0
    finished = table.status == Table.Status.FINISHED and hands
    hand_results = tuple(table.hands.order_by("number").values_list("number", "result")) \
        if finished else ()
    return TableSnapshot(
        table_id=table.pk, game=table.game, version=table.version, status=table.status,
        created_by=table.created_by_id, grace_seconds=table.grace_seconds,
        trick_pause_ms=table.trick_pause_ms, house_rules=dict(table.rules or {}),
        summary=table.summary, seats=seats, hands_played=hands[0].number if hands else 0,
        deals_played=hands[0].number - redeals if hands else 0,
        last_hand=last_hand_view(hands[0]) if hands else None, record=table.current,
        state=current_state(table), rematch_table=table.rematch_table_id,
        computer_names_of=table.computer_names_of, move_seconds=table.move_seconds,
        move_deadline=table.move_deadline, hand_results=hand_results,
        plays_on=table.preset_deals is not None, time_up_at=table.time_up_at,
        return_to=table.return_to)


def table_view(table: Table, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator) of this table as it is now."""
    return build_snapshot(table).view(seat)


# Snapshots by (table id, version).  A version's content never changes once committed (every
# change to a table bumps its version under a compare-and-swap), so a cached snapshot is never
# stale for its own version; the cache only has to forget old versions.  Per table it keeps the
# newest version and the one before (the base of ``snapshot_after_play``); past SNAPSHOTS_KEPT
# the least recently added go.  Few entries matter: every object kept here is walked by each of
# Python's full garbage collections, which pause the whole process.
_snapshots: OrderedDict[tuple[int, int], TableSnapshot] = OrderedDict()
_snapshots_lock = threading.Lock()
SNAPSHOTS_KEPT = 2048


def peek_snapshot(table_id: int, version: int) -> TableSnapshot | None:
    """That version of the table if this process already has it; never touches the database
    (so the event loop may call it)."""
    with _snapshots_lock:
        return _snapshots.get((table_id, version))


def remember_snapshot(snapshot: TableSnapshot) -> None:
    """Keep a committed version for the sockets of this process (call it after the commit)."""
    with _snapshots_lock:
        _snapshots[(snapshot.table_id, snapshot.version)] = snapshot
        _snapshots.pop((snapshot.table_id, snapshot.version - 2), None)
        while len(_snapshots) > SNAPSHOTS_KEPT:
            _snapshots.popitem(last=False)


def cached_snapshot(table_id: int, version: int | None = None) -> TableSnapshot | None:
    """The table's snapshot, read from the database at most once per version in this process.

    ``version`` (from a group message) lets a socket skip the database when another socket of
    the same table already read that version.  None when the table does not exist.
    """
    if version is not None:
        hit = peek_snapshot(table_id, version)
        if hit is not None:
            return hit
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    hit = peek_snapshot(table.pk, table.version)
    if hit is not None:
        return hit
    snapshot = snapshot_after_play(table) or build_snapshot(table)
    remember_snapshot(snapshot)
    return snapshot


def snapshot_after_play(table: Table) -> TableSnapshot | None:
    """The snapshot of ``table`` built from the one before it, when the only change between
    the two versions is one action of the same hand (the common case: a card played in another
    process).  Seats, finished hands and scores are then unchanged, so the table row alone is
    enough: no other query, and one engine step instead of replaying the whole record.
    """
    last = table.last_action
    if not last or last.get("version") != table.version - 1 or not table.current:
        return None
    previous = peek_snapshot(table.pk, table.version - 1)
    if previous is None or previous.record is None or previous.state is None:
        return None
    actions = table.current.get("actions") or []
    if (len(actions) != len(previous.record["actions"]) + 1
            or table.current.get("hands") != previous.record.get("hands")
            or table.status != previous.status or table.summary != previous.summary):
        return None  # a new deal, a finished hand or a seat change: read everything
    state = previous.state.copy()
    state.apply(actions[-1]["action"])
    return replace(previous, version=table.version, record=table.current, state=state,
                   move_deadline=table.move_deadline)


def forget_snapshots() -> None:
    """Drop every cached snapshot (tests: a new test database reuses table ids)."""
    with _snapshots_lock:
        _snapshots.clear()


def last_hand_view(hand) -> dict[str, Any]:
    """The last finished hand as everyone may now see it: its result and all four hands."""
    return finished_hand_view(hand.number, replay_hand(hand.record))


def finished_hand_view(number: int, state) -> dict[str, Any]:
    """``last_hand_view`` from the engine state of the finished hand (with its kitty and the
    declarer's discards where the game has them)."""
    view = state.view(None)
    return {"number": number, "result": view.get("result"), "deal": view.get("deal"),
            "tricks": view.get("tricks"), "kitty": view.get("kitty"),
            "discards": view.get("discards")}
