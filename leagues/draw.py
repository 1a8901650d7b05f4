"""The draw for an evening: who is drawn is the kind of score's (``League.score_kind.draw``).

Players (Solo / Belgian Whist): tables of the game's size (four; three for a three-seat game)
from the members who said they are coming.  When the count is not a multiple of the size, those
who sat out least often this season sit out (ties drawn at random).  ``random`` shuffles;
``spread`` tries many shuffles and keeps the one whose tables repeat the fewest meetings
already played this season.

Pairs (Bid Whist): the season's pairs still drawn (not retired) whose two players are both
coming, in a round robin (the circle method, one round per evening in date order) or by
standings (1st v 2nd, 3rd v 4th ...).  An odd pair has a bye.  A pair whose player is coming
with another pair too (pairs registered before a player could be in only one) sits out: nobody
is ever seated twice.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from django.db import transaction
from django.utils.translation import gettext as _

from leagues import edits
from leagues.models import EntryError, Evening, EveningTable, Season, TableSeat

SPREAD_TRIES = 400


def draw_evening(evening: Evening, rng: random.Random | None = None, *, again_by=None):
    """Creates the evening's tables; returns (number of tables, members or pairs sitting out).

    ``again_by``: the organiser drawing again an evening whose tables have no result yet (after
    a late arrival or someone gone home): its tables go first, in the club's history."""
    rng = rng or random.SystemRandom()
    with transaction.atomic():
        # Lock the evening so two organisers clicking "draw" do not both draw.
        Evening.objects.select_for_update().get(pk=evening.pk)
        if evening.tables.exists():
            if again_by is None:
                raise EntryError(_("This evening already has tables."))
            if not may_draw_again(evening):
                raise EntryError(_("A table of this evening has results: it cannot be drawn "
                                   "again. Change its tables one by one instead."))
            for table in evening.tables.all():
                edits.delete_table(table, again_by)
        return evening.season.league.score_kind.draw(evening, rng)


def may_draw_again(evening: Evening) -> bool:
    """An evening is drawn again only while none of its tables has a result or is played."""
    return not evening.tables.exclude(entry="").exists() and not evening.tables.filter(
        deals__isnull=False).exists() and not evening.tables.filter(
        online__isnull=False).exists()


def sitting_out(evening: Evening) -> list:
    """Who is coming but has no seat at the evening's tables: members, or pairs."""
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
    sitting_out = _choose_sit_outs(season, evening, coming, len(coming) % size, rng)
    players = [m for m in coming if m not in sitting_out]
    if season.draw == Season.Draw.SPREAD:
        met = _meetings(season)
        best, best_cost = None, None
        for _try in range(SPREAD_TRIES):
            rng.shuffle(players)
            cost = sum(met[frozenset((a.pk, b.pk))] for i in range(0, len(players), size)
                       for a, b in combinations(players[i:i + size], 2))
            if best_cost is None or cost < best_cost:
                best, best_cost = list(players), cost
        assert best is not None  # SPREAD_TRIES > 0
        players = best
    else:
        rng.shuffle(players)
    for number, start in enumerate(range(0, len(players), size), start=1):
        table = EveningTable.objects.create(evening=evening, number=number)
        TableSeat.objects.bulk_create(TableSeat(table=table, seat=seat, member=member)
                                      for seat, member in enumerate(players[start:start + size]))
    return len(players) // size, sitting_out


def _choose_sit_outs(season, evening, coming, count, rng):
    """Sit-outs rotate: a member who came to an earlier evening and had no seat sat out."""
    if not count:
        return []
    sat_out = Counter()
    earlier = season.evenings.filter(date__lt=evening.date).prefetch_related(
        "attendances", "tables__seats")
    for past in earlier:
        seated = {s.member_id for t in past.tables.all() for s in t.seats.all()}
        for a in past.attendances.all():
            if a.coming and a.member_id not in seated:
                sat_out[a.member_id] += 1
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
    coming = {member.pk for member in coming_members(evening)}
    seated: set[int] = set()
    drawn, sharing = [], []
    for pair in evening.season.partnerships.filter(retired=False).order_by("pk"):
        if not set(pair.members) <= coming:
            continue
        if seated & set(pair.members):
            sharing.append(pair)
            continue
        seated.update(pair.members)
        drawn.append(pair)
    return drawn, sharing


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
