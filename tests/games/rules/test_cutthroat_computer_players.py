"""Cutthroat Bid Whist's computer players: legal at every level in every phase, whole matches,
nothing read beyond the seat's view, and the club habits (games/rules/computer/cutthroat_bid_whist.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import cutthroat_bid_whist as ct
from games.rules.cards import ALL_CARDS
from games.rules.computer import ALL_LEVELS, choose_action
from games.rules.computer import cutthroat_bid_whist as computer
from tests.games.rules.test_computer_players import view_of
from tests.marks import slow_except

RULE_CHOICES = [{}, {"kitty_shown": True, "downtown_ace": "low"},
                {"downtown_side_suits": "normal", "all_pass": "stuck_dealer", "min_bid": 7},
                {"notrump_double": False, "downtown_beats_uptown": True}]


def random_state(seed: int, overrides: dict, *, stop: int | None = None):
    """A hand after a random number of random actions."""
    rules = ct.Rules.from_overrides(overrides)
    rng = random.Random(seed)
    dealer = rng.randrange(3)
    deal = ct.deal(rules, dealer, rng)
    state = ct.new_hand(rules, dealer, deal.hands, deal.kitty)
    stop = rng.randrange(58) if stop is None else stop
    for _ in range(stop):
        if state.complete:
            break
        state.apply(state.random_action(rng))
    return state


@pytest.mark.slow  # its own number of examples: `make test`, not test-quick
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), which=st.integers(0, 3))
def test_every_level_plays_a_legal_action(seed, which):
    state = random_state(seed, RULE_CHOICES[which])
    if state.complete:
        return
    view = view_of(state)
    for level in ALL_LEVELS:
        copy = state.copy()
        copy.apply(choose_action(view, level, random.Random(seed)), state.to_act)


@pytest.mark.parametrize("level", slow_except(ALL_LEVELS, "random", "easy", "normal"))
def test_computer_players_play_whole_matches_at_every_level(level):
    # every seat at the level; a lower target keeps the strong match short
    rules = ct.Rules(game_target=30 if level != "strong" else 15)
    rng = random.Random(11)
    for first_dealer in (0, 2):
        match = ct.Match(rules, first_dealer=first_dealer)
        while not match.complete and len(match.results) < 300:
            deal = ct.deal(rules, match.next_dealer, rng)
            state = ct.new_hand(rules, match.next_dealer, deal.hands, deal.kitty)
            while not state.complete:
                state.apply(choose_action(state.view(state.to_act), level, rng), state.to_act)
            match.add_hand(state)
        assert match.complete or level == "random"  # random bids are mostly set


def test_the_computer_players_bid_make_and_win_against_random_play():
    rng = random.Random(3)
    levels = ("normal", "random", "easy")
    made = set_ = 0
    match = ct.Match(ct.Rules())
    while not match.complete:
        deal = ct.deal(match.rules, match.next_dealer, rng)
        state = ct.new_hand(match.rules, match.next_dealer, deal.hands, deal.kitty)
        while not state.complete:
            state.apply(choose_action(state.view(state.to_act), levels[state.to_act], rng))
        result = state.result()
        if result.get("declarer") == 0:
            made += result["made"]
            set_ += not result["made"]
        match.add_hand(state)
    assert match.winner in (0, 2) and made > set_


def other_deal_same_view(state, seed):
    """The same hand with two unplayed cards of one suit swapped between the two seats that are
    not to act: the acting seat's view cannot tell them apart."""
    me = state.to_act
    a, b = [s for s in range(3) if s != me]
    played = {action[5:] for _, action in state.history if action.startswith("play ")}
    rng = random.Random(seed)
    for suit in rng.sample("SHDC", 4):
        mine = [c for c in state.dealt[a] if c[1:] == suit and c not in played]
        theirs = [c for c in state.dealt[b] if c[1:] == suit and c not in played]
        discards = next((action.split()[1:] for _, action in state.history
                         if action.startswith("discard ")), [])
        mine = [c for c in mine if c not in discards]
        theirs = [c for c in theirs if c not in discards]
        if mine and theirs:
            x, y = mine[0], theirs[0]
            hands = [list(h) for h in state.dealt]
            hands[a][hands[a].index(x)] = y
            hands[b][hands[b].index(y)] = x
            other = ct.new_hand(state.rules, state.dealer, hands, state.kitty)
            for seat, action in state.history:
                other.apply(action, seat)
            return other
    return None


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_computer_player_cannot_read_more_than_its_view(seed, monkeypatch):
    # Without the clock's deadline (a busy machine would search the two views on different
    # numbers of deals), a decision depends on the view and the random numbers alone.
    monkeypatch.setattr(computer, "BUDGET", float("inf"))
    for attempt in range(seed, seed + 2000, 7):
        state = random_state(attempt, {}, stop=5 + attempt % 40)
        if state.phase == "play":
            other = other_deal_same_view(state, attempt)
            if other is not None:
                break
    assert state.phase == "play" and other is not None
    seat = state.to_act
    assert [list(h) for h in other.dealt] != [list(h) for h in state.dealt]
    assert other.view(seat) == state.view(seat)
    for level in ("easy", "normal", "strong"):
        first = choose_action(state.view(seat), level, random.Random(99))
        second = choose_action(other.view(seat), level, random.Random(99))
        assert first == second


# -- habits --------------------------------------------------------------------------------------


def fill(fixed: dict[int, str], kitty: str = "") -> tuple[list, list]:
    named = [c for cards in fixed.values() for c in cards.split()] + kitty.split()
    rest = [c for c in ct.JOKER_DECK if c not in named]
    hands = []
    for seat in range(3):
        hand = fixed.get(seat, "").split()
        while len(hand) < 17:
            hand.append(rest.pop())  # from the jokers and clubs end
        hands.append(hand)
    kitty_cards = kitty.split()
    while len(kitty_cards) < 3:
        kitty_cards.append(rest.pop())
    return hands, kitty_cards


def declared(fixed, kitty="", bid="bid 10 uptown", declare="trump S", declarer=0):
    hands, kitty_cards = fill(fixed, kitty)
    state = ct.new_hand(ct.Rules(), (declarer - 1) % 3, hands, kitty_cards)
    for _ in range(3):
        state.apply(bid if state.to_act == declarer else "pass")
    state.apply("discard " + " ".join(sorted(state.kitty)))
    state.apply(declare)
    return state


def test_the_declarer_draws_trumps_with_the_best_trump():
    state = declared({0: "BJ LJ AS KS QS JS TS 9S AH KH QH AD KD QD AC KC QC"})
    for level in ("easy", "normal", "strong"):
        assert choose_action(state.view(0), level, random.Random(1)) == "play BJ"


def test_a_defender_does_not_overtake_its_partner():
    # seat 1 declares hearts; seat 2 leads the ace of spades, seat 0 (the other defender) is
    # void in spades with trumps: it must not ruff its partner's winner
    state = declared({0: "2H 3H 4H 2D 3D 4D 5D 6D 7D 8D 9D TD 2C 3C 4C 5C 6C",
                      1: "5H 6H 7H 8H 9H TH JH QH KH AH BJ LJ 2S 3S JC QC KC",
                      2: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S JD QD KD AD 7C 8C"},
                     kitty="9C TC AC", declare="trump H", declarer=1)
    state.apply("play 2S")  # the declarer leads
    state.apply("play AS")
    assert state.to_act == 0
    for level in ("easy", "normal", "strong"):
        action = choose_action(state.view(0), level, random.Random(2))
        assert action[-1] != "H", (level, action)


def test_the_last_player_wins_as_cheaply_as_it_can():
    state = declared({0: "2D 5S 3H 4H 6H 7H 8H 9H TH JH QH KH AH 2C 3C 4C 5C",
                      1: "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2S 3S 4S 6S 7S",
                      2: "8S 9S TS JS QS KS AS"},
                     declare="trump C")
    state.apply("play 5S")  # the declarer leads a spade, seat 1 follows low
    state.apply("play 2S")
    view = state.view(2)
    assert "play AS" in view["legal"] and "play 8S" in view["legal"]
    # the declarer's 5S is winning: the cheapest spade above it takes the trick
    assert choose_action(view, "normal", random.Random(3)) == "play 8S"


def test_strong_takes_the_trick_with_its_ace_over_the_card_on_the_table():
    # clubs trumps, downtown, the ace high: seat 2 leads the 2 of trumps; the declarer holds
    # the ace and the 3, the low joker still out.  The 2 on the table lies between them: they
    # are not one card to the search, and the ace takes the trick the 3 loses.
    from games.rules import records

    from .test_blunders import CUTTHROAT_DOWNTOWN_DEAL, CUTTHROAT_DOWNTOWN_PLAY, hand

    record = hand(CUTTHROAT_DOWNTOWN_DEAL, *CUTTHROAT_DOWNTOWN_PLAY)
    state = records.replay_hand(record)
    view = state.view(0)
    assert sorted(view["legal"]) == ["play 3C", "play AC"]
    table = computer.Table(view, state.rules)
    assert sorted(ALL_CARDS[c] for c in computer.candidates(table)) == ["3C", "AC"]
    assert choose_action(view, "strong", random.Random(4)) == "play AC"


def test_a_weak_hand_passes_and_a_strong_one_bids():
    weak = "2S 3S 4S 2H 3H 4H 5H 2D 3D 4D 5D 6D 2C 3C 4C 5C 6C"
    strong = "BJ LJ AS KS QS JS TS 9S 8S AH KH AD KD AC KC QH QD"
    for cards, bids in ((weak, False), (strong, True)):
        hands, kitty = fill({1: cards})
        state = ct.new_hand(ct.Rules(), 0, hands, kitty)
        action = choose_action(state.view(1), "normal", random.Random(4))
        assert action.startswith("bid ") == bids, (cards, action)


def test_the_discards_keep_the_trumps_and_the_top_cards():
    hands, kitty = fill({0: "BJ LJ AS KS QS JS TS 9S 8S AH KH AD KD AC 2H 2D 3C"},
                        kitty="7S 5H 4D")
    state = ct.new_hand(ct.Rules(), 2, hands, kitty)
    for action in ("bid 12 uptown", "pass", "pass"):
        state.apply(action)
    for level in ("easy", "normal", "strong"):
        action = choose_action(view_of(state), level, random.Random(5))
        assert not {"BJ", "LJ", "AS", "KS", "AH", "AD", "AC"} & set(action.split()[1:])
        assert len(action.split()) == 4


def test_the_computer_player_reads_the_tables_house_rules_from_the_view():
    state = random_state(6, {"min_bid": 7}, stop=0)
    view = view_of(state)
    assert view["rules"] == {"min_bid": 7}
    assert computer.rules_of(view).min_bid == 7 and computer.rules_of(state.view(0)).min_bid == 9


def test_a_sampled_deal_matches_what_the_seat_has_seen():
    rng = random.Random(7)
    for seed in range(30):
        state = random_state(seed, {"kitty_shown": seed % 2 == 0}, stop=20 + seed)
        if state.phase != "play":
            continue
        view = view_of(state)
        table = computer.Table(view, state.rules)
        hands = computer.sample(table, rng)
        assert hands is not None
        me = view["seat"]
        assert hands[me] == table.hand
        for seat in range(3):
            assert hands[seat].bit_count() == view["hand_sizes"][seat]
            for group in range(4):
                if table.voids[seat] >> group & 1:
                    assert not hands[seat] & table.follow[group]
        assert not (hands[0] & hands[1] or hands[0] & hands[2] or hands[1] & hands[2])
        assert not (hands[0] | hands[1] | hands[2]) & table.played


def test_the_bench_plays_one_level_against_two_in_every_seat(capsys):
    from bench import computer_players

    # levelA's points minus the mean of levelB's two seats
    assert computer_players.side_difference([9.0, -3.0, 0.0], (0,)) == 10.5
    assert computer_players.main(["--deals", "2", "--games", "cutthroat_bid_whist",
                                  "--pairings", "normal-easy"]) == 0
    out = capsys.readouterr().out
    assert "cutthroat_bid_whist normal-easy: 2 deals x 3 in" in out
    assert "\ncutthroat_bid_whist normal-easy: mean=" in out
    with pytest.raises(SystemExit):  # Cutthroat's own computer players: no oracle
        computer_players.main(["--games", "cutthroat_bid_whist", "--pairings", "oracle-easy"])
    with pytest.raises(SystemExit):  # nor the levels the benches compare
        computer_players.main(["--blunders", "--games", "cutthroat_bid_whist",
                               "--levels", "strong_v5"])
