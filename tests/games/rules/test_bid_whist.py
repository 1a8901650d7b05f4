"""Bid Whist engine: one test per rule and house rule (docs/rules/bid_whist.md)."""

from __future__ import annotations

import json
import random

import pytest

from games.rules import bid_whist as bw
from games.rules.cards import JOKER_DECK
from games.rules.errors import DealError, IllegalAction, RulesError, WhistError


def deal_from(fixed: dict[int, str] | None = None, kitty: str = "") -> tuple[list, list]:
    """A deal whose named cards sit where given; the rest fill seats 0..3 then the kitty in
    deck order (spades, hearts, diamonds, clubs, jokers)."""
    fixed = fixed or {}
    named = [c for cards in fixed.values() for c in cards.split()] + kitty.split()
    rest = [c for c in JOKER_DECK if c not in named]
    hands = []
    for seat in range(4):
        hand = fixed.get(seat, "").split()
        while len(hand) < 12:
            hand.append(rest.pop(0))
        hands.append(hand)
    kitty_cards = kitty.split()
    while len(kitty_cards) < 6:
        kitty_cards.append(rest.pop(0))
    return hands, kitty_cards


def start(rules=None, dealer=3, fixed=None, kitty=""):
    hands, kitty_cards = deal_from(fixed, kitty)
    return bw.new_hand(rules or bw.Rules(), dealer, hands, kitty_cards)


def to_play(rules=None, fixed=None, kitty="", bid="bid 4 uptown", declare="trump S"):
    """Seat 0 bids (dealer 3), the others pass, seat 0 discards the kitty back and declares."""
    hand = start(rules, 3, fixed, kitty)
    for action in (bid, "pass", "pass", "pass"):
        hand.apply(action)
    hand.apply("discard " + " ".join(hand.kitty))
    hand.apply(declare)
    return hand


def play(hand, *cards):
    for card in cards:
        hand.apply("play " + card)


def refusal(hand, action) -> str:
    with pytest.raises(IllegalAction) as info:
        hand.apply(action)
    return info.value.reason


# -- house rules ---------------------------------------------------------------------------------


def test_default_house_rules_are_those_of_rules_md():
    assert bw.Rules().as_dict() == {
        "kitty": "6_two_jokers", "kitty_shown": False, "min_bid": 3, "downtown_beats_uptown": False,
        "all_pass": "redeal", "downtown_ace": "high", "downtown_side_suits": "reversed",
        "defenders_score_books": False, "notrump_double": True, "boston": "wins_game",
        "game_target": 7,
    }


def test_every_house_rule_has_a_help_sentence():
    for entry in bw.Rules.describe():
        assert entry["help"].endswith(".") and len(entry["help"]) > 20


@pytest.mark.parametrize("overrides", [
    {"all_pass": "shuffle"}, {"min_bid": 8}, {"min_bid": 0}, {"min_bid": "4"},
    {"boston": "triple"}, {"game_target": 0}, {"kitty_shown": 1}, {"downtown_ace": "middle"},
    {"downtown_side_suits": "sideways"}, {"cutthroat": True},
])
def test_rules_refuse_unknown_names_and_bad_values(overrides):
    with pytest.raises(RulesError):
        bw.Rules.from_overrides(overrides)


def test_rules_overrides_round_trip():
    rules = bw.Rules.from_overrides({"min_bid": 4, "boston": "double"})
    assert rules.overrides() == {"min_bid": 4, "boston": "double"}
    assert bw.Rules.from_overrides(rules.overrides()) == rules


# -- deal ----------------------------------------------------------------------------------------


def test_deal_gives_twelve_cards_each_and_a_six_card_kitty():
    deal = bw.deal(bw.Rules(), 0, random.Random(1))
    assert [len(h) for h in deal.hands] == [12] * 4 and len(deal.kitty) == 6
    assert sorted(sum(deal.hands, []) + deal.kitty) == sorted(JOKER_DECK)


def test_new_hand_keeps_the_cards_in_the_order_dealt():
    hands, kitty = deal_from()
    hands[0].reverse()
    hand = bw.new_hand(bw.Rules(), 0, hands, kitty)
    assert [list(h) for h in hand.dealt] == hands and list(hand.kitty) == kitty


@pytest.mark.parametrize("mutate, message", [
    (lambda h, k: h[1].pop(), "seat 1 has 11 cards"),
    (lambda h, k: k.pop(), "the kitty has 5 cards"),
    (lambda h, k: h.__setitem__(2, h[2][:11] + [h[0][0]]), "is dealt twice"),
    (lambda h, k: h[3].__setitem__(0, "ZZ"), "'ZZ' is not a card"),
    (lambda h, k: h[3].__setitem__(0, 7), "7 is not a card"),
    (lambda h, k: h.pop(), "4 hands, not 3"),
])
def test_new_hand_refuses_a_bad_deal(mutate, message):
    hands, kitty = deal_from()
    mutate(hands, kitty)
    with pytest.raises(DealError, match=message):
        bw.new_hand(bw.Rules(), 0, hands, kitty)


def test_new_hand_refuses_a_missing_kitty_and_a_bad_dealer():
    hands, kitty = deal_from()
    with pytest.raises(DealError, match="kitty"):
        bw.new_hand(bw.Rules(), 0, hands)
    for dealer in (4, -1, "0", True, None):
        with pytest.raises(DealError, match="dealer"):
            bw.new_hand(bw.Rules(), dealer, hands, kitty)
    with pytest.raises(DealError, match="dealer"):
        bw.deal(bw.Rules(), 9, random.Random(1))


# -- auction -------------------------------------------------------------------------------------


def test_auction_starts_left_of_dealer_and_the_dealer_speaks_last():
    hand = start(dealer=1)
    seats = []
    for _ in range(4):
        seats.append(hand.to_act)
        hand.apply("pass")
    assert seats == [2, 3, 0, 1]


def test_auction_legal_actions_are_sorted_and_start_at_min_bid():
    legal = start().legal_actions()
    assert legal == sorted(legal) and legal[0] == "bid 3 downtown" and legal[-1] == "pass"
    assert len(legal) == 5 * 3 + 1
    assert start(bw.Rules(min_bid=4)).legal_actions()[0] == "bid 4 downtown"


def test_min_bid_four_refuses_a_bid_of_three():
    hand = start(bw.Rules(min_bid=4))
    assert "from 4 to 7" in refusal(hand, "bid 3 uptown")


def test_bids_above_seven_are_refused():
    assert "from 3 to 7" in refusal(start(), "bid 8 notrump")


def test_a_bid_must_beat_the_highest_bid():
    hand = start()
    hand.apply("bid 4 uptown")
    assert "does not beat" in refusal(hand, "bid 3 notrump")
    assert "does not beat" in refusal(hand, "bid 4 uptown")
    hand.apply("bid 5 uptown")
    assert hand.declarer == 1


def test_notrump_beats_uptown_and_downtown_at_equal_books():
    hand = start()
    hand.apply("bid 4 downtown")
    assert "bid 4 notrump" in hand.legal_actions()
    hand.apply("bid 4 notrump")
    assert "does not beat" in refusal(hand, "bid 4 uptown")


def test_downtown_does_not_beat_uptown_at_equal_books_by_default():
    hand = start()
    hand.apply("bid 4 uptown")
    assert "bid 4 downtown" not in hand.legal_actions()
    assert "does not beat" in refusal(hand, "bid 4 downtown")


def test_downtown_beats_uptown_at_equal_books_when_the_house_says_so():
    hand = start(bw.Rules(downtown_beats_uptown=True))
    hand.apply("bid 4 uptown")
    hand.apply("bid 4 downtown")
    assert "does not beat" in refusal(hand, "bid 4 uptown")
    assert hand.declarer == 1 and hand.mode == "downtown"


def test_a_player_speaks_once_and_the_highest_bidder_declares():
    hand = start()
    for action in ("bid 3 uptown", "bid 4 downtown", "pass", "pass"):
        hand.apply(action)
    assert hand.phase == "discard" and hand.declarer == 1 and hand.to_act == 1
    assert (hand.bid, hand.mode) == (4, "downtown")


def test_all_pass_redeals_by_default():
    hand = start()
    for _ in range(4):
        hand.apply("pass")
    assert hand.complete and hand.to_act is None
    assert hand.result() == {"complete": True, "redeal": True, "points": [0, 0]}


def test_stuck_dealer_may_not_pass_after_three_passes():
    hand = start(bw.Rules(all_pass="stuck_dealer"), dealer=3)
    for _ in range(3):
        hand.apply("pass")
    assert "pass" not in hand.legal_actions()
    assert "stuck" in refusal(hand, "pass")
    hand.apply("bid 3 downtown")
    assert hand.declarer == 3 and hand.phase == "discard"


def test_stuck_dealer_may_pass_when_someone_has_bid():
    hand = start(bw.Rules(all_pass="stuck_dealer"), dealer=3)
    for action in ("bid 3 uptown", "pass", "pass"):
        hand.apply(action)
    assert "pass" in hand.legal_actions()
    hand.apply("pass")
    assert hand.declarer == 0


# -- kitty and discards --------------------------------------------------------------------------


def test_declarer_takes_the_kitty_into_an_eighteen_card_hand():
    hand = start()
    for action in ("bid 4 uptown", "pass", "pass", "pass"):
        hand.apply(action)
    view = hand.view(0)
    assert len(view["hand"]) == 18 and set(hand.kitty) <= set(view["hand"])
    assert view["hand_sizes"] == [18, 12, 12, 12]


def test_discard_accepts_any_order_and_records_it_sorted():
    hand = start()
    for action in ("bid 4 uptown", "pass", "pass", "pass"):
        hand.apply(action)
    cards = sorted(hand.kitty)
    hand.apply("discard " + " ".join(reversed(cards)))
    assert hand.history[-1] == (0, "discard " + " ".join(cards))
    assert hand.phase == "declare" and hand.view(0)["hand_sizes"][0] == 12


@pytest.mark.parametrize("cards, message", [
    ("AS KS QS JS TS", "exactly 6 cards, not 5"),
    ("AS KS QS JS TS 9S 8S", "exactly 6 cards, not 7"),
    ("AS AS QS JS TS 9S", "AS is listed twice"),
    ("AS KS QS JS TS ZZ", "'ZZ' is not a card"),
    ("AS KS QS JS TS AC", "does not hold AC"),
])
def test_discard_refuses_bad_lists(cards, message):
    hand = start()
    for action in ("bid 4 uptown", "pass", "pass", "pass"):
        hand.apply(action)
    assert message in refusal(hand, "discard " + cards)


def test_discard_legal_actions_list_every_six_card_choice_sorted():
    hand = start()
    for action in ("bid 4 uptown", "pass", "pass", "pass"):
        hand.apply(action)
    legal = hand.legal_actions()
    assert len(legal) == 18564 and legal == sorted(legal) and len(set(legal)) == 18564


def test_random_discard_picks_six_held_cards():
    hand = start()
    for action in ("bid 4 uptown", "pass", "pass", "pass"):
        hand.apply(action)
    rng = random.Random(3)
    legal = set(hand.legal_actions())
    picks = {hand.random_action(rng) for _ in range(300)}
    assert picks <= legal and len(picks) > 250


def test_the_discards_are_the_declaring_teams_first_book():
    hand = start(dealer=0)  # seat 1 declares: team 1
    for action in ("bid 4 uptown", "pass", "pass", "pass"):
        hand.apply(action)
    assert hand.books() == [0, 0]
    hand.apply("discard " + " ".join(hand.kitty))
    assert hand.books() == [0, 1]


# -- declaring trumps or the direction -----------------------------------------------------------


def test_a_trump_bid_names_trumps_and_the_declarer_leads():
    hand = to_play(declare="trump H")
    assert (hand.trump, hand.direction, hand.phase, hand.to_act, hand.leader) == (
        "H", "uptown", "play", 0, 0)


def test_a_notrump_bid_names_the_direction_not_trumps():
    hand = start()
    for action in ("bid 4 notrump", "pass", "pass", "pass"):
        hand.apply(action)
    hand.apply("discard " + " ".join(hand.kitty))
    assert hand.legal_actions() == ["direction downtown", "direction uptown"]
    assert "no trumps" not in refusal(hand, "trump S") and "direction" in refusal(hand, "trump S")
    hand.apply("direction downtown")
    assert (hand.trump, hand.direction) == (None, "downtown")


def test_a_trump_bid_cannot_name_a_direction():
    hand = start()
    for action in ("bid 4 downtown", "pass", "pass", "pass"):
        hand.apply(action)
    hand.apply("discard " + " ".join(hand.kitty))
    assert hand.legal_actions() == ["trump C", "trump D", "trump H", "trump S"]
    assert "name trumps" in refusal(hand, "direction uptown")
    assert "trump S" in refusal(hand, "trump X")
    hand.apply("trump D")
    assert hand.direction == "downtown"


# -- card order ----------------------------------------------------------------------------------


def test_uptown_order_is_ace_high():
    assert bw.card_order(bw.Rules(), "S", "uptown", "H") == [
        "AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H"]


def test_downtown_ace_high_runs_a_2_3_to_king():
    assert bw.card_order(bw.Rules(), "S", "downtown", "S") == [
        "BJ", "LJ", "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS"]


def test_downtown_ace_low_runs_2_3_to_ace():
    rules = bw.Rules(downtown_ace="low")
    assert bw.card_order(rules, "S", "downtown", "S")[2:] == [
        "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]


def test_downtown_side_suits_reversed_follow_the_direction():
    assert bw.card_order(bw.Rules(), "S", "downtown", "H")[:3] == ["AH", "2H", "3H"]


def test_downtown_side_suits_normal_keep_the_uptown_order():
    rules = bw.Rules(downtown_side_suits="normal")
    assert bw.card_order(rules, "S", "downtown", "H")[:3] == ["AH", "KH", "QH"]
    assert bw.card_order(rules, "S", "downtown", "S")[:4] == ["BJ", "LJ", "AS", "2S"]


def test_notrump_downtown_reverses_every_suit_whatever_the_side_suit_rule():
    rules = bw.Rules(downtown_side_suits="normal")
    assert bw.card_order(rules, None, "downtown", "H")[:3] == ["AH", "2H", "3H"]
    assert "BJ" not in bw.card_order(rules, None, "downtown", "S")


@pytest.mark.parametrize("ace, side, winner", [
    ("high", "reversed", 1), ("low", "reversed", 1), ("high", "normal", 0), ("low", "normal", 0),
])
def test_downtown_side_suit_trick_goes_to_the_lowest_card_when_reversed(ace, side, winner):
    rules = bw.Rules(downtown_ace=ace, downtown_side_suits=side)
    hand = to_play(rules, {0: "KH", 1: "2H", 2: "5H", 3: "QH"}, bid="bid 4 downtown")
    play(hand, "KH", "2H", "5H", "QH")
    assert hand.leader == winner


@pytest.mark.parametrize("ace, side, winner", [
    ("high", "reversed", 0), ("low", "reversed", 1), ("high", "normal", 0), ("low", "normal", 0),
])
def test_downtown_ace_of_a_side_suit(ace, side, winner):
    rules = bw.Rules(downtown_ace=ace, downtown_side_suits=side)
    hand = to_play(rules, {0: "AH", 1: "2H", 2: "5H", 3: "QH"}, bid="bid 4 downtown")
    play(hand, "AH", "2H", "5H", "QH")
    assert hand.leader == winner


@pytest.mark.parametrize("ace, winner", [("high", 1), ("low", 2)])
def test_downtown_trump_order_follows_downtown_ace(ace, winner):
    rules = bw.Rules(downtown_ace=ace)
    hand = to_play(rules, {0: "KS", 1: "AS", 2: "2S", 3: "3S"}, bid="bid 4 downtown")
    play(hand, "KS", "AS", "2S", "3S")
    assert hand.leader == winner


def test_notrump_downtown_side_suits_reverse_even_when_normal():
    rules = bw.Rules(downtown_side_suits="normal")
    hand = to_play(rules, {0: "KH", 1: "2H", 2: "5H", 3: "QH"}, bid="bid 4 notrump",
                   declare="direction downtown")
    play(hand, "KH", "2H", "5H", "QH")
    assert hand.leader == 1


# -- play ----------------------------------------------------------------------------------------

ALL_HEARTS_BUT_ACE = "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"


def test_the_lowest_trump_beats_the_ace_of_the_suit_led():
    hand = to_play(fixed={0: "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H", 1: "2S", 2: "2H", 3: "3C"})
    play(hand, "AH", "2S", "2H", "3C")
    assert hand.leader == 1 and hand.to_act == 1 and hand.tricks_won == [0, 1, 0, 0]


def test_the_jokers_are_the_two_highest_trumps_big_over_little():
    hand = to_play(fixed={0: "AH", 1: "LJ", 2: "BJ", 3: ALL_HEARTS_BUT_ACE})
    play(hand, "AH", "LJ", "BJ", "2H")
    assert hand.leader == 2


def test_a_led_joker_is_a_trump_lead():
    hand = to_play(fixed={0: "BJ", 1: "2H 3S"})
    play(hand, "BJ")
    legal = hand.legal_actions()
    assert "play 3S" in legal and "play 2H" not in legal
    assert all(a[-1] == "S" or a[-2:] == "LJ" for a in legal)
    assert "must follow trumps" in refusal(hand, "play 2H")


def test_a_joker_follows_a_trump_lead_when_it_is_the_only_trump():
    hand = to_play(fixed={0: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S", 1: "LJ", 2: "2S"})
    play(hand, "AS")
    assert hand.legal_actions() == ["play LJ"]


def test_must_follow_the_suit_led():
    hand = to_play(fixed={0: "AH", 1: "2H 2C"})
    play(hand, "AH")
    assert all(a.endswith("H") for a in hand.legal_actions())
    assert refusal(hand, "play 2C") == "seat 1 must follow hearts"


def test_a_player_void_in_the_suit_led_may_play_anything():
    hand = to_play(fixed={0: "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H", 3: "2H"})
    play(hand, "AH")
    assert len(hand.legal_actions()) == 12


def test_notrump_joker_may_be_played_only_when_void_in_the_suit_led():
    hand = to_play(fixed={0: "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H", 1: "2H BJ", 2: "LJ"},
                   bid="bid 4 notrump", declare="direction uptown")
    play(hand, "AH")
    assert hand.legal_actions() == ["play 2H"]
    assert "only when void" in refusal(hand, "play BJ")
    play(hand, "2H")
    assert "play LJ" in hand.legal_actions()


def test_notrump_joker_never_wins_a_trick():
    hand = to_play(fixed={0: "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", 1: "BJ", 2: "LJ"},
                   kitty="AH", bid="bid 4 notrump", declare="direction uptown")
    play(hand, "2H", "BJ", "LJ")
    hand.apply(hand.legal_actions()[0])
    assert hand.leader == 0


def test_notrump_led_joker_lets_the_first_real_card_set_the_suit():
    hand = to_play(fixed={0: "BJ", 1: "5C", 2: "KC 2D", 3: "AC"},
                   bid="bid 4 notrump", declare="direction uptown")
    play(hand, "BJ")
    assert len(hand.legal_actions()) == 12  # no suit to follow yet
    play(hand, "5C")
    assert all(a.endswith("C") for a in hand.legal_actions())
    play(hand, "KC", "AC")
    assert hand.leader == 3


def test_notrump_second_joker_may_follow_a_led_joker():
    hand = to_play(fixed={0: "BJ", 1: "LJ", 2: "9D", 3: "TD"},
                   bid="bid 4 notrump", declare="direction uptown")
    play(hand, "BJ", "LJ", "9D")
    assert all(a.endswith("D") for a in hand.legal_actions())
    play(hand, "TD")
    assert hand.leader == 3


def test_a_full_hand_plays_twelve_tricks_and_counts_thirteen_books():
    rng = random.Random(7)
    hand = to_play()
    while not hand.complete:
        hand.apply(hand.random_action(rng))
    assert sum(hand.tricks_won) == 12 and sum(hand.result()["books"]) == 13


# -- scoring -------------------------------------------------------------------------------------


def test_made_bid_scores_the_books_over_six():
    # a made bid of 4 scores 4, and its 10 books are the kitty + 9 tricks
    score = bw.score_hand(bw.Rules(), 4, "uptown", 0, 10)
    assert score == {"books": [10, 3], "points": [4, 0], "boston": False, "made": True}


def test_extra_books_score_one_each_without_bonus():
    assert bw.score_hand(bw.Rules(), 4, "downtown", 1, 12)["points"] == [0, 6]


def test_set_team_scores_minus_bid():
    score = bw.score_hand(bw.Rules(), 4, "uptown", 1, 9)
    assert score["points"] == [0, -4] and not score["made"]


def test_defenders_score_nothing_by_default():
    assert bw.score_hand(bw.Rules(), 3, "uptown", 0, 2)["points"] == [-3, 0]


def test_defenders_score_their_books_over_six_when_the_house_says_so():
    rules = bw.Rules(defenders_score_books=True)
    assert bw.score_hand(rules, 3, "uptown", 0, 4)["points"] == [-3, 3]
    assert bw.score_hand(rules, 3, "uptown", 0, 7)["points"] == [-3, 0]


def test_notrump_doubles_both_ways():
    # notrump doubles: a made 4 notrump scores 8, a set 4 notrump loses 8
    rules = bw.Rules()
    assert bw.score_hand(rules, 4, "notrump", 0, 10)["points"] == [8, 0]
    assert bw.score_hand(rules, 4, "notrump", 0, 9)["points"] == [-8, 0]


def test_notrump_scores_single_without_notrump_double():
    rules = bw.Rules(notrump_double=False)
    assert bw.score_hand(rules, 4, "notrump", 0, 9)["points"] == [-4, 0]


def test_boston_scores_seven_and_double_in_notrump():
    rules = bw.Rules()
    assert bw.score_hand(rules, 3, "uptown", 0, 13) == {
        "books": [13, 0], "points": [7, 0], "boston": True, "made": True}
    assert bw.score_hand(rules, 7, "notrump", 1, 13)["points"] == [0, 14]


def test_boston_double_counts_the_hand_twice():
    rules = bw.Rules(boston="double")
    assert bw.score_hand(rules, 5, "uptown", 0, 13)["points"] == [14, 0]
    assert bw.score_hand(rules, 5, "notrump", 0, 13)["points"] == [28, 0]


def test_revoke_moves_three_books_to_the_other_team():
    rules = bw.Rules()
    assert bw.score_hand(rules, 4, "uptown", 0, 10, revoke_team=1)["books"] == [13, 0]
    score = bw.score_hand(rules, 4, "uptown", 0, 11, revoke_team=0)
    assert score["books"] == [8, 5] and score["points"] == [-4, 0]


def test_revoke_never_moves_more_books_than_the_team_has():
    assert bw.score_hand(bw.Rules(), 3, "uptown", 0, 12, revoke_team=1)["books"] == [13, 0]


@pytest.mark.parametrize("args", [
    (2, "uptown", 0, 9), (8, "uptown", 0, 9), (4, "sideways", 0, 9), (4, "uptown", 2, 9),
    (4, "uptown", 0, 14), (4, "uptown", 0, 0), (4, "uptown", 0, 9, 5), (True, "uptown", 0, 9),
])
def test_score_hand_refuses_impossible_facts(args):
    with pytest.raises(WhistError):
        bw.score_hand(bw.Rules(), *args)


def test_result_of_a_played_hand_uses_score_hand():
    rng = random.Random(11)
    hand = to_play(bid="bid 4 notrump", declare="direction downtown")
    while not hand.complete:
        hand.apply(hand.random_action(rng))
    result = hand.result()
    score = bw.score_hand(hand.rules, 4, "notrump", 0, result["books"][0])
    assert result == {"complete": True, "declarer": 0, "bid": "4 notrump", "trump": None,
                      "direction": "downtown", "books": score["books"],
                      "points": score["points"], "boston": score["boston"]}


def play_boston(rules=None):
    """Seat 0 keeps the twelve top trumps, the others hold none: a Boston."""
    hand = start(rules, 3, {0: "BJ LJ AS KS QS JS TS 9S 8S 7S 6S 5S"}, kitty="4S 3S 2S AH AD AC")
    for action in ("bid 7 uptown", "pass", "pass", "pass", "discard 2S 3S 4S AC AD AH",
                   "trump S"):
        hand.apply(action)
    rng = random.Random(2)
    while not hand.complete:
        legal = hand.legal_actions()
        hand.apply(legal[0] if hand.to_act == 0 else rng.choice(legal))
    return hand


def test_a_boston_played_out_scores_seven():
    result = play_boston().result()
    assert result["boston"] and result["books"] == [13, 0] and result["points"] == [7, 0]
    assert result["trump"] == "S" and "direction" not in result


# -- match ---------------------------------------------------------------------------------------


def fake(points, declarer=0, boston=False):
    return {"complete": True, "declarer": declarer, "bid": "4 uptown", "trump": "S",
            "books": [7, 6], "points": points, "boston": boston}


def test_match_is_won_by_the_first_team_to_reach_the_target():
    match = bw.Match(bw.Rules(), first_dealer=2)
    for dealer, points in ((2, [4, 0]), (3, [0, 3]), (0, [3, 0])):
        match.add_result(dealer, fake(points))
    assert match.summary() == {"scores": [7, 3], "complete": True, "winner": 0, "hands": 3}


def test_match_is_lost_by_a_team_falling_to_minus_target():
    match = bw.Match(bw.Rules(game_target=5))
    match.add_result(0, fake([-4, 0]))
    match.add_result(1, fake([-2, 0]))
    assert match.complete and match.winner == 1


def test_minus_target_is_settled_before_plus_target():
    match = bw.Match(bw.Rules(defenders_score_books=True))
    match.add_result(0, fake([6, -6]))
    match.add_result(1, fake([1, -1]))  # team 0 reaches +7 as team 1 falls to -7
    assert match.winner == 0
    match = bw.Match(bw.Rules(defenders_score_books=True))
    match.add_result(0, fake([-6, 6]))
    match.add_result(1, fake([-1, 1]))
    assert match.winner == 1


def test_boston_wins_the_match_at_once_by_default():
    match = bw.Match(bw.Rules(), first_dealer=2)
    match.add_result(2, fake([0, -5]))
    match.add_hand(play_boston())
    assert match.summary() == {"scores": [7, -5], "complete": True, "winner": 0, "hands": 2}


def test_boston_normal_does_not_end_the_match():
    match = bw.Match(bw.Rules(boston="normal", game_target=10), first_dealer=3)
    match.add_hand(play_boston(bw.Rules(boston="normal", game_target=10)))
    assert not match.complete and match.scores == [7, 0]


def test_an_all_pass_redeal_moves_the_deal_to_the_next_dealer():
    match = bw.Match(bw.Rules(), first_dealer=1)
    hand = start(dealer=1)
    for _ in range(4):
        hand.apply("pass")
    match.add_hand(hand)
    assert match.next_dealer == 2 and match.scores == [0, 0] and match.summary()["hands"] == 1


def test_match_refuses_an_unfinished_hand_the_wrong_dealer_and_other_rules():
    match = bw.Match(bw.Rules(), first_dealer=0)
    with pytest.raises(WhistError, match="not finished"):
        match.add_hand(start(dealer=0))
    hand = start(dealer=1)
    for _ in range(4):
        hand.apply("pass")
    with pytest.raises(WhistError, match="seat 0 must deal"):
        match.add_hand(hand)
    other = start(bw.Rules(min_bid=4), dealer=0)
    for _ in range(4):
        other.apply("pass")
    with pytest.raises(WhistError, match="other house rules"):
        match.add_hand(other)


def test_match_refuses_a_result_without_points():
    match = bw.Match(bw.Rules())
    for result in ({}, {"points": [1]}, {"points": ["1", 0]}, {"points": [7, 0], "boston": True}):
        with pytest.raises(WhistError):
            match.add_result(0, result)
    assert match.summary()["hands"] == 0


def test_match_refuses_hands_once_over():
    match = bw.Match(bw.Rules())
    match.add_result(0, fake([7, 0]))
    with pytest.raises(WhistError, match="over"):
        match.add_result(1, fake([1, 0]))


# -- refusals, turns, copies ---------------------------------------------------------------------


@pytest.mark.parametrize("action, message", [
    ("plya AS", "not a Bid Whist action"), ("", "not a Bid Whist action"),
    (None, "an action is a text"), (["pass"], "an action is a text"),
    ("play AS", "auction is on"), ("discard AS KS QS JS TS 9S", "auction is on"),
    ("pass now", "say just 'pass'"), ("bid 9 uptown", "from 3 to 7"),
    ("bid 4 sideways", "bid N notrump"),
])
def test_refusals_in_the_auction_say_what_is_wrong(action, message):
    assert message in refusal(start(), action)


def test_refusals_in_the_play_say_what_is_wrong():
    hand = to_play(fixed={0: "AH", 1: "2H"})
    assert "'ZZ' is not a card" in refusal(hand, "play ZZ")
    assert "does not hold 2H" in refusal(hand, "play 2H")
    assert "must play a card" in refusal(hand, "pass")
    assert "must play a card" in refusal(hand, "trump S")


def test_actions_after_the_end_are_refused():
    hand = play_boston()
    assert "hand is over" in refusal(hand, "play AS")
    assert "hand is over" in refusal(hand, "pass")
    assert hand.legal_actions() == []
    with pytest.raises(IllegalAction, match="hand is over"):
        hand.random_action(random.Random(1))


def test_an_action_claimed_by_the_wrong_seat_is_refused():
    hand = start(dealer=0)
    with pytest.raises(IllegalAction, match="turn") as info:
        hand.apply("pass", seat=2)
    assert info.value.seat == 2
    hand.apply("pass", seat=1)
    assert hand.to_act == 2


def test_a_refused_action_changes_nothing():
    hand = to_play(fixed={0: "AH", 1: "2H 2C"})
    play(hand, "AH")
    before = (json.dumps([hand.view(s) for s in (None, 0, 1, 2, 3)]), list(hand.history))
    for action in ("play 2C", "play AS", "pass", "discard 2H", 7):
        with pytest.raises(IllegalAction):
            hand.apply(action)
    assert (json.dumps([hand.view(s) for s in (None, 0, 1, 2, 3)]), hand.history) == before


def test_copy_is_independent():
    hand = to_play()
    twin = hand.copy()
    twin.apply(twin.legal_actions()[0])
    assert hand.history != twin.history and len(hand.history) == 6
    assert hand.view(0)["hand"] != twin.view(0)["hand"]
    rng_a, rng_b = random.Random(4), random.Random(4)
    a, b = hand.copy(), hand.copy()
    while not a.complete:
        a.apply(a.random_action(rng_a))
        b.apply(b.random_action(rng_b))
    assert a.result() == b.result() and not hand.complete


def test_incomplete_result_gives_phase_turn_and_sorted_legal():
    hand = start()
    assert hand.result() == {"complete": False, "phase": "auction", "to_act": 0,
                             "legal": hand.legal_actions()}


# -- views ---------------------------------------------------------------------------------------


def test_each_seat_sees_only_its_own_hand():
    hand = start()
    for seat in range(4):
        view = hand.view(seat)
        assert sorted(view["hand"]) == sorted(hand.dealt[seat])
        text = json.dumps(view)
        for other in range(4):
            if other != seat:
                assert not any(f'"{c}"' in text for c in hand.dealt[other])
    assert "hand" not in hand.view(None)


def test_the_kitty_stays_hidden_until_the_declarer_takes_it():
    hand = start()
    for seat in (None, 0, 1, 2, 3):
        assert "kitty" not in hand.view(seat)
        assert not any(f'"{c}"' in json.dumps(hand.view(seat)) for c in hand.kitty)
    for action in ("bid 4 uptown", "pass", "pass", "pass"):
        hand.apply(action)
    assert hand.view(0)["kitty"] == list(hand.kitty)
    for seat in (None, 1, 2, 3):
        assert not any(f'"{c}"' in json.dumps(hand.view(seat)) for c in hand.kitty)


def test_kitty_shown_turns_the_kitty_face_up_for_everyone():
    hand = start(bw.Rules(kitty_shown=True))
    for seat in (None, 0, 1, 2, 3):
        assert hand.view(seat)["kitty"] == list(hand.kitty)


def test_the_discards_are_seen_by_the_declarer_only():
    hand = start()
    for action in ("bid 4 uptown", "pass", "pass", "pass"):
        hand.apply(action)
    discards = sorted(hand.view(0)["hand"])[:6]
    hand.apply("discard " + " ".join(discards))
    assert hand.view(0)["discards"] == discards
    for seat in (None, 1, 2, 3):
        view = hand.view(seat)
        assert "discards" not in view
        assert not any(f'"{c}"' in json.dumps(view) for c in discards)


def test_legal_actions_are_in_the_view_of_the_seat_to_act_only():
    hand = start()
    assert hand.view(0)["legal"] == hand.legal_actions()
    assert all("legal" not in hand.view(s) for s in (None, 1, 2, 3))


def test_view_of_a_complete_hand_reveals_the_deal_and_the_result():
    hand = play_boston()
    view = hand.view(None)
    assert view["result"] == hand.result() and view["deal"] == [list(h) for h in hand.dealt]
    assert view["kitty"] == list(hand.kitty) and len(view["discards"]) == 6
    assert view["tricks_won"] == [12, 0, 0, 0] and view["books"] == [13, 0]
    assert view["contract"] == {"declarer": 0, "bid": 7, "mode": "uptown"}
    assert len(view["tricks"]) == 12 and view["tricks"][0]["leader"] == 0


def test_view_shows_the_trick_in_progress():
    hand = to_play(fixed={0: "AH"})
    play(hand, "AH")
    view = hand.view(2)
    assert view["trick"] == [{"seat": 0, "card": "AH"}] and view["leader"] == 0
    assert view["trump"] == "S" and view["direction"] == "uptown"
    assert view["hand_sizes"] == [11, 12, 12, 12]


def test_view_refuses_a_bad_seat():
    with pytest.raises(WhistError):
        start().view(4)
