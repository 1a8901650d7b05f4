"""Swiss rounds and arena tables (events/pairing.py): every table full, nobody twice, byes to
those without one, the fewest repeats possible (checked against every partition of small
fields), by score, and the same answer for the same seed."""

from __future__ import annotations

import dataclasses
import itertools
import random
import time
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bench.events import played
from events import pairing
from events.pairing import Standing, Waiting, arena_tables, swiss_round, table_repeats

# (size, partnership): Bid Whist; Cutthroat Bid Whist; Solo and Belgian Whist.
FORMATS = [(4, True), (3, False), (4, False)]


def partitions(players: list, size: int):
    """Every way of cutting ``players`` into groups of ``size`` (order of groups ignored)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in itertools.combinations(rest, size - 1):
        left = [p for p in rest if p not in others]
        for more in partitions(left, size):
            yield [(first, *others), *more]


def best_seating_cost(group, cost, partnership):
    if not partnership:
        return table_repeats(group, cost, partnership=False)
    a, b, c, d = group
    return min(table_repeats(t, cost, partnership=True)
               for t in ((a, b, c, d), (a, b, d, c), (a, c, b, d)))


def fewest_repeats(players: list, size: int, cost, partnership: bool) -> int:
    return min(sum(best_seating_cost(g, cost, partnership) for g in groups)
               for groups in partitions(players, size))


def swiss_cost(players):
    by_id = {p.id: p for p in players}

    def cost(a, b, partners):
        if partners:
            return 2 if b in by_id[a].partners or a in by_id[b].partners else 0
        return 1 if b in by_id[a].opponents or a in by_id[b].opponents else 0
    return cost


@st.composite
def swiss_fields(draw, most=9):
    size, partnership = draw(st.sampled_from(FORMATS))
    count = draw(st.integers(0, most))
    ids = list(range(count))
    pairs = list(itertools.combinations(ids, 2))
    met = draw(st.sets(st.sampled_from(pairs), max_size=len(pairs))) if pairs else set()
    partnered = draw(st.sets(st.sampled_from(pairs), max_size=len(pairs))) \
        if pairs and partnership else set()
    players = []
    for i in ids:
        players.append(Standing(
            id=i, score=draw(st.integers(0, 3)),
            opponents=frozenset(b if a == i else a for a, b in met if i in (a, b)),
            partners=frozenset(b if a == i else a for a, b in partnered if i in (a, b)),
            byes=draw(st.integers(0, 2))))
    return size, partnership, players


def check_partition(result, ids, size):
    seated = [p for table in result.tables for p in table]
    assert all(len(table) == size for table in result.tables)
    assert len(seated) == len(set(seated)), "a player at two tables"
    assert sorted(seated + list(result.sitting_out)) == sorted(ids)
    assert not set(seated) & set(result.sitting_out)


@given(swiss_fields(), st.integers(0, 3))
def test_a_swiss_round_seats_everyone_once_at_full_tables(field, seed):
    size, partnership, players = field
    result = swiss_round(players, size=size, partnership=partnership, seed=seed)
    check_partition(result, [p.id for p in players], size)
    assert len(result.sitting_out) == len(players) % size


@given(swiss_fields(), st.integers(0, 3))
def test_byes_go_to_the_fewest_byes_then_the_lowest_scores(field, seed):
    size, partnership, players = field
    result = swiss_round(players, size=size, partnership=partnership, seed=seed)
    by_id = {p.id: p for p in players}
    out = [by_id[i] for i in result.sitting_out]
    playing = [by_id[i] for table in result.tables for i in table]
    for bye in out:
        for player in playing:
            assert bye.byes <= player.byes, "a second bye while someone has had fewer"
            if bye.byes == player.byes:
                assert bye.score <= player.score, "a bye to a higher score"


def test_nobody_has_a_second_bye_while_someone_has_none():
    players = [Standing(i, score=10 - i, byes=1 if i >= 5 else 0) for i in range(10)]
    assert sorted(swiss_round(players, size=4).sitting_out) == [3, 4]


@given(swiss_fields(), st.integers(0, 3))
def test_a_swiss_round_has_the_fewest_repeats_the_field_allows(field, seed):
    """Against every partition of the players who play: none while a round without one
    exists, and never more than the fewest possible."""
    size, partnership, players = field
    result = swiss_round(players, size=size, partnership=partnership, seed=seed)
    cost = swiss_cost(players)
    playing = [i for table in result.tables for i in table]
    assert result.exact
    assert result.repeats == sum(table_repeats(t, cost, partnership=partnership)
                                 for t in result.tables)
    assert result.repeats == fewest_repeats(sorted(playing), size, cost, partnership)


@given(swiss_fields(), st.integers(0, 3), st.randoms(use_true_random=False))
def test_the_same_seed_gives_the_same_round_whatever_the_order_given(field, seed, rng):
    size, partnership, players = field
    shuffled = list(players)
    rng.shuffle(shuffled)
    assert swiss_round(players, size=size, partnership=partnership, seed=seed) == \
        swiss_round(shuffled, size=size, partnership=partnership, seed=seed)


@given(st.sampled_from(FORMATS), st.lists(st.integers(0, 5), max_size=14), st.integers(0, 3))
def test_without_history_the_best_sit_with_the_best(fmt, scores, seed):
    size, partnership = fmt
    players = [Standing(i, score=s) for i, s in enumerate(scores)]
    result = swiss_round(players, size=size, partnership=partnership, seed=seed)
    score = {p.id: p.score for p in players}
    assert result.repeats == 0
    for upper, lower in itertools.pairwise(result.tables):
        assert min(score[i] for i in upper) >= max(score[i] for i in lower)


def test_partners_are_seated_opposite_best_with_fourth():
    players = [Standing(i, score=10 - i) for i in range(4)]
    assert swiss_round(players, size=4, partnership=True).tables == ((0, 1, 3, 2),)
    # 0 and 3 partnered before: 0 partners 2 instead, without a repeat.
    players[0] = Standing(0, score=10, partners=frozenset({3}))
    assert swiss_round(players, size=4, partnership=True).tables == ((0, 1, 2, 3),)


def test_the_seed_orders_equal_scores():
    players = [Standing(i, score=0) for i in range(12)]
    rounds = {swiss_round(players, size=4, seed=seed).tables for seed in range(20)}
    assert len(rounds) > 1


def test_sizes_the_games_do_not_have_are_refused():
    for size, partnership in ((2, False), (5, False), (3, True)):
        try:
            swiss_round([], size=size, partnership=partnership)
        except ValueError:
            continue
        raise AssertionError(f"size {size} accepted")


def test_a_player_listed_twice_is_refused():
    try:
        swiss_round([Standing(1, 0), Standing(1, 2)], size=3)
    except ValueError:
        return
    raise AssertionError("accepted")


# -- a large field ---------------------------------------------------------------------------


def simulated_swiss(count: int, rounds: int, size: int, partnership: bool, seed: int = 1):
    """A field of ``count`` after ``rounds`` Swiss rounds with random results (the bench's)."""
    players, _last = played({i: Standing(i, score=0) for i in range(count)}, size, partnership,
                            rounds, random.Random(seed))
    return list(players.values())


def test_a_400_player_round_is_formed_quickly_without_repeats():
    for size, partnership in FORMATS:
        players = simulated_swiss(401, 7, size, partnership)
        began = time.perf_counter()
        result = swiss_round(players, size=size, partnership=partnership, seed=8)
        assert time.perf_counter() - began < 5
        check_partition(result, [p.id for p in players], size)
        assert result.repeats == 0


def test_past_the_search_budget_the_fallback_still_seats_everyone(monkeypatch):
    monkeypatch.setattr(pairing, "SEARCH_BUDGET", 5)
    players = simulated_swiss(40, 5, 4, True)
    result = swiss_round(players, size=4, partnership=True, seed=3)
    check_partition(result, [p.id for p in players], 4)
    assert not result.exact
    assert result.repeats == sum(table_repeats(t, swiss_cost(players), partnership=True)
                                 for t in result.tables)


def test_a_round_of_more_tables_than_the_search_takes_goes_to_the_fallback(monkeypatch):
    monkeypatch.setattr(pairing, "SEARCH_TABLES", 5)
    players = simulated_swiss(41, 3, 3, False)
    result = swiss_round(players, size=3, seed=3)
    check_partition(result, [p.id for p in players], 3)
    assert not result.exact and result.repeats == 0


def test_a_field_of_3000_is_seated():
    players = [Standing(i, score=i % 17) for i in range(3001)]
    result = swiss_round(players, size=3, seed=1)
    check_partition(result, list(range(3001)), 3)
    assert result.repeats == 0


# -- the arena --------------------------------------------------------------------------------


@st.composite
def arena_fields(draw, most=9):
    size, partnership = draw(st.sampled_from(FORMATS))
    count = draw(st.integers(0, most))
    ids = list(range(count))
    # The tables they just left: consecutive groups of a shuffled order, some newcomers.
    order = draw(st.permutations(ids))
    newcomers = draw(st.sets(st.sampled_from(ids))) if ids else set()
    last = {}
    for start in range(0, count, size):
        group = frozenset(order[start:start + size]) - newcomers
        for i in group:
            last[i] = group - {i}
    players = [Waiting(i, score=draw(st.integers(0, 3)), last_table=last.get(i, frozenset()),
                       since=draw(st.integers(0, 3))) for i in ids]
    return size, partnership, players


def arena_cost(players):
    by_id = {p.id: p for p in players}

    def cost(a, b, partners):
        together = b in by_id[a].last_table or a in by_id[b].last_table
        return (2 if partners else 1) if together else 0
    return cost


@given(arena_fields(), st.integers(0, 3))
def test_the_arena_seats_as_many_as_fill_tables_and_the_latest_wait(field, seed):
    size, partnership, players = field
    result = arena_tables(players, size=size, partnership=partnership, seed=seed)
    check_partition(result, [p.id for p in players], size)
    assert len(result.sitting_out) == len(players) % size
    since = {p.id: p.since for p in players}
    for waiting in result.sitting_out:
        for table in result.tables:
            assert all(since[waiting] >= since[i] for i in table), "an earlier arrival waits"


@given(arena_fields(), st.integers(0, 3))
def test_the_arena_keeps_last_tables_apart_as_far_as_possible(field, seed):
    size, partnership, players = field
    result = arena_tables(players, size=size, partnership=partnership, seed=seed)
    cost = arena_cost(players)
    playing = [i for table in result.tables for i in table]
    assert result.exact
    assert result.repeats == fewest_repeats(sorted(playing), size, cost, partnership)


@given(arena_fields(), st.integers(0, 3), st.randoms(use_true_random=False))
def test_the_arena_is_the_same_for_the_same_seed(field, seed, rng):
    size, partnership, players = field
    shuffled = list(players)
    rng.shuffle(shuffled)
    assert arena_tables(players, size=size, partnership=partnership, seed=seed) == \
        arena_tables(shuffled, size=size, partnership=partnership, seed=seed)


def test_the_arena_seats_by_score_and_never_the_same_table_again_when_it_can():
    # Two tables just finished: 0-3 and 4-7, strongest first.
    last = {i: frozenset(range(4 * (i // 4), 4 * (i // 4) + 4)) - {i} for i in range(8)}
    players = [Waiting(i, score=8 - i, last_table=last[i]) for i in range(8)]
    result = arena_tables(players, size=4, seed=0)
    # Apart entirely is impossible (8 players from two tables of 4): two of each at each
    # table, a pair that met at each.
    assert result.repeats == 4 and result.exact
    players += [Waiting(i, score=8 - i) for i in range(8, 16)]  # eight newcomers
    result = arena_tables(players, size=4, seed=0)
    assert result.repeats == 0
    assert result.tables[0][0] == 0


@given(arena_fields(), st.integers(0, 3), st.booleans(), st.booleans(), st.integers(0, 120))
def test_the_arena_seating_seats_everyone_once_or_leaves_fewer_than_a_table_waiting(
        field, seed, others_in_play, fill, now):
    size, partnership, players = field
    seating = pairing.arena_seating(players, size=size, partnership=partnership, seed=seed,
                                    now=now, others_in_play=others_in_play, max_wait=60,
                                    fill=fill)
    seated = [i for table in seating.tables for i in table if i >= 0]
    assert sorted(seated + list(seating.waiting)) == sorted(p.id for p in players)
    assert all(len(table) == size for table in seating.tables)
    assert len(seating.waiting) < size
    # Computer players only where people are too few: at one table at most.
    assert sum(any(i < 0 for i in table) for table in seating.tables) <= 1
    if seating.waiting:  # they wait only for a table in play, and less than the longest wait
        assert not fill and (others_in_play or seating.tables)
        since = {p.id: p.since for p in players}
        assert all(now - since[i] < 60 for i in seating.waiting)


def test_fewer_than_a_table_wait_for_a_table_in_play_then_computers_fill_their_seats():
    alone = [Waiting(1, score=50.0, since=100.0), Waiting(2, score=40.0, since=110.0)]
    usual = {"size": 4, "now": 130.0, "max_wait": 60.0}
    # Another table plays: they wait for it to finish.
    waiting = pairing.arena_seating(alone, others_in_play=True, **usual)
    assert waiting.tables == () and waiting.waiting == (1, 2)
    # Nobody else plays: nobody would come; computer players fill the table at once.
    assert pairing.arena_seating(alone, others_in_play=False, **usual).tables == (
        (1, 2, -1, -2),)
    # The first has waited a minute: they do not wait longer.
    later = {**usual, "now": 160.0}
    assert pairing.arena_seating(alone, others_in_play=True, **later).tables == (
        (1, 2, -1, -2),)
    # At the start, everyone is seated.
    assert pairing.arena_seating(alone, others_in_play=True, fill=True, **usual).waiting == ()


def test_an_arena_table_plays_the_first_block_none_of_its_people_played():
    assert pairing.next_block([], 2) == 0
    assert pairing.next_block([set(), {0}], 2) == 2
    assert pairing.next_block([{0, 2}, {0}, {4}], 2) == 6
    assert pairing.next_block([{3}, {0}], 3) == 6
    assert pairing.next_block([{0, 3}, {6}], 3) == 9


def test_the_round_is_the_same_in_another_process():
    """A stored seed forms the same round again later, in a process whose string hashes
    differ (nothing depends on the order of a set)."""
    import subprocess
    import sys

    program = ("import random\n"
               "from events.pairing import Standing, swiss_round, arena_tables, Waiting\n"
               "rng = random.Random(4)\n"
               "ids = [f'p{i}' for i in range(23)]\n"
               "ps = [Standing(i, rng.randint(0, 3), frozenset(rng.sample(ids, 9)) - {i},\n"
               "               frozenset(rng.sample(ids, 3)) - {i}, rng.randint(0, 1)) for i in ids]\n"
               "print(swiss_round(ps, size=4, partnership=True, seed=7))\n"
               "print(arena_tables([Waiting(p.id, p.score, p.opponents) for p in ps], size=3))\n")
    outputs = {subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                              check=True, env={"PYTHONHASHSEED": str(seed)},
                              cwd=Path(__file__).resolve().parents[2]).stdout
               for seed in (1, 2, 3)}
    assert len(outputs) == 1


# -- an arena's people coming and going: pauses, departures, latecomers ----------------------

MAX_WAIT = 60.0
# What happens next in a simulated arena: a table finishes, a person pauses, comes back or
# leaves, a newcomer joins, or time passes.
ARENA_MOVES = st.lists(st.tuples(st.sampled_from(["finish", "pause", "back", "leave", "join",
                                                  "time"]), st.integers(0, 40)),
                       min_size=1, max_size=40)


def test_who_waits_leaves_out_the_seated_and_the_away_and_counts_from_coming_back():
    entrants = [pairing.Entrant(1, free_since=10.0),
                pairing.Entrant(2, seated=True),
                pairing.Entrant(3, away=True, free_since=10.0),
                pairing.Entrant(4, free_since=10.0, back_since=50.0),  # back from a pause
                pairing.Entrant(5, free_since=90.0, back_since=50.0)]  # back, then a table
    waiting = {each.id: each.since for each in pairing.arena_waiting(entrants)}
    assert waiting == {1: 10.0, 4: 50.0, 5: 90.0}


@given(st.sampled_from(FORMATS), st.integers(0, 9), ARENA_MOVES, st.integers(0, 3))
def test_over_pauses_departures_and_latecomers_nobody_sits_twice_nor_while_away(
        fmt, starting, moves, seed):
    """An arena simulated move by move with the pure functions, as ``events.arena`` runs
    them: after every formation, nobody is at two tables, nobody paused or gone is seated, an
    earlier arrival (a newcomer or a person back from a pause counted from then) never waits
    while a later one is seated, nobody waits past the longest wait, and a latecomer is
    seated at once when the numbers allow it (the waiting fill whole tables)."""
    size, partnership = fmt
    now = 0.0
    people: dict[int, dict] = {}
    tables: list[tuple[int, ...]] = []  # in play, people only

    def arrive(uid: int, late: bool) -> None:
        people[uid] = {"away": False, "gone": False, "last": frozenset(), "free": 0.0,
                       "back": now if late else None, "score": float(uid % 5)}

    for uid in range(starting):
        arrive(uid, late=False)

    def form(fill: bool = False) -> pairing.Seating:
        seated = {uid for table in tables for uid in table}
        entrants = [pairing.Entrant(uid, score=each["score"], seated=uid in seated,
                                    away=each["away"] or each["gone"],
                                    last_table=each["last"], free_since=each["free"],
                                    back_since=each["back"])
                    for uid, each in people.items()]
        waiting = pairing.arena_waiting(entrants)
        seating = pairing.arena_seating(waiting, size=size, partnership=partnership,
                                        seed=seed, now=now, others_in_play=bool(tables),
                                        max_wait=MAX_WAIT, fill=fill)
        # Since when each waits: their table's end, or later, when they joined or came back.
        since = {uid: max(each["free"], each["back"] or 0.0) for uid, each in people.items()
                 if uid not in seated and not each["away"] and not each["gone"]}
        new = [tuple(uid for uid in table if uid >= 0) for table in seating.tables]
        placed = [uid for table in new for uid in table]
        assert len(placed) == len(set(placed)), "a person at two new tables"
        assert not set(placed) & seated, "a person seated while at a table"
        assert all(not people[uid]["away"] and not people[uid]["gone"] for uid in placed), \
            "a paused or departed person seated"
        assert set(placed) | set(seating.waiting) == set(since)
        for uid in seating.waiting:
            assert now - since[uid] < MAX_WAIT, "waiting past the longest wait"
            assert all(since[uid] >= since[other] for other in placed), \
                "an earlier arrival waits while a later one plays"
        if len(waiting) % size == 0:
            assert not seating.waiting, "the waiting fill whole tables, yet someone waits"
        tables.extend(table for table in new if table)
        return seating

    form(fill=True)
    joined = starting
    for move, pick in moves:
        now += 1.0
        present = sorted(people)
        if move == "finish" and tables:
            table = tables.pop(pick % len(tables))
            for uid in table:
                people[uid].update(free=now, last=frozenset(table) - {uid})
        elif move == "pause" and present:
            people[present[pick % len(present)]]["away"] = True
        elif move == "back" and present:
            chosen = people[present[pick % len(present)]]
            if chosen["away"] and not chosen["gone"]:
                chosen.update(away=False, back=now)
        elif move == "leave" and present:
            people[present[pick % len(present)]]["gone"] = True
        elif move == "join":
            arrive(joined, late=True)
            joined += 1
        elif move == "time":
            now += float(pick) * 3
        form()
    # Whoever is away was never seated after going away: checked at each formation above.
    seated = [uid for table in tables for uid in table]
    assert len(seated) == len(set(seated))


@given(st.sampled_from(FORMATS), st.integers(1, 12), st.integers(0, 3))
def test_a_latecomer_joining_people_who_fill_a_table_with_them_is_seated_at_once(
        fmt, waiting_before, seed):
    """People waiting (their table just finished), and a newcomer: when together they make
    whole tables, the newcomer is at one of them; otherwise the newcomer, the latest to come,
    is among the few who wait, for a minute at most."""
    size, partnership = fmt
    entrants = [pairing.Entrant(uid, score=float(uid), free_since=100.0)
                for uid in range(waiting_before)]
    entrants.append(pairing.Entrant(99, free_since=0.0, back_since=110.0))  # joined at 110
    waiting = pairing.arena_waiting(entrants)
    seating = pairing.arena_seating(waiting, size=size, partnership=partnership, seed=seed,
                                    now=111.0, others_in_play=True, max_wait=MAX_WAIT)
    placed = {uid for table in seating.tables for uid in table}
    if (waiting_before + 1) % size == 0:
        assert 99 in placed
    else:
        assert 99 in seating.waiting
    later = pairing.arena_seating(waiting, size=size, partnership=partnership, seed=seed,
                                  now=110.0 + MAX_WAIT, others_in_play=True, max_wait=MAX_WAIT)
    assert 99 in {uid for table in later.tables for uid in table}


@given(st.sampled_from(FORMATS), st.integers(2, 14), st.integers(1, 5), st.integers(0, 3))
def test_a_swiss_latecomer_at_0_is_seated_once_when_computers_fill_the_seats(
        fmt, count, late, seed):
    """A Swiss round with newcomers at 0 (no bye counted for the rounds they missed), padded
    with computer players as the site pads it: every newcomer is at exactly one table, and
    nobody sits out."""
    size, partnership = fmt
    field = [Standing(uid, score=50.0 + uid, opponents=frozenset({(uid + 1) % count}))
             for uid in range(count)]
    field += [Standing(100 + k, score=0.0) for k in range(late)]
    field += [Standing(-(k + 1), score=-1.0) for k in range((-len(field)) % size)]
    formed = swiss_round(field, size=size, partnership=partnership, seed=seed)
    assert formed.sitting_out == ()
    seats = [uid for table in formed.tables for uid in table]
    for k in range(late):
        assert seats.count(100 + k) == 1


# -- a Swiss event's people pausing or leaving: the round is formed from the others ---------


@st.composite
def fields_with_the_away(draw):
    size, partnership, players = draw(swiss_fields(most=11))
    away = draw(st.sets(st.sampled_from([p.id for p in players]))) if players else set()
    return size, partnership, [dataclasses.replace(p, away=p.id in away) for p in players]


@given(fields_with_the_away(), st.integers(0, 3))
def test_the_away_are_neither_seated_nor_sitting_out_and_the_others_keep_every_guarantee(
        field, seed):
    """Those paused or gone are left out of the round (no table, no bye); the others' round is
    the round they would have without them, so it has every guarantee above: everyone once,
    full tables, byes to the fewest byes and lowest scores, the fewest repeats."""
    size, partnership, players = field
    present = [p for p in players if not p.away]
    result = swiss_round(players, size=size, partnership=partnership, seed=seed)
    check_partition(result, [p.id for p in present], size)
    assert len(result.sitting_out) == len(present) % size
    assert result == swiss_round(present, size=size, partnership=partnership, seed=seed)
    cost = swiss_cost(present)
    playing = [i for table in result.tables for i in table]
    assert result.repeats == fewest_repeats(sorted(playing), size, cost, partnership)


# -- the directions held over the rounds ------------------------------------------------------


def directions_count(size, partnership):
    return 2 if partnership else size


@st.composite
def fields_with_directions(draw):
    """A Swiss field whose players have held each direction some number of times."""
    size, partnership, players = draw(swiss_fields(most=11))
    count = directions_count(size, partnership)
    return size, partnership, [
        dataclasses.replace(p, directions=tuple(draw(st.lists(st.integers(0, 4), min_size=0,
                                                              max_size=count))))
        for p in players]


def held_of(players, count):
    return {p.id: (list(p.directions) + [0] * count)[:count] for p in players}


def meetings(table, partnership):
    """Who meets whom at a table, whatever the seats: its players, and its partnerships."""
    if partnership:
        return frozenset({frozenset({table[0], table[2]}), frozenset({table[1], table[3]})})
    return frozenset(table)


@given(fields_with_directions(), st.integers(0, 3))
def test_evening_the_directions_changes_nobody_s_table_or_bye_and_adds_no_repeat(field, seed):
    """The directions only choose the seats at a table (and, in a partnership game, which
    pairing of its four): the same tables, the same byes as the round without any history of
    directions, and no more repeats; in the other games, everyone meets the same people."""
    size, partnership, players = field
    result = swiss_round(players, size=size, partnership=partnership, seed=seed)
    plain = swiss_round([dataclasses.replace(p, directions=()) for p in players], size=size,
                        partnership=partnership, seed=seed)
    assert [frozenset(t) for t in result.tables] == [frozenset(t) for t in plain.tables]
    assert (result.sitting_out, result.exact) == (plain.sitting_out, plain.exact)
    cost = swiss_cost(players)
    assert result.repeats == sum(table_repeats(t, cost, partnership=partnership)
                                 for t in result.tables) <= plain.repeats


def excess(table, held, partnership):
    """A table's (largest, total) excess, counted here afresh: how many more times each player
    has held the direction they take than their least held."""
    count = 2 if partnership else len(table)
    each = [held[p][seat % count] - min(held[p]) for seat, p in enumerate(table)]
    return max(each), sum(each)


@given(fields_with_directions(), st.integers(0, 3))
def test_each_table_seats_its_players_directions_as_evenly_as_any_seating_can(field, seed):
    """Against every seating of the table's players that repeats no more (every order; in a
    partnership game any partners whose repeats weigh no more): none is more even."""
    size, partnership, players = field
    held = held_of(players, directions_count(size, partnership))
    cost = swiss_cost(players)
    result = swiss_round(players, size=size, partnership=partnership, seed=seed)
    for table in result.tables:
        weight = table_repeats(table, cost, partnership=partnership)
        others = [t for t in itertools.permutations(table)
                  if table_repeats(t, cost, partnership=partnership) <= weight]
        assert excess(table, held, partnership) == min(excess(t, held, partnership)
                                                       for t in others)


def test_partners_who_each_need_the_other_side_are_paired_with_someone_else():
    """Bid Whist, four players who have not met: 1 and 3 have always held side 0, 2 and 4
    side 1.  By score 1 partners 4 (best with fourth), but then one of them takes the side
    they have held twice; paired 1 with 3 and 2 with 4 instead, everyone takes the side they
    have held least."""
    players = [Standing(1, 9.0, directions=(2, 0)), Standing(2, 8.0, directions=(0, 2)),
               Standing(3, 7.0, directions=(2, 0)), Standing(4, 6.0, directions=(0, 2))]
    (table,) = swiss_round(players, size=4, partnership=True).tables
    assert meetings(table, True) == meetings((1, 2, 3, 4), True)
    assert [table.index(p) % 2 for p in (1, 2, 3, 4)] == [1, 0, 1, 0]


def test_partners_are_changed_for_the_sides_only_without_another_repeat():
    """The same four, but 1 and 3 have partnered before: they stay apart, and the sides are
    the best the other pairings allow."""
    players = [Standing(1, 9.0, directions=(2, 0), partners=frozenset({3})),
               Standing(2, 8.0, directions=(0, 2)),
               Standing(3, 7.0, directions=(2, 0), partners=frozenset({1})),
               Standing(4, 6.0, directions=(0, 2))]
    (table,) = swiss_round(players, size=4, partnership=True).tables
    assert frozenset({1, 3}) not in meetings(table, True)


@given(st.sampled_from([(3, False), (4, False)]), fields_with_directions(), st.integers(0, 3))
def test_a_player_who_always_held_one_seat_takes_another_unless_the_table_held_it_as_often(
        fmt, field, seed):
    """In the games whose direction is a seat: a player who has held the same seat in each of
    their k rounds takes another seat in the next, unless every other player at their table
    has held that seat k times or more."""
    size, partnership = fmt
    _size, _partnership, players = field
    held = held_of(players, size)
    result = swiss_round(players, size=size, partnership=partnership, seed=seed)
    for table in result.tables:
        for seat, player in enumerate(table):
            k = sum(held[player])
            if k and held[player][seat] == k:  # the same seat every round, and again now
                assert all(held[other][seat] >= k for other in table if other != player)


def simulated_directions(count, rounds, size, partnership, seed, evened=True):
    """A Swiss event of ``count`` players over ``rounds`` rounds with random results; the
    largest spread of a player's directions (the most held minus the least held)."""
    rng = random.Random(seed)
    directions = directions_count(size, partnership)
    players = {i: Standing(i, 0.0) for i in range(count)}
    worst = 0
    for number in range(rounds):
        field = list(players.values()) if evened else [
            dataclasses.replace(p, directions=()) for p in players.values()]
        formed = swiss_round(field, size=size, partnership=partnership, seed=number)
        for table in formed.tables:
            for seat, pid in enumerate(table):
                p = players[pid]
                held = (list(p.directions) + [0] * directions)[:directions]
                held[seat % directions] += 1
                partners = {q for s, q in enumerate(table)
                            if partnership and s % 2 == seat % 2 and q != pid}
                players[pid] = dataclasses.replace(
                    p, score=p.score + rng.randint(0, 4), directions=tuple(held),
                    opponents=p.opponents | (set(table) - partners - {pid}),
                    partners=p.partners | partners)
        for pid in formed.sitting_out:
            players[pid] = dataclasses.replace(players[pid], byes=players[pid].byes + 1)
        worst = max([worst] + [max(p.directions) - min(p.directions) for p in players.values()
                               if len(p.directions) == directions])
    return worst


def test_over_the_rounds_each_player_s_directions_stay_within_a_few_of_each_other():
    """Simulated events of 4 to 30 players and 2 to 9 rounds: nobody has held a direction more
    than 2 times more than another in Solo and Belgian Whist, 3 in Cutthroat (three seats for
    three who may all need the same), 4 sides in Bid Whist (a partnership takes a side
    together: partners may need opposite sides).  Without evening them, the best of each
    table held seat 0 every round: as many times as there were rounds."""
    bounds = {(4, False): 2, (3, False): 3, (4, True): 4}
    for (size, partnership), bound in bounds.items():
        for seed in range(40):
            rng = random.Random(seed)
            count, rounds = rng.randint(size, 30), rng.randint(2, 9)
            assert simulated_directions(count, rounds, size, partnership, seed) <= bound
        assert simulated_directions(12, 6, size, partnership, 1, evened=False) == 6


# -- an arena's tables even out the directions too ---------------------------------------------


@st.composite
def arena_fields_with_directions(draw):
    """An arena's waiting players who have held each direction some number of times."""
    size, partnership, players = draw(arena_fields())
    count = directions_count(size, partnership)
    return size, partnership, [
        dataclasses.replace(p, directions=tuple(draw(st.lists(st.integers(0, 4), min_size=0,
                                                              max_size=count))))
        for p in players]


@given(arena_fields_with_directions(), st.integers(0, 3))
def test_an_arena_table_seats_its_players_directions_as_evenly_as_any_seating_can(field, seed):
    """As a Swiss round's: against every seating of the table's players that repeats no
    more, none is more even; and the directions change nobody's table or who waits, and add
    no repeat."""
    size, partnership, players = field
    held = held_of(players, directions_count(size, partnership))
    cost = arena_cost(players)
    result = arena_tables(players, size=size, partnership=partnership, seed=seed)
    for table in result.tables:
        weight = table_repeats(table, cost, partnership=partnership)
        others = [t for t in itertools.permutations(table)
                  if table_repeats(t, cost, partnership=partnership) <= weight]
        assert excess(table, held, partnership) == min(excess(t, held, partnership)
                                                       for t in others)
    plain = arena_tables([dataclasses.replace(p, directions=()) for p in players], size=size,
                         partnership=partnership, seed=seed)
    assert [frozenset(t) for t in result.tables] == [frozenset(t) for t in plain.tables]
    assert result.sitting_out == plain.sitting_out
    assert result.repeats <= plain.repeats


def test_four_who_keep_meeting_in_an_arena_each_take_a_seat_they_have_not_held():
    """Solo Whist: the same four seated again and again (nobody else waits), each time each
    of them at a seat they have held least, so in four tables each holds every seat once."""
    held = {uid: [0, 0, 0, 0] for uid in range(4)}
    for number in range(4):
        waiting = [Waiting(uid, score=float(uid), directions=tuple(held[uid]))
                   for uid in range(4)]
        (table,) = pairing.arena_seating(waiting, size=4, seed=number, now=0.0,
                                         others_in_play=False, max_wait=60.0).tables
        for seat, uid in enumerate(table):
            assert held[uid][seat] == 0, (number, table, held)
            held[uid][seat] += 1
    assert all(counts == [1, 1, 1, 1] for counts in held.values())


# -- fixed pairs: a league's registered pairs, each pair one of the Swiss round's players ----


@st.composite
def pairs_fields(draw, most=7):
    """Pairs (members 2k and 2k+1), scores, byes, sides held, and pairs met before (each
    meeting a member of one pair against a member of the other)."""
    count = draw(st.integers(0, most))
    met = draw(st.sets(st.sampled_from(list(itertools.combinations(range(count), 2))),
                       max_size=count * 2)) if count > 1 else set()
    opponents = {member: set() for member in range(2 * count)}
    for a, b in met:
        one, other = 2 * a + draw(st.integers(0, 1)), 2 * b + draw(st.integers(0, 1))
        opponents[one].add(other)
        opponents[other].add(one)
    pairs = []
    for k in range(count):
        score, byes = draw(st.integers(0, 3)), draw(st.integers(0, 2))
        sides = (draw(st.integers(0, 3)), draw(st.integers(0, 3)))
        pairs.append(tuple(Standing(id=member, score=score, byes=byes, directions=sides,
                                    opponents=frozenset(opponents[member]))
                           for member in (2 * k, 2 * k + 1)))
    return pairs, met


@given(pairs_fields(), st.integers(0, 3))
def test_fixed_pairs_sit_together_at_one_table_each_and_meet_again_only_when_they_must(
        field, seed):
    pairs, met = field
    result = pairing.fixed_pairs_round(pairs, seed=seed)
    members = [m.id for pair in pairs for m in pair]
    check_partition(result, members, 4)
    assert len(result.sitting_out) == 2 * (len(pairs) % 2)
    for table in result.tables:
        # Partners across, always: seats 0 and 2 one pair, 1 and 3 the other.
        assert table[0] // 2 == table[2] // 2 and table[1] // 2 == table[3] // 2
        assert table[0] // 2 != table[1] // 2
    assert {m // 2 for m in result.sitting_out} == {m // 2 for m in result.sitting_out[:1]}
    # No pairs meet again while a round without it exists: the fewest over every way of
    # cutting the pairs that play into tables of two.
    playing = sorted(table[0] // 2 for table in result.tables) + sorted(
        table[1] // 2 for table in result.tables)
    repeats = sum(tuple(sorted((t[0] // 2, t[1] // 2))) in met for t in result.tables)
    assert repeats == result.repeats
    fewest = min(sum(tuple(sorted(g)) in met for g in groups)
                 for groups in partitions(sorted(playing), 2))
    assert repeats == fewest


def test_fixed_pairs_even_their_sides_and_a_member_in_two_pairs_is_refused():
    north_south = (Standing(1, 0, directions=(2, 0)), Standing(2, 0, directions=(2, 0)))
    east_west = (Standing(3, 0, directions=(0, 2)), Standing(4, 0, directions=(0, 2)))
    # Each pair takes the side it has held least, whichever the search put first.
    for pairs in ([north_south, east_west], [east_west, north_south]):
        (table,) = pairing.fixed_pairs_round(pairs).tables
        assert {table[1], table[3]} == {1, 2} and {table[0], table[2]} == {3, 4}
    try:
        pairing.fixed_pairs_round([north_south, (Standing(2, 0), Standing(5, 0))])
    except ValueError:
        return
    raise AssertionError("a player in two pairs accepted")


def test_a_pair_with_a_member_away_is_neither_seated_nor_sitting_out():
    pairs = [(Standing(1, 0), Standing(2, 0)), (Standing(3, 0), Standing(4, 0, away=True)),
             (Standing(5, 0), Standing(6, 0))]
    result = pairing.fixed_pairs_round(pairs)
    assert result.sitting_out == () and sorted(result.tables[0]) == [1, 2, 5, 6]
