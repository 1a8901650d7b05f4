"""The draw for an evening: who is drawn is the kind of score's (``League.score_kind.draw``).

Players (Solo / Belgian Whist): tables of the game's size (four; three for a three-seat game)
from the members who said they are coming.  When the count is not a multiple of the size, those
who sat out least often this season sit out (ties drawn at random); or, in a league that plays
five-seat tables (``League.odd_numbers``), tables of five seat them (the dealer sits out each
deal), and only those the numbers leave over even so sit out (6, 7 or 11 coming).  ``random`` shuffles;
``spread`` tries many shuffles and keeps the one whose tables repeat the fewest meetings
already played this season.

Pairs (Bid Whist): the season's pairs still drawn (not retired) whose two players are both
coming, in a round robin (the circle method, one round per evening in date order) or by
standings (1st v 2nd, 3rd v 4th ...).  An odd pair has a bye.  A pair whose player is coming
with another pair too (pairs registered before a player could be in only one) sits out: nobody
is ever seated twice.  Whoever is coming and cannot be seated (a partner away) is said in words
(``not_drawn``), never left out in silence.

Partners drawn each round (a Bid Whist league whose players come alone, ``League.partners``):
tables of four from the members present, by the movement with the evening's partnerships
(``leagues.movement``: nobody partners the same player twice while another choice exists),
each table's two sides stored as the season's pairs (``Partnership.drawn``; a pair of those
two players already in the season is reused), so that entry, sheets and totals are a match's
as ever.  Members sit out, as for the players' games.

An evening in rounds (``Evening.rounds`` > 1): ``draw_round`` draws one round at a time, from
who is present then, by the movement (``leagues.movement``): sit-outs rotate over the evening's
rounds and the tables repeat as few of its meetings as the search finds; the pairs go round the
round robin.  Each round drawn (and drawn again) is a line of the club's history.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from leagues import edits, history, movement, played_elsewhere
from leagues.models import (
    ClubChange,
    EntryError,
    Evening,
    EveningRound,
    EveningTable,
    Member,
    Partnership,
    Season,
    TableSeat,
)

SPREAD_TRIES = 400


def draw_evening(evening: Evening, rng: random.Random | None = None, *, again_by=None):
    """Creates the evening's tables; returns (number of tables, members or pairs sitting out).

    ``again_by``: the organiser drawing again an evening whose tables have no result yet (after
    a late arrival or someone gone home): its tables go first, in the club's history."""
    rng = rng or random.SystemRandom()
    with transaction.atomic():
        # Lock the evening so two organisers clicking "draw" do not both draw.
        Evening.objects.select_for_update().get(pk=evening.pk)
        played_elsewhere.refuse_if_playing(evening)
        if evening.tables.exists():
            if again_by is None:
                raise EntryError(_("This evening already has tables."))
            if not may_draw_again(evening):
                raise EntryError(_("A table of this evening has results: it cannot be drawn "
                                   "again. Change its tables one by one instead."))
            for table in evening.tables.all():
                edits.delete_table(table, again_by)
            # who sat out rounds of it when it was in rounds: drawn again as one
            EveningRound.objects.filter(evening=evening).delete()
        if evening.season.league.draws_partners:
            tables, out = _draw_partners_round(evening, 1, rng)
            return len(tables), out
        return evening.season.league.score_kind.draw(evening, rng)


def may_draw_again(evening: Evening, round_number: int | None = None) -> bool:
    """An evening (or one round of it) is drawn again only while none of its tables has a
    result or is played."""
    tables = evening.tables.all()
    if round_number is not None:
        tables = tables.filter(round=round_number)
    return not tables.exclude(entry="").exists() and not tables.filter(
        deals__isnull=False).exists() and not tables.filter(online__isnull=False).exists()


def five_seat_tables(evening: Evening, round_number: int | None = None) -> int:
    """How many of the evening's tables (of one round) seat one more than the game's seats:
    five-seat tables, where the dealer sits out each deal."""
    tables = evening.tables.all()
    if round_number is not None:
        tables = tables.filter(round=round_number)
    five = evening.season.league.game_description.seats + 1
    return tables.annotate(seated=Count("seats")).filter(seated=five).count()


def sitting_out(evening: Evening) -> list:
    """Who is coming but has no seat at the evening's tables: members, or pairs.  An evening
    whose round was kept (``EveningRound``: a draw of partners, an event's byes) sat out as it
    was kept, the rule by which ``sit_outs`` credits them: a member who played at an event's
    table left out of the league did not sit out."""
    stored = (EveningRound.objects.filter(evening=evening, number=1)
              .prefetch_related("sitting_out", "pairs_sitting_out").first())
    if stored is not None:
        return [*stored.sitting_out.all(), *stored.pairs_sitting_out.all()]
    if evening.season.league.draws_partners:
        seated = set()
        for table in evening.tables.select_related("pair_0", "pair_1"):
            seated.update((*table.pair_0.members, *table.pair_1.members))
        return [member for member in coming_members(evening) if member.pk not in seated]
    if evening.season.league.score_kind.registers_pairs:
        seated = set()
        for table in evening.tables.all():
            seated.update((table.pair_0_id, table.pair_1_id))
        drawn, sharing = pairs_coming(evening)
        return [pair for pair in drawn + sharing if pair.pk not in seated]
    seated = set(TableSeat.objects.filter(table__evening=evening).values_list("member_id",
                                                                               flat=True))
    return [member for member in coming_members(evening) if member.pk not in seated]


def coming_members(evening: Evening) -> list:
    """The members who said they are coming (or were marked so at the door), retired aside."""
    return [a.member for a in evening.attendances.filter(
        coming=True, member__retired=False).select_related("member")]


def draw_players(evening: Evening, rng):
    """Tables of the game's size from the members who are coming."""
    season = evening.season
    size = season.league.game_description.seats
    coming = coming_members(evening)
    if len(coming) < size:
        raise EntryError(_("At least %(count)s members must be coming to draw tables.")
                         % {"count": size})
    sizes = movement.table_sizes(len(coming), size, season.league.draws_five_seat_tables)
    sitting_out = _choose_sit_outs(season, evening, coming, len(coming) - sum(sizes), rng)
    players = [m for m in coming if m not in sitting_out]
    starts = [sum(sizes[:i]) for i in range(len(sizes))]
    if season.draw == Season.Draw.SPREAD:
        met = _meetings(season)
        best, best_cost = None, None
        for _try in range(SPREAD_TRIES):
            rng.shuffle(players)
            cost = sum(met[frozenset((a.pk, b.pk))] for start, n in zip(starts, sizes, strict=True)
                       for a, b in combinations(players[start:start + n], 2))
            if best_cost is None or cost < best_cost:
                best, best_cost = list(players), cost
        assert best is not None  # SPREAD_TRIES > 0
        players = best
    else:
        rng.shuffle(players)
    for number, (start, n) in enumerate(zip(starts, sizes, strict=True), start=1):
        table = EveningTable.objects.create(evening=evening, number=number)
        TableSeat.objects.bulk_create(TableSeat(table=table, seat=seat, member=member)
                                      for seat, member in enumerate(players[start:start + n]))
    return len(sizes), sitting_out


def _choose_sit_outs(season, evening, coming, count, rng):
    """Sit-outs rotate: a member who came to an earlier evening and had no seat sat out."""
    if not count:
        return []
    sat_out = _season_sit_outs(season, evening)
    order = sorted(coming, key=lambda m: (sat_out[m.pk], rng.random()))
    return order[:count]


def _meetings(season) -> Counter:
    """How often each two members have shared a table this season."""
    met = Counter()
    tables: dict[int, list[int]] = {}
    for table_id, member_id in TableSeat.objects.filter(
            table__evening__season=season).values_list("table_id", "member_id"):
        tables.setdefault(table_id, []).append(member_id)
    for members in tables.values():
        for a, b in combinations(members, 2):
            met[frozenset((a, b))] += 1
    return met


def round_robin_round(pairs: list, round_index: int) -> list[tuple]:
    """Round ``round_index`` of a round robin by the circle method; None stands for a bye."""
    teams = list(pairs) + ([None] if len(pairs) % 2 else [])
    n = len(teams)
    if n < 2:
        return []
    round_index %= n - 1
    rotating = teams[1:]
    rotating = rotating[-round_index:] + rotating[:-round_index] if round_index else rotating
    order = [teams[0], *rotating]
    return [(order[i], order[n - 1 - i]) for i in range(n // 2)]


def pairs_coming(evening: Evening) -> tuple[list, list]:
    """The season's pairs still drawn whose two players are coming, none sharing a player (in
    registration order, the first kept); and the pairs left out for sharing one."""
    return pairs_among(evening.season, {member.pk for member in coming_members(evening)})


def pairs_among(season, members: set[int]) -> tuple[list, list]:
    """The season's pairs still drawn whose two players are among ``members`` (ids), none
    sharing a player (in registration order, the first kept); and the pairs left out for
    sharing one.  The one rule for a whole evening's draw and for each round's."""
    seated: set[int] = set()
    drawn, sharing = [], []
    for pair in season.partnerships.filter(retired=False, drawn=False).order_by("pk"):
        if not set(pair.members) <= members:
            continue
        if seated & set(pair.members):
            sharing.append(pair)
            continue
        seated.update(pair.members)
        drawn.append(pair)
    return drawn, sharing


def not_drawn(evening: Evening) -> list[dict]:
    """Pairs: the members coming (in rounds: here for the next round) whom no pair can seat,
    each with why in words (``words``), so that nobody who came vanishes from the page; and
    the members among them (``member``).  Empty for a kind of score that draws players."""
    season = evening.season
    if not season.league.score_kind.registers_pairs or season.league.draws_partners:
        return []
    present = present_members(evening) if evening.in_rounds else coming_members(evening)
    here = {m.pk for m in present}
    drawn, _sharing = pairs_among(season, here)
    playing = {pk for pair in drawn for pk in pair.members}
    pairs = list(season.partnerships.filter(retired=False, drawn=False)
                 .select_related("first", "second"))
    out = []
    for member in sorted(present, key=lambda m: (m.name, m.pk)):
        if member.pk in playing:
            continue
        partners = [pair.second if pair.first_id == member.pk else pair.first
                    for pair in pairs if member.pk in pair.members]
        away = [p.name for p in partners if p.pk not in here]
        params = {"name": member.name, "partner": ", ".join(away)}
        if not partners:
            words = _("%(name)s is coming but has no pair this season: not drawn.") % params
        elif away:
            words = _("%(name)s is coming but partner %(partner)s is not: not drawn.") % params
        else:
            params["partner"] = ", ".join(p.name for p in partners)
            words = _("%(name)s is coming but partner %(partner)s plays in another pair: not "
                      "drawn.") % params
        out.append({"member": member, "words": words})
    return out


def players_here(evening: Evening) -> int:
    """The head count the organiser's page gives for the next round: those present whom the
    draw can seat (a pair's player without their partner is not one)."""
    present = present_members(evening)
    league = evening.season.league
    if not league.score_kind.registers_pairs or league.draws_partners:
        return len(present)
    drawn, _sharing = pairs_among(evening.season, {m.pk for m in present})
    return 2 * len(drawn)


def draw_pairs(evening: Evening, rng):
    """The pairs who are coming, two to a table."""
    season = evening.season
    if not season.partnerships.filter(retired=False).exists():
        raise EntryError(_("Register at least two pairs to draw matches."))
    pairs, sharing = pairs_coming(evening)
    if len(pairs) < 2:
        raise EntryError(_("At least two pairs must be coming, both players of each, to draw "
                           "matches: mark who is coming first."))
    if season.draw == Season.Draw.BY_STANDINGS:
        order = {row.pair.pk: place for place, row in
                 enumerate(season.league.score_kind.standings(season))}
        ranked = sorted(pairs, key=lambda pair: order.get(pair.pk, len(order)))
        matches = [(ranked[i], ranked[i + 1] if i + 1 < len(ranked) else None)
                   for i in range(0, len(ranked), 2)]
    else:
        round_index = list(season.evenings.values_list("pk", flat=True)).index(evening.pk)
        matches = round_robin_round(pairs, round_index)
    byes = [a or b for a, b in matches if a is None or b is None] + sharing
    number = 0
    for a, b in matches:
        if a is None or b is None:
            continue
        number += 1
        EveningTable.objects.create(evening=evening, number=number, pair_0=a, pair_1=b)
    return number, byes


# -- an evening in rounds --------------------------------------------------------------------


def present_members(evening: Evening) -> list:
    """Those who will play the next round: coming (or marked so at the door), not gone home,
    not retired; in the order of their names."""
    return [a.member for a in evening.attendances.filter(
        coming=True, left=False, member__retired=False).select_related("member")
        .order_by("member__name", "member_id")]


def draw_round(evening: Evening, by, number: int, rng: random.Random | None = None,
               *, again: bool = False) -> tuple[int, list]:
    """Draws round ``number`` of an evening in rounds, the one after the last drawn (or the
    last again, ``again``, while none of its tables has a result): its tables and who sits it
    out; a line of the club's history.  ``number`` is the round the organiser's page offered,
    so a form sent twice draws once.  Returns (tables, members or pairs sitting out)."""
    rng = rng or random.SystemRandom()
    with transaction.atomic():
        Evening.objects.select_for_update().get(pk=evening.pk)
        evening.refresh_from_db()
        evening.season.refuse_if_closed()
        evening.refuse_if_cancelled()
        played_elsewhere.refuse_if_playing(evening)
        drawn = evening.rounds_drawn()
        expected = drawn if again else drawn + 1
        if number != expected or number < 1:
            if again or number <= drawn:
                raise EntryError(_("Round %(number)s is drawn already: the page was not up to "
                                   "date, nothing was drawn.") % {"number": number})
            raise EntryError(_("Round %(drawn)s is the last drawn: draw round %(next)s first.")
                             % {"drawn": drawn, "next": drawn + 1})
        if number > evening.rounds:
            raise EntryError(ngettext(
                "This evening has %(count)s round, and it is drawn.",
                "This evening has %(count)s rounds, and they are all drawn.", evening.rounds)
                % {"count": evening.rounds})
        if again:
            if not may_draw_again(evening, number):
                raise EntryError(_("A table of round %(number)s has results: it cannot be "
                                   "drawn again. Change its tables one by one instead.")
                                 % {"number": number})
            for table in evening.tables.filter(round=number):
                edits.delete_table(table, by)
            EveningRound.objects.filter(evening=evening, number=number).delete()
        kind = evening.season.league.score_kind
        if evening.season.league.draws_partners:
            tables, sitting_out = _draw_partners_round(evening, number, rng)
        elif kind.registers_pairs:
            tables, sitting_out = _draw_pairs_round(evening, number)
        else:
            tables, sitting_out = _draw_players_round(evening, number, rng)
        ClubChange.record(evening.season.league.club, by, "round_draw", None, {
            "evening": edits.evening_facts(evening), "round": number, "rounds": evening.rounds,
            "again": again, "tables": [
                edits.table_facts(t)["players"] or [str(s) for s in (t.pair_0, t.pair_1)]
                for t in tables],
            "sitting_out": [str(x) for x in sitting_out]})
        return len(tables), sitting_out


def _earlier_rounds(evening: Evening, number: int):
    """The evening's rounds before ``number``: their stored sit-outs, and their tables."""
    rounds = EveningRound.objects.filter(evening=evening, number__lt=number).prefetch_related(
        "sitting_out", "pairs_sitting_out")
    tables = evening.tables.filter(round__lt=number).prefetch_related("seats")
    return list(rounds), list(tables)


def _who_may_sit(evening: Evening, number: int, size: int):
    """The members present for round ``number`` (by id), refused in words below ``size``; how
    often each sat out earlier this evening, and, for a first round, at earlier evenings."""
    present = present_members(evening)
    if len(present) < size:
        raise EntryError(_("At least %(count)s members must be here to draw a round: mark who "
                           "is coming first.") % {"count": size})
    rounds = EveningRound.objects.filter(evening=evening, number__lt=number).prefetch_related(
        "sitting_out")
    sat_out: Counter = Counter()
    for past in rounds:
        sat_out.update(m.pk for m in past.sitting_out.all())
    season_sat_out: Counter = Counter()
    if number == 1 or not rounds:
        season_sat_out = _season_sit_outs(evening.season, evening)
    return {m.pk: m for m in present}, sat_out, season_sat_out


def _store_round(evening: Evening, number: int, tables: list, sitting_out: list):
    """Keeps who sat out of the round drawn; returns (tables, members sitting out)."""
    stored = EveningRound.objects.create(evening=evening, number=number)
    stored.sitting_out.set(sitting_out)
    return tables, sitting_out


def _draw_players_round(evening: Evening, number: int, rng) -> tuple[list, list]:
    season = evening.season
    size = season.league.game_description.seats
    by_pk, sat_out, season_sat_out = _who_may_sit(evening, number, size)
    tables = list(evening.tables.filter(round__lt=number).prefetch_related("seats"))
    met = movement.meetings([[[s.member_id for s in t.seats.all()] for t in tables]])
    season_met = _meetings(season) if season.draw == Season.Draw.SPREAD else Counter()
    sizes = movement.table_sizes(len(by_pk), size, season.league.draws_five_seat_tables)
    out = movement.choose_sit_outs(list(by_pk), size, sat_out, season_sat_out, rng,
                                   count=len(by_pk) - sum(sizes))
    seated = [pk for pk in by_pk if pk not in out]
    made = []
    had: dict[int, Counter] = {}  # the seats each had earlier this evening
    last: dict[int, int] = {}  # and in the last round they played
    for table in sorted(tables, key=lambda t: t.round):
        for seat in table.seats.all():
            had.setdefault(seat.member_id, Counter())[seat.seat] += 1
            last[seat.member_id] = seat.seat
    for table_number, players in enumerate(movement.rotate_seats(
            movement.seat_tables(seated, size, met, rng, season=season_met, sizes=sizes), had,
            last), start=1):
        table = EveningTable.objects.create(evening=evening, round=number, number=table_number)
        TableSeat.objects.bulk_create(TableSeat(table=table, seat=seat, member=by_pk[pk])
                                      for seat, pk in enumerate(players))
        made.append(table)
    return _store_round(evening, number, made, [by_pk[pk] for pk in out])


def _season_sit_outs(season, evening) -> Counter:
    """How many earlier evenings of the season each member came to and had no seat at."""
    sat_out: Counter = Counter()
    earlier = season.evenings.filter(date__lt=evening.date).prefetch_related(
        "attendances", "tables__seats", "tables__pair_0", "tables__pair_1")
    for past in earlier:
        seated = {s.member_id for t in past.tables.all() for s in t.seats.all()}
        for t in past.tables.all():  # a match's players (partners drawn each round)
            for pair in (t.pair_0, t.pair_1):
                seated.update(pair.members if pair is not None else ())
        for a in past.attendances.all():
            if a.coming and a.member_id not in seated:
                sat_out[a.member_id] += 1
    return sat_out


def _draw_partners_round(evening: Evening, number: int, rng) -> tuple[list, list]:
    """Round ``number`` of a league whose partners are drawn: tables of four from the members
    present, by the movement with this evening's partnerships (partners across: seats 0 and 2,
    1 and 3); each table's two sides are the season's pairs of those players (``drawn``, made
    when the season has none of them).  Returns (tables, members sitting out)."""
    season = evening.season
    by_pk, sat_out, season_sat_out = _who_may_sit(evening, number, 4)
    tables = list(evening.tables.filter(round__lt=number).select_related("pair_0", "pair_1"))
    earlier = []  # each earlier table's players in the order of their seats
    for table in sorted(tables, key=lambda t: (t.round, t.number)):
        if table.pair_0_id is not None and table.pair_1_id is not None:
            earlier.append([table.pair_0.first_id, table.pair_1.first_id,
                            table.pair_0.second_id, table.pair_1.second_id])
    out, drawn = movement.partners_round(list(by_pk), [earlier], sat_out, rng, season_sat_out)
    made = [EveningTable.objects.create(evening=evening, round=number, number=table_number,
                                        pair_0=sides[0], pair_1=sides[1])
            for table_number, sides in enumerate(
                drawn_pairs(season, [[by_pk[pk] for pk in players] for players in drawn]),
                start=1)]
    return _store_round(evening, number, made, [by_pk[pk] for pk in out])


def drawn_pairs(season, tables: list[list[Member]]) -> list[tuple[Partnership, Partnership]]:
    """The two sides of each table of four (its members by seat, partners across: seats 0
    and 2, 1 and 3) as the season's pairs of a league whose partners are drawn each round: a
    pair of those two players already in the season is reused, else one is made (``drawn``).
    The draw's tables, and an event's played as the evening (``club_events.evenings``)."""
    existing: dict[frozenset, Partnership] = {}
    for pair in season.partnerships.order_by("retired", "pk"):  # a pair still drawn first
        existing.setdefault(frozenset(pair.members), pair)
    found = []
    for players in tables:
        sides = []
        for first, second in ((players[0], players[2]), (players[1], players[3])):
            pair = existing.get(frozenset((first.pk, second.pk)))
            if pair is None:
                pair = Partnership.objects.create(season=season, first=first, second=second,
                                                  drawn=True)
                existing[frozenset((first.pk, second.pk))] = pair
            # a pair reused keeps its order (its first player in seat 0 or 1): its earlier
            # tables' seats stay as they were
            sides.append(pair)
        found.append((sides[0], sides[1]))
    return found


def _draw_pairs_round(evening: Evening, number: int) -> tuple[list, list]:
    season = evening.season
    if not season.partnerships.filter(retired=False).exists():
        raise EntryError(_("Register at least two pairs to draw matches."))
    pairs, sharing = pairs_among(season, {m.pk for m in present_members(evening)})
    if len(pairs) < 2:
        raise EntryError(_("At least two pairs must be here, both players of each, to draw a "
                           "round: mark who is coming first."))
    rounds, tables = _earlier_rounds(evening, number)
    sat_out: Counter = Counter()
    for past in rounds:
        sat_out.update(p.pk for p in past.pairs_sitting_out.all())
    met = Counter(movement.pair_key(t.pair_0_id, t.pair_1_id) for t in tables)
    start = list(season.evenings.values_list("pk", flat=True)).index(evening.pk) + number - 1
    by_pk = {p.pk: p for p in pairs}
    matches, byes = movement.pair_round(list(by_pk), met, sat_out, start)
    # a pair's direction changes between rounds (North–South: pair_0, seats 0 and 2)
    matches = movement.orient_matches(matches, Counter(t.pair_0_id for t in tables),
                                      Counter(t.pair_1_id for t in tables))
    made = [EveningTable.objects.create(evening=evening, round=number, number=table_number,
                                        pair_0=by_pk[a], pair_1=by_pk[b])
            for table_number, (a, b) in enumerate(matches, start=1)]
    stored = EveningRound.objects.create(evening=evening, number=number)
    sitting_out = [by_pk[pk] for pk in byes] + sharing
    stored.pairs_sitting_out.set(sitting_out)
    return made, sitting_out


def rounds_of(evening: Evening, *, sees_members: bool = True,
              tables: list[dict] | None = None) -> list[dict]:
    """An evening in rounds, round by round: its number, its tables (as
    ``history.evening_tables`` gives them), and who sat it out as drawn (none for a visitor who
    may not see the club's people)."""
    tables = history.evening_tables(evening) if tables is None else tables
    stored = {r.number: r for r in EveningRound.objects.filter(evening=evening)
              .prefetch_related("sitting_out", "pairs_sitting_out")}
    last = max([evening.rounds_drawn(), *stored]) if stored or tables else 0
    out = []
    for number in range(1, last + 1):
        drawn = stored.get(number)
        sitting: list = []
        if sees_members:
            if drawn is not None:
                sitting = sorted([*drawn.sitting_out.all(), *drawn.pairs_sitting_out.all()],
                                 key=str)
            elif number == 1:  # drawn as one round, before the evening was in rounds
                sitting = sitting_out(evening)
        out.append({"number": number,
                    "tables": [t for t in tables if t["table"].round == number],
                    "sitting_out": sitting, "drawn": drawn is not None})
    return out
