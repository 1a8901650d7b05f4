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
