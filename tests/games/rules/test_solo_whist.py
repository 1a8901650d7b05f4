"""Solo Whist engine: one test per rule and house rule (docs/rules/solo_whist.md)."""

from __future__ import annotations

import json
import random

import pytest

from games.rules import solo_whist as solo
from games.rules.cards import RANKS, STANDARD_DECK, sort_for_display
from games.rules.errors import DealError, IllegalAction, RulesError, WhistError

# Each seat holds one whole suit, high to low: seat 0 spades, 1 hearts, 2 diamonds, 3 clubs.
# Nobody can follow anybody, so every trick is won by the leader, or by a trump.
SUIT_HANDS = [[r + s for r in RANKS] for s in "SHDC"]


def rules(**overrides) -> solo.Rules:
    return solo.Rules.from_overrides(overrides)


def hand_of(deal=None, dealer=0, seed=1, **overrides) -> solo.SoloHand:
    hands = deal if deal is not None else solo.deal(rules(), dealer, random.Random(seed)).hands
    return solo.new_hand(rules(**overrides), dealer, hands)


def play(hand: solo.SoloHand, *actions: str) -> solo.SoloHand:
    for action in actions:
        hand.apply(action)
    return hand


def play_lowest_cards(hand: solo.SoloHand) -> None:
    """Plays out the hand, every seat playing its first legal card."""
    while not hand.complete:
        hand.apply(hand.legal_actions()[0])


def refusal(hand: solo.SoloHand, action, **kwargs) -> IllegalAction:
    before = (json.dumps(hand.view(None)), list(hand.history), list(hand.legal_actions()))
    with pytest.raises(IllegalAction) as caught:
        hand.apply(action, **kwargs)
    assert (json.dumps(hand.view(None)), list(hand.history), list(hand.legal_actions())) == before
    return caught.value


# -- house rules ---------------------------------------------------------------------------------


def test_house_rules_have_the_names_and_defaults_of_rules_md():
    described = {d["name"]: d["default"] for d in solo.Rules.describe()}
    assert described == {"turn_up": True, "prop_and_cop": True,
                         "eldest_may_cop_after_pass": True, "prop_alone_may_solo": False,
                         "overtricks": False, "stake_multiplier": 1,
                         "revoke_penalty": "lose_deal"}
    assert all(d["help"].endswith(".") for d in solo.Rules.describe())


def test_rules_refuse_unknown_names_and_bad_values():
    with pytest.raises(RulesError, match="unknown house rule 'trumps'"):
        rules(trumps=True)
    with pytest.raises(RulesError, match="true or false"):
        rules(overtricks="yes")
    for bad in (0, -1, float("nan"), float("inf"), True, "2"):
        with pytest.raises(RulesError):
            rules(stake_multiplier=bad)


def test_revoke_penalty_is_one_of_the_seeds_two_house_rules():
    assert rules(revoke_penalty="three_tricks").overrides() == {"revoke_penalty": "three_tricks"}
    for bad in ("lose_hand", "", 3, None):
        with pytest.raises(RulesError, match="revoke_penalty"):
            rules(revoke_penalty=bad)


def test_the_prop_rules_say_they_do_nothing_without_prop_and_cop():
    help_of = {d["name"]: d["help"] for d in solo.Rules.describe()}
    for name in ("eldest_may_cop_after_pass", "prop_alone_may_solo"):
        assert "no effect without Prop and Cop" in help_of[name]
    # Moot, not contradictory: a house may keep them set while it plays without Prop and Cop.
    assert rules(prop_and_cop=False, prop_alone_may_solo=True).overrides() == {
        "prop_and_cop": False, "prop_alone_may_solo": True}


def test_the_engine_has_four_seats():
    assert solo.SEATS == 4


def test_stake_multiplier_accepts_whole_numbers_and_decimals():
    assert rules(stake_multiplier=5).stake_multiplier == 5
    assert rules(stake_multiplier=0.1).overrides() == {"stake_multiplier": 0.1}
    assert rules().overrides() == {}


# -- the deal ------------------------------------------------------------------------------------


def test_deal_gives_thirteen_distinct_cards_to_each_seat_and_repeats_with_a_seed():
    first = solo.deal(rules(), 2, random.Random(7))
    assert [len(h) for h in first.hands] == [13, 13, 13, 13]
    assert sorted(c for h in first.hands for c in h) == sorted(STANDARD_DECK)
    assert first.kitty is None
    assert solo.deal(rules(), 2, random.Random(7)).hands == first.hands


def test_the_turn_up_is_the_dealers_last_card_and_sets_trumps_for_solo():
    hand = hand_of(SUIT_HANDS, dealer=3)
    assert hand.turn_up == "2C"
    play(hand, "pass", "pass", "pass", "solo")
    assert hand.trump == "C"


def test_new_hand_keeps_the_cards_in_the_order_dealt():
    shuffled = [list(reversed(h)) for h in SUIT_HANDS]
    hand = play(hand_of(shuffled, dealer=0), "pass", "pass", "pass", "pass")
    assert hand.view(0)["deal"] == shuffled


@pytest.mark.parametrize(("hands", "message"), [
    (SUIT_HANDS[:3], "4 hands of 13 cards"),
    ([SUIT_HANDS[0][:12], *SUIT_HANDS[1:]], "seat 0 has 12 cards"),
    ([SUIT_HANDS[0], SUIT_HANDS[1], SUIT_HANDS[2], ["AS", *SUIT_HANDS[3][1:]]], "AS is dealt twice"),
    ([[*SUIT_HANDS[0][:12], "3S"], *SUIT_HANDS[1:]], "3S is dealt twice"),  # and 2S missing
    ([SUIT_HANDS[0], SUIT_HANDS[1], SUIT_HANDS[2], ["1C", *SUIT_HANDS[3][1:]]], "'1C' is not a card"),
    ([SUIT_HANDS[0], SUIT_HANDS[1], SUIT_HANDS[2], ["BJ", *SUIT_HANDS[3][1:]]], "without jokers"),
    ([SUIT_HANDS[0], SUIT_HANDS[1], SUIT_HANDS[2], [None, *SUIT_HANDS[3][1:]]], "None is not a card"),
    ("not a deal", "4 hands of 13 cards"),
    ([*SUIT_HANDS[:3], [["AC"], *SUIT_HANDS[3][1:]]], "is not a card"),
])
def test_new_hand_refuses_a_bad_deal(hands, message):
    with pytest.raises(DealError, match=message):
        solo.new_hand(rules(), 0, hands)


def test_new_hand_refuses_a_bad_dealer_a_kitty_and_other_rules():
    for dealer in (4, -1, "0", True, None):
        with pytest.raises(DealError, match="dealer must be seat"):
            solo.new_hand(rules(), dealer, SUIT_HANDS)
    with pytest.raises(DealError, match="no kitty"):
        solo.new_hand(rules(), 0, SUIT_HANDS, ["AS"])
    with pytest.raises(RulesError):
        solo.new_hand({"turn_up": True}, 0, SUIT_HANDS)


# -- the auction ---------------------------------------------------------------------------------


def test_auction_starts_left_of_dealer():
    for dealer in range(4):
        hand = hand_of(dealer=dealer)
        assert (hand.phase, hand.to_act) == ("auction", (dealer + 1) % 4)


def test_all_four_passing_abandons_the_hand():
    hand = play(hand_of(), "pass", "pass", "pass", "pass")
    assert hand.complete and hand.to_act is None and hand.legal_actions() == []
    assert hand.result() == {"complete": True, "redeal": True, "reason": "all_passed",
                             "units": [0, 0, 0, 0]}


def test_a_bid_must_be_higher_than_the_highest_so_far():
    hand = play(hand_of(), "misere")
    assert hand.legal_actions() == ["abundance", "abundance_declared", "pass",
                                    "royal_abundance", "spread_misere"]
    assert "higher than misere" in refusal(hand, "solo").reason
    assert "higher than misere" in refusal(hand, "prop").reason


def test_a_player_who_passed_is_skipped_and_may_not_bid_again():
    hand = play(hand_of(dealer=0), "pass", "solo", "misere")  # seat 1 passed
    assert hand.to_act == 0
    play(hand, "abundance")
    assert hand.to_act == 2  # seat 1 skipped
    play(hand, "pass")
    assert hand.to_act == 3


def test_auction_ends_when_all_but_the_highest_bidder_have_passed():
    hand = play(hand_of(dealer=0), "solo", "pass", "pass", "pass")
    assert hand.phase == "play" and hand.contract.name == "solo" and hand.declarer == 1


def test_an_overcalled_bidder_may_bid_again():
    hand = play(hand_of(dealer=0), "solo", "misere", "pass", "pass")
    assert hand.to_act == 1 and "abundance" in hand.legal_actions()
    play(hand, "abundance", "pass")
    assert hand.phase == "declare" and hand.declarer == 1


def test_cop_accepts_a_standing_prop_and_forms_the_partnership():
    hand = play(hand_of(dealer=0), "prop", "pass", "cop", "pass")
    assert hand.contract.name == "prop_and_cop"
    assert (hand.declarer, hand.partner, hand.phase) == (1, 3, "play")


def test_cop_is_refused_without_a_prop_or_after_a_higher_bid():
    hand = hand_of(dealer=0)
    assert "cop" not in hand.legal_actions()
    assert refusal(hand, "cop").reason == "there is no prop to accept"
    play(hand, "prop", "solo")
    assert "overcalled by solo" in refusal(hand, "cop").reason


def test_a_prop_is_accepted_only_once():
    hand = play(hand_of(dealer=0), "prop", "cop")
    assert "cop" not in hand.legal_actions()
    assert refusal(hand, "cop").reason == "the prop has already been accepted"


def test_a_prop_nobody_accepts_abandons_the_hand():
    hand = play(hand_of(dealer=0), "prop", "pass", "pass", "pass")
    assert hand.result() == {"complete": True, "redeal": True, "reason": "prop_not_accepted",
                             "units": [0, 0, 0, 0]}


def test_eldest_may_cop_after_passing_while_a_prop_stands():
    hand = play(hand_of(dealer=0), "pass", "prop", "pass", "pass")
    assert (hand.phase, hand.to_act, hand.legal_actions()) == ("auction", 1, ["cop", "pass"])
    assert "may now only cop" in refusal(hand, "solo").reason
    play(hand, "cop")
    assert (hand.contract.name, hand.declarer, hand.partner) == ("prop_and_cop", 2, 1)


def test_eldest_declining_the_late_cop_abandons_the_hand():
    hand = play(hand_of(dealer=0), "pass", "prop", "pass", "pass", "pass")
    assert hand.result()["reason"] == "prop_not_accepted"


def test_eldest_may_not_cop_after_passing_when_the_house_rule_is_off():
    hand = play(hand_of(dealer=0, eldest_may_cop_after_pass=False), "pass", "prop", "pass", "pass")
    assert hand.result()["reason"] == "prop_not_accepted"


def test_only_eldest_may_cop_after_passing():
    hand = play(hand_of(dealer=0), "prop", "pass", "pass", "pass")  # eldest (1) is the proposer
    assert hand.complete
    hand = play(hand_of(dealer=0), "pass", "pass", "prop", "pass")  # seat 2 passed, then eldest
    assert hand.to_act == 1 and hand.legal_actions() == ["cop", "pass"]


def test_prop_alone_may_solo_asks_the_proposer_to_play_solo_or_pass():
    hand = play(hand_of(dealer=0, prop_alone_may_solo=True), "prop", "pass", "pass", "pass")
    assert (hand.phase, hand.to_act, hand.legal_actions()) == ("auction", 1, ["pass", "solo"])
    assert "may play solo or pass" in refusal(hand, "misere").reason
    play(hand, "solo")
    assert (hand.contract.name, hand.declarer, hand.partner, hand.phase) == ("solo", 1, None, "play")


def test_prop_alone_may_solo_proposer_passing_abandons_the_hand():
    hand = play(hand_of(dealer=0, prop_alone_may_solo=True), "prop", "pass", "pass", "pass", "pass")
    assert hand.result()["reason"] == "prop_not_accepted"


def test_eldest_late_cop_comes_before_the_proposers_solo_option():
    hand = play(hand_of(dealer=0, prop_alone_may_solo=True), "pass", "prop", "pass", "pass")
    assert hand.to_act == 1 and hand.legal_actions() == ["cop", "pass"]
    play(hand, "pass")
    assert hand.to_act == 2 and hand.legal_actions() == ["pass", "solo"]


def test_without_prop_and_cop_nobody_may_prop_or_cop():
    hand = hand_of(dealer=0, prop_and_cop=False)
    assert hand.legal_actions() == ["abundance", "abundance_declared", "misere", "pass",
                                    "royal_abundance", "solo", "spread_misere"]
    for action in ("prop", "cop"):
        reason = refusal(hand, action).reason
        assert reason == "this house plays without Prop and Cop: every contract is played alone"
    play(hand, "pass")
    assert "plays without Prop and Cop" in refusal(hand, "prop").reason


def test_without_prop_and_cop_the_lowest_bid_is_solo_and_all_passing_redeals():
    hand = play(hand_of(dealer=0, prop_and_cop=False), "pass", "solo", "pass", "pass")
    assert (hand.phase, hand.contract.name, hand.declarer, hand.partner) == (
        "play", "solo", 2, None)
    hand = play(hand_of(dealer=0, prop_and_cop=False, prop_alone_may_solo=True), "pass", "pass",
                "pass", "pass")
    assert hand.result()["reason"] == "all_passed"


def test_without_prop_and_cop_eldest_who_passed_is_never_asked_again():
    hand = play(hand_of(dealer=0, prop_and_cop=False), "pass", "solo", "pass")
    assert hand.to_act == 0
    play(hand, "pass")
    assert hand.phase == "play"  # eldest (seat 1) passed first and was not asked again


# -- trumps --------------------------------------------------------------------------------------


def test_abundance_trumps_are_named_and_may_not_be_the_turn_up_suit():
    hand = play(hand_of(SUIT_HANDS, dealer=3), "abundance", "pass", "pass", "pass")
    assert (hand.phase, hand.to_act) == ("declare", 0)
    assert hand.legal_actions() == ["trump D", "trump H", "trump S"]
    assert "royal abundance" in refusal(hand, "trump C").reason
    play(hand, "trump S")
    assert (hand.phase, hand.trump, hand.to_act) == ("play", "S", 0)


def test_royal_abundance_plays_with_the_turn_up_suit():
    hand = play(hand_of(SUIT_HANDS, dealer=3), "royal_abundance", "pass", "pass", "pass")
    assert (hand.phase, hand.trump) == ("play", "C")


def test_misere_and_spread_misere_play_without_trumps():
    for contract in ("misere", "spread_misere"):
        hand = play(hand_of(SUIT_HANDS, dealer=3), contract, "pass", "pass", "pass")
        assert (hand.phase, hand.trump) == ("play", None)


def test_abundance_declared_names_any_trump_and_the_declarer_leads():
    hand = play(hand_of(SUIT_HANDS, dealer=3), "pass", "abundance_declared", "pass", "pass")
    assert hand.legal_actions() == ["trump C", "trump D", "trump H", "trump S"]
    play(hand, "trump C")
    assert (hand.phase, hand.to_act) == ("play", 1)


def test_without_turn_up_the_declarer_names_trumps_in_solo_and_prop_and_cop():
    hand = play(hand_of(dealer=0, turn_up=False), "solo", "pass", "pass", "pass")
    assert (hand.phase, hand.to_act, len(hand.legal_actions())) == ("declare", 1, 4)
    hand = play(hand_of(dealer=0, turn_up=False), "prop", "cop", "pass", "pass")
    assert (hand.phase, hand.to_act) == ("declare", 1)  # the proposer names trumps
    assert hand.turn_up is None and hand.view(None)["turn_up"] is None


def test_without_turn_up_royal_abundance_is_not_offered_and_abundance_takes_any_suit():
    hand = hand_of(dealer=0, turn_up=False)
    assert "royal_abundance" not in hand.legal_actions()
    assert "without one" in refusal(hand, "royal_abundance").reason
    play(hand, "abundance", "pass", "pass", "pass")
    assert hand.legal_actions() == ["trump C", "trump D", "trump H", "trump S"]


# -- the play ------------------------------------------------------------------------------------


def test_eldest_leads_except_in_abundance_declared():
    hand = play(hand_of(dealer=2), "pass", "solo", "pass", "pass")
    assert hand.to_act == 3


def test_players_must_follow_suit():
    hand = play(hand_of(dealer=0, seed=3), "solo", "pass", "pass", "pass")
    lead = hand.legal_actions()[0]
    hand.apply(lead)
    suit = lead[-1]
    legal = hand.legal_actions()
    cards = hand.view(2)["hand"]
    if any(c[1] == suit for c in cards):
        assert all(a[-1] == suit for a in legal)
        off = next(c for c in cards if c[1] != suit)
        assert "must follow" in refusal(hand, "play " + off).reason
    else:
        assert len(legal) == len(cards)


def test_a_player_void_in_the_led_suit_may_play_anything():
    hand = play(hand_of(SUIT_HANDS, dealer=3), "pass", "pass", "pass", "solo", "play AS")
    assert len(hand.legal_actions()) == 13


def test_a_player_may_only_play_a_card_they_hold():
    hand = play(hand_of(SUIT_HANDS, dealer=3), "pass", "pass", "pass", "solo")
    assert refusal(hand, "play AH").reason == "seat 0 does not hold AH"


def test_a_trump_beats_the_led_suit_and_the_winner_leads_next():
    hand = play(hand_of(SUIT_HANDS, dealer=3), "pass", "pass", "pass", "solo",
                "play AS", "play AH", "play AD", "play 2C")
    trick = hand.view(None)["tricks"][0]
    assert trick == {"leader": 0, "winner": 3, "cards": [
        {"seat": 0, "card": "AS"}, {"seat": 1, "card": "AH"}, {"seat": 2, "card": "AD"},
        {"seat": 3, "card": "2C"}]}
    assert hand.to_act == 3


def test_without_trumps_the_highest_card_of_the_led_suit_wins():
    deal = [["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2S"],
            ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D", "4D", "3D", "3S"],
            ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C", "4C", "3C", "AS"],
            ["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "2H", "2D", "2C"]]
    hand = play(hand_of(deal, dealer=3), "misere", "pass", "pass", "pass",
                "play 2S", "play 3S", "play AS", "play KS")
    assert hand.view(None)["tricks"][0]["winner"] == 2


def test_solo_stops_as_soon_as_five_tricks_are_won():
    hand = play(hand_of(SUIT_HANDS, dealer=3), "pass", "pass", "pass", "solo")
    play_lowest_cards(hand)
    assert hand.result() == {"complete": True, "contract": "solo", "declarer": 3,
                             "partner": None, "trump": "C", "tricks": [0, 0, 0, 5],
                             "made": True, "units": [-3, -3, -3, 9]}


def test_play_stops_as_soon_as_the_goal_is_out_of_reach():
    # Seat 3 (all clubs) names diamonds: seat 2 (all diamonds) ruffs and wins every trick, and
    # the abundance fails once five tricks are lost.
    hand = play(hand_of(SUIT_HANDS, dealer=3), "pass", "pass", "pass", "abundance", "trump D")
    play_lowest_cards(hand)
    result = hand.result()
    assert (result["made"], result["tricks"], result["units"]) == (
        False, [0, 0, 5, 0], [5, 5, 5, -15])


def test_misere_stops_when_the_declarer_takes_a_trick():
    hand = play(hand_of(SUIT_HANDS, dealer=3), "misere", "pass", "pass", "pass")
    play_lowest_cards(hand)  # seat 0 leads spades, nobody follows: seat 0 wins trick 1
    assert hand.result()["tricks"] == [1, 0, 0, 0]
    assert hand.result()["units"] == [-9, 3, 3, 3]


def test_misere_made_plays_all_thirteen_tricks():
    deal = [["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2S"],
            ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D", "4D", "3D", "3S"],
            ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C", "4C", "3C", "AS"],
            ["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "2H", "2D", "2C"]]
    hand = play(hand_of(deal, dealer=3), "misere", "pass", "pass", "pass", "play 2S", "play 3S",
                "play AS", "play KS")
    # seat 2 leads clubs, everyone else discards; seat 0 never wins while it can't lead
    play_lowest_cards(hand)
    result = hand.result()
    assert result["made"] and sum(result["tricks"]) == 13 and result["tricks"][0] == 0
    assert result["units"] == [9, -3, -3, -3]


def test_abundance_declared_fails_at_the_first_trick_lost():
    hand = play(hand_of(SUIT_HANDS, dealer=3), "abundance_declared", "pass", "pass", "pass",
                "trump H", "play AS", "play 2H", "play AD", "play AC")
    assert hand.complete and hand.result()["tricks"] == [0, 1, 0, 0]
    assert hand.result()["units"] == [-24, 8, 8, 8]


def test_overtricks_make_solo_play_all_thirteen_tricks():
    hand = play(hand_of(SUIT_HANDS, dealer=3, overtricks=True), "pass", "pass", "pass", "solo")
    play_lowest_cards(hand)
    result = hand.result()
    assert result["tricks"] == [0, 0, 0, 13]
    assert result["units"] == [-11, -11, -11, 33]  # 3 + 8 overtricks from each defender


def test_overtricks_leave_misere_stopping_when_certain():
    hand = play(hand_of(SUIT_HANDS, dealer=3, overtricks=True), "misere", "pass", "pass", "pass")
    play_lowest_cards(hand)
    assert hand.result()["tricks"] == [1, 0, 0, 0]


def test_prop_and_cop_failed_costs_each_partner_two():
    hand = play(hand_of(SUIT_HANDS, dealer=2), "pass", "prop", "pass", "pass", "cop")
    # eldest (3) cops seat 0's prop; trumps are diamonds (seat 2's 2D), held only by seat 2
    assert (hand.declarer, hand.partner, hand.trump) == (0, 3, "D")
    play_lowest_cards(hand)
    assert hand.result() == {"complete": True, "contract": "prop_and_cop", "declarer": 0,
                             "partner": 3, "trump": "D", "tricks": [0, 0, 6, 0], "made": False,
                             "units": [-2, 2, 2, -2]}


# -- scoring -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("contract", "stake"), [
    ("solo", 3), ("misere", 3), ("abundance", 5), ("royal_abundance", 5),
    ("spread_misere", 6), ("abundance_declared", 8),
])
def test_each_contract_pays_its_stake_from_each_defender(contract, stake):
    goal = solo.CONTRACTS[contract].goal
    made = solo.score_hand(rules(), contract, 1, None, [0, goal, 13 - goal, 0])
    assert made == [-stake, 3 * stake, -stake, -stake]
    fail_tricks = [0, 1, 12, 0] if goal == 0 else [0, goal - 1, 14 - goal, 0]
    assert solo.score_hand(rules(), contract, 1, None, fail_tricks) == [stake, -3 * stake,
                                                                        stake, stake]


def test_solo_made_pays_three_from_each_defender():
    # a lone declarer's +9 is three from each defender (docs/rules/solo_whist.md)
    assert solo.score_hand(rules(), "solo", 2, None, [3, 2, 5, 3]) == [-3, -3, 9, -3]
    assert solo.score_hand(rules(), "solo", 2, None, [4, 3, 4, 2]) == [3, 3, -9, 3]


def test_prop_and_cop_each_partner_settles_with_each_defender():
    assert solo.score_hand(rules(), "prop_and_cop", 0, 2, [4, 2, 4, 3]) == [2, -2, 2, -2]
    assert solo.score_hand(rules(), "prop_and_cop", 0, 2, [4, 3, 3, 3]) == [-2, 2, -2, 2]


def test_overtricks_add_one_unit_per_trick_over_or_under_the_goal():
    r = rules(overtricks=True)
    assert solo.score_hand(r, "solo", 0, None, [7, 2, 2, 2]) == [15, -5, -5, -5]
    assert solo.score_hand(r, "solo", 0, None, [3, 4, 3, 3]) == [-15, 5, 5, 5]
    assert solo.score_hand(r, "prop_and_cop", 0, 1, [5, 5, 2, 1]) == [6, 6, -6, -6]
    assert solo.score_hand(r, "abundance", 3, None, [1, 1, 1, 10]) == [-6, -6, -6, 18]
    assert solo.score_hand(r, "royal_abundance", 3, None, [1, 2, 2, 8]) == [6, 6, 6, -18]


def test_overtricks_do_not_apply_to_misere_or_abundance_declared():
    r = rules(overtricks=True)
    assert solo.score_hand(r, "misere", 0, None, [3, 4, 3, 3]) == [-9, 3, 3, 3]
    assert solo.score_hand(r, "spread_misere", 0, None, [0, 4, 6, 3]) == [18, -6, -6, -6]
    assert solo.score_hand(r, "abundance_declared", 0, None, [11, 1, 1, 0]) == [-24, 8, 8, 8]


def test_stake_multiplier_scales_units_and_keeps_them_whole_when_possible():
    assert solo.score_hand(rules(stake_multiplier=5), "solo", 0, None, [5, 3, 3, 2]) == [
        45, -15, -15, -15]
    assert solo.score_hand(rules(stake_multiplier=2.0), "solo", 0, None, [5, 3, 3, 2]) == [
        18, -6, -6, -6]
    units = solo.score_hand(rules(stake_multiplier=0.1), "solo", 0, None, [5, 3, 3, 2])
    assert units == [0.9, -0.3, -0.3, -0.3]
    units = solo.score_hand(rules(stake_multiplier=0.5), "prop_and_cop", 0, 1, [5, 3, 3, 2])
    assert units == [1, 1, -1, -1]


def test_score_of_an_abandoned_hand_is_zero():
    assert solo.score_hand(rules(), None) == [0, 0, 0, 0]


@pytest.mark.parametrize(("args", "message"), [
    (("slam", 0, None, [13, 0, 0, 0]), "unknown contract"),
    (("solo", 4, None, [5, 3, 3, 2]), "declarer must be seat"),
    (("solo", 0, 1, [5, 3, 3, 2]), "only prop and cop has a partner"),
    (("prop_and_cop", 0, None, [5, 3, 3, 2]), "needs a partner"),
    (("prop_and_cop", 0, 0, [5, 3, 3, 2]), "needs a partner"),
    (("solo", 0, None, [5, 3, 3]), "tricks must be 4 whole numbers"),
    (("solo", 0, None, [5, 5, 3, 2]), "at most 13"),
    (("solo", 0, None, [5, -1, 3, 2]), "tricks must be"),
])
def test_score_hand_refuses_impossible_facts(args, message):
    with pytest.raises(WhistError, match=message):
        solo.score_hand(rules(), *args)


def test_score_hand_refuses_royal_abundance_without_turn_up():
    with pytest.raises(WhistError, match="without a turn-up"):
        solo.score_hand(rules(turn_up=False), "royal_abundance", 0, None, [9, 2, 1, 1])


def test_score_hand_refuses_prop_and_cop_where_the_house_plays_without_it():
    with pytest.raises(WhistError, match="plays without Prop and Cop"):
        solo.score_hand(rules(prop_and_cop=False), "prop_and_cop", 0, 2, [4, 1, 4, 1])
    assert solo.score_hand(rules(prop_and_cop=False), "solo", 0, None, [5, 3, 3, 2]) == [
        9, -3, -3, -3]


# -- revokes (paper entry; online play cannot revoke) ---------------------------------------------

LOSE, THREE = {}, {"revoke_penalty": "three_tricks"}


@pytest.mark.parametrize(("house", "contract", "declarer", "partner", "tricks", "revoker",
                          "units"), [
    # lose_deal: the revoking side loses; a result already against it stands
    (LOSE, "solo", 0, None, [6, 3, 2, 2], 0, [-9, 3, 3, 3]),
    (LOSE, "solo", 0, None, [4, 3, 3, 3], 0, [-9, 3, 3, 3]),
    (LOSE, "solo", 0, None, [4, 3, 3, 3], 2, [9, -3, -3, -3]),
    (LOSE, "solo", 0, None, [6, 3, 2, 2], 1, [9, -3, -3, -3]),
    (LOSE, "misere", 1, None, [4, 0, 5, 4], 1, [3, -9, 3, 3]),
    (LOSE, "misere", 1, None, [3, 1, 0, 0], 3, [-3, 9, -3, -3]),
    (LOSE, "spread_misere", 1, None, [3, 2, 0, 0], 0, [-6, 18, -6, -6]),
    (LOSE, "abundance", 3, None, [1, 1, 2, 9], 3, [5, 5, 5, -15]),
    (LOSE, "abundance", 3, None, [2, 1, 2, 8], 0, [-5, -5, -5, 15]),
    (LOSE, "abundance_declared", 3, None, [1, 0, 0, 12], 2, [-8, -8, -8, 24]),
    (LOSE, "prop_and_cop", 0, 2, [4, 2, 4, 3], 2, [-2, 2, -2, 2]),  # the Cop revoked
    (LOSE, "prop_and_cop", 0, 2, [4, 3, 3, 3], 1, [2, -2, 2, -2]),
    (LOSE, "prop_and_cop", 0, 2, [4, 3, 3, 3], 0, [-2, 2, -2, 2]),
    # three_tricks: three tricks count against the revoking side
    (THREE, "solo", 0, None, [8, 2, 2, 1], 0, [9, -3, -3, -3]),  # 8 - 3 = 5: still made
    (THREE, "solo", 0, None, [7, 2, 2, 2], 0, [-9, 3, 3, 3]),  # 4: failed
    (THREE, "solo", 0, None, [2, 5, 3, 3], 3, [9, -3, -3, -3]),  # 2 + 3 = 5: made
    (THREE, "solo", 0, None, [1, 6, 3, 3], 3, [-9, 3, 3, 3]),  # 4: failed
    (THREE, "solo", 0, None, [2, 9, 0, 0], 1, [9, -3, -3, -3]),  # stopped early: 2 + 3
    (THREE, "misere", 1, None, [5, 0, 4, 4], 1, [3, -9, 3, 3]),  # given 3 tricks: failed
    (THREE, "misere", 1, None, [4, 3, 3, 3], 2, [-3, 9, -3, -3]),  # 3 taken away: made
    (THREE, "misere", 1, None, [4, 4, 3, 2], 2, [3, -9, 3, 3]),  # 1 left: failed
    (THREE, "misere", 1, None, [3, 1, 0, 0], 2, [-3, 9, -3, -3]),  # only 1 to take away
    (THREE, "spread_misere", 1, None, [0, 1, 0, 3], 0, [-6, 18, -6, -6]),
    (THREE, "abundance", 3, None, [2, 1, 2, 8], 0, [-5, -5, -5, 15]),  # 11: made
    (THREE, "abundance", 3, None, [1, 1, 0, 11], 3, [5, 5, 5, -15]),  # 8: failed
    (THREE, "abundance_declared", 3, None, [1, 0, 0, 12], 2, [-8, -8, -8, 24]),  # only 1 to move
    (THREE, "prop_and_cop", 0, 2, [4, 2, 4, 3], 2, [-2, 2, -2, 2]),  # 8 - 3 = 5
    (THREE, "prop_and_cop", 0, 2, [3, 4, 3, 3], 3, [2, -2, 2, -2]),  # 6 + 3 = 9
])
def test_a_revoke_costs_the_revoking_side(house, contract, declarer, partner, tricks, revoker,
                                          units):
    assert solo.score_hand(rules(**house), contract, declarer, partner, tricks,
                           revoker) == units


def test_lose_deal_turns_a_result_round_at_the_bare_stake():
    r = rules(overtricks=True)
    # made with 2 overtricks, but the declarer revoked: lost, without undertricks
    assert solo.score_hand(r, "solo", 0, None, [7, 2, 2, 2], 0) == [-9, 3, 3, 3]
    # failed by 2, and the declarer revoked too: the revoke cannot make it cheaper
    assert solo.score_hand(r, "solo", 0, None, [3, 4, 3, 3], 0) == [-15, 5, 5, 5]
    # failed by 2 and a defender revoked: made, without overtricks
    assert solo.score_hand(r, "solo", 0, None, [3, 4, 3, 3], 1) == [9, -3, -3, -3]
    assert solo.score_hand(r, "prop_and_cop", 0, 1, [5, 5, 2, 1], 2) == [6, 6, -6, -6]


def test_three_tricks_moves_at_most_the_tricks_there_are():
    r = rules(overtricks=True, revoke_penalty="three_tricks")
    # the soloist revoked with 2 tricks: both move, and the solo fails by 5
    assert solo.score_hand(r, "solo", 0, None, [2, 4, 4, 3], 0) == [-24, 8, 8, 8]
    # over/undertricks count on the tricks after the move: 10 + 3 = 13, four over
    assert solo.score_hand(r, "abundance", 3, None, [1, 1, 1, 10], 1) == [-9, -9, -9, 27]
    assert solo.score_hand(r, "abundance", 3, None, [0, 0, 1, 12], 1) == [-9, -9, -9, 27]


def test_a_revoke_keeps_decimal_stakes_zero_sum():
    r = rules(stake_multiplier=0.1, revoke_penalty="three_tricks")
    assert solo.score_hand(r, "prop_and_cop", 0, 2, [4, 2, 4, 3], 1) == [0.2, -0.2, 0.2, -0.2]


@pytest.mark.parametrize(("args", "message"), [
    (("solo", 0, None, [5, 3, 3, 2], 4), "the revoke is by seat 0, 1, 2 or 3, not 4"),
    (("solo", 0, None, [5, 3, 3, 2], "1"), "the revoke is by seat"),
    (("solo", 0, None, [5, 3, 3, 2], True), "the revoke is by seat"),
    ((None, None, None, (0, 0, 0, 0), 1), "nobody can revoke"),
])
def test_score_hand_refuses_an_impossible_revoke(args, message):
    with pytest.raises(WhistError, match=message):
        solo.score_hand(rules(), *args)


# -- refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("action", "message"), [
    ("plya AS", "unknown action"),
    ("solo please", "unknown action"),
    ("play ZZ", "'ZZ' is not a card"),
    ("play BJ", "without jokers"),
    ("trump X", "name trumps as"),
    (None, "an action is a text"),
    (["pass"], "an action is a text"),
])
def test_malformed_actions_are_refused_with_a_reason(action, message):
    for hand in (hand_of(), play(hand_of(SUIT_HANDS, dealer=3), "pass", "pass", "pass", "solo")):
        assert message in refusal(hand, action).reason


def test_actions_in_the_wrong_phase_are_refused():
    hand = hand_of()
    assert "auction is not over" in refusal(hand, "play " + hand.view(1)["hand"][0]).reason
    assert "auction is not over" in refusal(hand, "trump S").reason
    play(hand, "abundance", "pass", "pass", "pass")
    assert "must now name trumps" in refusal(hand, "pass").reason
    play(hand, hand.legal_actions()[0])
    assert "must play a card" in refusal(hand, "pass").reason
    assert "must play a card" in refusal(hand, "trump S").reason


def test_actions_out_of_turn_are_refused():
    hand = hand_of(dealer=0)
    assert "it is seat 1's turn, not seat 2's" in refusal(hand, "pass", seat=2).reason
    play(hand, "solo", "pass", "pass", "pass")
    card = hand.view(2)["hand"][0]
    assert "not seat 2's" in refusal(hand, "play " + card, seat=2).reason
    hand.apply(hand.legal_actions()[0], seat=1)
    assert hand.to_act == 2


def test_actions_after_the_end_are_refused():
    hand = play(hand_of(), "pass", "pass", "pass", "pass")
    assert refusal(hand, "pass").reason == "the hand is over; no more actions are taken"
    assert "unknown action" in refusal(hand, "hello").reason


def test_refusal_carries_a_translatable_template_and_the_seat():
    error = refusal(play(hand_of(), "misere"), "solo")
    assert error.template.startswith("a bid must be higher than %(highest)s")
    assert error.seat == 2 and error.params["highest"] == "misere"
    assert str(error).startswith("seat 2, 'solo': ")


# -- views ---------------------------------------------------------------------------------------


def test_view_has_the_common_keys_and_only_the_own_hand():
    hand = hand_of(dealer=0, seed=4)
    view = hand.view(2)
    for key in ("game", "seat", "dealer", "phase", "to_act", "hand", "hand_sizes", "auction",
                "contract", "trump", "leader", "trick", "tricks", "tricks_won"):
        assert key in view
    assert view["hand"] == sort_for_display(hand.dealt_hands[2])
    assert "legal" not in view and "legal" in hand.view(1)
    assert "hand" not in hand.view(None)


def test_turn_up_stays_public_until_the_dealer_plays_to_the_first_trick():
    hand = play(hand_of(dealer=0, seed=9), "solo", "pass", "pass", "pass")
    turn_up = hand.turn_up
    for _ in range(3):
        assert hand.view(2)["turn_up"] == turn_up
        hand.apply(hand.legal_actions()[0])
    assert hand.to_act == 0 and hand.view(None)["turn_up"] == turn_up
    hand.apply(next(a for a in hand.legal_actions() if a != "play " + turn_up))
    view = hand.view(1)
    assert view["turn_up"] is None and turn_up not in json.dumps(view)
    assert turn_up in hand.view(0)["hand"]
    assert view["turn_up_suit"] == turn_up[1]


def test_spread_misere_hand_is_shown_to_everyone_once_trick_one_is_complete():
    deal = [["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2S"],
            ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D", "4D", "3D", "3S"],
            ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C", "4C", "3C", "AS"],
            ["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "2H", "2D", "2C"]]
    hand = play(hand_of(deal, dealer=3), "spread_misere", "pass", "pass", "pass",
                "play 2S", "play 3S", "play AS")
    assert hand.view(1)["exposed"] is None and "KH" not in json.dumps(hand.view(1))
    hand.apply("play KS")
    exposed = hand.view(1)["exposed"]
    assert exposed == {"seat": 0, "cards": sort_for_display(deal[0][:12])}
    assert hand.view(None)["exposed"] == exposed


def test_complete_view_reveals_the_deal_and_the_result():
    hand = play(hand_of(SUIT_HANDS, dealer=3), "pass", "pass", "pass", "solo")
    play_lowest_cards(hand)
    view = hand.view(None)
    assert view["deal"] == SUIT_HANDS and view["result"] == hand.result()
    json.dumps(view)


def test_incomplete_result_lists_the_legal_actions():
    hand = play(hand_of(dealer=0), "prop")
    assert hand.result() == {"complete": False, "phase": "auction", "to_act": 2,
                             "legal": hand.legal_actions()}


def test_view_refuses_a_bad_seat():
    with pytest.raises(WhistError):
        hand_of().view(4)


def test_copy_is_independent():
    hand = play(hand_of(dealer=0), "solo", "pass", "pass", "pass")
    twin = hand.copy()
    play_lowest_cards(twin)
    assert hand.phase == "play" and hand.history == [(1, "solo"), (2, "pass"), (3, "pass"),
                                                     (0, "pass")]
    play_lowest_cards(hand)
    assert hand.result() == twin.result() and hand.view(0) == twin.view(0)


def test_a_hand_record_replays_to_the_same_result():
    from games.rules import records

    hand = play(hand_of(dealer=1, seed=11), "pass", "pass", "solo", "pass")
    play_lowest_cards(hand)
    record = json.loads(json.dumps(records.record_of(hand)))
    assert record["game"] == "solo_whist" and "kitty" not in record
    assert records.replay_document(record) == hand.result()


# -- sessions ------------------------------------------------------------------------------------


def finished_hand(dealer: int, *auction: str, r: solo.Rules | None = None) -> solo.SoloHand:
    hand = solo.new_hand(r or rules(), dealer, SUIT_HANDS)
    play(hand, *auction)
    play_lowest_cards(hand)
    return hand


def test_session_dealer_rotates_clockwise_also_after_a_redeal():
    session = solo.Session(rules(), first_dealer=2)
    assert session.next_dealer == 2
    session.add_hand(finished_hand(2, "pass", "pass", "pass", "pass"))
    assert session.next_dealer == 3
    session.add_hand(finished_hand(3, "pass", "pass", "pass", "solo"))
    assert session.next_dealer == 0
    assert session.summary() == {"balances": [-3, -3, -3, 9], "complete": False, "hands": 2,
                                 "leader": [3]}


def test_session_refuses_unfinished_hands_wrong_dealers_and_other_rules():
    session = solo.Session(rules())
    with pytest.raises(WhistError, match="not finished"):
        session.add_hand(solo.new_hand(rules(), 0, SUIT_HANDS))
    with pytest.raises(WhistError, match="seat 1 dealt this hand, but seat 0 is to deal"):
        session.add_hand(finished_hand(1, "pass", "pass", "pass", "pass"))
    with pytest.raises(WhistError, match="other house rules"):
        session.add_hand(finished_hand(0, "pass", "pass", "pass", "pass", r=rules(overtricks=True)))
    assert session.summary()["hands"] == 0


def test_session_ends_after_the_agreed_number_of_deals_counting_redeals():
    session = solo.Session(rules(), deals=2)
    session.add_hand(finished_hand(0, "pass", "pass", "pass", "pass"))
    session.add_hand(finished_hand(1, "pass", "pass", "pass", "pass"))
    assert session.complete
    with pytest.raises(WhistError, match="session is over"):
        session.add_hand(finished_hand(2, "pass", "pass", "pass", "pass"))


def test_session_ends_when_a_player_reaches_the_target_balance():
    session = solo.Session(rules(), first_dealer=3, target_balance=9)
    session.add_hand(finished_hand(3, "pass", "pass", "pass", "solo"))
    assert session.summary() == {"balances": [-3, -3, -3, 9], "complete": True, "hands": 1,
                                 "leader": [3]}


def test_session_leader_lists_every_seat_tied_on_the_highest_balance():
    session = solo.Session(rules(stake_multiplier=0.1))
    assert session.summary()["leader"] == [0, 1, 2, 3]
    # seat 3 bids solo in spades, the suit seat 0 holds entirely: seat 3 loses nine tricks
    session.add_hand(finished_hand(0, "pass", "pass", "solo", "pass", r=session.rules))
    assert session.summary() == {"balances": [0.3, 0.3, 0.3, -0.9], "complete": False,
                                 "hands": 1, "leader": [0, 1, 2]}


def test_session_balances_stay_exact_with_a_decimal_multiplier():
    session = solo.Session(rules(stake_multiplier=0.1))
    for _ in range(10):
        for dealer in range(4):  # eldest bids solo each time
            session.add_hand(finished_hand(dealer, "solo", "pass", "pass", "pass", r=session.rules))
    balances = session.summary()["balances"]
    assert all(round(b, 1) == b for b in balances)  # no float drift over 40 hands
    assert sum(balances) == pytest.approx(0, abs=1e-12)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"first_dealer": 4}, "first dealer"),
    ({"deals": 0}, "number of deals"),
    ({"target_balance": -5}, "target balance"),
])
def test_session_refuses_bad_settings(kwargs, message):
    with pytest.raises(WhistError, match=message):
        solo.Session(rules(), **kwargs)
