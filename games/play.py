"""Playing: an action of a seat applied by the engine, on a version the process holds (one
statement) or under the row lock; the end of a hand (scored, stored, the next deal or the end
of the table).  Only a seat's own player, or its computer player, acts for it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games import broadcasting, computer_turns, signals
from games.access import seat_held_by
from games.dealing import deal_new_hand, presets_played
from games.engine_messages import engine_message
from games.models import Hand, Seat, Table, computer_plays, next_move_deadline, time_is_up
from games.rules import game_module
from games.rules.base import HandState
from games.rules.errors import WhistError
from games.rules.records import make_automatic_actions
from games.snapshots import (
    current_state,
    finished_hand_view,
    peek_snapshot,
    remember_snapshot,
)
from games.versions import TableError, bump, locked, rules_of


def action_from_message(kind: object, action: object, cards: object) -> object:
    """A discard chosen with checkboxes becomes the grammar's ``discard C C ...`` string."""
    if kind == "discard":
        if isinstance(cards, str):
            cards = [cards]
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            return None
        return "discard " + " ".join(sorted(cards))
    return action


@dataclass
class Outcome:
    version: int
    hand_finished: bool
    repeated: bool = False


NOT_PLAYING = _("You are not playing at this table.")
TIME_UP = _("Time is up at this table: computer players finish its deals.")


@dataclass(frozen=True)
class Actor:
    """Who asks to act: a person (their seat is looked up) or the computer player of a seat
    (allowed only while a computer plays that seat)."""

    user: object = None
    computer_seat: int | None = None

    def seat_among(self, seats, grace_seconds: int, move_deadline=None,
                   to_act: int | None = None) -> int | None:
        """The seat this actor may act for among ``seats`` (Seat rows or snapshot facts);
        ``move_deadline`` counts for the seat ``to_act`` only (the turn that runs out)."""
        if self.computer_seat is None:
            return seat_held_by(seats, self.user)
        seat = next((s for s in seats if s.position == self.computer_seat), None)
        deadline = move_deadline if seat is not None and seat.position == to_act else None
        if seat is None or not computer_plays(seat, grace_seconds, move_deadline=deadline):
            return None
        return seat.position


@dataclass(frozen=True)
class Applied:
    """An action applied to a hand: the engine state after it, the record with it appended,
    what ``Table.last_action`` keeps of it, and whether a computer plays the next turn."""

    state: HandState
    record: dict
    last_action: dict
    computer_next: bool


def apply_action(state, record: dict, seats, grace_seconds: int, seat: int, action: str,
                 version: int, next_deadline=None) -> Applied:
    """The one way an action is applied, by both routes of ``play``: on ``state`` (a copy the
    caller owns), for ``seat``, made on ``version``; ``next_deadline``: when the next turn runs
    out (run out already once the table's time is up: a computer makes it).  Raises the
    engine's ``WhistError`` for an illegal action, having changed nothing the caller shares."""
    state.apply(action)
    record = make_automatic_actions(state, _with_action(record, seat, action))
    next_seat = None if state.complete else state.to_act
    computer_next = next_seat is not None and computer_plays(
        seats[next_seat], grace_seconds, move_deadline=next_deadline)
    return Applied(state, record, _last_action(seat, action, version), computer_next)


def play(table_id: int, user, action: object, version: object) -> Outcome:
    """Apply ``action`` for the seat ``user`` holds, made against ``version``.  Anyone without a
    seat (a watcher, an anonymous visitor) is refused before anything else is looked at, so no
    refusal can tell them about another seat's cards."""
    return _play(table_id, Actor(user=user), action, version)


def play_for_computer(table_id: int, position: int, action: object, version: object
                      ) -> Outcome:
    """The computer player of seat ``position`` acts (a computer seat, or a person's seat after
    their grace period ran out); refused when nobody's computer plays that seat."""
    return _play(table_id, Actor(computer_seat=position), action, version)


def parse_version(value: object) -> int | None:
    """The table version an action says it was made on: a JSON integer, or the ASCII digits a
    form sends (never ``int()`` of any text: "²" is a digit to ``str.isdigit``, not to int)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 <= value <= MAX_VERSION else None
    if isinstance(value, str) and VERSION_TEXT.fullmatch(value):
        return int(value)
    return None


MAX_VERSION = 2**31 - 1  # the column is a PostgreSQL integer
VERSION_TEXT = re.compile(r"[0-9]{1,9}")


def _play(table_id: int, actor: Actor, action: object, version: object) -> Outcome:
    if not isinstance(action, str) or not action or len(action) > 100:
        raise TableError(_("That is not an action."))
    version = parse_version(version)
    if version is None:
        raise TableError(_("The action must say which version of the table it was made on."))
    outcome = _play_on_snapshot(table_id, actor, action, version)
    if outcome is not None:
        return outcome
    with transaction.atomic():
        table = locked(table_id)
        seats = list(Seat.objects.filter(table=table))
        for each in seats:
            each.table = table  # the grace period is read from the table already loaded
        # Whose turn it is matters only to a computer acting on an overdue move (a person
        # without a seat is refused before the hand is looked at).
        state = current_state(table) if actor.computer_seat is not None else None
        seat = actor.seat_among(seats, table.grace_seconds, table.move_deadline,
                                state.to_act if state is not None else None)
        if seat is None:
            raise TableError(NOT_PLAYING, table.version)
        if actor.computer_seat is None and time_is_up(table.time_up_at):
            raise TableError(TIME_UP, table.version)
        if version != table.version:
            if table.last_action == _last_action(seat, action, version):
                # The same click sent again (a resend after a dropped connection): it was
                # applied once already; say so instead of refusing it.
                return Outcome(table.version, False, repeated=True)
            raise TableError(_("The table has moved on since that click: nothing was done."),
                             table.version)
        if state is None:
            state = current_state(table)
        if state is None or table.status != Table.Status.PLAYING:
            raise TableError(_("No hand is being played at this table."), table.version)
        if state.to_act != seat:
            raise TableError(_("It is not your turn."), table.version)
        # The next turn, of this hand or of the next deal, has its time from now.
        deadline = next_move_deadline(table.move_seconds, True, time_up_at=table.time_up_at)
        try:
            applied = apply_action(state, table.current, seats, table.grace_seconds, seat,
                                   action, version, next_deadline=deadline)
        except WhistError as exc:
            raise TableError(engine_message(exc), table.version) from None
        table.current, table.last_action = applied.record, applied.last_action
        finished = state.complete
        hand = _finish_hand(table, state) if finished else None
        # Written with the version: a computer's move that a killed process never made is
        # found again from the database (after a hand, the next deal's first turn may be one).
        table.computer_turn = table.status == Table.Status.PLAYING and (
            finished or applied.computer_next)
        table.move_deadline = deadline if table.status == Table.Status.PLAYING else None
        bump(table)
        _remember_after_play(table, version, state, hand)
        # Wake the computer players only when one of them (or a takeover) has the next turn;
        # after a hand, the next deal's first turn may be theirs.
        if table.computer_turn:
            computer_turns.wake_after_commit(table_id)
        computer_turns.watch_deadline_after_commit(table_id, table.move_deadline)
    return Outcome(table.version, finished)


def _with_action(record: dict, seat: int, action: str) -> dict:
    """The record is the state: the deal plus every action, appended as applied (a new dict:
    the record of a version may be shared by a cached snapshot)."""
    return {**record, "actions": [*record["actions"], {"seat": seat, "action": action}]}


def _last_action(seat: int, action: str, version: int) -> dict:
    """What ``Table.last_action`` keeps of an applied action, to recognise it when resent."""
    return {"seat": seat, "action": action, "version": version}


def _play_on_snapshot(table_id: int, actor: Actor, action: str, version: int
                      ) -> Outcome | None:
    """The common case of ``play`` in one statement: a legal action that does not end the
    hand, made on a version this process already holds (``games.snapshots``).

    The action is checked on a copy of that version's engine state, then one
    ``UPDATE ... WHERE version = <version>`` writes the next version: the same compare-and-swap
    as ``_bump``, so of two racing actions only one can succeed, in any process.  Anything else
    (no snapshot, not this seat's turn, an illegal action, the end of a hand, a table that
    moved on, a resend) returns None and goes through the locked path, which gives the answer.
    """
    snapshot = peek_snapshot(table_id, version)
    if (snapshot is None or snapshot.state is None or snapshot.record is None
            or snapshot.status != Table.Status.PLAYING):
        return None
    seat = actor.seat_among(snapshot.seats, snapshot.grace_seconds, snapshot.move_deadline,
                            snapshot.state.to_act)
    if seat is None or snapshot.state.to_act != seat or (
            actor.computer_seat is None and time_is_up(snapshot.time_up_at)):
        return None
    deadline = next_move_deadline(snapshot.move_seconds, hand_in_play=True,
                                  time_up_at=snapshot.time_up_at)
    try:  # on a copy: the cached state is shared, never changed
        applied = apply_action(snapshot.state.copy(), snapshot.record, snapshot.seats,
                               snapshot.grace_seconds, seat, action, version,
                               next_deadline=deadline)
    except WhistError:
        return None
    if applied.state.complete:
        return None  # scoring, the next deal and the signals live in the locked path
    next_version = version + 1
    # One statement, so no transaction of its own (autocommit); inside a caller's transaction
    # the callbacks below wait for its commit.
    updated = Table.objects.filter(pk=table_id, version=version).update(
        version=next_version, current=applied.record, last_action=applied.last_action,
        computer_turn=applied.computer_next, move_deadline=deadline)
    if not updated:
        return None
    after = replace(snapshot, version=next_version, record=applied.record, state=applied.state,
                    move_deadline=deadline)
    # Remembered only once committed: a rolled-back version must never be cached.
    transaction.on_commit(lambda: remember_snapshot(after))
    transaction.on_commit(lambda: broadcasting.broadcast(table_id, next_version))
    if applied.computer_next:
        computer_turns.wake_after_commit(table_id)
    computer_turns.watch_deadline_after_commit(table_id, deadline)
    return Outcome(next_version, False)


def _remember_after_play(table: Table, version: int, state, hand: Hand | None) -> None:
    """Once committed, keep the version this play made, built from the version it was made on
    when this process holds that one (a play changes no seat): at the end of a hand the
    sockets of this process then need no database read either."""
    previous = peek_snapshot(table.pk, version)
    if previous is None or table.status == Table.Status.FINISHED:
        return  # a finished table's end reads every hand's result: built from the database
    after = replace(
        previous, version=table.version, status=table.status, summary=table.summary,
        record=table.current, state=state if hand is None else current_state(table),
        move_deadline=table.move_deadline,
        hands_played=hand.number if hand else previous.hands_played,
        deals_played=previous.deals_played + (hand is not None and not hand.result.get("redeal")),
        last_hand=finished_hand_view(hand.number, state) if hand else previous.last_hand)
    transaction.on_commit(lambda: remember_snapshot(after))


def _finish_hand(table: Table, state) -> Hand:
    number = table.hands.count() + 1
    hand = Hand.objects.create(table=table, number=number, record=table.current,
                               result=state.result())
    signals.announce_after_commit("hand_finished", table, hand)
    chain, deals_played = _replay_chain(table)
    table.summary = chain.summary()
    if table.match_ends_it:  # an event's table playing a match: the match says
        over = chain.complete
    elif table.preset_deals is not None:  # an event's table: its deals, whatever the match says
        over = presets_played(table, number)
    else:
        over = chain.complete or (table.deals_limit is not None
                                  and deals_played >= table.deals_limit)
    if over:
        table.status = Table.Status.FINISHED
        table.current = None
        transaction.on_commit(lambda: broadcasting.broadcast_lobby())
        signals.announce_after_commit("table_finished", table)
    else:
        deal_new_hand(table, chain.next_dealer)
    return hand


def _replay_chain(table: Table):
    """The engine's match/session rebuilt from the finished hands (scores live in the engine),
    and how many deals were played: an all-pass redeal is a finished hand but not a deal
    played, so it never counts towards the table's number of deals.

    Each hand counts by its stored dealer and result, checked by the engine when it finished:
    ending a hand costs one short query, not replaying every hand of the evening.  At a table
    with preset deals the deals say who deals, and hands after the end of the engine's match
    are played but not counted in its summary (the event scores each deal).
    """
    module = game_module(table.game)
    rules = rules_of(table)
    chain = module.CHAIN(rules, first_dealer=0)
    deals_played = 0
    for dealer, result in table.hands.order_by("number").values_list("record__dealer", "result"):
        if table.preset_deals is not None:
            if chain.complete:
                break
            chain.next_dealer = dealer
        chain.add_result(dealer, result)
        deals_played += not result.get("redeal")
    return chain, deals_played
