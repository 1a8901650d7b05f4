"""Computer players: legal in every phase at every level, see only their seat's view, and keep
the habits a partner expects."""

from __future__ import annotations

import inspect
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bench.levels import COMPARED_LEVELS
from games.rules import GAME_MODULES, belgian_whist, bid_whist, game_module, solo_whist
from games.rules.cards import CARD_INDEX, JOKER_DECK, JOKER_MASK, mask_of
from games.rules.computer import (
    ALL_LEVELS,
    bidding,
    choose_action,
    knowledge,
    oracle,
    played_record,
    search,
)
from games.rules.computer import hooks as computer_hooks
from games.rules.computer.kernel import bits
from tests.marks import slow_except

from .conftest import position_record

MODULES = {"bid_whist": bid_whist, "solo_whist": solo_whist, "belgian_whist": belgian_whist}
RULE_CHOICES = {
    "bid_whist": [{}, {"kitty_shown": True, "downtown_ace": "low"},
                  {"downtown_side_suits": "normal", "all_pass": "stuck_dealer"},
                  {"kitty": "4_no_jokers", "kitty_shown": True}, {"kitty": "5_one_joker"},
                  {"kitty": "none", "all_pass": "stuck_dealer"}],
    "solo_whist": [{}, {"turn_up": False}, {"overtricks": True, "prop_alone_may_solo": True}],
    "belgian_whist": [{}],
}


def random_state(game: str, seed: int, overrides: dict, *, phase: str | None = None):
    """A hand after a random number of random actions (or the first state in ``phase``)."""
    module = MODULES[game]
    rules = module.Rules.from_overrides(overrides)
    rng = random.Random(seed)
    dealer = rng.randrange(4)
    deal = module.deal(rules, dealer, rng)
    state = module.new_hand(rules, dealer, deal.hands, deal.kitty)
    stop = rng.randrange(60)
    for step in range(200):
        if state.complete or (phase is None and step >= stop) or state.phase == phase:
            break
        state.apply(state.random_action(rng))
    return state


def view_of(state):
    view = state.view(state.to_act)
    overrides = state.rules.overrides()
    if overrides:
        view["rules"] = overrides
    return view


def assert_legal(state, action):
    copy = state.copy()
    copy.apply(action, state.to_act)  # raises IllegalAction if not legal


@pytest.mark.parametrize("game", list(MODULES))
@pytest.mark.slow  # its own number of examples: `make test`, not test-quick
@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), which=st.integers(0, 5))
def test_every_level_plays_a_legal_action(game, seed, which):
    state = random_state(game, seed, RULE_CHOICES[game][which % len(RULE_CHOICES[game])])
    if state.complete:
        return
    view = view_of(state)
    for level in ALL_LEVELS:
        assert_legal(state, choose_action(view, level, random.Random(seed)))


@pytest.mark.parametrize("game", list(MODULES))
@pytest.mark.parametrize("level", slow_except(["easy", "normal", "strong"], "easy", "normal"))
def test_computer_players_finish_whole_hands(game, level):
    module = MODULES[game]
    rules = module.Rules()
    rng = random.Random(7)
    for dealer in range(2):
        deal = module.deal(rules, dealer, rng)
        state = module.new_hand(rules, dealer, deal.hands, deal.kitty)
        while not state.complete:
            state.apply(choose_action(state.view(state.to_act), level, rng), state.to_act)
        assert state.result()["complete"]


@pytest.mark.parametrize("game", sorted(GAME_MODULES))
def test_a_played_record_is_dealt_by_a_seat_of_its_table(game):
    """Every seed gives a hand dealt by one of the table's seats: Cutthroat has three, so
    seed 3 must not name a fourth."""
    seats = game_module(game).SEATS
    for seed in range(2 * seats):
        record = played_record(game, seed)
        assert record is None or record["dealer"] == seed % seats


@pytest.mark.parametrize("kitty", list(bid_whist.KITTY_SHAPES))
@pytest.mark.parametrize("level", slow_except(ALL_LEVELS, "random", "easy", "normal"))
def test_computer_players_finish_whole_hands_of_every_kitty_shape(kitty, level):
    """Through the engine: every level plays whole Bid Whist hands of each kitty shape, told
    the table's rules as the site tells them (view["rules"])."""
    rules = bid_whist.Rules(kitty=kitty, all_pass="stuck_dealer")  # no hand is passed out
    rng = random.Random(11)
    for dealer in range(2):
        deal = bid_whist.deal(rules, dealer, rng)
        state = bid_whist.new_hand(rules, dealer, deal.hands, deal.kitty)
        phases = set()
        while not state.complete:
            phases.add(state.phase)
            state.apply(choose_action(view_of(state), level, rng), state.to_act)
        assert ("discard" in phases) == (kitty != "none")
        assert sum(state.tricks_won) == rules.shape.tricks
        assert sum(state.result()["books"]) == 13


@pytest.mark.parametrize("game", list(MODULES))
@pytest.mark.slow  # its own number of examples: `make test`, not test-quick
@settings(max_examples=30, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), which=st.integers(0, 5))
# Belgian: a trou announcer who has played one ace, the misère étalée hand shown, the last
# player void in diamonds: the ace of diamonds can only be the announcer's.
@example(seed=61865, which=0)
def test_every_sampled_deal_gives_the_same_view(game, seed, which):
    """The sampler only deals hands the seat could really be facing: rebuilt through the
    engine (the public history replayed on the sampled cards), each gives the identical view."""
    state = random_state(game, seed, RULE_CHOICES[game][which % len(RULE_CHOICES[game])],
                         phase="play")
    if state.phase != "play":
        return
    for _ in range(random.Random(seed).randrange(30)):
        if state.phase != "play":
            return
        state.apply(state.random_action(random.Random(seed)))
    if state.phase != "play":
        return
    view = view_of(state)
    know = knowledge.read(view)
    rng = random.Random(seed)
    for _ in range(3):
        hands, piles = knowledge.sample(know, rng)
        rebuilt = knowledge.rebuild(view, hands, piles)
        assert rebuilt.view(state.to_act) == state.view(state.to_act)
        # the search plays out as many tricks as the seat to act still holds cards
        assert knowledge.position(know, hands).left == len(view["hand"])


def state_after_a_four(seed: int, overrides: dict):
    """A Bid Whist hand in play after random actions, in whose auction one seat (the
    "bidder") made its first bid 4 uptown or downtown whatever it held (an opening or over a
    bid), stopped where the
    bidder's partner is to play; None where the deal went otherwise."""
    rules = bid_whist.Rules.from_overrides(overrides)
    rng = random.Random(seed)
    dealer, bidder = rng.randrange(4), rng.randrange(4)
    deal = bid_whist.deal(rules, dealer, rng)
    state = bid_whist.new_hand(rules, dealer, deal.hands, deal.kitty)
    while state.phase == "auction":
        fours = [a for a in state.legal_actions() if bidding.joker_four(a)]
        if state.to_act == bidder and fours:
            state.apply(rng.choice(fours), bidder)
        else:
            state.apply(state.random_action(rng))
    if not any(e["seat"] == bidder and bidding.joker_four(e["action"])
               for e in state.view(bidder)["auction"]):
        return None  # a higher bid came first
    stop = rng.randrange(40)
    for step in range(60):
        if state.phase not in ("discard", "declare", "play"):
            return None
        if state.phase == "play" and step >= stop and state.to_act == (bidder + 2) % 4:
            break
        state.apply(state.random_action(rng))
    else:
        return None
    return state


@pytest.mark.slow  # its own number of examples: `make test`, not test-quick
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), which=st.integers(0, 5))
def test_a_partners_four_gives_partner_a_joker_in_deals_the_seat_could_face(seed, which):
    """Read by a level that keeps the convention, a partner's opening bid of 4 in a suit gives
    partner a joker (in hand, played, or among a declarer's hidden discards) in every sampled
    deal wherever one deal the seat could face does, and never a deal the seat could not face:
    each sample rebuilt through the engine gives the identical view; a 4 over a bid says
    nothing and sets nothing.  The bids are random, so partner often broke the convention: the play may show it, and the seat then stops
    reading it."""
    overrides = RULE_CHOICES["bid_whist"][which]
    state = state_after_a_four(seed, overrides)
    if state is None:
        return
    view = view_of(state)
    partner = (view["seat"] + 2) % 4
    know = knowledge.read(view, ("four_says_joker",))
    said = [check[2] for check in know.checks if check[:2] == (partner, "holds_any")]
    # a deck without jokers says nothing, nor does a 4 over a bid (no opening); a kitty shown
    # to all was not dealt to partner
    jokers = state.rules.shape.deck_mask & JOKER_MASK & ~mask_of(view.get("kitty") or [])
    opened = next(e for e in view["auction"] if e["action"] != "pass")
    if opened["seat"] != partner or not bidding.joker_four(opened["action"]):
        jokers = 0
    assert said == ([jokers] if jokers else [])
    still_open = knowledge._holds_any_checks(know)[1]
    rng = random.Random(seed)
    for _ in range(4):
        hands, piles = knowledge.sample(know, rng)
        assert knowledge.rebuild(view, hands, piles).view(state.to_act) == state.view(state.to_act)
        if still_open and not knowledge._held_or_piled(know, partner, hands, piles) & JOKER_MASK:
            # only where no deal the seat could face gives partner a joker: with one put in
            # partner's hand, the other cards cannot be dealt (the voids shown, the sizes)
            for card in bits(still_open[0][2]):
                fixed = know.fixed[:]
                fixed[partner] |= 1 << card
                placed = replace(know, fixed=fixed, unseen=know.unseen & ~(1 << card), checks=[])
                assert knowledge._sample(placed, rng, 500) is None


def other_deal_same_view(state, seed):
    """A second, different deal that gives the acting seat exactly the same view."""
    view = view_of(state)
    know = knowledge.read(view)
    rng = random.Random(seed)
    for _ in range(50):
        hands, piles = knowledge.sample(know, rng)
        other = knowledge.rebuild(view, hands, piles)
        if [list(h) for h in other.dealt_hands] != [list(h) for h in state.dealt_hands]:
            return other
    return None


@pytest.mark.parametrize("game", list(MODULES))
@pytest.mark.parametrize("seed", slow_except([1, 2, 3, 4], 2))
@pytest.mark.usefixtures("no_thinking_deadline")
def test_a_computer_player_cannot_read_more_than_its_view(game, seed):
    # The first deal from this seed that is still in play after some random cards (deals can
    # be passed out, and Solo and Belgian hands can stop early).
    for attempt in range(seed, seed + 1000, 10):
        state = random_state(game, attempt, {}, phase="play")
        rng = random.Random(attempt)
        for _ in range(rng.randrange(20)):
            if state.phase == "play":
                state.apply(state.random_action(rng))
        if state.phase == "play":
            break
    assert state.phase == "play", "no deal in play found"
    other = other_deal_same_view(state, seed)
    assert other is not None
    seat = state.to_act
    assert other.to_act == seat
    assert other.view(seat) == state.view(seat)  # hidden cards differ, the view does not
    for level in ("normal", "strong", *COMPARED_LEVELS):
        first = choose_action(state.view(seat), level, random.Random(99))
        second = choose_action(other.view(seat), level, random.Random(99))
        assert first == second


def test_choose_action_receives_only_the_view():
    assert list(inspect.signature(choose_action).parameters) == ["view", "level", "rng"]


# -- the benches' oracle: every card seen, and only there ----------------------------------------


def state_near_the_end(game: str, seed: int, tricks: int = 3):
    """A hand in play with at most ``tricks`` tricks left: the first of this seed's deals that
    gets there (most Solo deals are passed out, and a Solo hand stops once its result is
    certain: a few in a hundred get there, and 200 deals were once not enough)."""
    for attempt in range(2000):
        state = _near_the_end(game, seed * 1000 + attempt, tricks)
        if state is not None:
            return state
    raise AssertionError("no deal was played to its last tricks")


def _near_the_end(game: str, seed: int, tricks: int):
    module = MODULES[game]
    rng = random.Random(seed)
    dealer = rng.randrange(4)
    deal = module.deal(module.Rules(), dealer, rng)
    state = module.new_hand(module.Rules(), dealer, deal.hands, deal.kitty)
    while not state.complete and state.phase != "play":  # calls as a club player makes them
        state.apply(choose_action(state.view(state.to_act), "easy", rng), state.to_act)
    while state.phase == "play" and not state.complete:
        view = state.view(state.to_act)
        left = len(view["hand"]) if not view["trick"] else len(view["hand"]) + 1
        if left <= tricks and len(view["legal"]) > 1:
            return state
        state.apply(state.random_action(rng))
    return None


def exact_values(state) -> dict[str, float]:
    """Each legal card's value for the acting seat with every card seen, best play after it."""
    from games.rules.computer import kernel

    view = state.view(state.to_act)
    know = knowledge.read(view)
    hands = [mask_of(state.view(s)["hand"]) for s in range(4)]
    values = {}
    for action in view["legal"]:
        child = knowledge.position(know, hands)
        kernel.play(know.spec, child, CARD_INDEX[action[5:]])
        values[action] = kernel.solve(know.spec, child)
    return values


@pytest.mark.parametrize("game", list(MODULES))
@pytest.mark.slow  # its own number of examples: `make test`, not test-quick
@settings(max_examples=15, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_the_oracle_plays_the_real_deal_perfectly_at_the_end(game, seed):
    """Near the end, seeing every card, the oracle's card is worth the best there is on the
    real deal (up to the small bonus of a partnership habit): it searched the real hands, not
    samples.  Two deals with the same view can need different cards: it follows each."""
    state = state_near_the_end(game, seed)
    unit = computer_hooks.of(game).HABIT_UNIT
    for deal in (state, other_deal_same_view(state, seed)):
        if deal is None:
            continue
        view = deal.view(deal.to_act)
        hands = [deal.view(s)["hand"] for s in range(4)]
        action = oracle.choose_action(view, hands, random.Random(seed))
        values = exact_values(deal)
        assert values[action] >= max(values.values()) - unit - 1e-9, (action, values)


@pytest.mark.parametrize("game", list(MODULES))
@pytest.mark.slow  # its own number of examples: `make test`, not test-quick
@settings(max_examples=12, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_the_exact_search_finds_the_same_value_with_its_memory_of_positions(game, seed):
    """The transposition table (strong's exact search over more tricks) changes the time the
    search takes, never the value it finds: one table shared by every card and by searches
    with narrow windows (alpha-beta's bounds, which the table must not take for values)."""
    from games.rules.computer import kernel

    state = state_near_the_end(game, seed, tricks=4)
    view = state.view(state.to_act)
    know = knowledge.read(view)
    hands = [mask_of(state.view(s)["hand"]) for s in range(4)]
    table: dict = {}
    rng = random.Random(seed)
    for action in view["legal"] * 3:
        plain = knowledge.position(know, hands)
        kernel.play(know.spec, plain, CARD_INDEX[action[5:]])
        value = kernel.solve(know.spec, plain.copy())
        alpha = value + rng.choice([-3, -1, -0.01, 0.01, 1])
        beta = alpha + rng.choice([0.02, 0.5, 2, 4])
        found = kernel.solve(know.spec, plain.copy(), alpha, beta, table)
        if alpha < value < beta:
            assert found == value
        elif value <= alpha:
            assert found <= alpha
        else:
            assert found >= beta
        assert kernel.solve(know.spec, plain.copy(), table=table) == value


def plain_score(spec, pos) -> float:
    """The value of ``pos`` for the searching side by trying every legal card, no cut, no
    memory, no bound: what the exact search must find."""
    from games.rules.computer import kernel

    if pos.left == 0:
        return spec.score(tuple(pos.won))
    maximise = spec.side[pos.to_act] == spec.side[spec.me]
    values = []
    for card in bits(kernel.legal_mask(spec, pos)):
        child = pos.copy()
        kernel.play(spec, child, card)
        values.append(plain_score(spec, child))
    return max(values) if maximise else min(values)


@pytest.mark.parametrize("game", list(MODULES))
@pytest.mark.slow  # its own number of examples: `make test`, not test-quick
@settings(max_examples=12, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_the_exact_search_finds_the_value_every_card_tried_finds(game, seed):
    """Its cuts -- alpha-beta, equivalent cards tried once, the rest not searched once no way it
    can go changes the outcome (kernel.score_bounds) -- change the time the search takes, never
    the value it finds for the hand's score."""
    from games.rules.computer import kernel

    state = state_near_the_end(game, seed, tricks=3)
    view = state.view(state.to_act)
    know = knowledge.read(view)
    hands = [mask_of(state.view(s)["hand"]) for s in range(4)]
    for action in view["legal"]:
        pos = knowledge.position(know, hands)
        kernel.play(know.spec, pos, CARD_INDEX[action[5:]])
        assert kernel.solve(know.spec, pos.copy(), table={}) == plain_score(know.spec, pos)


def test_the_oracle_is_no_level_of_the_site_and_needs_the_real_deal():
    state = state_near_the_end("solo_whist", 5)
    view = state.view(state.to_act)
    with pytest.raises(ValueError):
        choose_action(view, "oracle", random.Random(1))
    # the computer players' service and the tables accept these only
    assert "oracle" not in ALL_LEVELS
    wrong = [state.view(s)["hand"] for s in range(4)]
    wrong[view["seat"]], wrong[(view["seat"] + 1) % 4] = wrong[(view["seat"] + 1) % 4], \
        wrong[view["seat"]]
    with pytest.raises(ValueError):
        oracle.choose_action(view, wrong, random.Random(1))


# -- partnership habits (Bid Whist) --------------------------------------------------------------

DECK = list(JOKER_DECK)


def build_deal(fixed: dict[int, list[str]], kitty: list[str], avoid: dict[int, str]):
    """Hands of 12 with the given cards, the rest dealt in deck order, seat ``s`` getting no
    card of suit ``avoid[s]``."""
    used = {c for cards in fixed.values() for c in cards} | set(kitty)
    hands = {s: list(fixed.get(s, [])) for s in range(4)}
    rest = [c for c in DECK if c not in used]
    for card in rest:
        for seat in sorted(range(4), key=lambda s: len(hands[s])):
            suit = None if card in ("BJ", "LJ") else card[1]
            if len(hands[seat]) < 12 and (seat not in avoid or suit != avoid[seat]):
                hands[seat].append(card)
                break
    assert all(len(h) == 12 for h in hands.values())
    return [hands[s] for s in range(4)]


def test_does_not_trump_partners_winning_trick():
    # seat 1 declares 3 uptown, hearts trumps; leads 2S; partner (seat 2) plays AS, seat 3
    # follows; the computer player (seat 0) has no spade but holds trumps: it must not ruff.
    kitty = ["2C", "3C", "4C", "5C", "6C", "7C"]
    hands = build_deal({0: ["5H", "6H", "7H", "8D", "9D", "TD", "8C", "9C", "TC", "JC", "2D",
                            "3D"],
                        1: ["2S", "KH", "QH", "JH"], 2: ["AS"], 3: ["3S"]},
                       kitty, {0: "S"})
    state = bid_whist.new_hand(bid_whist.Rules(), 0, hands, kitty)
    for action in ("bid 3 uptown", "pass", "pass", "pass"):
        state.apply(action)
    state.apply("discard " + " ".join(sorted(kitty)))
    state.apply("trump H")
    for action in ("play 2S", "play AS", "play 3S"):
        state.apply(action)
    assert state.to_act == 0
    for level in ("easy", "normal", "strong"):
        action = choose_action(state.view(0), level, random.Random(1))
        assert action[-1] != "H" and action[5:] not in ("BJ", "LJ"), (level, action)


def test_returns_partners_led_suit():
    # seat 2 declares 3 uptown (spades), leads 2D; the computer player (seat 0) wins it with the AD
    # and is on lead: it returns a diamond.
    kitty = ["2C", "3C", "4C", "5C", "6C", "7C"]
    hands = build_deal({0: ["AD", "3D", "4D", "8C", "9C", "2H", "3H", "4H", "5H", "6H"],
                        1: ["6D"], 2: ["2D", "KD", "QD", "JD", "AS", "KS", "BJ", "LJ"],
                        3: ["5D"]}, kitty, {})
    state = bid_whist.new_hand(bid_whist.Rules(), 1, hands, kitty)
    for action in ("bid 3 uptown", "pass", "pass", "pass"):
        state.apply(action)
    state.apply("discard " + " ".join(sorted(kitty)))
    state.apply("trump S")
    for action in ("play 2D", "play 5D", "play AD", "play 6D"):
        state.apply(action)
    assert state.to_act == 0
    for level in ("easy", "normal", "strong"):
        action = choose_action(state.view(0), level, random.Random(2))
        assert action.endswith("D"), (level, action)


def test_draws_trumps_when_declaring_with_long_trumps():
    kitty = ["2C", "3C", "4C", "5C", "6C", "7C"]
    hands = build_deal({0: ["BJ", "LJ", "AS", "KS", "QS", "JS", "TS", "9S", "2H", "3H", "2D",
                            "3D"]}, kitty, {})
    state = bid_whist.new_hand(bid_whist.Rules(), 3, hands, kitty)
    for action in ("bid 4 uptown", "pass", "pass", "pass"):
        state.apply(action)
    state.apply("discard " + " ".join(sorted(kitty)))
    state.apply("trump S")
    for level in ("easy", "normal", "strong"):
        action = choose_action(state.view(0), level, random.Random(3))
        assert action[5:] in ("BJ", "LJ") or action.endswith("S"), (level, action)


def test_notrump_is_bid_only_with_stoppers():
    rules = bid_whist.Rules()
    no_stoppers = ["AS", "KS", "QS", "JS", "TS", "AH", "KH", "QH", "JH", "9D", "8D", "9C"]
    assert all(mode != "notrump" for _t, mode, _s, _d in
               bidding.bid_whist_options(no_stoppers, rules))
    stopped = ["AS", "KS", "QS", "JS", "TS", "AH", "KH", "AD", "KD", "AC", "KC", "QC"]
    view = {"game": "bid_whist", "seat": 1, "dealer": 0, "phase": "auction", "to_act": 1,
            "hand": stopped, "auction": [],
            "legal": sorted(a for a in bid_whist.BID_ACTIONS if int(a.split()[1]) >= 3)
            + ["pass"]}
    assert choose_action(view, "strong").endswith("notrump")
    view["hand"] = no_stoppers
    assert not choose_action(view, "strong").endswith("notrump")


def test_misere_hands_are_judged_by_their_exits():
    assert bidding.misere_risk(["2S", "4S", "6S", "2H", "3H", "5H", "7H", "2D", "4D", "2C",
                                "3C", "5C", "6C"]) == 0
    assert bidding.misere_risk(["AS", "KS", "2H", "3H", "5H", "7H", "2D", "4D", "2C", "3C",
                                "5C", "6C", "8C"]) > 2


# -- Solo Whist without Prop and Cop -------------------------------------------------------------


@pytest.mark.parametrize("level", slow_except(ALL_LEVELS, "random", "easy", "normal"))
def test_computer_players_play_whole_solo_sessions_without_prop_and_cop(level):
    rules = solo_whist.Rules.from_overrides({"prop_and_cop": False})
    session = solo_whist.Session(rules, deals=8)
    rng = random.Random(11)
    while not session.complete:
        dealer = session.next_dealer
        state = solo_whist.new_hand(rules, dealer, solo_whist.deal(rules, dealer, rng).hands)
        while not state.complete:
            # half the deals with the table's rules in the view, half assuming the defaults
            view = view_of(state) if dealer % 2 else state.view(state.to_act)
            action = choose_action(view, level, rng)
            assert action not in ("prop", "cop"), (level, view["hand"])
            state.apply(action, state.to_act)
        session.add_hand(state)
    summary = session.summary()
    assert summary["complete"] and summary["hands"] == 8 and sum(summary["balances"]) == 0
    assert all(result.get("contract") != "prop_and_cop" for result in session.results)


# -- what the auction says of the hidden hands -----------------------------------------------------


def test_sampled_deals_weighted_by_the_auction_give_the_bidder_more_and_the_passers_less():
    """Seat 1 bid 4 and the others passed: weighted by the auction, the sampled deals give the
    bidder more aces, kings and jokers, the passers fewer, and every sample still fits the view."""
    from games.rules import records

    record = position_record("bid_whist/take_the_trick_last")
    state = records.replay_hand(record)
    view = state.view(state.to_act)
    know = knowledge.read(view)
    top = mask_of(["AS", "AH", "AD", "AC", "KS", "KH", "KD", "KC", "BJ", "LJ"])

    def mean_top(weight) -> list[float]:
        rng, totals, weights = random.Random(3), [0.0] * 4, 0.0
        for _ in range(300):
            hands, piles = drawn = knowledge.sample(know, rng)
            assert knowledge.rebuild(view, hands, piles).view(view["seat"]) == view
            w = weight(drawn)
            weights += w
            for seat in range(4):
                totals[seat] += w * ((hands[seat] | know.played_by[seat]) & top).bit_count()
        return [t / weights for t in totals]

    plain = mean_top(lambda drawn: 1.0)
    weighted = mean_top(lambda drawn: search.calls_weight(view, know, drawn, BY_CALLS))
    assert weighted[1] > plain[1] + 0.1  # the bidder
    assert weighted[2] + weighted[3] < plain[2] + plain[3] - 0.1  # the two who passed


def test_the_search_counts_each_sampled_deal_by_its_weight(monkeypatch):
    """A deal the auction makes unlikely counts less in a card's value: with every deal but the
    first weighted next to nothing, the values are those of the first deal alone."""
    from games.rules import records

    state = records.replay_hand(position_record("bid_whist/take_the_trick_last"))
    view = state.view(state.to_act)
    know = knowledge.read(view)
    candidates = search.legal_runs(view, know)
    weights = iter([1.0] + [1e-12] * 40)
    monkeypatch.setattr(search, "calls_weight", lambda *args: next(weights))
    level = search.SearchLevel(samples=12, exact_tricks=0, budget=float("inf"), infer_calls=True)
    weighted = search.card_values(know, candidates, level, random.Random(8), view=view)
    first = search.card_values(know, candidates, search.SearchLevel(
        samples=1, exact_tricks=0, budget=float("inf")), random.Random(8), view=view)
    plain = search.card_values(know, candidates, search.SearchLevel(
        samples=12, exact_tricks=0, budget=float("inf")), random.Random(8), view=view)
    assert weighted == pytest.approx(first) and weighted != pytest.approx(plain)


def test_a_card_is_clearly_better_only_beyond_the_samples_noise():
    steady = {0: [1.0, 1.1, 0.9, 1.0] * 5, 1: [0.0, 0.1, -0.1, 0.0] * 5}
    assert search.clearly_better(steady, 0, 1)
    assert not search.clearly_better(steady, 1, 0)
    # the same mean lead, carried by one deal of twenty: noise
    lucky = {0: [20.0] + [0.0] * 19, 1: [0.0] * 20}
    assert not search.clearly_better(lucky, 0, 1)
    assert not search.clearly_better({0: [5.0], 1: [0.0]}, 0, 1)  # one deal says nothing


def habit_position(monkeypatch, values_per_deal):
    """The take-the-trick-last position (the AS takes the opponents' king; 2S ducks) with the
    sampled deals' values replaced by ``values_per_deal`` (card -> values, one per deal)."""
    from games.rules import records

    state = records.replay_hand(position_record("bid_whist/take_the_trick_last"))
    view = state.view(state.to_act)

    def fake_values(know, candidates, level, rng, seen_hands=None, view=None, per_deal=None):
        by_card = {CARD_INDEX[c]: v for c, v in values_per_deal.items()}
        if per_deal is not None:
            per_deal.update(by_card)
        return {c: sum(v) / len(v) for c, v in by_card.items()}

    monkeypatch.setattr(search, "card_values", fake_values)
    return view


def test_the_habit_decides_where_the_samples_cannot_tell_and_yields_where_they_can(monkeypatch):
    level = search.SEARCH_LEVELS["strong"]
    noisy = {"AS": [0.0, 4.0, 0.0, 0.0] * 4, "2S": [1.0, 0.0, 2.0, 1.5] * 4}  # 2S ahead, barely
    view = habit_position(monkeypatch, noisy)
    assert search.choose_card(view, level, random.Random(1)) == "play AS"
    assert search.choose_card(view, search.SEARCH_LEVELS["strong_v2"], random.Random(1)) \
        == "play 2S"  # without the habit, the higher mean
    clear = {"AS": [0.0, 0.1, 0.0, 0.1] * 4, "2S": [1.0, 1.1, 1.0, 0.9] * 4}
    view = habit_position(monkeypatch, clear)
    assert search.choose_card(view, level, random.Random(1)) == "play 2S"


BY_CALLS = search.SearchLevel(samples=1, exact_tricks=0, budget=0.0, infer_calls=True)
BY_PLAY = search.SearchLevel(samples=1, exact_tricks=0, budget=0.0, infer_play=True)


def test_sampled_deals_weighted_by_the_play_keep_a_card_from_a_player_who_did_not_cover():
    """Fourth to play, seat 0 lets the opponents' king of spades take the trick with a small
    spade: from the next leader's view, weighted by the play, seat 0 holds the ace (which it
    really has: it ducked) far less often than plain samples give it; every sample still fits
    the view.  Once seat 0 plays the ace after all, its duck says nothing any more."""
    from games.rules import records

    record = position_record("bid_whist/take_the_trick_last")
    state = records.replay_hand(record)
    state.apply("play 2S", 0)  # the duck: KS wins, seat 3 leads
    view = state.view(3)
    know = knowledge.read(view)
    assert know.not_held == [(0, mask_of(["AS"]))]
    ace = mask_of(["AS"])

    def share_with_seat_0(draw) -> float:
        rng, held = random.Random(5), 0
        for _ in range(300):
            hands, piles = draw(rng)
            assert knowledge.rebuild(view, hands, piles).view(3) == view
            held += bool(hands[0] & ace)
        return held / 300

    plain = share_with_seat_0(lambda rng: knowledge.sample(know, rng))
    weighted = share_with_seat_0(lambda rng: search.sample_inferred(know, rng, BY_PLAY))
    assert plain > 0.25 and weighted < plain / 3

    state.apply("play 9S", 3)
    state.apply("play AS", 0)
    assert knowledge.read(state.view(1)).not_held == []


# -- the review of a hand ---------------------------------------------------------------------------


@pytest.mark.slow  # a review searches whole hands
@pytest.mark.usefixtures("no_thinking_deadline")  # "the same, again" even on a busy machine
def test_a_review_puts_a_figure_on_a_call_and_marks_a_costly_pass():
    """Five trumps and two aces, and the player passed: strong bids 4, and playing the hand out
    from each call on deals consistent with the player's view says the pass cost points."""
    from games.rules import records
    from games.rules.computer.review import review

    record = position_record("bid_whist/five_trumps_two_aces_bid_four")
    state = records.replay_hand(record)
    rng = random.Random(4)
    state.apply("pass", 1)
    while not state.complete:
        state.apply(choose_action(state.view(state.to_act), "easy", rng), state.to_act)
    moments = review(records.record_of(state), 1)["moments"]
    first = moments[0]
    assert (first["phase"], first["played"], first["suggested"]) == ("auction", "pass",
                                                                      "bid 4 uptown")
    assert first["cost"] >= 0.3 and first["costly"]
    assert all(m["cost"] is not None for m in moments)  # no kitty in hand: every call valued
    again = review(records.record_of(state), 1)
    # the same, again (the contract's double-dummy result may start from another trick: it
    # depends on the time the search is given)
    assert (again["seat"], again["level"], again["moments"]) == (1, "strong", moments)


@pytest.mark.slow  # a review searches whole hands
def test_a_declarers_review_covers_the_discard_and_the_trumps_without_a_figure():
    """After the auction a Bid Whist declarer discards and names trumps with the kitty in hand:
    those calls show strong's choice but no figure (the deal they were made from is not the
    dealt one), and the review of the whole hand goes through."""
    from games.rules import records
    from games.rules.computer.review import review, review_or_error

    record = position_record("bid_whist/discard_keeps_the_best_trumps")
    state = records.replay_hand(record)
    rng = random.Random(5)
    state.apply("discard 2D 3D 5H 6H 8H TC", 2)
    state.apply("trump C", 2)  # clubs: not strong's choice
    while not state.complete:
        state.apply(choose_action(state.view(state.to_act), "easy", rng), state.to_act)
    done = records.record_of(state)
    moments = review(done, 2)["moments"]
    by_phase = {m["phase"]: m for m in moments}
    assert by_phase["declare"]["played"] == "trump C"
    assert by_phase["declare"]["suggested"] != "trump C"
    assert by_phase["declare"]["cost"] is None
    assert "error" not in review_or_error(done, 2)


@pytest.mark.slow  # a review searches whole hands
@pytest.mark.parametrize("game", list(GAME_MODULES))
def test_a_review_of_any_finished_hand_of_every_game_goes_through(game):
    from games.rules.computer.review import review_or_error
    from games.rules.records import random_record

    for seed in range(3):
        outcome = review_or_error(random_record(game, seed), seed % 3)
        assert "error" not in outcome, outcome


# -- the duplicate bench's mixed partnerships ----------------------------------------------------


def test_a_mixed_side_seats_its_first_level_first_and_its_partner_opposite():
    from bench import computer_players as bench

    # strong with a normal partner against two normals, then the sides swapped
    assert bench.seat_levels("strong+normal", "normal+normal", (0, 2), 4) == \
        ["strong", "normal", "normal", "normal"]
    assert bench.seat_levels("strong+normal", "normal+normal", (1, 3), 4) == \
        ["normal", "strong", "normal", "normal"]
    assert bench.seat_levels("normal+easy", "easy", (0, 2), 4) == \
        ["normal", "easy", "easy", "easy"]
    assert bench.seat_levels("strong", "normal", (1, 3), 4) == \
        ["normal", "strong", "normal", "strong"]


@settings(max_examples=8, deadline=None)
@given(index=st.integers(0, 10_000), game=st.sampled_from(["bid_whist", "solo_whist"]))
def test_a_side_of_one_level_twice_is_that_level(index, game):
    from bench import computer_players as bench

    # easy and random decide from their seed alone: the same seats, the same hands
    plain = bench.duplicate_deal((game, "easy", "random", index, 1))
    doubled = bench.duplicate_deal((game, "easy+easy", "random+random", index, 1))
    assert doubled[0] == plain[0]
    assert [level for level, _t in doubled[1]] == [level for level, _t in plain[1]]


def test_the_bench_measures_a_mixed_partnership(capsys):
    from bench import computer_players as bench

    assert bench.main(["--deals", "2", "--games", "bid_whist",
                       "--pairings", "easy+random-random"]) == 0
    out = capsys.readouterr().out
    assert "# bid_whist easy+random-random: 2 deals x 2 in" in out
    assert "\nbid_whist easy+random-random: mean=" in out


@pytest.mark.parametrize("pairings, games, said", [
    ("strong+normal+easy-easy", "bid_whist", "levelA+partnerA-levelB+partnerB"),
    ("strong+clever-easy", "bid_whist", "levelA+partnerA-levelB+partnerB"),
    ("strong+-easy", "bid_whist", "levelA+partnerA-levelB+partnerB"),
    ("normal+easy-easy", "cutthroat_bid_whist", "no partnerships to mix"),
])
def test_a_pairing_the_bench_cannot_play_is_refused_in_words(pairings, games, said, capsys):
    from bench import computer_players as bench

    with pytest.raises(SystemExit):
        bench.main(["--deals", "1", "--games", games, "--pairings", pairings])
    assert said in capsys.readouterr().err
