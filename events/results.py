"""An event's results, from the rounds that are over for everyone only: each deal's
traveller (every table's result side by side, scored by ``events.scoring.score_deal``), the
standings (each person's matchpoint percentage, ``overall_percent``, or in an event scored by
difference their total of capped differences, ``total_difference``), and what the next
round's pairing needs (``history``).  A round still in play gives nothing here: nobody learns
another table's cards or results of a deal before every table has played it.  An arena's deals
are scored as they are played (``arena_deal_results``): who may see which is the pages' rule
(``events.views``, docs/events.md "Arena").

Computer players' seats are compared like any other (they held the cards) but never ranked."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch

from events import deals, scoring
from events.models import AVERAGE_MINUS_PERCENT, Event, EventRound, EventTable
from games.models import Hand
from games.rules import game_module


@dataclass
class TableResult:
    """One table's line of a deal's traveller."""

    event_table: EventTable
    hand: Any  # games.models.Hand
    seats: list  # games.models.Seat, by position
    values: list[float]  # the engine's numbers per direction
    scores: list[scoring.DirectionScore]  # per direction
    # Not finished when the table's time was up, in an event that scores such a deal average
    # minus: ``scores`` are adjusted, not compared (``hand``, finished by computer players
    # after the time, or None, is not counted).
    late: bool = False


def finished_rounds(event: Event) -> list[EventRound]:
    return list(event.event_rounds.filter(finished_at__isnull=False).order_by("number"))


def round_of_deal(event: Event, index: int) -> int:
    """The round (from 1) that plays deal ``index`` (from 0) of the event's set."""
    return index // event.deals_per_round + 1


def _values(game: str, result: dict) -> list[float]:
    chain = game_module(game).CHAIN
    values = result.get(chain.counted)
    if not isinstance(values, list) or len(values) != chain.sides:
        return [0.0] * chain.sides  # nothing counted (an all-pass redeal scores nobody)
    return [float(v) for v in values]


def _time_up(event_table: EventTable, ends_at):
    """When ``event_table``'s time was up: the table's own clock (an arena table's, up at the
    arena's end at the latest; a Swiss round's tables keep the round's), else the round's."""
    return event_table.table.time_up_at or ends_at


def _late(hand, time_up) -> bool:
    """A deal not finished when its table's time was up (or never finished)."""
    return hand is None or (time_up is not None and hand.finished_at > time_up)


def deal_results(event: Event, event_round: EventRound, index: int) -> list[TableResult]:
    """Deal ``index`` at every table of ``event_round`` (a round that is over), scored, by
    table.  In an event whose late deals are scored average minus, a table that had not
    finished the deal when the round's time was up is adjusted (``TableResult.late``) and
    left out of the others' field.  A table playing a match (``Event.plays_matches``) whose
    match ended before the deal is left out; its deals past the round's (a match that
    outlasted them) are never any deal's."""
    position = index - event_round.event.round_deals(event_round.number).start + 1
    ends_at = event_round.ends_at
    average_minus = (event.late_deals == Event.LateDeals.AVERAGE_MINUS
                     and ends_at is not None)
    rows = []
    # Only what a traveller's line says: not a table's deals, state or hands' records (each a
    # JSON document to read, a hundred of them at a field of a hundred tables).
    hands = Prefetch("table__hands", queryset=Hand.objects.defer("record"))
    for event_table in (event_round.tables.select_related("table")
                        .defer("table__preset_deals", "table__current", "table__summary",
                               "table__last_action", "table__rules")
                        .prefetch_related("table__seats__user__profile", hands)):
        hand = next((h for h in event_table.table.hands.all() if h.number == position), None)
        if hand is None and event_table.table.match_ends_it:
            continue  # its match ended before this deal: not played, so neither late nor scored
        late = average_minus and _late(hand, _time_up(event_table, ends_at))
        if hand is None and not late:
            continue
        rows.append(TableResult(event_table, hand, list(event_table.table.seats.all()),
                                _values(event.game, hand.result) if hand else [], [],
                                late=late))
    return _scored(event, rows)


def _scored(event: Event, rows: list[TableResult]) -> list[TableResult]:
    """``rows``, one deal's tables, each scored against the others (a late row adjusted)."""
    played = [row for row in rows if not row.late]
    cap = event.difference_cap
    scored = scoring.score_deal({row.event_table.pk: row.values for row in played}, cap=cap)
    sides = game_module(event.game).CHAIN.sides
    for row in rows:
        row.scores = ([scoring.adjusted(AVERAGE_MINUS_PERCENT, len(rows), cap)] * sides
                      if row.late else scored[row.event_table.pk])
    return rows


def _arena_deals(event: Event, only: int | None = None) -> dict[int, list[TableResult]]:
    """An arena's deals (or deal ``only``), each at every table that has finished it so far,
    scored among them: a deal's field grows, and its scores change, as more tables play it.
    In an event whose late deals score average minus, a deal finished after its table's time
    was up (its own clock, or the arena's end; by computer players) is adjusted and left out
    of the others' field."""
    the_round = event.event_rounds.filter(number=1).first()
    if the_round is None:
        return {}
    ends_at = the_round.ends_at
    average_minus = (event.late_deals == Event.LateDeals.AVERAGE_MINUS
                     and ends_at is not None)
    event_tables = the_round.tables.all()
    if only is not None:
        event_tables = event_tables.filter(
            first_deal=only - only % event.deals_per_round)
    hands = Prefetch("table__hands", queryset=Hand.objects.defer("record"))
    found: dict[int, list[TableResult]] = defaultdict(list)
    for event_table in (event_tables.select_related("table")
                        .defer("table__preset_deals", "table__current", "table__summary",
                               "table__last_action", "table__rules")
                        .prefetch_related("table__seats__user__profile", hands)):
        seats = list(event_table.table.seats.all())
        for hand in event_table.table.hands.all():
            if hand.number > event.deals_per_round:
                continue  # a match's deal past the table's block: compared with nobody
            index = (event_table.first_deal or 0) + hand.number - 1
            if only is not None and index != only:
                continue
            late = average_minus and _late(hand, _time_up(event_table, ends_at))
            found[index].append(TableResult(event_table, hand, seats,
                                            _values(event.game, hand.result), [], late=late))
    return {index: _scored(event, rows) for index, rows in sorted(found.items())}


def arena_deal_results(event: Event, index: int) -> list[TableResult]:
    """Deal ``index`` of an arena at every table that has finished it so far, scored."""
    return _arena_deals(event, only=index).get(index, [])


def score_of(event: Event, scores: list[scoring.DirectionScore]) -> float:
    """A person's score over ``scores``, their deals, by the event's method: their matchpoint
    percentage, or their total of capped differences.  The standings rank by it, and the
    pairing forms tables by it (best with best)."""
    if event.by_difference:
        return scoring.total_difference(scores)
    return scoring.overall_percent(scores)


def arena_scores(event: Event) -> dict[int, float]:
    """Each person's score so far in an arena, by user id (what it seats by)."""
    return {uid: score_of(event, each) for uid, each in _person_scores(event).items()}


def _every_deal(event: Event):
    """Each deal of each finished round, scored: (round, deal index, its table results); in an
    arena, every deal played so far (round None)."""
    if event.is_arena:
        for index, rows in _arena_deals(event).items():
            yield None, index, rows
        return
    for event_round in finished_rounds(event):
        event_round.event = event
        for index in event.round_deals(event_round.number):
            yield event_round, index, deal_results(event, event_round, index)


@dataclass
class History:
    """What the next Swiss round is formed from, by user id."""

    score: dict[int, float] = field(default_factory=lambda: defaultdict(float))
    opponents: dict[int, set] = field(default_factory=lambda: defaultdict(set))
    partners: dict[int, set] = field(default_factory=lambda: defaultdict(set))
    byes: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    # How many times each has held each direction (``deals.direction_of`` of their seat).
    directions: dict[int, list[int]] = field(default_factory=dict)


@dataclass
class Standing:
    user: Any
    percent: float  # over the deals played, by matchpoints (shown in a matchpoint event)
    deals: int
    position: int = 0
    difference: float = 0.0  # the total of capped differences (a difference event's score)


def _person_scores(event: Event) -> dict[int, list[scoring.DirectionScore]]:
    found: dict[int, list[scoring.DirectionScore]] = defaultdict(list)
    for _round, _index, rows in _every_deal(event):
        for row in rows:
            for seat in row.seats:
                if seat.user_id is not None and not seat.computer_level:
                    found[seat.user_id].append(
                        row.scores[deals.direction_of(event.game, seat.position)])
    return found


def history(event: Event) -> History:
    out = History()
    for uid, scores in _person_scores(event).items():
        out.score[uid] = score_of(event, scores)
    partnership = deals.is_partnership(event.game)
    sides = game_module(event.game).CHAIN.sides
    for event_round in event.event_rounds.all():
        for uid in event_round.sitting_out:
            out.byes[uid] += 1
        for event_table in event_round.tables.prefetch_related("table__seats"):
            people = [(s.position, s.user_id) for s in event_table.table.seats.all()
                      if s.user_id is not None and not s.computer_level]
            for position, uid in people:
                held = out.directions.setdefault(uid, [0] * sides)
                held[deals.direction_of(event.game, position)] += 1
                for other_position, other in people:
                    if other == uid:
                        continue
                    same_side = partnership and position % sides == other_position % sides
                    (out.partners if same_side else out.opponents)[uid].add(other)
    return out


def computer_players_played(event: Event) -> bool:
    """Whether a computer player held a seat at any of the event's tables (the standings say
    then that such seats are compared but not ranked)."""
    from games.models import Seat

    return Seat.objects.filter(table__event_table__round__event=event) \
        .exclude(computer_level="").exists()


def standings(event: Event) -> list[Standing]:
    """Each person who played, by the event's score (``score_of``) over the finished rounds
    (an arena's: over the deals they have played so far, each against the tables that played
    it), best first: matchpoint percentage, or total of capped differences; equal scores share
    a position (``scoring.positions``), listed by name."""
    from django.contrib.auth import get_user_model

    scores = _person_scores(event)
    users = get_user_model().objects.select_related("profile").in_bulk(list(scores))
    rows = [Standing(users[uid], scoring.overall_percent(each), len(each),
                     difference=scoring.total_difference(each))
            for uid, each in scores.items() if uid in users]
    ranked = {id(row): row.difference if event.by_difference else row.percent
              for row in rows}
    places = scoring.positions(ranked)
    for row in rows:
        row.position = places[id(row)]
    return sorted(rows, key=lambda row: (row.position, row.user.username.lower()))
