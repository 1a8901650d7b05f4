"""Online fixtures: an evening table played at an online table (``games.Table``).

Starting one creates a private online table with the league's house rules and seats the members
who have a login; members without one leave their seat free (an invite link) or get a computer
player.  Every finished hand is then entered as a deal of the evening table through
:meth:`EveningTable.add_deal`, the path of paper deal-by-deal entry: the same engines'
``score_hand``, the same totals, the same audit trail (who: nobody, note: "online table #N").

games never imports leagues: we listen to :mod:`games.signals` (connected in
``LeaguesConfig.ready``), which are sent after the hand's transaction has committed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import tables as game_tables
from games.models import Hand, Seat
from leagues import paper, result_events, scoring
from leagues.models import (
    EntryError,
    EveningTable,
    Member,
    OnlineFixture,
    RecordedHand,
    as_decimal,
)

logger = logging.getLogger(__name__)

DEFAULT_DEALS = 16


# -- starting ----------------------------------------------------------------------------------


def start_online(table: EveningTable, user, *, deals_limit: int | None = DEFAULT_DEALS,
                 computer_seats=(), computer_level: str = "normal") -> OnlineFixture:
    """Opens the online table of ``table`` (organisers only: the view checks) and seats it.

    Solo / Belgian Whist end after ``deals_limit`` deals; Bid Whist plays the match to the
    league's game target.  ``computer_seats``: seats of members without a login that a computer
    player takes.  Raises EntryError (nothing is created) when the table is already online or
    already has results.
    """
    league = table.league
    with transaction.atomic():
        # Two organisers clicking at once must not open two online tables for one fixture.
        table = EveningTable.objects.select_for_update().get(pk=table.pk)
        if OnlineFixture.objects.filter(table=table).exists():
            raise EntryError(_("This table is already being played online."))
        if table.entry or table.deals.exists():
            raise EntryError(_("This table already has results; only a table without results "
                               "can be played online."))
        members = table.seat_members()
        if len(members) > league.game_description.seats:
            raise EntryError(_("A table of five cannot be played online: the online tables "
                               "seat %(seats)s. Enter its deals here.")
                             % {"seats": league.game_description.seats})
        try:
            game_table = game_tables.create_table(
                user, league.game, league.rules, is_private=True,
                deals_limit=league.score_kind.online_deals(deals_limit))
            fixture = OnlineFixture.objects.create(table=table, game_table=game_table,
                                                   created_by=user)
            # The fixture exists before the first seat is taken: once the fourth seat is filled
            # the first hand is dealt, and computer players may finish hands straight away.
            for position, member in enumerate(members):
                if member.user_id is not None:
                    game_tables.take_seat(game_table.pk, member.user, position)
            for position in sorted(set(computer_seats)):
                if members[position].user_id is None:
                    game_tables.add_computer_player(game_table.pk, user, position, computer_level)
        except game_tables.TableError as exc:
            raise EntryError(exc.message) from exc
    return fixture


# -- from an engine result to the facts of a paper score sheet ---------------------------------


def deal_facts(game: str, result: dict) -> list[dict]:
    """The score-sheet lines of one finished online hand, as paper entry takes them.

    An all-pass redeal gives no line (paper has none for it either).  Belgian Whist gives one
    line per settlement, as paper does for several misère players.
    """
    if not result.get("complete") or result.get("redeal"):
        return []
    return paper.of(game).sheet_lines(result)


def engine_points(game: str, result: dict) -> list:
    """What the engine scored for the hand: per team (a partnership match) or per seat."""
    return paper.of(game).engine_points(result)


# -- recording ---------------------------------------------------------------------------------


def record_finished_hands(game_table_id: int) -> int:
    """Enters every finished hand of the online table not yet in the league, in order.

    Idempotent: a hand is recorded once (``RecordedHand.hand`` is unique), so a repeated signal
    or a catch-up after a failed listener changes nothing twice.  Returns the deals added.
    """
    fixture = (OnlineFixture.objects.select_related("table__evening__season__league")
               .filter(game_table_id=game_table_id).first())
    if fixture is None:
        return 0
    added = 0
    pending = (Hand.objects.filter(table_id=game_table_id)
               .exclude(pk__in=RecordedHand.objects.filter(fixture=fixture).values("hand_id"))
               .order_by("number"))
    for hand in pending:
        added += _record_hand(fixture, hand)
    return added


def _record_hand(fixture: OnlineFixture, hand: Hand) -> int:
    game = fixture.table.league.game
    with transaction.atomic():
        # The evening table's row lock serialises two recorders of the same table (a signal and
        # a catch-up), so both cannot see the hand as new.
        EveningTable.objects.select_for_update().get(pk=fixture.table_id)
        if RecordedHand.objects.filter(hand=hand).exists():
            return 0
        link = RecordedHand(fixture=fixture, hand=hand)
        try:
            with transaction.atomic():
                deals = [fixture.table.add_deal(facts, None, online=fixture)
                         for facts in deal_facts(game, hand.result)]
                _check_points(game, hand, deals)
        except (EntryError, KeyError, TypeError, ValueError) as exc:
            # Kept with its reason and shown to organisers; the hand is not retried forever.
            link.error = str(getattr(exc, "message", exc))[:300]
            logger.warning("online table %s hand %s not recorded: %s", hand.table_id,
                           hand.number, link.error)
            deals = []
        link.deals = len(deals)
        link.save()
    return len(deals)


def _check_points(game: str, hand: Hand, deals) -> None:
    if not deals:
        return
    recorded = [sum(as_decimal(v) for v in values)
                for values in zip(*(d.points for d in deals), strict=True)]
    expected = engine_points(game, hand.result)
    if recorded != [as_decimal(v) for v in expected]:
        raise EntryError(_("The recorded points %(recorded)s differ from the online table's "
                           "%(expected)s.") % {"recorded": [scoring.format_units(v) for v in recorded],
                              "expected": expected})


def take_finished_table(table: EveningTable, game_table, user) -> OnlineFixture:
    """``table`` takes the hands of ``game_table``, an online table played to its end
    elsewhere (an event's table, when the event is played as an evening: ``club_events``):
    it becomes the table's fixture, and its hands its deals, as a fixture's always are.  Those
    hands were rated as online hands while it was played; the ratings hear they are the
    league's now (``result_events.online_table_taken``)."""
    fixture = OnlineFixture.objects.create(table=table, game_table=game_table, created_by=user)
    first = (Hand.objects.filter(table=game_table).order_by("finished_at")
             .values_list("finished_at", flat=True).first())
    if first is not None:
        result_events.online_table_taken(game_table, timezone.localdate(first))
    finish_fixture(game_table.pk)
    return fixture


def finish_fixture(game_table_id: int) -> None:
    """The online table ended: record what is left, and the fixture is complete."""
    record_finished_hands(game_table_id)
    OnlineFixture.objects.filter(game_table_id=game_table_id, completed_at__isnull=True).update(
        completed_at=timezone.now())


def on_hand_finished(sender, table, hand, **kwargs) -> None:
    record_finished_hands(table.pk)


def on_table_finished(sender, table, **kwargs) -> None:
    finish_fixture(table.pk)


# -- what the pages show -----------------------------------------------------------------------


@dataclass
class SeatInfo:
    position: int
    member: Member
    # "member", "computer", "other" (someone else took the seat), "former" (the person who sat
    # there deleted their account; a computer plays it while the game goes on) or "free"
    kind: str
    player: str = ""  # who sits there, when it is someone else


def seat_infos(fixture: OnlineFixture, members: list[Member],
               seats: list[Seat] | None = None) -> list[SeatInfo]:
    """Who plays each member's seat at the online table."""
    if seats is None:
        seats = list(fixture.game_table.seats.select_related("user"))
    by_position = {seat.position: seat for seat in seats}
    out = []
    for position, member in enumerate(members):
        seat = by_position.get(position)
        if seat is None or seat.is_free:
            kind, player = "free", ""
        elif seat.is_computer:
            kind, player = "computer", ""
        elif seat.former_player:
            kind, player = "former", ""
        elif member.user_id is not None and seat.user_id == member.user_id:
            kind, player = "member", ""
        else:
            kind, player = "other", seat.user.get_username()
        out.append(SeatInfo(position, member, kind, player))
    return out
