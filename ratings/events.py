"""The stored results of a scope and game, as the ratings' stream of :class:`core.Event`.

- League results: every counted table (``EveningTable.objects.counted()``, the standings'
  rule) of the game's leagues in the scope; a table entered deal by deal gives one event per
  deal, a table entered as totals one event (the balances, or the match's two scores).
- Online hands (scope ``site`` only): every finished hand of an online table that is not an
  evening table's (those are already league deals), its engine points, its seats' players as
  they sit now (a person, or the computer players of a level).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time

from django.db.models import Prefetch

from games.models import Hand, Seat
from leagues import paper
from leagues.models import Club, Deal, EveningTable, Member, Substitute, TableSeat
from ratings import core, games
from ratings.core import Event, is_person_with_account
from whistclub.accounts.guests import is_guest

SITE = "site"


def scope_of(club: Club) -> str:
    """Where a club's own pages read its ratings: its own scope, whatever its visibility (so
    switching visibility re-rates nothing of the club's)."""
    return f"club-{club.pk}"


def clubs_of(scope: str):
    if scope == SITE:
        return Club.objects.filter(is_public=True)
    return Club.objects.filter(pk=int(scope.removeprefix("club-")))


def counts_site_wide(game: str, players) -> bool:
    """Whether one person could not have made this result up alone: people with an account on
    at least two sides of the table.  Only such results count in the site's scope: invented
    members, or one person with computer players, move nobody's site rating
    (docs/ratings.md)."""
    sides = games.of(game).sides(list(players))
    return sum(any(is_person_with_account(p) for p in side) for side in sides) >= 2


def player_of_member(member: Member) -> str:
    """A club member is rated as their site user once they claimed their record."""
    return f"u:{member.user_id}" if member.user_id else f"m:{member.pk}"


def player_of_seat(seat: Seat) -> str | None:
    if seat.computer_level:
        return core.computer_player(seat.computer_level)
    return f"u:{seat.user_id}" if seat.user_id else None


def _clock(moment: time | None) -> str:
    moment = moment or time(0, 0)
    return f"{moment.hour:02d}{moment.minute:02d}{moment.second:02d}{moment.microsecond:06d}"


def league_events(scope: str, game: str, since: date | None = None) -> list[Event]:
    module = games.of(game)
    tables = (EveningTable.objects.counted()
              .filter(evening__season__league__game=game,
                      evening__season__league__club__in=clubs_of(scope))
              .select_related("evening__season__league", "pair_0__first", "pair_0__second",
                              "pair_1__first", "pair_1__second")
              .prefetch_related(Prefetch("seats", TableSeat.objects.select_related("member")),
                                Prefetch("substitutes",
                                         Substitute.objects.select_related("member"))))
    if since is not None:
        tables = tables.filter(evening__date__gte=since)
    tables = list(tables)
    # The deals as plain values: a season of 18,000 deals is read in a fraction of a second.
    deals: dict[int, list] = {}
    # A five-seat table's dealer sits a deal out (``sits_out``): it is the four others' alone.
    for table_id, number, points, sitter in (
            Deal.objects.filter(table__in=[t.pk for t in tables])
            .order_by("table_id", "number")
            .values_list("table_id", "number", "points", "facts__sits_out")):
        deals.setdefault(table_id, []).append((number, points, sitter))
    events = []
    for table in tables:
        evening, league = table.evening, table.evening.season.league
        kind = league.score_kind
        members = kind.seated(table)
        players = tuple(player_of_member(m) for m in members)
        if scope == SITE and not counts_site_wide(game, players):
            continue
        stem = f"{evening.date.isoformat()}|{_clock(evening.start_time)}|L{table.pk:010d}"
        if table.entry == EveningTable.Entry.TOTALS:
            totals = kind.totals(table)
            events.append(Event(f"{stem}|00000", evening.date, players,
                                tuple(module.seat_points(totals))))
            continue
        substitutes = list(table.substitutes.all())
        for number, points, sitter in deals.get(table.pk, ()):
            # Each deal is rated for whoever played it (a substitute from their deal on).
            played = players if not substitutes else tuple(
                player_of_member(sub.member) if sub is not None else player
                for sub, player in ((Substitute.playing(substitutes, seat, number), player)
                                    for seat, player in enumerate(players)))
            if sitter is not None:
                played = tuple(p for seat, p in enumerate(played) if seat != sitter)
                points = [p for seat, p in enumerate(points) if seat != sitter]
            events.append(Event(f"{stem}|{number:05d}", evening.date, played,
                                tuple(module.seat_points(points))))
    return events


def online_events(game: str, since: date | None = None, hands=None) -> list[Event]:
    """The online hands of ``game`` that count site-wide (from the day ``since``; or only
    ``hands``, a queryset of them)."""
    module, sheet = games.of(game), paper.of(game)
    hands = (Hand.objects if hands is None else hands).filter(
        table__game=game, table__league_fixture__isnull=True)
    hands = (hands
             .select_related("table")
             .prefetch_related(Prefetch("table__seats", Seat.objects.order_by("position")
                                        .select_related("user__profile"))))
    if since is not None:
        start = datetime.combine(since, time(0, 0), tzinfo=UTC)
        hands = hands.filter(finished_at__gte=start)
    events = []
    for hand in hands:
        points = sheet.engine_points(hand.result)
        if not points:
            continue
        if any(is_guest(s.user) for s in hand.table.seats.all() if s.user_id):
            continue  # guests are never rated (whistclub.accounts.guests), nor their tables
        seats = {s.position: player_of_seat(s) for s in hand.table.seats.all()}
        players = tuple(seats.get(position) for position in range(len(hand.record["hands"])))
        if not counts_site_wide(game, players):
            continue
        moment = hand.finished_at.astimezone(UTC)
        events.append(Event(f"{moment.date().isoformat()}|{_clock(moment.time())}|"
                            f"H{hand.table_id:010d}|{hand.number:05d}", moment.date(), players,
                            tuple(module.seat_points(points)), online=True))
    return events


def load(scope: str, game: str, since: date | None = None) -> list[Event]:
    """The stream of ``scope`` and ``game`` from the day ``since`` (everything: None), in its
    order."""
    events = league_events(scope, game, since)
    if scope == SITE:
        events += online_events(game, since)
    events.sort(key=lambda e: e.key)
    return events
