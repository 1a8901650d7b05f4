"""Table actions: every change to a live table goes through here (zulip-style ``do_*``).

One action = one transaction: lock the table row, replay its current hand through the engine,
apply, append, bump the version; broadcast after commit.  An illegal, stale or repeated
action raises :class:`TableError` and changes nothing.
"""

from __future__ import annotations

import logging
import re
import secrets
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, replace

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import signals
from games.access import person_id, seat_held_by
from games.engine_messages import engine_message
from games.models import Hand, Seat, Table, new_invite_token
from games.rules import game_module
from games.rules.base import RulesError, WhistError
from games.rules.records import HAND_FORMAT
from games.views_state import (
    current_state,
    finished_hand_view,
    peek_snapshot,
    remember_snapshot,
)

logger = logging.getLogger(__name__)
LOBBY_GROUP = "lobby"


class TableError(Exception):
    """A refused table action; ``message`` is shown to the person at the table."""

    def __init__(self, message, version: int | None = None):
        self.message = message
        self.version = version
        super().__init__(str(message))


# -- reading -----------------------------------------------------------------------------------


def rules_of(table: Table):
    return game_module(table.game).Rules.from_overrides(table.rules)


def seat_of(table: Table, user) -> int | None:
    """The seat ``user`` holds at ``table`` (``games.access.seat_held_by``)."""
    return seat_held_by(table.seats.all(), user)


# -- creating and seating ----------------------------------------------------------------------


def create_table(user, game: str, rules: dict, *, is_private: bool = False,
                 deals_limit: int | None = None, grace_seconds: int = 60) -> Table:
    try:
        parsed = game_module(game).Rules.from_overrides(rules)
    except RulesError as exc:
        raise TableError(engine_message(exc)) from None
    with transaction.atomic():
        table = Table.objects.create(game=game, rules=parsed.overrides(), created_by=user,
                                     is_private=is_private, deals_limit=deals_limit,
                                     grace_seconds=grace_seconds)
        Seat.objects.bulk_create(Seat(table=table, position=p) for p in range(4))
        transaction.on_commit(lambda: broadcast_lobby())
    return table


def _locked(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError(_("This table does not exist.")) from None


def _seat_for_update(table: Table, position: int) -> Seat:
    if position not in (0, 1, 2, 3):
        raise TableError(_("There is no such seat."), table.version)
    return Seat.objects.select_for_update().get(table=table, position=position)


def take_seat(table_id: int, user, position: int) -> Table:
    with transaction.atomic():
        table = _locked(table_id)
        if table.status == Table.Status.FINISHED:
            raise TableError(_("This table has finished."), table.version)
        if Seat.objects.filter(table=table, user=user).exists():
            raise TableError(_("You already have a seat at this table."), table.version)
        seat = _seat_for_update(table, position)
        if seat.user_id is not None:
            raise TableError(_("That seat is taken."), table.version)
        if seat.bot_level and table.status != Table.Status.WAITING:
            raise TableError(_("A computer player is playing that seat."), table.version)
        seat.user, seat.bot_level = user, ""
        seat.seen_at, seat.away_since = timezone.now(), None  # present from now (the lease)
        seat.save(update_fields=["user", "bot_level", "seen_at", "away_since"])
        _start_if_full(table)
        _bump(table)
        transaction.on_commit(broadcast_lobby)  # the lobby shows who is seated
    return table


def add_bot(table_id: int, user, position: int, level: str = "normal") -> Table:
    with transaction.atomic():
        table = _locked(table_id)
        if table.created_by_id != person_id(user) and seat_of(table, user) is None:
            raise TableError(_("Only the players at this table can add computer players."),
                             table.version)
        if table.status != Table.Status.WAITING:
            raise TableError(_("The game has already started."), table.version)
        seat = _seat_for_update(table, position)
        if not seat.is_free:
            raise TableError(_("That seat is taken."), table.version)
        seat.bot_level = level
        seat.save(update_fields=["bot_level"])
        _start_if_full(table)
        _bump(table)
        transaction.on_commit(broadcast_lobby)  # the lobby shows who is seated
    return table


def leave_seat(table_id: int, user) -> Table:
    with transaction.atomic():
        table = _locked(table_id)
        if table.status != Table.Status.WAITING:
            raise TableError(_("You cannot leave a game in progress."), table.version)
        updated = Seat.objects.filter(table=table, user=user).update(user=None)
        if not updated:
            raise TableError(_("You have no seat at this table."), table.version)
        _bump(table)
        transaction.on_commit(broadcast_lobby)  # the lobby shows who is seated
    return table


def close_table(table_id: int, user) -> Table:
    """The creator ends the session.  The hand in play is not scored but stays stored."""
    with transaction.atomic():
        table = _locked(table_id)
        if table.created_by_id != person_id(user):
            raise TableError(_("Only the person who opened the table can close it."),
                             table.version)
        if table.status == Table.Status.FINISHED:
            raise TableError(_("This table has finished."), table.version)
        table.status = Table.Status.FINISHED
        _bump(table)
        transaction.on_commit(lambda: broadcast_lobby())
        transaction.on_commit(lambda: _announce(signals.table_finished, table))
    return table


def renew_invite(table_id: int, user) -> Table:
    """The creator replaces the invite link: the old one stops working, also for people who
    used it but did not sit down (their access was the link)."""
    with transaction.atomic():
        table = _locked(table_id)
        if table.created_by_id != person_id(user):
            raise TableError(_("Only the person who opened the table can renew its invite "
                               "link."), table.version)
        table.invite_token = new_invite_token()
        table.save(update_fields=["invite_token"])
    return table


def changed_in_admin(table_id: int) -> None:
    """A staff member edited the table or its seats in the admin: make that a new version, so
    open tables show it and no process keeps serving the version before the edit."""
    with transaction.atomic():
        table = _locked(table_id)
        _bump(table)
        transaction.on_commit(broadcast_lobby)


def _start_if_full(table: Table) -> None:
    if table.status == Table.Status.WAITING and not any(
            s.is_free for s in Seat.objects.filter(table=table)):
        table.status = Table.Status.PLAYING
        _deal(table, dealer=0)
        table_id = table.pk
        transaction.on_commit(lambda: schedule_bots(table_id))


def _deal(table: Table, dealer: int) -> None:
    """A new hand, shuffled with the OS's secure source; its record is the state from now on."""
    module = game_module(table.game)
    rules = rules_of(table)
    dealt = module.deal(rules, dealer, secrets.SystemRandom())
    record = {"format": HAND_FORMAT, "game": table.game, "rules": rules.overrides(),
              "dealer": dealer, "hands": dealt.hands, "actions": []}
    if dealt.kitty is not None:
        record["kitty"] = dealt.kitty
    table.current = record


def _bump(table: Table) -> None:
    """Save the table as its next version, only if nobody saved that version first.

    The row lock of ``_locked`` already serialises writers on PostgreSQL; this compare-and-swap
    on the version is what keeps two racing actions from both applying on a database without
    row locks (SQLite), and a second line of defence everywhere.
    """
    old = table.version
    table.version = old + 1
    updated = Table.objects.filter(pk=table.pk, version=old).update(
        version=table.version, status=table.status, current=table.current,
        summary=table.summary, last_action=table.last_action)
    if not updated:
        raise TableError(_("The table has moved on since that click: nothing was done."))
    table_id, version = table.pk, table.version
    transaction.on_commit(lambda: broadcast(table_id, version))


# -- playing -----------------------------------------------------------------------------------


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


@dataclass(frozen=True)
class Actor:
    """Who asks to act: a person (their seat is looked up) or the computer player of a seat
    (allowed only while a computer plays that seat)."""

    user: object = None
    computer_seat: int | None = None

    def seat_among(self, seats, grace_seconds: int) -> int | None:
        """The seat this actor may act for among ``seats`` (Seat rows or snapshot facts)."""
        if self.computer_seat is None:
            return seat_held_by(seats, self.user)
        seat = next((s for s in seats if s.position == self.computer_seat), None)
        if seat is None or not _seat_played_by_bot(seat, grace_seconds):
            return None
        return seat.position


def _seat_played_by_bot(seat, grace_seconds: int) -> bool:
    if isinstance(seat, Seat):
        return seat.played_by_bot()
    return seat.played_by_bot(grace_seconds)


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
        table = _locked(table_id)
        seats = list(Seat.objects.filter(table=table))
        for each in seats:
            each.table = table  # the grace period is read from the table already loaded
        seat = actor.seat_among(seats, table.grace_seconds)
        if seat is None:
            raise TableError(NOT_PLAYING, table.version)
        if version != table.version:
            if table.last_action == _last_action(seat, action, version):
                # The same click sent again (a resend after a dropped connection): it was
                # applied once already; say so instead of refusing it.
                return Outcome(table.version, False, repeated=True)
            raise TableError(_("The table has moved on since that click: nothing was done."),
                             table.version)
        state = current_state(table)
        if state is None or table.status != Table.Status.PLAYING:
            raise TableError(_("No hand is being played at this table."), table.version)
        if state.to_act != seat:
            raise TableError(_("It is not your turn."), table.version)
        try:
            state.apply(action)
        except WhistError as exc:
            raise TableError(engine_message(exc), table.version) from None
        table.current = _with_action(table.current, seat, action)
        table.last_action = _last_action(seat, action, version)
        finished = state.complete
        hand = _finish_hand(table, state) if finished else None
        _bump(table)
        _remember_after_play(table, version, state, hand)
        # Wake the computer players only when one of them (or a takeover) has the next turn.
        next_seat = None if finished else state.to_act
        if finished or (next_seat is not None and seats[next_seat].played_by_bot()):
            transaction.on_commit(lambda: schedule_bots(table_id))
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
    hand, made on a version this process already holds (``games.views_state``).

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
    seat = actor.seat_among(snapshot.seats, snapshot.grace_seconds)
    if seat is None or snapshot.state.to_act != seat:
        return None
    state = snapshot.state.copy()  # the cached state is shared: never change it
    try:
        state.apply(action)
    except WhistError:
        return None
    if state.complete:
        return None  # scoring, the next deal and the signals live in the locked path
    record = _with_action(snapshot.record, seat, action)
    next_version = version + 1
    # One statement, so no transaction of its own (autocommit); inside a caller's transaction
    # the callbacks below wait for its commit.
    updated = Table.objects.filter(pk=table_id, version=version).update(
        version=next_version, current=record,
        last_action=_last_action(seat, action, version))
    if not updated:
        return None
    after = replace(snapshot, version=next_version, record=record, state=state)
    # Remembered only once committed: a rolled-back version must never be cached.
    transaction.on_commit(lambda: remember_snapshot(after))
    transaction.on_commit(lambda: broadcast(table_id, next_version))
    next_seat = state.to_act
    if next_seat is not None and snapshot.seats[next_seat].played_by_bot(snapshot.grace_seconds):
        transaction.on_commit(lambda: schedule_bots(table_id))
    return Outcome(next_version, False)


def _remember_after_play(table: Table, version: int, state, hand: Hand | None) -> None:
    """Once committed, keep the version this play made, built from the version it was made on
    when this process holds that one (a play changes no seat): at the end of a hand the
    sockets of this process then need no database read either."""
    previous = peek_snapshot(table.pk, version)
    if previous is None:
        return
    after = replace(
        previous, version=table.version, status=table.status, summary=table.summary,
        record=table.current, state=state if hand is None else current_state(table),
        hands_played=hand.number if hand else previous.hands_played,
        last_hand=finished_hand_view(hand.number, state) if hand else previous.last_hand)
    transaction.on_commit(lambda: remember_snapshot(after))


def _finish_hand(table: Table, state) -> Hand:
    number = table.hands.count() + 1
    hand = Hand.objects.create(table=table, number=number, record=table.current,
                               result=state.result())
    transaction.on_commit(lambda: _announce(signals.hand_finished, table, hand=hand))
    chain, deals_played = _replay_chain(table)
    table.summary = chain.summary()
    limit_reached = table.deals_limit is not None and deals_played >= table.deals_limit
    if chain.complete or limit_reached:
        table.status = Table.Status.FINISHED
        table.current = None
        transaction.on_commit(lambda: broadcast_lobby())
        transaction.on_commit(lambda: _announce(signals.table_finished, table))
    else:
        _deal(table, chain.next_dealer)
    return hand


def _announce(signal, table: Table, **kwargs) -> None:
    """Send a games signal; a failing listener is logged, never allowed to disturb the table."""
    for receiver, response in signal.send_robust(sender=Table, table=table, **kwargs):
        if isinstance(response, Exception):
            logger.error("%s listener %r failed for table %s", signal, receiver, table.pk,
                         exc_info=response)


def _replay_chain(table: Table):
    """The engine's match/session rebuilt from the finished hands (scores live in the engine),
    and how many deals were played: an all-pass redeal is a finished hand but not a deal
    played, so it never counts towards the table's number of deals.

    Each hand counts by its stored dealer and result, checked by the engine when it finished:
    ending a hand costs one short query, not replaying every hand of the evening.
    """
    module = game_module(table.game)
    rules = rules_of(table)
    chain_class = getattr(module, "Match", None) or module.Session
    chain = chain_class(rules, first_dealer=0)
    deals_played = 0
    for dealer, result in table.hands.order_by("number").values_list("record__dealer", "result"):
        chain.add_result(dealer, result)
        deals_played += not result.get("redeal")
    return chain, deals_played


# -- computer players --------------------------------------------------------------------------

_bots_running = threading.local()


def schedule_bots(table_id: int) -> None:
    """Let computer players act after a short delay (none in tests), outside the request."""
    if getattr(_bots_running, "active", False):
        return  # the loop below is already playing this thread's bots
    delay = settings.BOT_DELAY_SECONDS
    if delay <= 0:
        run_bots(table_id, 0)
    else:
        threading.Thread(target=run_bots, args=(table_id, delay, True), daemon=True).start()


def run_bots(table_id: int, delay: float, own_thread: bool = False) -> None:
    from games.bot_runner import decide

    _bots_running.active = True
    try:
        for _ in range(1000):  # a whole match of bot turns at most; never loop forever
            table = Table.objects.filter(pk=table_id).first()
            if table is None or table.status != Table.Status.PLAYING:
                return
            state = current_state(table)
            if state is None or state.complete:
                return
            seat = Seat.objects.select_related("table").get(table=table, position=state.to_act)
            if not seat.played_by_bot():
                return
            if delay:
                time.sleep(delay)
            # The bot thinks in a worker process with a hard time limit (games.bot_runner),
            # from the seat's own view only.
            action = decide(state.view(state.to_act), seat.bot_level or "normal",
                            rules=state.rules.overrides())
            try:
                play_for_computer(table_id, seat.position, action, table.version)
            except TableError:
                continue  # someone else moved first: look again
    except Exception:
        logger.exception("computer player failed at table %s", table_id)
    finally:
        _bots_running.active = False
        if own_thread:
            connection.close()  # a thread of our own must not leave its connection open


# -- broadcasting ------------------------------------------------------------------------------


_deferred = threading.local()


@contextmanager
def broadcasts_deferred():
    """Collect this thread's table broadcasts instead of sending them.

    A consumer runs ``play`` on the database thread and sends the collected broadcasts itself
    from the event loop (``send_broadcasts``): the database thread does not wait for Redis.
    """
    pending: list[tuple[int, int]] = []
    _deferred.pending = pending
    try:
        yield pending
    finally:
        _deferred.pending = None


def _table_changed(version: int) -> dict:
    return {"type": "table.changed", "version": version}


def broadcast(table_id: int, version: int) -> None:
    """Tell every socket of the table that it changed: only the version, never a card."""
    pending = getattr(_deferred, "pending", None)
    if pending is not None:
        pending.append((table_id, version))
        return
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(f"table-{table_id}", _table_changed(version))


async def send_broadcasts(pending: list[tuple[int, int]]) -> None:
    """Send the broadcasts collected by ``broadcasts_deferred``, in order."""
    layer = get_channel_layer()
    if layer is not None:
        for table_id, version in pending:
            await layer.group_send(f"table-{table_id}", _table_changed(version))


def broadcast_lobby() -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(LOBBY_GROUP, {"type": "lobby.changed"})
