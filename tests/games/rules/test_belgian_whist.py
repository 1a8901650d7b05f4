"""Belgian Whist (docs/rules/belgian_whist.md): the free whist rules' worked auctions, play and
scoring.

Seats as in those rules' examples: dealer = West (3), so North (0) speaks first, then East (1),
South (2), West (3).
"""

from __future__ import annotations

import json
import random

import pytest

from games.rules import belgian_whist as bw
from games.rules.cards import RANKS, SUITS
from games.rules.errors import DealError, IllegalAction, RulesError, WhistError

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
DEALER = WEST
RULES = bw.Rules()


def spread_deal() -> list[list[str]]:
    """Each seat holds one ace and at least three cards of every suit (no trou)."""
    return [[rank + SUITS[(i + seat) % 4] for i, rank in enumerate(RANKS)] for seat in range(4)]


def give(hands: list[list[str]], card: str, seat: int) -> list[list[str]]:
    """Moves ``card`` to ``seat``, giving back that seat's lowest card not of the same rank."""
    hands = [list(h) for h in hands]
    owner = next(s for s in range(4) if card in hands[s])
    if owner == seat:
        return hands
    back = next(c for c in reversed(hands[seat]) if c[0] not in "AK")
    hands[owner][hands[owner].index(card)] = back
    hands[seat][hands[seat].index(back)] = card
    return hands


def start(hands=None, dealer=DEALER, rules=RULES) -> bw.BelgianHand:
    return bw.new_hand(rules, dealer, hands or spread_deal(), None)


def run(state: bw.BelgianHand, *steps: tuple[int, str]) -> bw.BelgianHand:
    for seat, action in steps:
        assert state.to_act == seat, (state.to_act, seat, action, state.legal_actions())
        state.apply(action, seat)
    return state


def no_trou(state):
    return run(state, *[((DEALER + 1 + i) % 4, "passe_trou") for i in range(4)])


def play_out(state: bw.BelgianHand, seed: int = 0) -> dict:
    rng = random.Random(seed)
    while not state.complete:
        state.apply(rng.choice(state.legal_actions()))
    return state.result()


# -- the worked auctions of the free whist rules -------------------------------------------------


def rules_example_simple_emballage(state):
    """North waits, East 8 clubs, South 8 diamonds, West emballe diamonds, North emballe clubs;
    North 9 clubs, West 9 diamonds, North 10 clubs, West passes, the floor returns to South."""
    return run(no_trou(state), (NORTH, "premier"), (EAST, "propose C"), (SOUTH, "propose D"),
               (WEST, "emballer D"), (NORTH, "emballer C"),
               (NORTH, "raise 9 C"), (WEST, "raise 9 D"), (NORTH, "raise 10 C"), (WEST, "pass"))


def test_simple_emballage_two_against_two_is_won_by_ten_clubs():
    state = rules_example_simple_emballage(start())
    assert state.to_act == SOUTH  # "La parole revient alors à Sud qui peut décider de partir en solo"
    legal = state.legal_actions()
    assert "solo 7 D" in legal and "solo 6 H" not in legal and "maintain" not in legal
    run(state, (SOUTH, "pass"))
    assert state.phase == "play"
    assert (state.contract, state.level, state.trump) == ("emballage", 10, "C")
    assert sorted(state.declarers) == [NORTH, EAST]
    assert state.to_act == NORTH  # left of the dealer leads


def test_the_lower_emballage_speaks_first_after_the_round():
    state = run(no_trou(start()), (NORTH, "premier"), (EAST, "propose C"), (SOUTH, "propose D"),
                (WEST, "emballer D"), (NORTH, "emballer C"))
    # "C'est à Nord de parler car trèfle est plus faible que carreau"
    assert state.to_act == NORTH
    assert state.legal_actions()[0] == "pass"
    assert "raise 9 C" in state.legal_actions() and "raise 8 H" not in state.legal_actions()


def test_emballage_that_turns_to_solo():
    state = rules_example_simple_emballage(start())
    assert "solo 6 D" not in state.legal_actions()  # must beat emballage 10: at least solo 7
    run(state, (SOUTH, "solo 7 D"))
    assert state.to_act == NORTH  # "Nord doit maintenant monter à 11 plis"
    assert state.legal_actions()[:5] == ["pass", "raise 11 C", "raise 11 D", "raise 11 H",
                                         "raise 11 S"]
    assert "raise 10 H" not in state.legal_actions()
    run(state, (NORTH, "pass"))
    assert state.to_act == EAST  # the floor returns to East, whose clubs lost their partner
    legal = state.legal_actions()
    assert "solo 8 C" in legal and "solo 7 C" not in legal  # clubs are lower than diamonds
    assert "solo 7 H" in legal  # a proposer may go solo in any suit
    run(state, (EAST, "pass"))
    assert (state.contract, state.level, state.trump, state.declarers) == ("solo", 7, "D", (SOUTH,))
    assert state.phase == "play" and state.to_act == NORTH


def test_trou_is_played_with_the_fourth_ace_who_names_trumps_and_leads():
    hands = give(give(spread_deal(), "AS", EAST), "AC", EAST)  # East: AS AH AC; South: AD
    state = start(hands)
    run(state, (NORTH, "passe_trou"))
    assert state.legal_actions() == ["trou"]
    run(state, (EAST, "trou"), (SOUTH, "pass"), (WEST, "pass"), (NORTH, "pass"), (EAST, "pass"))
    assert state.phase == "trump" and state.to_act == SOUTH
    assert state.contract == "trou" and state.declarers == (EAST, SOUTH)
    run(state, (SOUTH, "trump D"))
    assert state.phase == "play" and state.to_act == SOUTH and state.trump == "D"
    assert {"seat": SOUTH, "action": "trump D"} in state.view(NORTH)["auction"]


def test_a_trou_over_bid_by_grande_misere_is_led_from_the_dealers_left():
    hands = give(give(spread_deal(), "AH", NORTH), "AD", NORTH)  # North: AS AH AD
    state = start(hands)
    run(state, (NORTH, "trou"))
    legal = state.legal_actions()
    assert "grande_misere" in legal and "abondance 10 S" in legal
    assert "abondance 9 H" not in legal and "piccolo" not in legal and "solo 8 H" not in legal
    assert not any(a.startswith("propose") for a in legal) and "premier" not in legal
    run(state, (EAST, "pass"), (SOUTH, "pass"), (WEST, "grande_misere"), (NORTH, "pass"))
    assert state.contract == "grande_misere" and state.declarers == (WEST,)
    assert state.phase == "play" and state.to_act == NORTH


def test_solo_announced_directly_once_nobody_can_emballer():
    state = run(no_trou(start()), (NORTH, "propose D"), (EAST, "emballer D"), (SOUTH, "pass"))
    legal = state.legal_actions()
    assert "solo 6 S" in legal and not any(a.startswith("propose") for a in legal)
    run(state, (WEST, "solo 6 S"))
    assert state.to_act == EAST  # the emballeur speaks for the pair and must reach 10
    assert [a for a in state.legal_actions() if a != "pass"][0] == "raise 10 C"
    assert "raise 9 H" not in state.legal_actions()


def test_solo_cannot_be_announced_while_someone_can_still_emballer():
    state = run(no_trou(start()), (NORTH, "propose D"), (EAST, "emballer D"))
    assert not any(a.startswith("solo") for a in state.legal_actions())  # West has not spoken
    with pytest.raises(IllegalAction, match="nobody can still emballer you"):
        state.apply("solo 6 S")
    state = no_trou(start())
    with pytest.raises(IllegalAction, match="nobody can still emballer you"):
        state.apply("solo 8 H")


def test_maintain_then_nobody_emballes_and_everyone_passes():
    state = run(no_trou(start()), (NORTH, "propose D"), (EAST, "pass"), (SOUTH, "propose C"),
                (WEST, "pass"))
    assert state.to_act == NORTH and "maintain" in state.legal_actions()
    run(state, (NORTH, "maintain"))
    assert state.to_act == SOUTH
    legal = state.legal_actions()
    assert "emballer D" in legal and "solo 6 C" in legal and "pass" in legal
    assert "maintain" not in legal and not any(a.startswith("propose") for a in legal)
    run(state, (SOUTH, "pass"))
    assert state.complete and state.result() == {"complete": True, "redeal": True,
                                                 "points": [0, 0, 0, 0]}


def test_a_maintained_suit_can_still_be_emballed():
    state = run(no_trou(start()), (NORTH, "propose D"), (EAST, "pass"), (SOUTH, "propose C"),
                (WEST, "pass"), (NORTH, "maintain"), (SOUTH, "emballer D"))
    assert (state.contract, state.level, state.trump) == ("emballage", 8, "D")
    assert sorted(state.declarers) == [NORTH, SOUTH]


# -- more auction rules -------------------------------------------------------------------------


def test_four_aces_is_not_a_trou():
    hands = give(give(give(spread_deal(), "AH", NORTH), "AD", NORTH), "AC", NORTH)
    state = start(hands)
    assert state.legal_actions() == ["passe_trou"]
    with pytest.raises(IllegalAction, match="four is not a trou"):
        state.apply("trou")


def test_three_aces_must_announce_trou():
    hands = give(give(spread_deal(), "AH", NORTH), "AD", NORTH)
    state = start(hands)
    with pytest.raises(IllegalAction, match="must announce trou"):
        state.apply("passe_trou")


def test_premier_may_then_only_emballer_or_pass():
    state = run(no_trou(start()), (NORTH, "premier"), (EAST, "propose H"), (SOUTH, "pass"),
                (WEST, "pass"))
    assert state.legal_actions() == ["emballer H", "pass"]
    with pytest.raises(IllegalAction, match="only emballer"):
        state.apply("grande_misere")


def test_premier_is_only_for_the_first_call():
    state = run(no_trou(start()), (NORTH, "pass"))
    assert "premier" not in state.legal_actions()


def test_emballer_needs_a_card_of_the_suit():
    hands = spread_deal()
    # East gives every heart to North for North's lowest cards of other suits.
    for card in [c for c in hands[EAST] if c[1] == "H"]:
        back = next(c for c in reversed(hands[NORTH]) if c[1] != "H")
        hands[EAST][hands[EAST].index(card)] = back
        hands[NORTH][hands[NORTH].index(back)] = card
    state = run(no_trou(start(hands)), (NORTH, "propose H"))
    assert "emballer H" not in state.legal_actions()
    with pytest.raises(IllegalAction, match="at least one hearts card"):
        state.apply("emballer H")


def test_abondance_and_chelem_only_in_the_first_round():
    state = run(no_trou(start()), (NORTH, "propose S"), (EAST, "pass"), (SOUTH, "pass"),
                (WEST, "pass"))
    assert not any(a.startswith(("abondance", "petit_chelem")) for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="first round"):
        state.apply("abondance 9 S")


def test_abondance_declarer_leads():
    state = run(no_trou(start()), (NORTH, "pass"), (EAST, "abondance 9 H"), (SOUTH, "pass"),
                (WEST, "pass"))
    assert state.contract == "abondance" and state.to_act == EAST and state.trump == "H"


def test_chelem_without_trumps():
    state = run(no_trou(start()), (NORTH, "petit_chelem NT"), (EAST, "pass"), (SOUTH, "pass"),
                (WEST, "pass"))
    assert state.contract == "petit_chelem" and state.trump is None and state.to_act == NORTH


def test_no_proposal_once_a_misere_is_announced_but_a_solo_may_beat_petite_misere():
    state = run(no_trou(start()), (NORTH, "petite_misere"))
    legal = state.legal_actions()
    assert not any(a.startswith("propose") for a in legal)
    assert "solo 8 S" in legal and "solo 7 H" not in legal
    assert "petite_misere" in legal  # several players may play the same misère


def test_several_grande_miseres_are_played_and_settled_each_on_its_own():
    state = run(no_trou(start()), (NORTH, "grande_misere"), (EAST, "pass"),
                (SOUTH, "grande_misere"), (WEST, "pass"))
    assert state.contract == "grande_misere" and state.declarers == (NORTH, SOUTH)
    result = play_out(state, 3)
    assert len(result["contracts"]) == 2 and sum(result["points"]) == 0


def test_an_outbid_misere_player_must_join_the_higher_misere_or_pass():
    state = run(no_trou(start()), (NORTH, "petite_misere"), (EAST, "grande_misere"),
                (SOUTH, "pass"), (WEST, "pass"))
    assert state.to_act == NORTH
    legal = state.legal_actions()
    assert "grande_misere" in legal and "petite_misere" not in legal
    run(state, (NORTH, "grande_misere"))
    assert state.declarers == (NORTH, EAST)


def test_emballeur_may_change_suit_only_by_raising():
    state = run(no_trou(start()), (NORTH, "propose C"), (EAST, "emballer C"), (SOUTH, "pass"),
                (WEST, "solo 6 H"))
    legal = state.legal_actions()
    assert "raise 10 H" in legal and "raise 10 S" in legal and "raise 9 H" not in legal
    run(state, (EAST, "raise 10 H"), (WEST, "pass"))
    assert (state.contract, state.level, state.trump) == ("emballage", 10, "H")


def test_a_solo_raises_to_change_suit():
    state = run(no_trou(start()), (NORTH, "propose C"), (EAST, "emballer C"), (SOUTH, "pass"),
                (WEST, "solo 6 S"), (EAST, "raise 10 C"))
    legal = state.legal_actions()
    assert state.to_act == WEST and "solo 7 H" in legal and "solo 6 H" not in legal
    with pytest.raises(IllegalAction):
        state.apply("solo 6 H")


def test_all_pass_is_a_redeal_by_the_same_dealer():
    state = run(no_trou(start()), (NORTH, "pass"), (EAST, "pass"), (SOUTH, "pass"),
                (WEST, "pass"))
    assert state.complete and state.result()["redeal"] is True
    session = bw.Session(RULES, first_dealer=DEALER)
    session.add_hand(state)
    assert session.next_dealer == DEALER


# -- play ---------------------------------------------------------------------------------------


def test_petite_misere_discards_secretly_and_plays_twelve_tricks():
    state = run(no_trou(start()), (NORTH, "petite_misere"), (EAST, "pass"), (SOUTH, "pass"),
                (WEST, "pass"))
    assert state.phase == "discard" and state.to_act == NORTH
    discards = {}
    for seat in (NORTH, EAST, SOUTH, WEST):
        action = state.legal_actions()[0]
        discards[seat] = action.split()[1]
        state.apply(action)
    assert state.phase == "play" and state.to_act == NORTH
    for seat in range(4):
        view = json.dumps(state.view(seat))
        for other in range(4):
            assert (discards[other] in view) == (other == seat)
        assert state.view(seat)["discard"] == discards[seat]
        assert len(state.view(seat)["hand"]) == 12
    result = play_out(state)
    assert sum(result["tricks"]) <= 12


def test_misere_etalee_hand_is_laid_open_after_the_lead_of_the_second_trick():
    state = run(no_trou(start()), (NORTH, "pass"), (EAST, "misere_etalee"), (SOUTH, "pass"),
                (WEST, "pass"))
    assert state.to_act == NORTH
    for _ in range(4):
        assert state.view(SOUTH)["exposed"] == []
        state.apply(state.legal_actions()[0])
    assert not state.complete and state.tricks_won[EAST] == 0
    assert state.view(SOUTH)["exposed"] == []
    state.apply(state.legal_actions()[0])  # the lead of the second trick
    for seat in (None, NORTH, SOUTH, WEST):
        exposed = state.view(seat)["exposed"]
        assert exposed == [{"seat": EAST, "cards": state.view(EAST)["hand"]}]


def test_misere_stops_at_the_first_trick_taken():
    state = run(no_trou(start()), (NORTH, "grande_misere"), (EAST, "pass"), (SOUTH, "pass"),
                (WEST, "pass"))
    # North leads the ace of spades: the misère is lost at once.
    state.apply("play AS")
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    assert state.complete
    assert state.result()["points"] == [-36, 12, 12, 12]
    assert state.result()["tricks_played"] == 1


def test_must_follow_suit_and_hold_the_card():
    state = run(no_trou(start()), (NORTH, "grande_misere"), (EAST, "pass"), (SOUTH, "pass"),
                (WEST, "pass"))
    state.apply("play AS")
    before = state.view(EAST)
    with pytest.raises(IllegalAction, match="must follow spades"):
        state.apply("play AH" if "AH" in state.view(EAST)["hand"] else "play KH")
    with pytest.raises(IllegalAction, match="does not hold"):
        state.apply("play KS")
    with pytest.raises(IllegalAction, match="not a card"):
        state.apply("play ZZ")
    assert state.view(EAST) == before


def test_trick_won_by_the_highest_trump():
    state = run(no_trou(start()), (NORTH, "pass"), (EAST, "pass"), (SOUTH, "pass"),
                (WEST, "abondance 9 H"))
    assert state.to_act == WEST
    state.apply("play AC")  # West's ace
    rng = random.Random(1)
    while len(state.view(None)["tricks"]) == 0:
        state.apply(rng.choice(state.legal_actions()))
    trick = state.view(None)["tricks"][0]
    hearts = [c for c in trick["cards"] if c["card"][1] == "H"]
    if hearts:
        best = max(hearts, key=lambda c: "23456789TJQKA".index(c["card"][0]))
        assert trick["winner"] == best["seat"]
    else:
        assert trick["winner"] == WEST


# -- refusals -----------------------------------------------------------------------------------


@pytest.mark.parametrize("action", [None, 3, ["pass"], "", "bid 7", "play", "propose X"])
def test_bad_actions_are_refused_and_change_nothing(action):
    state = no_trou(start())
    before = (state.view(NORTH), list(state.history))
    with pytest.raises(IllegalAction):
        state.apply(action)
    assert (state.view(NORTH), list(state.history)) == before


def test_refusals_say_what_to_do():
    state = no_trou(start())
    with pytest.raises(IllegalAction, match="does not fit the auction phase"):
        state.apply("play AS")
    with pytest.raises(IllegalAction, match="not seat 1's") as caught:
        state.apply("pass", seat=EAST)
    assert caught.value.seat == EAST
    run(state, (NORTH, "propose H"), (EAST, "emballer H"), (SOUTH, "pass"), (WEST, "pass"))
    with pytest.raises(IllegalAction, match="does not fit the play phase"):
        state.apply("pass")
    while not state.complete:
        state.apply(state.legal_actions()[0])
    with pytest.raises(IllegalAction, match="complete"):
        state.apply("play AS")
    assert state.legal_actions() == []


def test_a_raise_that_does_not_beat_is_refused_with_the_highest_named():
    state = run(no_trou(start()), (NORTH, "premier"), (EAST, "propose C"), (SOUTH, "propose D"),
                (WEST, "emballer D"), (NORTH, "emballer C"))
    with pytest.raises(IllegalAction, match="raise must add tricks"):
        state.apply("raise 8 H")
    with pytest.raises(IllegalAction, match="only raise"):
        state.apply("solo 8 H")


# -- deal and rules validation ------------------------------------------------------------------


def test_deal_gives_thirteen_different_cards_each():
    d = bw.deal(RULES, 0, random.Random(5))
    assert [len(h) for h in d.hands] == [13] * 4 and len({c for h in d.hands for c in h}) == 52
    assert d.kitty is None
    assert bw.deal(RULES, 0, random.Random(5)).hands == d.hands


def test_new_hand_keeps_the_order_of_the_cards_as_dealt():
    d = bw.deal(RULES, 2, random.Random(9))
    state = bw.new_hand(RULES, 2, d.hands)
    assert state.dealt_hands == d.hands


@pytest.mark.parametrize("mutate, message", [
    (lambda h: h[:3], "four hands"),
    (lambda h: [h[0][:12], *h[1:]], "must hold 13 cards"),
    (lambda h: [[*h[0][:12], h[1][0]], *h[1:]], "dealt twice"),
    (lambda h: [[*h[0][:12], "ZZ"], *h[1:]], "is not a card"),
    (lambda h: [[*h[0][:12], "BJ"], *h[1:]], "without jokers"),
    (lambda h: [[*h[0][:12], 7], *h[1:]], "is not a card"),
])
def test_bad_deals_are_refused(mutate, message):
    with pytest.raises(DealError, match=message):
        bw.new_hand(RULES, 0, mutate(spread_deal()))


@pytest.mark.parametrize("dealer", [-1, 4, True, "0", None])
def test_bad_dealer_is_refused(dealer):
    with pytest.raises(DealError, match="dealer"):
        bw.new_hand(RULES, dealer, spread_deal())


def test_a_kitty_is_refused():
    with pytest.raises(DealError, match="no kitty"):
        bw.new_hand(RULES, 0, spread_deal(), ["AS"])


def test_points_table_accepts_partial_overrides_and_keeps_the_rest():
    rules = bw.Rules.from_overrides({"points_table": {"grande_misere": 15,
                                                      "solo": {"base": {6: 5}}}})
    assert rules.points_table["grande_misere"] == 15
    assert rules.points_table["solo"]["base"] == {"6": 5, "7": 5, "8": 7}
    assert rules.points_table["piccolo"] == 8
    assert rules.overrides() == {"points_table": rules.points_table}
    assert bw.Rules.from_overrides({}).overrides() == {}
    assert bw.Rules.from_overrides(json.loads(json.dumps(rules.overrides()))) == rules
    assert bw.score_hand(rules, "grande_misere", [0], [0, 5, 4, 4])["points"] == [45, -15, -15, -15]


@pytest.mark.parametrize("table, message", [
    ({"misere": 3}, "unknown entry misere"),
    ({"solo": {"base": {"9": 3}}}, "unknown entry solo.base.9"),
    ({"piccolo": "8"}, "expected a number"),
    ({"piccolo": True}, "expected a number"),
    ({"piccolo": -1}, "expected a number from 0 to 10000"),
    ({"piccolo": 10**5000}, "is a number too large to write out, expected a number from 0"),
    ({"piccolo": float("nan")}, "expected a number"),
    ({"solo": 4}, "expected an object"),
    ({"solo": {"extra_tricks_until": 14}}, "whole number from 6 to 13"),
    ([1, 2], "expected an object"),
])
def test_points_table_is_validated(table, message):
    with pytest.raises(RulesError, match=message):
        bw.Rules.from_overrides({"points_table": table})


def test_unknown_house_rule_is_refused():
    with pytest.raises(RulesError, match="unknown house rule"):
        bw.Rules.from_overrides({"trumps": "always"})


def test_rules_describe_the_points_table():
    (entry,) = bw.Rules.describe()
    assert entry["name"] == "points_table" and entry["default"] == bw.DEFAULT_POINTS_TABLE
    assert entry["help"]


# -- scoring: the worked checks of the points table -------------------------------------------


def test_solo_six_taking_seven():
    assert bw.score_hand(RULES, "solo", [1], [2, 7, 2, 2], level=6)["points"] == [-5, 15, -5, -5]


def test_emballage_twelve_taking_ten():
    scored = bw.score_hand(RULES, "emballage", [0, 2], [4, 0, 6, 3], level=12)
    assert scored["points"] == [-26, 26, -26, 26]
    assert scored["contracts"][0]["made"] is False


def test_abondance_nine_taking_eleven():
    assert bw.score_hand(RULES, "abondance", [3], [1, 1, 0, 11], level=9)["points"] == \
        [-20, -20, -20, 60]


def test_two_grande_miseres_one_made_one_failed():
    scored = bw.score_hand(RULES, "grande_misere", [0, 1], [0, 2, 5, 6])
    assert scored["points"] == [48, -48, 0, 0]
    assert [c["made"] for c in scored["contracts"]] == [True, False]


@pytest.mark.parametrize("contract, level, declarers, tricks, expected", [
    ("emballage", 8, [0, 2], [4, 1, 4, 2], [8, -8, 8, -8]),
    ("emballage", 9, [0, 2], [7, 0, 6, 0], [30, -30, 30, -30]),
    ("emballage", 13, [1, 3], [0, 6, 0, 6], [26, -26, 26, -26]),
    ("solo", 6, [0], [10, 1, 1, 1], [18, -6, -6, -6]),  # extra tricks counted up to 8
    ("solo", 8, [0], [5, 3, 3, 2], [-30, 10, 10, 10]),
    ("abondance", 10, [0], [9, 2, 1, 1], [-45, 15, 15, 15]),
    ("abondance", 9, [0], [13, 0, 0, 0], [60, -20, -20, -20]),
    ("petit_chelem", None, [2], [0, 0, 13, 0], [-30, -30, 90, -30]),
    ("grand_chelem", None, [2], [0, 1, 12, 0], [60, 60, -180, 60]),
    ("trou", None, [0, 1], [5, 4, 2, 2], [16, 16, -16, -16]),
    ("trou", None, [0, 1], [8, 5, 0, 0], [30, 30, -30, -30]),
    ("trou", None, [0, 1], [5, 3, 3, 2], [-16, -16, 16, 16]),
    ("piccolo", None, [3], [4, 4, 4, 1], [-8, -8, -8, 24]),
    ("petite_misere", None, [3], [4, 4, 4, 0], [-6, -6, -6, 18]),
    ("misere_etalee", None, [3], [4, 4, 4, 1], [24, 24, 24, -72]),
])
def test_points_table(contract, level, declarers, tricks, expected):
    scored = bw.score_hand(RULES, contract, declarers, tricks, level)
    assert scored["points"] == expected and sum(scored["points"]) == 0


@pytest.mark.parametrize("args, message", [
    (("solo", [0], [13, 0, 0, 0], None), "needs a level"),
    (("solo", [0], [13, 0, 0, 0], 9), "needs a level"),
    (("grande_misere", [0], [13, 0, 0, 0], 3), "has no level"),
    (("emballage", [0], [13, 0, 0, 0], 8), "two declarers"),
    (("solo", [0, 1], [13, 0, 0, 0], 6), "one declarer"),
    (("solo", [0, 0], [13, 0, 0, 0], 6), "different seats"),
    (("solo", [4], [13, 0, 0, 0], 6), "different seats"),
    (("solo", [0], [13, 1, 0, 0], 6), "only 13 tricks"),
    (("petite_misere", [0], [13, 0, 0, 0], None), "only 12 tricks"),
    (("solo", [0], [13, 0, 0], 6), "four whole numbers"),
    (("bridge", [0], [13, 0, 0, 0], None), "unknown contract"),
])
def test_score_hand_refuses_bad_facts(args, message):
    contract, declarers, tricks, level = args
    with pytest.raises(WhistError, match=message):
        bw.score_hand(RULES, contract, declarers, tricks, level)


def test_result_of_a_played_emballage():
    state = run(no_trou(start()), (NORTH, "propose H"), (EAST, "emballer H"), (SOUTH, "pass"),
                (WEST, "pass"))
    assert state.result()["complete"] is False and state.result()["phase"] == "play"
    result = play_out(state)
    assert result["contract"] == "emballage" and result["level"] == 8
    assert result["declarers"] == [NORTH, EAST] and sum(result["points"]) == 0
    assert result["tricks_played"] == 13  # every trick changes an emballage's points
    expected = bw.score_hand(RULES, "emballage", [0, 1], result["tricks"], 8)["points"]
    assert result["points"] == expected


# -- sessions -----------------------------------------------------------------------------------


def finished_hand(dealer, seed):
    rng = random.Random(seed)
    d = bw.deal(RULES, dealer, rng)
    state = bw.new_hand(RULES, dealer, d.hands)
    while not state.complete:
        state.apply(state.random_action(rng))
    return state


def test_session_rotates_the_deal_and_keeps_zero_sum_balances():
    session = bw.Session(RULES, first_dealer=2, deals=3)
    seed = 0
    while not session.complete:
        dealer = session.next_dealer
        hand = finished_hand(dealer, seed)
        seed += 1
        session.add_hand(hand)
        if not hand.result()["redeal"]:
            assert session.next_dealer == (dealer + 1) % 4
    summary = session.summary()
    assert summary["complete"] and summary["deals_played"] == 3 and sum(summary["balances"]) == 0
    best = max(summary["balances"])
    assert summary["leader"] == [s for s in range(4) if summary["balances"][s] == best]
    with pytest.raises(WhistError, match="over"):
        session.add_hand(finished_hand(session.next_dealer, 99))


def test_session_refuses_wrong_dealer_and_unfinished_hands():
    session = bw.Session(RULES)
    with pytest.raises(WhistError, match="seat 0 is to deal"):
        session.add_hand(finished_hand(1, 0))
    with pytest.raises(WhistError, match="not finished"):
        session.add_hand(start(dealer=0))
    with pytest.raises(WhistError):
        bw.Session(RULES, first_dealer=5)
    with pytest.raises(WhistError):
        bw.Session(RULES, deals=0)
    other = bw.Rules.from_overrides({"points_table": {"piccolo": 9}})
    with pytest.raises(WhistError, match="other house rules"):
        bw.Session(other).add_hand(finished_hand(0, 0))


# -- the engine contract ------------------------------------------------------------------------


def test_copy_is_independent():
    state = no_trou(start())
    twin = state.copy()
    twin.apply("pass")
    assert state.to_act == NORTH and len(state.history) == 4 and len(twin.history) == 5
    assert state.legal_actions() != twin.legal_actions()


def test_view_has_the_common_keys():
    state = no_trou(start())
    view = state.view(NORTH)
    for key in ("game", "seat", "dealer", "phase", "to_act", "hand", "hand_sizes", "auction",
                "contract", "trump", "leader", "trick", "tricks", "tricks_won", "legal"):
        assert key in view
    assert "hand" not in state.view(None) and "legal" not in state.view(EAST)
    json.dumps(view)
    play_out(state)
    view = state.view(None)
    assert view["result"] == state.result() and len(view["deal"]) == 4


def test_records_replay_through_the_shared_record_module():
    from games.rules import records

    record = records.random_record("belgian_whist", 11)
    state = records.replay_hand(record)
    assert state.result() == finished_again(record)


def finished_again(record):
    state = bw.new_hand(RULES, record["dealer"], record["hands"])
    for entry in record["actions"]:
        state.apply(entry["action"], entry["seat"])
    return state.result()


def test_a_waiting_proposer_may_emballer_a_higher_suit_and_drops_their_own():
    state = run(no_trou(start()), (NORTH, "propose C"), (EAST, "propose H"), (SOUTH, "pass"),
                (WEST, "pass"))
    assert state.to_act == NORTH and "emballer H" in state.legal_actions()
    run(state, (NORTH, "emballer H"))
    assert (state.contract, state.trump, sorted(state.declarers)) == ("emballage", "H", [0, 1])
    assert state.view(None)["auction"][-1] == {"seat": NORTH, "action": "emballer H"}


def test_a_lower_proposer_can_emballer_but_a_higher_one_cannot():
    state = run(no_trou(start()), (NORTH, "propose C"), (EAST, "propose S"), (SOUTH, "propose H"),
                (WEST, "pass"))
    assert "maintain" in state.legal_actions()  # East, waiting in spades, could emballer clubs
    run(state, (NORTH, "maintain"))
    assert {"emballer C", "emballer H"} <= set(state.legal_actions())
    assert "maintain" not in state.legal_actions()  # nobody waits below spades
    run(state, (EAST, "pass"))
    assert state.to_act == SOUTH and "emballer C" not in state.legal_actions()
    with pytest.raises(IllegalAction, match="higher than their own"):
        state.apply("emballer C")


def test_a_maintained_proposer_stays_silent_when_the_pair_falls_apart():
    state = run(no_trou(start()), (NORTH, "propose D"), (EAST, "pass"), (SOUTH, "propose C"),
                (WEST, "pass"), (NORTH, "maintain"), (SOUTH, "emballer D"))
    assert state.phase == "play"  # the pair holds the highest contract, nobody else left
    state = run(no_trou(start()), (NORTH, "propose D"), (EAST, "propose C"), (SOUTH, "pass"),
                (WEST, "pass"), (NORTH, "maintain"), (EAST, "emballer D"))
    assert state.phase == "play" and sorted(state.declarers) == [NORTH, EAST]


def test_emballeur_pass_gives_the_floor_back_to_the_proposer():
    state = run(no_trou(start()), (NORTH, "propose C"), (EAST, "emballer C"), (SOUTH, "pass"),
                (WEST, "solo 6 H"), (EAST, "pass"))
    assert state.to_act == NORTH
    legal = state.legal_actions()
    assert "solo 7 C" in legal and "solo 6 S" not in legal and "maintain" not in legal
    run(state, (NORTH, "pass"))
    assert (state.contract, state.declarers) == ("solo", (WEST,))


def test_a_raise_cannot_take_a_suit_someone_else_proposed():
    state = run(no_trou(start()), (NORTH, "premier"), (EAST, "propose C"), (SOUTH, "propose D"),
                (WEST, "emballer D"), (NORTH, "emballer C"))
    legal = state.legal_actions()
    assert "raise 9 D" not in legal and "raise 9 H" in legal and "raise 9 C" in legal


def test_no_proposal_after_a_misere_even_once_outbid():
    state = run(no_trou(start()), (NORTH, "pass"), (EAST, "petite_misere"), (SOUTH, "solo 8 H"))
    assert state.to_act == WEST
    assert not any(a.startswith("propose") for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="misère or piccolo"):
        state.apply("propose S")


def test_nothing_below_abondance_can_be_proposed():
    state = run(no_trou(start()), (NORTH, "abondance 9 S"))
    legal = state.legal_actions()
    assert not any(a.startswith(("propose", "solo", "premier")) for a in legal)
    assert "abondance 9 H" in legal and "abondance 9 S" not in legal


def test_trou_partner_view_before_trumps():
    hands = give(give(spread_deal(), "AS", EAST), "AC", EAST)
    state = run(start(hands), (NORTH, "passe_trou"), (EAST, "trou"), (SOUTH, "pass"),
                (WEST, "pass"), (NORTH, "pass"), (EAST, "pass"))
    view = state.view(SOUTH)
    assert view["legal"] == ["trump C", "trump D", "trump H", "trump S"]
    assert view["contract"]["declarers"] == [EAST, SOUTH] and view["contract"]["together"]
    assert view["hand_sizes"] == [13, 13, 13, 13]
