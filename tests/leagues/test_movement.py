"""The movement's promises (``leagues.movement``), for any number of players and rounds:
everyone present is seated once or sits out, tables are full, nobody sits out twice before
everyone has sat out once, the same seed gives the same evening, a seating without repeats is
found when one obviously exists, and the pairs' round robin meets every pair once."""

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from leagues import movement

SETTINGS = settings(max_examples=25, deadline=None)


def play_evening(players: int, size: int, rounds: int, seed: int, arrivals=(), seat=True):
    """Rounds drawn one after the other; ``arrivals``: (round, count) of newcomers; without
    ``seat``, only who sits out."""
    rng = random.Random(seed)
    present = list(range(players))
    sat_out: Counter = Counter()
    done, outs = [], []
    for number in range(rounds):
        for at, count in arrivals:
            if at == number:
                present += list(range(len(present), len(present) + count))
        out = movement.choose_sit_outs(present, size, sat_out, Counter(), rng)
        seated = [p for p in present if p not in out]
        tables = (movement.seat_tables(seated, size, movement.meetings(done), rng) if seat
                  else [seated])
        sat_out.update(out)
        done.append(tables)
        outs.append((list(present), out))
    return done, outs, sat_out


@SETTINGS
@given(players=st.integers(3, 24), size=st.sampled_from([3, 4]), rounds=st.integers(1, 4),
       seed=st.integers(0, 10**6))
def test_everyone_present_sits_once_or_sits_out(players, size, rounds, seed):
    if players < size:
        return
    done, outs, _sat_out = play_evening(players, size, rounds, seed)
    for tables, (present, out) in zip(done, outs, strict=True):
        seated = [p for table in tables for p in table]
        assert sorted(seated + out) == sorted(present)
        assert all(len(table) == size for table in tables)
        assert len(out) == players % size


@SETTINGS
@given(players=st.integers(4, 40), size=st.sampled_from([3, 4]), rounds=st.integers(1, 8),
       seed=st.integers(0, 10**6))
def test_nobody_sits_out_twice_before_everyone_has_once(players, size, rounds, seed):
    _done, outs, _ = play_evening(players, size, rounds, seed, seat=False)
    counts: Counter = Counter()
    for present, out in outs:
        # Those sitting out now had sat out no more often than anyone who plays.
        playing = [q for q in present if q not in out]
        assert max((counts[p] for p in out), default=0) <= min(counts[q] for q in playing)
        counts.update(out)
    assert max(counts[p] for p in range(players)) - min(counts[p] for p in range(players)) <= 1


@SETTINGS
@given(players=st.integers(4, 30), seed=st.integers(0, 10**6))
def test_a_latecomer_sits_out_before_anyone_sits_out_twice(players, seed):
    _done, outs, _ = play_evening(players, 4, 8, seed, arrivals=[(2, 1)], seat=False)
    counts: Counter = Counter()
    for present, out in outs:
        playing = [q for q in present if q not in out]
        assert max((counts[p] for p in out), default=0) <= min(counts[q] for q in playing)
        counts.update(out)


@SETTINGS
@given(players=st.integers(4, 24), size=st.sampled_from([3, 4]), seed=st.integers(0, 10**6))
def test_the_same_seed_draws_the_same_evening(players, size, seed):
    assert play_evening(players, size, 3, seed)[0] == play_evening(players, size, 3, seed)[0]


@SETTINGS
@given(tables=st.integers(4, 8), size=st.sampled_from([3, 4]), seed=st.integers(0, 10**6))
def test_the_second_round_repeats_no_meeting_when_there_are_tables_enough(tables, size, seed):
    # With at least as many tables as seats, the second round can always seat strangers
    # (one from each table of the first): the search finds such a seating.
    done, _outs, _ = play_evening(tables * size, size, 2, seed)
    met = movement.meetings(done)
    assert max(met.values()) == 1


@SETTINGS
@given(pairs=st.integers(2, 20), seed=st.integers(0, 10**6))
def test_the_pairs_round_robin_meets_every_pair_once(pairs, seed):
    rounds = pairs - 1 if pairs % 2 == 0 else pairs
    start = random.Random(seed).randrange(100)
    met: Counter = Counter()
    byes: Counter = Counter()
    for number in range(rounds):
        matches, out = movement.pair_round(list(range(pairs)), met, byes, start + number)
        assert len(out) == pairs % 2
        seated = [p for match in matches for p in match]
        assert sorted(seated + out) == list(range(pairs))
        byes.update(out)
        met.update(movement.pair_key(a, b) for a, b in matches)
    assert set(met.values()) == {1}
    assert len(met) == pairs * (pairs - 1) // 2
    assert all(byes[p] <= 1 for p in range(pairs))


# -- places at the table ----------------------------------------------------------------------


def repeats(table, last):
    return sum(1 for seat, player in enumerate(table) if last.get(player) == seat)


@SETTINGS
@given(earlier=st.lists(st.lists(st.integers(0, 4) | st.none(), min_size=4, max_size=4),
                        min_size=0, max_size=4), five=st.booleans())
def test_a_tables_seats_repeat_as_little_as_any_order_would(earlier, five):
    """Any earlier seats (each player's seat in each earlier round, None: sat out): the order
    chosen keeps the table's players and repeats no more than the best of every order of
    them, last rounds' seats first."""
    from itertools import permutations
    size = 5 if five else 4
    table = list(range(size))
    had: dict[int, Counter] = {}
    last: dict[int, int] = {}
    for seats in earlier:
        for player, seat in enumerate(seats):
            if seat is not None and seat < size:
                had.setdefault(player, Counter())[seat] += 1
                last[player] = seat
    chosen, = movement.rotate_seats([table], had, last)
    assert sorted(chosen) == table
    assert movement.seats_cost(chosen, had, last) == min(
        movement.seats_cost(order, had, last) for order in permutations(table))


@SETTINGS
@given(first=st.lists(st.integers(0, 3) | st.none(), min_size=4, max_size=4))
def test_round_two_repeats_no_seat_unless_the_whole_table_had_one(first):
    """Round 2 gives nobody their round-1 seat, unless all four at the table had that same
    seat (at four tables of round 1)."""
    last = {player: seat for player, seat in enumerate(first) if seat is not None}
    had = {player: Counter([seat]) for player, seat in last.items()}
    chosen, = movement.rotate_seats([[0, 1, 2, 3]], had, last)
    same = len(last) == 4 and len(set(first)) == 1
    assert repeats(chosen, last) == (1 if same else 0)


@SETTINGS
@given(tables=st.integers(2, 6), five=st.booleans(), seed=st.integers(0, 10**6))
def test_nobody_sits_in_one_seat_two_rounds_running(tables, five, seed):
    """Everyone present all evening, five rounds: the draw's tables with their places turned;
    nobody sits in the same seat two rounds running unless their whole table had that seat
    in the round before."""
    rng = random.Random(seed)
    sizes = [5] * tables if five else None
    players = list(range(tables * (5 if five else 4)))
    done: list = []
    had: dict[int, Counter] = {}
    last: dict[int, int] = {}
    for _round in range(5):
        seated = movement.rotate_seats(movement.seat_tables(
            players, 4, movement.meetings(done), rng, sizes=sizes), had, last)
        for table in seated:
            whole_table_had_one = len({last.get(p) for p in table}) == 1 and table[0] in last
            for seat, player in enumerate(table):
                assert whole_table_had_one or last.get(player) != seat
        for table in seated:
            for seat, player in enumerate(table):
                had.setdefault(player, Counter())[seat] += 1
                last[player] = seat
        done.append(seated)
    assert all(len(seats) > 1 for seats in had.values())  # nobody one seat all evening


@SETTINGS
@given(pairs=st.integers(2, 12), rounds=st.integers(2, 6), seed=st.integers(0, 10**6))
def test_a_pair_changes_direction_unless_its_opponent_needs_it_more(pairs, rounds, seed):
    north: Counter = Counter()
    east: Counter = Counter()
    met: Counter = Counter()
    for number in range(rounds):
        matches, _byes = movement.pair_round(list(range(pairs)), met, Counter(), seed + number)
        for a, b in movement.orient_matches(matches, north, east):
            assert north[a] - east[a] <= north[b] - east[b]  # the one leaning East sits North
            met[movement.pair_key(a, b)] += 1
        for a, b in movement.orient_matches(matches, north, east):
            north[a] += 1
            east[b] += 1
    assert all(abs(north[p] - east[p]) <= rounds for p in range(pairs))


# -- partners drawn each round (an individual Bid Whist evening) -----------------------------


def play_individual_evening(players: int, rounds: int, seed: int, arrivals=()):
    """An individual Bid Whist evening: tables of four, partners across (seats 0 and 2, 1 and
    3), sit-outs, tables and places drawn as the site draws them, partners given."""
    rng = random.Random(seed)
    present = list(range(players))
    sat_out: Counter = Counter()
    done: list = []
    outs = []
    for number in range(rounds):
        for at, count in arrivals:
            if at == number:
                present += list(range(len(present), len(present) + count))
        out, tables = movement.partners_round(present, done, sat_out, rng)
        sat_out.update(out)
        done.append(tables)
        outs.append((list(present), out))
    return done, outs, sat_out


@SETTINGS
@given(players=st.sampled_from([8, 12, 16]), seed=st.integers(0, 10**6))
def test_partners_drawn_each_round_never_partner_the_same_player_twice(players, seed):
    """8, 12 or 16 present, three rounds: nobody has the same partner twice, each round
    seats everyone once at full tables of four."""
    done, _outs, _ = play_individual_evening(players, 3, seed)
    for tables in done:
        seated = [p for table in tables for p in table]
        assert sorted(seated) == list(range(players))  # nobody at two tables, nobody left out
        assert all(len(table) == 4 for table in tables)
    partners = movement.partnerships(done)
    assert len(partners) == players // 2 * 3
    assert max(partners.values()) == 1


@SETTINGS
@given(players=st.integers(8, 23), rounds=st.integers(1, 5), seed=st.integers(0, 10**6),
       late=st.integers(0, 3))
def test_partners_drawn_each_round_seat_once_and_rotate_the_sit_outs(players, rounds, seed,
                                                                     late):
    """Any number present (latecomers too): each round, everyone present sits at one table
    of four or sits out, and nobody sits out twice before everyone present has sat out once."""
    done, outs, _ = play_individual_evening(players, rounds, seed, arrivals=[(1, late)])
    counts: Counter = Counter()
    for tables, (present, out) in zip(done, outs, strict=True):
        seated = [p for table in tables for p in table]
        assert sorted(seated + out) == sorted(present)
        assert all(len(table) == 4 for table in tables)
        assert len(out) == len(present) % 4
        playing = [q for q in present if q not in out]
        assert max((counts[p] for p in out), default=0) <= min(counts[q] for q in playing)
        counts.update(out)


@SETTINGS
@given(partnered=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=8),
       seats=st.lists(st.integers(0, 3) | st.none(), min_size=4, max_size=4))
def test_a_table_pairs_its_four_with_fewest_repeated_partners(partnered, seats):
    """Whoever partnered whom before and whatever seats they had: the order chosen partners
    (across: seats 0 and 2, 1 and 3) nobody with a former partner while a pairing of the
    table without it exists, and repeats no more than the best of the three pairings."""
    partners = Counter(movement.pair_key(a, b) for a, b in partnered if a != b)
    last = {player: seat for player, seat in enumerate(seats) if seat is not None}
    had = {player: Counter([seat]) for player, seat in last.items()}
    chosen, = movement.rotate_seats([[0, 1, 2, 3]], had, last, partners=partners)
    assert sorted(chosen) == [0, 1, 2, 3]
    across = [movement.pair_key(chosen[0], chosen[2]), movement.pair_key(chosen[1], chosen[3])]
    possible = [[movement.pair_key(o[0], o[2]), movement.pair_key(o[1], o[3])]
                for o in movement.pairings([0, 1, 2, 3])]
    if any(not partners[a] and not partners[b] for a, b in possible):
        assert not any(partners[key] for key in across)
    assert movement.pairing_cost(chosen, partners) == min(
        movement.pairing_cost(o, partners) for o in movement.pairings([0, 1, 2, 3]))
