"""Each convention of the pages "How the computer players play" (games/computer_conventions.py)
held by a position: normal and strong keep every one (strong alone the ones the page says are
strong's), from three seeds each, without the thinking deadline.

A convention's positions are those of ``computer_positions.json`` the page's words come from
(by name), or a hand written here where the set has none: the seat to act holds ``hand``, the
other cards are dealt in order around it (a call reads the caller's own cards alone).
"""

from __future__ import annotations

import random

import pytest

from games.rules import bid_whist, records
from games.rules.cards import ALL_CARDS
from games.rules.computer import choose_action

from .conftest import POSITIONS

SEEDS = (0, 1, 2)
LEVELS = ("normal", "strong")


def dealt_around(game: str, hand: str, calls: list[str], dealer: int = 0,
                 turn_up: str | None = None) -> dict:
    """A hand record (docs/hand-records.md) stopping at the call of the seat after ``calls``,
    which holds ``hand``; in Solo Whist the dealer's last card is ``turn_up``."""
    cards = hand.split()
    seat = (dealer + 1 + len(calls)) % 4
    deck = [c for c in ALL_CARDS if game == "bid_whist" or c not in ("BJ", "LJ")]
    rest = [c for c in deck if c not in cards and c != turn_up]
    size = len(cards)
    hands = []
    for each in range(4):
        if each == seat:
            hands.append(cards)
            continue
        count = size - 1 if each == dealer and turn_up else size
        hands.append(rest[:count])
        rest = rest[count:]
    if turn_up:
        hands[dealer].append(turn_up)
    record = {"format": "whistclub-hand/1", "game": game, "rules": {}, "dealer": dealer,
              "hands": hands,
              "actions": [{"seat": (dealer + 1 + i) % 4, "action": call}
                          for i, call in enumerate(calls)]}
    if game == "bid_whist":
        record["kitty"] = rest
    return record


def named(name: str) -> tuple[dict, set[str]]:
    """A position of computer_positions.json: its record and the answers it accepts."""
    position = next(p for p in POSITIONS if p["name"] == name)
    if "keep" in position:
        return position["record"], {"keep: " + " ".join(position["keep"])}
    return position["record"], set(position["acceptable"])


def starting(prefix: str):
    """Accept every answer that starts with ``prefix`` ("bid 3 ", "bid 4 uptown")."""
    return {"prefix: " + prefix}


# The position of each convention: (record, accepted answers).  An answer set may hold
# "prefix: P" (any answer starting with P) or "keep: C C" (a discard keeping those cards).
# Seat 0 opened 4 uptown after seat 3's pass, seat 1 bid 5 uptown, named clubs and leads the
# big joker: seat 2 knows from its partner's opening 4 that seat 0 holds the little joker, so
# its ace of clubs is the trump that wins once the little joker is out.  It plays small and
# keeps the ace (without reading the 4, normal_v5 and strong_v6 threw the ace under the joker
# from two seeds of six and four of six).
UNDER_THE_BIG_JOKER = {
    "format": "whistclub-hand/1", "game": "bid_whist", "rules": {}, "dealer": 2,
    "hands": [["QH", "JD", "5S", "6H", "TS", "8S", "LJ", "AD", "5H", "3H", "6S", "5D"],
              ["KC", "9H", "QC", "TD", "7C", "7S", "7H", "9D", "2C", "8C", "TC", "2S"],
              ["AC", "KH", "3S", "AS", "5C", "KS", "7D", "TH", "4D", "QD", "6D", "3C"],
              ["8D", "2H", "KD", "4C", "3D", "QS", "9C", "AH", "2D", "JH", "8H", "JC"]],
    "kitty": ["6C", "4S", "4H", "BJ", "9S", "JS"],
    "actions": [{"seat": 3, "action": "pass"}, {"seat": 0, "action": "bid 4 uptown"},
                {"seat": 1, "action": "bid 5 uptown"}, {"seat": 2, "action": "pass"},
                {"seat": 1, "action": "discard 2S 4H 4S 7H 7S 9D"},
                {"seat": 1, "action": "trump C"}, {"seat": 1, "action": "play BJ"}]}
FIVE_TRUMPS_TWO_ACES = "AS KS QS 9S 5S AH 7H 4H 8D 3D 9C 8C"  # no joker: about six tricks
WITH_BIG_JOKER = "AS KS QS 9S 5S AH 7H 4H 8D 3D 9C BJ"  # the same, a joker for the 8C
WITH_LITTLE_JOKER = "AS KS QS 9S 5S AH 7H 4H 8D 3D 9C LJ"
LOW_SPADES = "2S 3S 4S 5S 6S 2H 3H AH QD TD 9C 8C"  # downtown, about six tricks, no joker
BIG_HAND = "BJ AS KS QS JS 7S AH KH QH 4D 5D 3C"
MODEST = "AS QS 8S 5S KH 9H 4H JD 8D 4D TC 3C"  # about three tricks
MODEST_WITH_JOKER = "AS QS 8S 5S KH 9H 4H JD 8D 4D TC BJ"  # a joker for the 3C
WEAK = "QS 7S 3S KH 9H 5H JD 8D 4D TC 9C 8C"  # three small trumps, no ace
NO_ACE_NO_JOKER = "KS QS JS 9S QH JH TH KD TD 8D QC 9C"  # about three tricks, no ace, no joker
POSITIONS_OF: dict[str, list[tuple[dict, set[str]]]] = {
    "bid_whist/opening_three": [
        (dealt_around("bid_whist", MODEST, []), starting("bid 3 ")),
        named("bid_whist/three_trumps_no_ace_pass"),
    ],
    "bid_whist/opening_four": [
        named("bid_whist/five_trumps_two_aces_bid_four"),
        (dealt_around("bid_whist", WITH_BIG_JOKER, []), starting("bid 4 ")),
    ],
    "bid_whist/four_says_joker": [
        # an opening with about six tricks and no joker: not 4 but 3 (the rule's hand, the
        # position set's too), after a pass as well
        named("bid_whist/five_trumps_two_aces_no_joker_bid_three"),
        (dealt_around("bid_whist", FIVE_TRUMPS_TWO_ACES, ["pass"]), starting("bid 3 uptown")),
        (dealt_around("bid_whist", LOW_SPADES, []), starting("bid 3 downtown")),
        # the same hand with either joker opens 4
        (dealt_around("bid_whist", WITH_LITTLE_JOKER, []), starting("bid 4 uptown")),
        # a 4 over a bid is no opening and promises nothing: over an opponent's 3 the jokerless
        # hand bids the 4 it is worth, over partner's 3 too
        (dealt_around("bid_whist", FIVE_TRUMPS_TWO_ACES, ["bid 3 uptown"]),
         starting("bid 4 uptown")),
        (dealt_around("bid_whist", FIVE_TRUMPS_TWO_ACES, ["pass", "bid 3 uptown"]),
         starting("bid 4 uptown")),
        (dealt_around("bid_whist", "AS KS QS 5S 4S AH 4H 9D 8D 4D 7C 3C",
                      ["bid 3 uptown", "pass"]), starting("bid 4 ")),
        # an opening 4 in no trump says nothing of the jokers (worthless there): a jokerless
        # hand that stops three suits opens it
        (dealt_around("bid_whist", "AS KS QS 5S AH KH QH 4H AD 4D 9C 8C", []),
         starting("bid 4 notrump") | starting("bid 5 notrump")),
        # read in partner's opening 4: partner holds the little joker, keep the ace of trumps
        (UNDER_THE_BIG_JOKER, {"play 3C", "play 5C"}),
    ],
    "bid_whist/opening_five": [
        (dealt_around("bid_whist", BIG_HAND, []), starting("bid 5 ") | starting("bid 6 ")),
    ],
    "bid_whist/dealer_bids_just_enough": [
        (dealt_around("bid_whist", BIG_HAND, ["pass", "pass", "pass"]), starting("bid 3 ")),
    ],
    "bid_whist/over_an_opponent": [
        # about three tricks, with a joker or without: it competes
        (dealt_around("bid_whist", MODEST_WITH_JOKER, ["bid 3 uptown"]), starting("bid ")),
        (dealt_around("bid_whist", MODEST, ["bid 3 uptown"]), starting("bid ")),
        (dealt_around("bid_whist", WEAK, ["bid 3 uptown"]), {"pass"}),
        # four trumps to the king and side queens, no ace and no joker: it passes (before the
        # rule texts' advice, normal_v7 and strong_v8 bid 4 over the 3)
        (dealt_around("bid_whist", NO_ACE_NO_JOKER, ["bid 3 uptown"]), {"pass"}),
    ],
    "bid_whist/over_partner": [
        # about three tricks and two suits stopped: partner's 3 stands
        (dealt_around("bid_whist", "AS QS 8S 5S KH QH 4H 9D 8D 4D 7C 3C",
                      ["bid 3 uptown", "pass"]), {"pass"}),
        # about six tricks, a joker among them: it takes over
        (dealt_around("bid_whist", "AS KS QS 5S 4S BJ 4H 9D 8D 4D 7C 3C",
                      ["bid 3 uptown", "pass"]), starting("bid 4 ")),
    ],
    "bid_whist/uptown_downtown_no_trump": [
        (dealt_around("bid_whist", WITH_BIG_JOKER, []), starting("bid 4 uptown")),
        (dealt_around("bid_whist", LOW_SPADES.replace("8C", "BJ"), []),
         starting("bid 4 downtown")),
        # an ace and low cards in three suits: all three stopped
        (dealt_around("bid_whist", "AS 2S 3S 5S 2H 3H 4H AD 2D 4D 9C 8C", []),
         starting("bid 3 notrump")),
    ],
    "bid_whist/an_ace_or_a_joker": [named("bid_whist/low_cards_without_an_ace_pass"),
                                    named("bid_whist/no_ace_no_joker_pass")],
    "bid_whist/notrump_two_aces": [named("bid_whist/no_notrump_with_one_ace")],
    "bid_whist/kitty_keeps_jokers_and_trumps": [named("bid_whist/discard_keeps_the_best_trumps"),
                                                named("bid_whist/discard_the_short_suits")],
    "bid_whist/declarer_draws_trumps": [named("bid_whist/declarer_draws_trumps")],
    "bid_whist/returns_partners_suit": [named("bid_whist/return_partners_suit")],
    "bid_whist/spares_partners_trumps": [named("bid_whist/spare_partners_trumps")],
    "bid_whist/no_ruff_of_partners_winner": [named("bid_whist/no_ruff_of_partners_winner"),
                                             named("bid_whist/do_not_overtake_partner")],
    "bid_whist/takes_the_trick_cheaply_last": [named("bid_whist/take_the_trick_last"),
                                               named("bid_whist/ruff_low_when_last")],
    "solo_whist/weak_hand_passes": [named("solo_whist/weak_hand_passes")],
    "solo_whist/prop_about_four_tricks": [named("solo_whist/prop_with_four_tricks"),
                                          named("solo_whist/prop_promises_four_tricks")],
    "solo_whist/cop_about_three_tricks": [named("solo_whist/cop_with_three_tricks"),
                                          named("solo_whist/no_cop_without_tricks")],
    "solo_whist/solo_from_four_and_a_half": [
        (named("solo_whist/solo_or_prop_with_five_tricks")[0], {"solo"}),
        named("solo_whist/prop_with_four_tricks"),
    ],
    "solo_whist/misere_low_cards": [named("solo_whist/low_short_hand_calls_misere")],
    "solo_whist/spread_misere_only_when_certain": [
        named("solo_whist/no_spread_misere_with_a_long_middle_suit"),
        named("solo_whist/no_spread_misere_with_a_card_that_can_be_caught"),
        named("solo_whist/spread_misere_when_certain")],
    "solo_whist/abundance_about_eight_tricks": [
        # about nine tricks in hearts, five with the turned-up diamonds
        (dealt_around("solo_whist", "AH KH QH JH TH 9H 4H AS KS 5C 4C 3D 2D", [], turn_up="6D"),
         {"abundance"}),
    ],
    "solo_whist/trumps_against_abundance": [named("solo_whist/lead_trumps_against_abundance")],
    "solo_whist/no_overtaking_a_fellow_defender": [
        named("solo_whist/do_not_overtake_a_fellow_defender")],
    "solo_whist/misere_plays_highest_loser": [named("solo_whist/misere_plays_its_highest_loser")],
    "belgian_whist/proposal_about_five_tricks": [
        named("belgian_whist/propose_a_five_trick_suit"),
        named("belgian_whist/propose_promises_five_tricks")],
    "belgian_whist/emballage_about_three_tricks": [
        named("belgian_whist/emballer_with_three_tricks"),
        named("belgian_whist/no_emballage_without_tricks")],
    "belgian_whist/misere_etalee_only_when_certain": [
        named("belgian_whist/no_etalee_with_a_card_that_can_be_caught"),
        named("belgian_whist/misere_etalee_when_certain")],
    "belgian_whist/no_overtaking_partner": [named("belgian_whist/do_not_overtake_partner")],
    "belgian_whist/takes_the_declarers_king": [named("belgian_whist/take_the_declarers_king")],
}
# Conventions the strong level alone keeps (the page says so)
STRONG_ONLY = {"bid_whist/spares_partners_trumps"}
# Conventions decided by the card play's search, slower than a call (a second or more at strong)
SEARCHED = {"bid_whist/returns_partners_suit", "bid_whist/four_says_joker", "bid_whist/spares_partners_trumps",
            "bid_whist/no_ruff_of_partners_winner", "bid_whist/takes_the_trick_cheaply_last",
            "bid_whist/declarer_draws_trumps", "solo_whist/trumps_against_abundance",
            "solo_whist/no_overtaking_a_fellow_defender", "solo_whist/misere_plays_highest_loser",
            "belgian_whist/no_overtaking_partner", "belgian_whist/takes_the_declarers_king"}
COVERED = set(POSITIONS_OF)


def accepted(answers: set[str], action: str) -> bool:
    for answer in answers:
        kind, _, rest = answer.partition(": ")
        if kind == "prefix" and rest and action.startswith(rest):
            return True
        if kind == "keep" and rest and action.startswith("discard ") \
                and not set(rest.split()) & set(action.split()[1:]):
            return True
    return action in answers


def cases():
    for convention, positions in POSITIONS_OF.items():
        for level in LEVELS:
            if level != "strong" and convention in STRONG_ONLY:
                continue
            for index in range(len(positions)):
                marks = [pytest.mark.slow] if level == "strong" and convention in SEARCHED else []
                yield pytest.param(convention, index, level, marks=marks,
                                   id=f"{convention}-{index}-{level}")


@pytest.mark.parametrize(("convention", "index", "level"), list(cases()))
@pytest.mark.usefixtures("no_thinking_deadline")
def test_the_computer_players_keep_the_convention(convention, index, level):
    record, answers = POSITIONS_OF[convention][index]
    state = records.replay_hand(record)
    assert not state.complete
    view = state.view(state.to_act)
    assert view.get("discard_count") or len(view["legal"]) > 1, "not a real decision"
    chosen = {choose_action(view, level, random.Random(seed)) for seed in SEEDS}
    wrong = sorted(a for a in chosen if not accepted(answers, a))
    assert not wrong, f"{convention} ({index}): {level} chose {', '.join(wrong)}"


def test_the_hands_written_here_are_what_the_page_says():
    """The hands the page's words describe: five trumps and two aces, with no joker and with
    either; three small trumps and no ace; the dealer's big hand after three passes, whose
    cheapest bid is 3."""
    hand = FIVE_TRUMPS_TWO_ACES.split()
    assert sum(c[1] == "S" for c in hand) == 5 and sum(c[0] == "A" for c in hand) == 2
    assert not {"BJ", "LJ"} & set(hand) and not {"BJ", "LJ"} & set(LOW_SPADES.split())
    for joker, with_joker in (("BJ", WITH_BIG_JOKER), ("LJ", WITH_LITTLE_JOKER)):
        assert set(with_joker.split()) == set(hand) - {"8C"} | {joker}
    weak = WEAK.split()
    assert not any(c[0] == "A" for c in weak) and sum(c[1] == "S" for c in weak) == 3
    state = records.replay_hand(dealt_around("bid_whist", BIG_HAND, ["pass", "pass", "pass"]))
    assert state.to_act == 0 and "bid 3 uptown" in state.legal_actions()


# -- what a partner's opening bid of 4 in a suit says: a joker -----------------------------------

# Seat 1 opens 4 uptown holding the big joker; seat 2 outbids it with 5 uptown and declares;
# seat 3, seat 1's partner, holds the little joker and no other trump of note.
FOUR_SAYS_JOKER_DEAL = {
    0: "KD 9D 7D 6D 5D 4D KC QC JC TC 8C 7C",
    1: WITH_BIG_JOKER,
    2: "AD QD JD TD AC KH QH JH TH 9H 8H 6H",
    3: "LJ JS TS 8S 7S 6S 4S 3S 2S 5H 3H 2H",
}


def after_partners_four(big_joker_with: int = 1, over_a_bid: bool = False):
    """The hand after seat 2's first lead (the king of trumps), seat 1 (seat 3's partner)
    having opened 4 uptown, seat 2 bid 5 uptown and declared hearts: seat 3 to play.  The big
    joker is dealt to ``big_joker_with``: seat 1, as the convention says, or seat 0, against
    it.  ``over_a_bid``: seat 0 deals to itself last and first bids 3 downtown, so that seat
    1's 4 is no opening (it promises nothing)."""
    hands = {seat: cards.split() for seat, cards in FOUR_SAYS_JOKER_DEAL.items()}
    if big_joker_with != 1:
        hands[1][hands[1].index("BJ")], hands[big_joker_with][0] = hands[big_joker_with][0], "BJ"
    dealt = {card for cards in hands.values() for card in cards}
    kitty = [c for c in ALL_CARDS if c not in dealt]
    auction = [(1, "bid 4 uptown"), (2, "bid 5 uptown"), (3, "pass"), (0, "pass")]
    if over_a_bid:
        auction = [(0, "bid 3 downtown"), (1, "bid 4 uptown"), (2, "bid 5 uptown"), (3, "pass")]
    record = {"format": "whistclub-hand/1", "game": "bid_whist", "rules": {},
              "dealer": 3 if over_a_bid else 0,
              "hands": [hands[seat] for seat in range(4)], "kitty": kitty,
              "actions": [{"seat": seat, "action": action} for seat, action in auction]}
    state = records.replay_hand(record)
    held = sorted(state.view(2)["hand"], key=lambda c: (c[1] == "H", c))
    state.apply("discard " + " ".join(sorted(held[:6])), 2)
    state.apply("trump H", 2)
    state.apply("play KH", 2)
    assert state.to_act == 3
    return state


def partners_big_joker_share(view: dict, level: str, count: int = 200) -> float:
    """How often the level's samples of the hidden hands give seat 1 the big joker; every
    sample is checked to be a deal the seat could face (the view rebuilt from it)."""
    from games.rules.cards import CARD_BIT
    from games.rules.computer import knowledge, search

    know = knowledge.read(view, search.SEARCH_LEVELS[level].conventions)
    rng = random.Random(0)
    given = 0
    for _ in range(count):
        hands, piles = knowledge.sample(know, rng)
        assert knowledge.rebuild(view, hands, piles).view(view["seat"]) == view
        given += bool((hands[1] | know.played_by[1]) & CARD_BIT["BJ"])
    return given / count


@pytest.mark.parametrize("level", LEVELS)
def test_partners_first_four_in_a_suit_says_the_joker_the_seat_does_not_hold(level):
    """Partner opened 4 uptown and the seat holds the little joker: partner holds the big one,
    in every deal the seat imagines (a level that does not keep the convention gives it to
    partner about a third of the time: any of the three other hidden places)."""
    view = after_partners_four().view(3)
    assert partners_big_joker_share(view, level) == 1.0
    assert partners_big_joker_share(view, "strong_v6") < 0.6


@pytest.mark.parametrize("level", LEVELS)
def test_a_partners_four_over_a_bid_says_nothing_of_the_jokers(level):
    """Partner bid 4 uptown over an opponent's 3: no opening, no promise, and nothing read.
    The seat's samples set no joker for partner and give it the big one no more often than a
    level without the convention does (about a third of the time)."""
    from games.rules.computer import knowledge, search

    view = after_partners_four(over_a_bid=True).view(3)
    know = knowledge.read(view, search.SEARCH_LEVELS[level].conventions)
    assert not [check for check in know.checks if check[1] == "holds_any"]
    assert partners_big_joker_share(view, level) < 0.6


def test_only_partners_opening_four_in_a_suit_says_a_joker():
    """What seat 0 reads of its partner's (seat 2's) 4 uptown, by the auction before it: after
    passes or first of all it is the opening, and says a joker; over an opponent's bid or over
    seat 0's own, nothing (the auction as the seat's view has it, in the play too)."""
    from games.rules.computer.bid_whist import partner_said_joker

    rules = bid_whist.Rules()
    four = (2, "bid 4 uptown")
    for before, said in (([], True), ([(1, "pass")], True), ([(0, "pass"), (1, "pass")], True),
                         ([(1, "bid 3 uptown")], False), ([(0, "bid 3 downtown"), (1, "pass")],
                                                          False),
                         ([(3, "bid 3 uptown"), (0, "pass"), (1, "pass")], False)):
        auction = [{"seat": seat, "action": action} for seat, action in [*before, four]]
        view = {"seat": 0, "auction": auction}
        assert bool(partner_said_joker(view, rules)) is said, before


def test_a_partner_who_broke_the_convention_is_read_as_the_play_shows():
    """Partner opened 4 without a joker (a player who does not keep the convention): before
    the play shows it the seat gives partner the big joker; once seat 0 has played it, no
    sample gives partner a joker, and every sample is still a deal the seat could face."""
    state = after_partners_four(big_joker_with=0)
    assert partners_big_joker_share(state.view(3), "strong") == 1.0
    state.apply("play 2H", 3)
    state.apply("play BJ", 0)  # its only trump
    state.apply(state.legal_actions()[0], 1)
    while state.to_act != 3:
        state.apply(state.legal_actions()[0], state.to_act)
    assert partners_big_joker_share(state.view(3), "strong") == 0.0
