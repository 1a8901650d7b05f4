"""Cutthroat Bid Whist engine: one test per rule, ruling and refusal
(docs/rules/cutthroat_bid_whist.md)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.rules import GAME_MODULES, game_module
from games.rules import cutthroat_bid_whist as ct
from games.rules.cards import JOKER_DECK
from games.rules.errors import DealError, IllegalAction, RulesError, WhistError
from games.rules.records import RecordError, random_record, record_of, replay_document, replay_hand

ROOT = Path(__file__).resolve().parents[3]


def deal_from(fixed: dict[int, str] | None = None, kitty: str = "") -> tuple[list, list]:
    """A deal whose named cards sit where given; the rest fill seats 0..2 then the kitty in
    deck order (spades, hearts, diamonds, clubs, jokers)."""
    fixed = fixed or {}
    named = [c for cards in fixed.values() for c in cards.split()] + kitty.split()
    rest = [c for c in JOKER_DECK if c not in named]
    hands = []
    for seat in range(3):
        hand = fixed.get(seat, "").split()
        while len(hand) < 17:
            hand.append(rest.pop(0))
        hands.append(hand)
    kitty_cards = kitty.split()
    while len(kitty_cards) < 3:
        kitty_cards.append(rest.pop(0))
    return hands, kitty_cards


def start(rules=None, dealer=2, fixed=None, kitty=""):
    hands, kitty_cards = deal_from(fixed, kitty)
    return ct.new_hand(rules or ct.Rules(), dealer, hands, kitty_cards)


def to_play(rules=None, fixed=None, kitty="", bid="bid 10 uptown", declare="trump S"):
    """Seat 0 bids (dealer 2), the others pass, seat 0 discards the kitty back and declares."""
    hand = start(rules, 2, fixed, kitty)
    for action in (bid, "pass", "pass"):
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


def finished(rules=None, seed=0):
    """A hand played to the end by random moves after seat 1 declares 11 uptown."""
    rules = rules or ct.Rules()
    rng = random.Random(seed)
    deal = ct.deal(rules, 0, rng)
    hand = ct.new_hand(rules, 0, deal.hands, deal.kitty)
    for action in ("bid 11 uptown", "pass", "pass"):
        hand.apply(action)
    while not hand.complete:
        hand.apply(hand.random_action(rng))
    return hand


# -- contract and house rules --------------------------------------------------------------------


def test_the_module_states_its_game_and_three_seats():
    assert (ct.GAME, ct.SEATS) == ("cutthroat_bid_whist", 3)
    assert GAME_MODULES["cutthroat_bid_whist"] == "games.rules.cutthroat_bid_whist"
    assert game_module("cutthroat_bid_whist") is ct


def test_default_house_rules():
    assert ct.Rules().as_dict() == {
        "kitty_shown": False, "min_bid": 9, "downtown_beats_uptown": False,
        "all_pass": "redeal", "downtown_ace": "high", "downtown_side_suits": "reversed",
        "notrump_double": True, "game_target": 30,
    }


def test_every_house_rule_has_a_help_sentence():
    for entry in ct.Rules.describe():
        assert entry["help"].endswith(".") and len(entry["help"]) > 20


@pytest.mark.parametrize("overrides", [
    {"all_pass": "shuffle"}, {"min_bid": 19}, {"min_bid": 5}, {"min_bid": "10"},
    {"game_target": 0}, {"kitty_shown": 1}, {"downtown_ace": "middle"},
    {"downtown_side_suits": "sideways"}, {"boston": "normal"}, {"defenders_score_books": True},
])
def test_rules_refuse_unknown_names_and_bad_values(overrides):
    with pytest.raises(RulesError):
        ct.Rules.from_overrides(overrides)


def test_rules_overrides_round_trip():
    rules = ct.Rules.from_overrides({"min_bid": 7, "game_target": 50})
    assert rules.overrides() == {"min_bid": 7, "game_target": 50}
    assert ct.Rules.from_overrides(rules.overrides()) == rules


# -- deal ----------------------------------------------------------------------------------------


def test_deal_gives_seventeen_cards_each_and_a_three_card_kitty():
    for dealer in (0, 1, 2):
        deal = ct.deal(ct.Rules(), dealer, random.Random(dealer))
        assert [len(h) for h in deal.hands] == [17] * 3 and len(deal.kitty) == 3
        assert sorted(sum(deal.hands, []) + deal.kitty) == sorted(JOKER_DECK)


def test_new_hand_keeps_the_cards_in_the_order_dealt():
    hands, kitty = deal_from()
    hands[0].reverse()
    hand = ct.new_hand(ct.Rules(), 0, hands, kitty)
    assert [list(h) for h in hand.dealt] == hands and list(hand.kitty) == kitty


@pytest.mark.parametrize("mutate, message", [
    (lambda h, k: h[1].pop(), "seat 1 has 16 cards; Cutthroat Bid Whist deals 17"),
    (lambda h, k: h.__setitem__(2, "AS"), "seat 2 has 0 cards"),
    (lambda h, k: k.pop(), "the kitty has 2 cards; Cutthroat Bid Whist deals a 3-card kitty"),
    (lambda h, k: h.__setitem__(2, h[2][:16] + [h[0][0]]), "AS is dealt twice"),
    (lambda h, k: h[1].__setitem__(0, "ZZ"), "'ZZ' is not a card of the Bid Whist deck"),
    (lambda h, k: h[1].__setitem__(0, 7), "7 is not a card"),
    (lambda h, k: h.append([]), "3 hands, not 4"),
    (lambda h, k: h.pop(), "3 hands, not 2"),
])
def test_new_hand_refuses_a_bad_deal(mutate, message):
    hands, kitty = deal_from()
    mutate(hands, kitty)
    with pytest.raises(DealError, match=message):
        ct.new_hand(ct.Rules(), 0, hands, kitty)


def test_new_hand_refuses_a_missing_kitty_and_a_bad_dealer():
    hands, kitty = deal_from()
    with pytest.raises(DealError, match="needs its 3-card kitty"):
        ct.new_hand(ct.Rules(), 0, hands)
    for dealer in (3, -1, "0", True, None):
        with pytest.raises(DealError, match="the dealer is seat 0, 1 or 2"):
            ct.new_hand(ct.Rules(), dealer, hands, kitty)
    with pytest.raises(DealError, match="dealer"):
        ct.deal(ct.Rules(), 3, random.Random(1))


def test_refusal_messages_carry_their_template_and_parameters():
    hands, kitty = deal_from()
    hands[1].pop()
    with pytest.raises(DealError) as info:
        ct.new_hand(ct.Rules(), 0, hands, kitty)
    assert "%(seat)s" in info.value.template and info.value.params == {"seat": 1, "count": 16}


# -- auction -------------------------------------------------------------------------------------


def test_auction_starts_left_of_dealer_and_the_dealer_speaks_last():
    for dealer, order in ((0, [1, 2, 0]), (1, [2, 0, 1]), (2, [0, 1, 2])):
        hand = start(dealer=dealer)
        seats = []
        for _ in range(3):
            seats.append(hand.to_act)
            hand.apply("pass")
        assert seats == order


def test_auction_legal_actions_are_sorted_and_run_from_min_bid_to_eighteen():
    legal = start().legal_actions()
    assert legal == sorted(legal) and legal[-1] == "pass"
    bids = {int(a.split()[1]) for a in legal if a != "pass"}
    assert bids == set(range(9, 19)) and len(legal) == 10 * 3 + 1
    assert min(int(a.split()[1]) for a in start(ct.Rules(min_bid=12)).legal_actions()
               if a != "pass") == 12


def test_bids_name_tricks_from_min_bid_to_eighteen():
    assert "tricks from 9 to 18" in refusal(start(), "bid 8 uptown")
    assert "tricks from 9 to 18" in refusal(start(), "bid 19 notrump")
    assert "tricks from 12 to 18" in refusal(start(ct.Rules(min_bid=12)), "bid 11 uptown")


def test_a_bid_must_beat_the_highest_bid():
    hand = start()
    hand.apply("bid 10 uptown")
    assert "does not beat the highest bid, 'bid 10 uptown'" in refusal(hand, "bid 9 notrump")
    assert "does not beat" in refusal(hand, "bid 10 uptown")
    hand.apply("bid 11 uptown")
    assert hand.declarer == 1


def test_notrump_beats_uptown_and_downtown_at_equal_tricks():
    hand = start()
    hand.apply("bid 10 downtown")
    hand.apply("bid 10 notrump")
    assert "does not beat" in refusal(hand, "bid 10 uptown")
    assert "bid 11 uptown" in hand.legal_actions()


def test_downtown_equals_uptown_unless_the_house_says_it_beats_it():
    hand = start()
    hand.apply("bid 10 uptown")
    assert "bid 10 downtown" not in hand.legal_actions()
    hand = start(ct.Rules(downtown_beats_uptown=True))
    hand.apply("bid 10 uptown")
    hand.apply("bid 10 downtown")
    assert "does not beat" in refusal(hand, "bid 10 uptown")
    assert hand.declarer == 1 and hand.mode == "downtown"


def test_each_seat_speaks_once_and_the_highest_bidder_declares():
    hand = start()
    for action in ("bid 9 uptown", "bid 11 downtown", "pass"):
        hand.apply(action)
    assert hand.phase == "discard" and hand.declarer == 1 and hand.to_act == 1
    assert (hand.bid, hand.mode) == (11, "downtown")


def test_a_bid_of_eighteen_notrump_leaves_only_pass():
    hand = start()
    hand.apply("bid 18 notrump")
    assert hand.legal_actions() == ["pass"]


def test_all_pass_redeals_by_default():
    hand = start()
    for _ in range(3):
        hand.apply("pass")
    assert hand.complete and hand.to_act is None and hand.legal_actions() == []
    assert hand.result() == {"complete": True, "redeal": True, "points": [0, 0, 0]}


def test_stuck_dealer_must_bid_after_two_passes():
    hand = start(ct.Rules(all_pass="stuck_dealer"), dealer=2)
    hand.apply("pass")
    hand.apply("pass")
    assert "pass" not in hand.legal_actions()
    assert "the dealer is stuck and must bid at least 9" in refusal(hand, "pass")
    hand.apply("bid 9 downtown")
    assert hand.declarer == 2 and hand.phase == "discard"


def test_stuck_dealer_may_pass_when_someone_has_bid():
    hand = start(ct.Rules(all_pass="stuck_dealer"), dealer=2)
    hand.apply("bid 9 uptown")
    hand.apply("pass")
    hand.apply("pass")
    assert hand.declarer == 0


# -- kitty and discards --------------------------------------------------------------------------


def test_declarer_takes_the_kitty_into_a_twenty_card_hand():
    hand = start()
    for action in ("pass", "bid 10 uptown", "pass"):
        hand.apply(action)
    view = hand.view(1)
    assert len(view["hand"]) == 20 and set(hand.kitty) <= set(view["hand"])
    assert view["hand_sizes"] == [17, 20, 17] and view["discard_count"] == 3


def test_discard_accepts_any_order_and_records_it_sorted():
    hand = start()
    for action in ("bid 10 uptown", "pass", "pass"):
        hand.apply(action)
    cards = sorted(hand.kitty)
    hand.apply("discard " + " ".join(reversed(cards)))
    assert hand.history[-1] == (0, "discard " + " ".join(cards))
    assert hand.phase == "declare" and hand.view(0)["hand_sizes"] == [17, 17, 17]


@pytest.mark.parametrize("cards, message", [
    ("AS KS", "discard exactly 3 cards, not 2"),
    ("AS KS QS JS", "discard exactly 3 cards, not 4"),
    ("AS AS QS", "AS is listed twice"),
    ("AS KS ZZ", "'ZZ' is not a card"),
    ("AS KS KD", "seat 0 does not hold KD"),
])
def test_discard_refuses_bad_lists(cards, message):
    hand = start()
    for action in ("bid 10 uptown", "pass", "pass"):
        hand.apply(action)
    assert message in refusal(hand, "discard " + cards)


def test_discard_legal_actions_list_every_three_card_choice_sorted():
    hand = start()
    for action in ("bid 10 uptown", "pass", "pass"):
        hand.apply(action)
    legal = hand.legal_actions()
    assert len(legal) == 1140 and legal == sorted(legal) and len(set(legal)) == 1140
    rng = random.Random(3)
    picks = {hand.random_action(rng) for _ in range(300)}
    assert picks <= set(legal) and len(picks) > 200


def test_the_discards_are_the_declarers_first_trick():
    hand = start(dealer=0)  # seat 1 speaks first
    for action in ("bid 10 uptown", "pass", "pass"):
        hand.apply(action)
    assert hand.books() == [0, 0, 0]
    hand.apply("discard " + " ".join(hand.kitty))
    assert hand.books() == [0, 1, 0]


# -- declaring trumps or the direction -----------------------------------------------------------


def test_a_trump_bid_names_trumps_and_the_declarer_leads():
    hand = to_play(declare="trump H")
    assert (hand.trump, hand.direction, hand.phase, hand.to_act, hand.leader) == (
        "H", "uptown", "play", 0, 0)


def test_a_notrump_bid_names_the_direction_not_trumps():
    hand = start()
    for action in ("bid 10 notrump", "pass", "pass"):
        hand.apply(action)
    hand.apply("discard " + " ".join(hand.kitty))
    assert hand.legal_actions() == ["direction downtown", "direction uptown"]
    assert "must first name the direction" in refusal(hand, "trump S")
    assert "'direction uptown' or 'direction downtown'" in refusal(hand, "direction sideways")
    hand.apply("direction downtown")
    assert (hand.trump, hand.direction) == (None, "downtown")


def test_a_trump_bid_cannot_name_a_direction():
    hand = start()
    for action in ("bid 10 downtown", "pass", "pass"):
        hand.apply(action)
    hand.apply("discard " + " ".join(hand.kitty))
    assert hand.legal_actions() == ["trump C", "trump D", "trump H", "trump S"]
    assert "must first name trumps" in refusal(hand, "direction uptown")
    assert "'trump S', 'trump H'" in refusal(hand, "trump X")
    hand.apply("trump D")
    assert hand.direction == "downtown"


# -- play ----------------------------------------------------------------------------------------


def test_tricks_have_three_cards_and_the_winner_leads():
    hand = to_play(fixed={0: "AH", 1: "2H", 2: "KH"})
    play(hand, "AH", "2H", "KH")
    assert hand.tricks_won == [1, 0, 0] and hand.leader == 0 and hand.to_act == 0
    assert hand.view(None)["tricks"][0]["cards"] == [
        {"seat": 0, "card": "AH"}, {"seat": 1, "card": "2H"}, {"seat": 2, "card": "KH"}]


def test_the_lowest_trump_beats_the_ace_of_the_suit_led():
    hand = to_play(fixed={0: "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H", 1: "2S", 2: "2H"})
    play(hand, "AH", "2S", "2H")
    assert hand.leader == 1 and hand.tricks_won == [0, 1, 0]


def test_the_jokers_are_the_two_highest_trumps_big_over_little():
    hand = to_play(fixed={0: "AS", 1: "LJ", 2: "BJ"})
    play(hand, "AS", "LJ", "BJ")
    assert hand.leader == 2


def test_must_follow_the_suit_led():
    hand = to_play(fixed={0: "AH", 1: "2H 3C", 2: "9D"})
    play(hand, "AH")
    assert "seat 1 must follow hearts" in refusal(hand, "play 3C")
    assert "seat 1 does not hold 9D" in refusal(hand, "play 9D")
    assert "'ZZ' is not a card" in refusal(hand, "play ZZ")


def test_downtown_order_follows_the_house_rules():
    rules = ct.Rules(downtown_ace="low")
    hand = to_play(rules, {0: "KH", 1: "2H", 2: "AH"}, bid="bid 10 downtown")
    play(hand, "KH", "2H", "AH")
    assert hand.leader == 1  # 2 best, ace worst
    hand = to_play(ct.Rules(downtown_side_suits="normal"), {0: "KH", 1: "2H", 2: "QH"},
                   bid="bid 10 downtown")
    play(hand, "KH", "2H", "QH")
    assert hand.leader == 0  # side suits keep the uptown order


def test_notrump_jokers_follow_nothing_and_never_win():
    hand = to_play(fixed={0: "BJ 2H", 1: "LJ 3C", 2: "4C"}, bid="bid 10 notrump",
                   declare="direction uptown")
    play(hand, "BJ", "LJ")
    assert "play 4C" in hand.legal_actions()
    play(hand, "4C")
    assert hand.leader == 2
    hand = to_play(fixed={0: "AH", 1: "LJ 2H"}, bid="bid 10 notrump", declare="direction uptown")
    play(hand, "AH")
    assert "a joker may be played only when void" in refusal(hand, "play LJ")


def test_a_full_hand_plays_seventeen_tricks_and_counts_eighteen():
    hand = finished(seed=4)
    assert len(hand.view(None)["tricks"]) == 17 and sum(hand.tricks_won) == 17
    assert sum(hand.books()) == 18
    assert sum(1 for _, a in hand.history if a.startswith("play ")) == 51


# -- refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize("action, message", [
    ("bid 10", "with N tricks from 9 to 18"),
    ("pass please", "to pass, say just 'pass'"),
    ("play AS", "the auction is on: seat 0 must pass or bid"),
    ("shout", "is not a Bid Whist action: pass, bid N uptown|downtown|notrump, discard C C C,"),
    (None, "an action is a text such as"),
    (7, "an action is a text such as"),
])
def test_refusals_in_the_auction_say_what_is_wrong(action, message):
    assert message in refusal(start(), action)


def test_refusals_speak_of_tricks_and_three_seats_not_the_four_player_games_books_and_seats():
    hand = start()
    hand.apply("bid 10 uptown")
    assert "bid more tricks, or notrump" in refusal(hand, "bid 9 notrump")
    assert "with N tricks from 9 to 18" in refusal(hand, "bid 19 uptown")
    with pytest.raises(WhistError, match="a seat is 0, 1 or 2, or none"):
        hand.view(3)


def test_refusals_in_the_other_phases_say_what_is_wrong():
    hand = start()
    for action in ("bid 10 uptown", "pass", "pass"):
        hand.apply(action)
    assert "seat 0 must first discard 3 cards" in refusal(hand, "trump S")
    hand.apply("discard " + " ".join(hand.kitty))
    hand.apply("trump S")
    assert "the cards are being played: seat 0 must play a card" in refusal(hand, "pass")


def test_actions_after_the_end_and_by_the_wrong_seat_are_refused():
    hand = start()
    with pytest.raises(IllegalAction, match="it is seat 0's turn, not seat 1's") as info:
        hand.apply("pass", seat=1)
    assert info.value.seat == 1
    for _ in range(3):
        hand.apply("pass")
    with pytest.raises(IllegalAction, match="hand is over"):
        hand.apply("pass")
    with pytest.raises(IllegalAction, match="hand is over"):
        hand.apply("pass", seat=0)
    with pytest.raises(IllegalAction, match="hand is over"):
        hand.random_action(random.Random(1))


def test_a_refused_action_changes_nothing():
    hand = to_play(fixed={0: "AH", 1: "2H 3C"})
    play(hand, "AH")
    before = json.dumps([hand.view(s) for s in (None, 0, 1, 2)])
    refusal(hand, "play 3C")
    assert json.dumps([hand.view(s) for s in (None, 0, 1, 2)]) == before


def test_copy_is_independent():
    hand = to_play()
    twin = hand.copy()
    hand.apply(hand.legal_actions()[0])
    assert len(twin.history) == len(hand.history) - 1 and twin.view(0) != hand.view(0)


def test_incomplete_result_gives_phase_turn_and_sorted_legal():
    result = start().result()
    assert result["complete"] is False and result["phase"] == "auction" and result["to_act"] == 0
    assert result["legal"] == sorted(result["legal"])


# -- views ---------------------------------------------------------------------------------------


def test_each_seat_sees_only_its_own_hand_and_lists_have_three_entries():
    hand = start()
    for seat in (0, 1, 2):
        view = hand.view(seat)
        assert view["game"] == "cutthroat_bid_whist" and view["seat"] == seat
        assert view["hand"] == sorted(view["hand"], key=view["hand"].index)
        assert set(view["hand"]) == set(hand.dealt[seat])
        assert len(view["hand_sizes"]) == len(view["tricks_won"]) == len(view["books"]) == 3
    assert "hand" not in hand.view(None) and "legal" not in hand.view(None)
    assert "legal" in hand.view(0) and "legal" not in hand.view(1)


def test_the_kitty_stays_hidden_until_the_declarer_takes_it():
    hand = start()
    assert "kitty" not in hand.view(0) and "kitty" not in hand.view(None)
    for action in ("bid 10 uptown", "pass", "pass"):
        hand.apply(action)
    assert hand.view(0)["kitty"] == list(hand.kitty)
    assert "kitty" not in hand.view(1) and "kitty" not in hand.view(None)


def test_kitty_shown_turns_the_kitty_face_up_for_everyone():
    hand = start(ct.Rules(kitty_shown=True))
    assert all(hand.view(s)["kitty"] == list(hand.kitty) for s in (None, 0, 1, 2))


def test_the_discards_are_seen_by_the_declarer_only_until_the_end():
    hand = start()
    for action in ("bid 10 uptown", "pass", "pass"):
        hand.apply(action)
    hand.apply("discard " + " ".join(hand.kitty))
    assert hand.view(0)["discards"] == sorted(hand.kitty)
    assert all("discards" not in hand.view(s) for s in (None, 1, 2))


def test_view_of_a_complete_hand_reveals_the_deal_and_the_result():
    hand = finished(seed=2)
    view = hand.view(None)
    assert view["deal"] == [list(h) for h in hand.dealt] and view["kitty"] == list(hand.kitty)
    assert view["result"] == hand.result() and "discards" in view


def test_view_refuses_a_bad_seat():
    for seat in (3, -1, True, "0"):
        with pytest.raises(WhistError, match="a seat is 0, 1 or 2"):
            start().view(seat)


# -- scoring (score_hand, the only place) --------------------------------------------------------


def test_a_made_bid_scores_every_trick_taken():
    assert ct.score_hand(ct.Rules(), 10, "uptown", 1, 10) == {"points": [0, 10, 0],
                                                              "made": True}
    assert ct.score_hand(ct.Rules(), 10, "downtown", 2, 13) == {"points": [0, 0, 13],
                                                                "made": True}


def test_a_set_bid_scores_minus_the_bid_and_the_others_score_nothing():
    assert ct.score_hand(ct.Rules(), 11, "uptown", 0, 10) == {"points": [-11, 0, 0],
                                                              "made": False}


def test_notrump_doubles_both_ways_unless_the_house_says_not():
    assert ct.score_hand(ct.Rules(), 10, "notrump", 0, 11)["points"] == [22, 0, 0]
    assert ct.score_hand(ct.Rules(), 10, "notrump", 0, 9)["points"] == [-20, 0, 0]
    single = ct.Rules(notrump_double=False)
    assert ct.score_hand(single, 10, "notrump", 0, 11)["points"] == [11, 0, 0]


def test_the_lowest_bid_is_a_house_rule():
    assert ct.score_hand(ct.Rules(min_bid=7), 7, "uptown", 0, 7)["points"] == [7, 0, 0]
    with pytest.raises(WhistError, match="a bid is from 9 to 18 tricks, not 7"):
        ct.score_hand(ct.Rules(), 7, "uptown", 0, 7)


def test_all_eighteen_tricks_score_like_any_made_bid():
    assert ct.score_hand(ct.Rules(), 9, "uptown", 0, 18)["points"] == [18, 0, 0]


@pytest.mark.parametrize("args, message", [
    ((8, "uptown", 0, 9), "a bid is from 9 to 18 tricks, not 8"),
    ((19, "uptown", 0, 9), "a bid is from 9 to 18 tricks"),
    ((True, "uptown", 0, 9), "a bid is from"),
    ((10, "sideways", 0, 9), "the mode is uptown, downtown or notrump"),
    ((10, "uptown", 3, 9), "the declarer is seat 0, 1 or 2, not 3"),
    ((10, "uptown", 0, 0), "the declarer's tricks (the discards included) are from 1 to 18"),
    ((10, "uptown", 0, 19), "are from 1 to 18, not 19"),
])
def test_score_hand_refuses_impossible_facts(args, message):
    with pytest.raises(WhistError) as info:
        ct.score_hand(ct.Rules(), *args)
    assert message in str(info.value)


def test_result_of_a_played_hand_uses_score_hand():
    hand = finished(seed=7)
    result = hand.result()
    tricks = result["books"][1]
    assert result["declarer"] == 1 and result["bid"] == "11 uptown"
    assert sum(result["books"]) == 18 and result["trump"] in ("S", "H", "D", "C")
    assert result["points"] == ct.score_hand(hand.rules, 11, "uptown", 1, tricks)["points"]
    assert result["made"] == (tricks >= 11)


# -- the match -----------------------------------------------------------------------------------


def made(declarer, points):
    out = [0, 0, 0]
    out[declarer] = points
    return {"complete": True, "declarer": declarer, "points": out}


def test_the_dealer_rotates_among_three_seats_an_all_pass_too():
    match = ct.Match(ct.Rules(), first_dealer=1)
    for dealer in (1, 2, 0, 1):
        assert match.next_dealer == dealer
        match.add_result(dealer, {"complete": True, "redeal": True, "points": [0, 0, 0]})
    assert match.summary() == {"scores": [0, 0, 0], "complete": False, "winner": None,
                               "hands": 4}


def test_the_first_player_to_reach_thirty_wins():
    match = ct.Match(ct.Rules())
    match.add_result(0, made(1, 18))
    match.add_result(1, made(2, -9))
    assert not match.complete
    match.add_result(2, made(1, 12))
    assert match.summary() == {"scores": [0, 30, -9], "complete": True, "winner": 1, "hands": 3}
    with pytest.raises(WhistError, match="the match is over"):
        match.add_result(0, made(0, 8))


def test_a_negative_score_never_ends_the_match():
    match = ct.Match(ct.Rules(game_target=30))
    for dealer in (0, 1, 2, 0):
        match.add_result(dealer, made(0, -18))
    assert match.scores == [-72, 0, 0] and not match.complete


def test_only_the_declarer_scores_so_two_players_never_pass_thirty_in_one_hand():
    # score_hand gives points to the declarer alone; on a paper sheet claiming more, the one
    # alone at the top wins, and an exact tie at the top plays on
    match = ct.Match(ct.Rules())
    match.add_result(0, {"points": [29, 29, 0]})
    match.add_result(1, {"points": [3, 3, 0]})
    assert match.scores == [32, 32, 0] and not match.complete
    match.add_result(2, {"points": [1, 2, 0]})
    assert match.winner == 1
    match = ct.Match(ct.Rules())
    match.add_result(0, {"points": [25, 25, 0]})
    match.add_result(1, {"points": [10, 6, 0]})
    assert match.winner == 0 and match.scores == [35, 31, 0]


def test_a_notrump_hand_can_reach_the_target_at_once():
    match = ct.Match(ct.Rules())
    match.add_result(0, {"points": ct.score_hand(ct.Rules(), 10, "notrump", 2, 15)["points"]})
    assert match.winner == 2 and match.scores == [0, 0, 30]


def test_match_refuses_an_unfinished_hand_the_wrong_dealer_and_other_rules():
    match = ct.Match(ct.Rules())
    with pytest.raises(WhistError, match="not finished"):
        match.add_hand(start(dealer=0))
    with pytest.raises(WhistError, match="seat 0 must deal this hand, not seat 1"):
        match.add_result(1, made(0, 8))
    with pytest.raises(WhistError, match="other house rules"):
        match.add_hand(start(ct.Rules(min_bid=10), dealer=0))
    with pytest.raises(WhistError, match="only a Cutthroat Bid Whist hand"):
        match.add_hand(object())
    with pytest.raises(WhistError, match="points for all three players"):
        match.add_result(0, {"points": [1, 2]})
    with pytest.raises(DealError, match="the dealer is seat 0, 1 or 2"):
        ct.Match(ct.Rules(), first_dealer=3)


def test_a_match_of_played_hands_counts_their_points():
    # random play: a bid of a fair share, so that some contracts are made and the match ends
    rng = random.Random(5)
    match = ct.Match(ct.Rules(min_bid=6, game_target=15))
    totals = [0, 0, 0]
    while not match.complete and len(match.results) < 300:
        deal = ct.deal(match.rules, match.next_dealer, rng)
        hand = ct.new_hand(match.rules, match.next_dealer, deal.hands, deal.kitty)
        for action in ("bid 6 uptown", "pass", "pass"):
            hand.apply(action)
        while not hand.complete:
            hand.apply(hand.random_action(rng))
        match.add_hand(hand)
        totals = [t + p for t, p in zip(totals, hand.result()["points"], strict=True)]
    assert match.complete and match.scores == totals and max(totals) >= 15
    assert match.winner == totals.index(max(totals))


# -- hand records --------------------------------------------------------------------------------


def test_a_random_record_replays_and_rebuilds_the_state():
    record = random_record("cutthroat_bid_whist", 11, dealer=2)
    assert len(record["hands"]) == 3 and len(record["kitty"]) == 3
    state = replay_hand(record)
    assert record_of(state) == record and state.complete
    assert replay_document(json.loads(json.dumps(record))) == state.result()


def test_records_refuse_a_fourth_seat():
    record = random_record("cutthroat_bid_whist", 1)
    with pytest.raises(RecordError, match="dealer must be a seat number 0 to 2; got 3"):
        replay_document({**record, "dealer": 3})
    with pytest.raises(RecordError, match="hands must be a list of 3 lists"):
        replay_document({**record, "hands": record["hands"] + [[]]})
    actions = [dict(a) for a in record["actions"]]
    actions[0]["seat"] = 3
    with pytest.raises(RecordError, match=r"action 0: each action must be \{\"seat\": 0-2"):
        replay_document({**record, "actions": actions})


def test_a_match_document_replays_with_running_scores():
    match = ct.Match(ct.Rules())
    hands = []
    for seed in range(40):
        record = random_record("cutthroat_bid_whist", seed, dealer=match.next_dealer)
        match.add_hand(replay_hand(record))
        hands.append({k: v for k, v in record.items() if k not in ("format", "game", "rules")})
    result = replay_document({"format": "whistclub-match/1", "game": "cutthroat_bid_whist",
                              "hands": hands})
    assert result["scores"] == match.scores and len(result["results"]) == 40
    assert result["results"][-1]["scores"] == match.scores and not result["complete"]
    hands[1]["dealer"] = hands[0]["dealer"]
    with pytest.raises(RecordError, match="hand 1: "):
        replay_document({"format": "whistclub-match/1", "game": "cutthroat_bid_whist",
                         "hands": hands})


@pytest.mark.slow  # manage.py in processes of its own
def test_manage_py_deal_and_replay(tmp_path):
    path = tmp_path / "hand.json"
    dealt = subprocess.run([sys.executable, "manage.py", "deal", "--game", "cutthroat_bid_whist",
                            "--seed", "42", "--dealer", "1", "--output", str(path)], cwd=ROOT,
                           capture_output=True, text=True, timeout=120)
    assert dealt.returncode == 0, dealt.stderr
    replayed = subprocess.run([sys.executable, "manage.py", "replay", str(path)], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
    assert replayed.returncode == 0, replayed.stderr
    line = json.loads(replayed.stdout)
    assert line["complete"] is True and len(line["points"]) == 3
