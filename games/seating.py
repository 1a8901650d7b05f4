"""Opening, seating and closing tables: who sits where, computer players added before the game,
the first deal when the last seat fills, the creator closing the table or renewing its invite
link.  Each is one transaction through ``games.versions``.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import broadcasting, computer_turns, registry, signals
from games.access import is_host, person_id
from games.dealing import deal_new_hand
from games.engine_messages import engine_message
from games.models import (
    PUBLIC_MOVE_SECONDS,
    HandReview,
    Seat,
    Table,
    default_trick_pause_ms,
    new_invite_token,
    next_move_deadline,
)
from games.rules import game_module
from games.rules.errors import RulesError
from games.versions import TableError, bump, locked, seat_for_update, seat_of


def create_table(user, game: str, rules: dict, *, is_private: bool = False,
                 deals_limit: int | None = None, grace_seconds: int = 60,
                 trick_pause_ms: int | None = None, move_seconds: int | None = None,
                 chat_during_play: bool = False) -> Table:
    """``move_seconds``: the time for each move (0: none); None gives a public table
    ``PUBLIC_MOVE_SECONDS`` and a private one none."""
    if move_seconds is None:
        move_seconds = 0 if is_private else PUBLIC_MOVE_SECONDS
    try:
        parsed = game_module(game).Rules.from_overrides(rules)
    except RulesError as exc:
        raise TableError(engine_message(exc)) from None
    with transaction.atomic():
        table = Table.objects.create(game=game, rules=parsed.overrides(), created_by=user,
                                     is_private=is_private, deals_limit=deals_limit,
                                     grace_seconds=grace_seconds,
                                     chat_during_play=chat_during_play,
                                     trick_pause_ms=(default_trick_pause_ms()
                                                     if trick_pause_ms is None
                                                     else trick_pause_ms),
                                     move_seconds=move_seconds)
        Seat.objects.bulk_create(Seat(table=table, position=p)
                                for p in range(registry.game(game).seats))
        transaction.on_commit(lambda: broadcasting.broadcast_lobby())
    return table


def play_now(user, game: str, level: str = "normal") -> Table:
    """One tap to a game: a private table of ``game`` with its usual house rules, the person in
    the first seat and computer players of ``level`` in the others, dealt at once.  All or
    nothing: one transaction."""
    with transaction.atomic():
        table = create_table(user, game, {}, is_private=True)
        take_seat(table.pk, user, 0)
        fill_seats(table.pk, user, level)
    return table


def open_preset_table(game: str, rules: dict, deals: list[dict], players, *,
                      level: str = "normal", grace_seconds: int = 60,
                      move_seconds: int = 0, time_up_at=None, return_to: str = "",
                      match_ends_it: bool = False) -> Table:
    """A private table that plays ``deals`` in order and then stops (``Table.preset_deals``,
    dealt by ``games.dealing``), with ``players`` in its seats in order (None: a computer player
    of ``level``), dealt at once; ``match_ends_it``: it stops when its match ends instead,
    playing on with shuffled deals if the match outlasts ``deals`` (``Table.match_ends_it``);
    ``time_up_at``: when its time is up, computer players then
    finishing its deals (``Table.time_up_at``); ``return_to``: the address its players go to
    once it has finished (``Table.return_to``: no rematch).  Nobody opened it: nobody may close it or watch
    it but those seated (``games.access.can_view``).  An event's table (docs/events.md): events call this,
    games never imports them.  All or nothing: one transaction."""
    players = list(players)
    if not deals:
        raise TableError(_("A table of preset deals needs at least one deal."))
    if len(players) != registry.game(game).seats:
        raise TableError(_("There is no such seat."))
    with transaction.atomic():
        table = create_table(None, game, rules, is_private=True,
                             deals_limit=None if match_ends_it else len(deals),
                             grace_seconds=grace_seconds, move_seconds=move_seconds)
        Table.objects.filter(pk=table.pk).update(preset_deals=deals, time_up_at=time_up_at,
                                                 return_to=return_to, match_ends_it=match_ends_it)
        table = locked(table.pk)
        now = timezone.now()
        seats = list(Seat.objects.select_for_update().filter(table=table))
        for seat, player in zip(seats, players, strict=True):
            if player is None:
                seat.computer_level = level
            else:
                seat.user, seat.seen_at = player, now
        Seat.objects.bulk_update(seats, ["user", "computer_level", "seen_at"])
        _start_if_full(table)
        bump(table)
    return table


def take_seat(table_id: int, user, position: int) -> Table:
    with transaction.atomic():
        table = locked(table_id)
        if table.status == Table.Status.FINISHED:
            raise TableError(_("This table has finished."), table.version)
        if Seat.objects.filter(table=table, user=user).exists():
            raise TableError(_("You already have a seat at this table."), table.version)
        seat = seat_for_update(table, position)
        if seat.user_id is not None:
            raise TableError(_("That seat is taken."), table.version)
        if seat.computer_level and table.status != Table.Status.WAITING:
            raise TableError(_("A computer player is playing that seat."), table.version)
        seat.user, seat.computer_level = user, ""
        seat.seen_at, seat.away_since = timezone.now(), None  # present from now (the lease)
        seat.save(update_fields=["user", "computer_level", "seen_at", "away_since"])
        _start_if_full(table)
        bump(table)
        transaction.on_commit(broadcasting.broadcast_lobby)  # the lobby shows who is seated
    return table


ONLY_THE_HOST = _("Only the host (who opened the table) can add computer players.")


def _refuse_unless_host(table: Table, user) -> None:
    """Computer players are the host's to add: a guest never starts the host's table with
    computers in the seats the host kept for people (``games.access.is_host``)."""
    if not is_host(table.created_by_id, user, seat_of(table, user) is not None):
        raise TableError(ONLY_THE_HOST, table.version)


def add_computer_player(table_id: int, user, position: int, level: str = "normal") -> Table:
    with transaction.atomic():
        table = locked(table_id)
        _refuse_unless_host(table, user)
        if table.status != Table.Status.WAITING:
            raise TableError(_("The game has already started."), table.version)
        seat = seat_for_update(table, position)
        if not seat.is_free:
            raise TableError(_("That seat is taken."), table.version)
        seat.computer_level = level
        seat.save(update_fields=["computer_level"])
        _start_if_full(table)
        bump(table)
        transaction.on_commit(broadcasting.broadcast_lobby)  # the lobby shows who is seated
    return table


def fill_seats(table_id: int, user, level: str = "normal") -> int:
    """Every empty seat gets a computer player of ``level`` in one go; the game starts as the
    last one fills.  How many seats were filled: 0 when none was left (a second click), which
    changes nothing and is no error."""
    with transaction.atomic():
        table = locked(table_id)
        _refuse_unless_host(table, user)
        if table.status == Table.Status.FINISHED:
            raise TableError(_("This table has finished."), table.version)
        free = [seat for seat in Seat.objects.select_for_update().filter(table=table)
                if seat.is_free]
        if table.status != Table.Status.WAITING or not free:
            return 0
        for seat in free:
            seat.computer_level = level
        Seat.objects.bulk_update(free, ["computer_level"])
        _start_if_full(table)
        bump(table)
        transaction.on_commit(broadcasting.broadcast_lobby)  # the lobby shows who is seated
    return len(free)


def rematch(table_id: int, user) -> Table:
    """A finished table's players ask for a rematch: a new table of the same game and house
    rules with the same people and computer players in the same seats (so it deals at once).
    Once per finished table: a second click, by anyone, gets the same new table.  The finished
    table's next version names it, so every page still open there shows the link."""
    with transaction.atomic():
        table = locked(table_id)
        if seat_of(table, user) is None:
            raise TableError(_("Only the players of this table can ask for a rematch."),
                             table.version)
        if table.status != Table.Status.FINISHED:
            raise TableError(_("A rematch can be asked for once the table has finished."),
                             table.version)
        if table.return_to:
            raise TableError(_("This table's players go back to their event: it has no "
                               "rematch."), table.version)
        if table.rematch_table_id is not None:
            return Table.objects.get(pk=table.rematch_table_id)
        new = Table.objects.create(game=table.game, rules=table.rules, created_by=user,
                                   is_private=table.is_private, deals_limit=table.deals_limit,
                                   grace_seconds=table.grace_seconds,
                                   trick_pause_ms=table.trick_pause_ms,
                                   chat_during_play=table.chat_during_play,
                                   move_seconds=table.move_seconds,
                                   computer_names_of=table.computer_names_key)
        now = timezone.now()
        Seat.objects.bulk_create(
            Seat(table=new, position=s.position, user_id=s.user_id, computer_level=s.computer_level,
                 seen_at=now if s.user_id else None)
            for s in table.seats.all())
        _start_if_full(new)
        bump(new)
        Table.objects.filter(pk=table.pk).update(rematch_table=new)
        table.rematch_table = new
        bump(table)
        transaction.on_commit(broadcasting.broadcast_lobby)
    return new


def leave_seat(table_id: int, user) -> Table:
    """A seated person stands up while the table waits: the seat is free for anyone.  The
    host may too (to let someone else sit, or to watch): the table stays theirs to fill and
    close."""
    with transaction.atomic():
        table = locked(table_id)
        if table.status != Table.Status.WAITING:
            raise TableError(_("You cannot leave a game in progress."), table.version)
        updated = Seat.objects.filter(table=table, user=user).update(
            user=None, seen_at=None, away_since=None)
        if not updated:
            raise TableError(_("You have no seat at this table."), table.version)
        bump(table)
        transaction.on_commit(broadcasting.broadcast_lobby)  # the lobby shows who is seated
    return table


def close_table(table_id: int, user) -> Table:
    """The creator ends the session.  The hand in play is not scored but stays stored."""
    with transaction.atomic():
        table = locked(table_id)
        if table.created_by_id != person_id(user):
            raise TableError(_("Only the person who opened the table can close it."),
                             table.version)
        if table.status == Table.Status.FINISHED:
            raise TableError(_("This table has finished."), table.version)
        _finish(table)
    return table


def _finish(table: Table) -> None:
    table.status = Table.Status.FINISHED
    table.move_deadline = None
    bump(table)
    transaction.on_commit(lambda: broadcasting.broadcast_lobby())
    signals.announce_after_commit("table_finished", table)


def account_deleted(user_id: int) -> None:
    """An account is being deleted (by its person or in the admin): before its seats and tables
    lose it, in the same transaction.

    - Tables it opened that have not finished close, as its person closing them would (the
      hand in play is not scored but stays stored; the others may ask for a rematch).
    - At a table still waiting for players its seat is free again, as if it had left.
    - Elsewhere the seat stays theirs as a "former player": the hands played there keep their
      seat, and at a table in play a computer plays it from now on.
    - The hand reviews of its seats go: a review is shown only to the person in its seat.
    Every table changed makes a new version, so no process keeps showing the person's name."""
    opened = (Table.objects.filter(created_by_id=user_id)
              .exclude(status=Table.Status.FINISHED).order_by("pk").values_list("pk", flat=True))
    for table_id in list(opened):
        table = locked(table_id)
        if table.status != Table.Status.FINISHED:
            _finish(table)
    sat = Seat.objects.filter(user_id=user_id)
    in_play = sorted(set(sat.exclude(table__status=Table.Status.FINISHED)
                         .values_list("table_id", flat=True)))
    for table_id in in_play:
        table = locked(table_id)
        seats = Seat.objects.filter(table=table, user_id=user_id)
        if table.status == Table.Status.WAITING:
            seats.update(user=None, away_since=None)
        elif table.status == Table.Status.PLAYING:
            seats.update(former_player=True, away_since=None)
            table.computer_turn = True  # saved by the bump below: a restart finds the move
            computer_turns.wake_after_commit(table_id)
        bump(table)  # the seat's name changes (and a computer plays it)
    HandReview.objects.filter(Exists(Seat.objects.filter(
        user_id=user_id, table_id=OuterRef("hand__table_id"), position=OuterRef("seat")))).delete()
    # The rest are finished tables (some just closed above): their page is a replay, a new
    # version is enough and nobody need be told.
    Table.objects.filter(status=Table.Status.FINISHED, seats__user_id=user_id).update(
        version=F("version") + 1)
    sat.update(former_player=True, away_since=None)
    if in_play:
        transaction.on_commit(broadcasting.broadcast_lobby)  # the lobby shows who is seated


def on_account_deleted(sender, instance, **kwargs) -> None:
    """``pre_delete`` of the user model (connected in ``games.apps``)."""
    account_deleted(instance.pk)


def renew_invite(table_id: int, user) -> Table:
    """The creator replaces the invite link: the old one stops working, also for people who
    used it but did not sit down (their access was the link)."""
    with transaction.atomic():
        table = locked(table_id)
        if table.created_by_id != person_id(user):
            raise TableError(_("Only the person who opened the table can renew its invite "
                               "link."), table.version)
        table.invite_token = new_invite_token()
        table.save(update_fields=["invite_token"])
        table_id = table.pk
        transaction.on_commit(lambda: broadcasting.check_access(table_id))
    return table


def changed_in_admin(table_id: int) -> None:
    """A staff member edited the table or its seats in the admin: make that a new version, so
    open tables show it and no process keeps serving the version before the edit."""
    with transaction.atomic():
        table = locked(table_id)
        bump(table)
        transaction.on_commit(broadcasting.broadcast_lobby)


def _start_if_full(table: Table) -> None:
    if table.status == Table.Status.WAITING and not any(
            s.is_free for s in Seat.objects.filter(table=table)):
        table.status = Table.Status.PLAYING
        deal_new_hand(table, dealer=0)
        # Saved by the caller's bump: the first turn may be a computer's, and it has its time.
        table.computer_turn = True
        table.move_deadline = next_move_deadline(table.move_seconds, hand_in_play=True,
                                                 time_up_at=table.time_up_at)
        computer_turns.wake_after_commit(table.pk)
        computer_turns.watch_deadline_after_commit(table.pk, table.move_deadline)

