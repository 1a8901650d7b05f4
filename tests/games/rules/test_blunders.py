"""The blunder count (games/rules/computer/blunders.py): each partner kind in a hand-made
position where it happens, and not in the same hand corrected; a settled blunder found by the
double-dummy solver where every world the seat could imagine agrees, and not where they differ."""

from __future__ import annotations

import copy

from games.rules import records
from games.rules.computer import blunders

from .conftest import position_record

# Bid Whist deals of the position set (computer_positions.json)
RUFF_DEAL = position_record("bid_whist/no_ruff_of_partners_winner")
RETURN_DEAL = position_record("bid_whist/return_partners_suit")
DRAW_DEAL = position_record("bid_whist/declarer_draws_trumps")


def hand(deal: dict, *actions: tuple[int, str]) -> dict:
    """The deal of ``deal`` with ``actions`` (seat, action) as its record's actions; replays."""
    record = copy.deepcopy(deal)
    record["actions"] = [{"seat": s, "action": a} for s, a in actions]
    records.replay_hand(record)  # a legal record, or the test is wrong
    return record


def where(kind: str, record: dict) -> list[tuple[int, int, str]]:
    return [(f.trick, f.seat, f.card) for f in blunders.PARTNER_KINDS[kind](record)]


# -- trumping partner's winning card --------------------------------------------------------

RUFF_AUCTION = [(1, "bid 3 uptown"), (2, "pass"), (3, "pass"), (0, "pass"),
                (1, "discard 2C 3C 4C 5C 6C 7C"), (1, "trump H"),
                (1, "play 2S"), (2, "play AS"), (3, "play 3S")]


def test_trumping_partners_winning_ace_is_found():
    # seat 0, last to play and void in spades, ruffs partner's ace with a heart
    record = hand(RUFF_DEAL, *RUFF_AUCTION, (0, "play 5H"))
    assert where("trump_partner", record) == [(1, 0, "5H")]


def test_throwing_under_partners_winning_ace_is_not():
    record = hand(RUFF_DEAL, *RUFF_AUCTION, (0, "play 2D"))
    assert where("trump_partner", record) == []


def test_ruffing_an_opponents_winning_card_is_not():
    # seat 1 (declarer) leads 2S, seat 2 plays low, seat 3 wins it: seat 0 ruffs the opponent
    record = hand(RUFF_DEAL, *RUFF_AUCTION[:7], (2, "play 6S"), (3, "play 8S"), (0, "play 5H"))
    assert where("trump_partner", record) == []


# -- not returning partner's suit in notrump -------------------------------------------------

NOTRUMP_AUCTION = [(2, "bid 3 notrump"), (3, "pass"), (0, "pass"), (1, "pass"),
                   (2, "discard 2C 3C 4C 5C 6C 7C"), (2, "direction uptown"),
                   (2, "play 2D"), (3, "play TD"), (0, "play AD"), (1, "play 6D")]


def test_leading_another_suit_after_partners_lead_in_notrump_is_found():
    # partner (seat 2) led diamonds; seat 0 won with the ace and leads a club, diamonds in hand
    record = hand(RETURN_DEAL, *NOTRUMP_AUCTION, (0, "play 9C"))
    assert where("no_return", record) == [(2, 0, "9C")]


def test_returning_partners_suit_in_notrump_is_not():
    record = hand(RETURN_DEAL, *NOTRUMP_AUCTION, (0, "play 3D"))
    assert where("no_return", record) == []


def test_leading_another_suit_with_trumps_is_not_this_kind():
    record = hand(RETURN_DEAL, (2, "bid 3 uptown"), (3, "pass"), (0, "pass"), (1, "pass"),
                  (2, "discard 2C 3C 4C 5C 6C 7C"), (2, "trump S"), *NOTRUMP_AUCTION[6:],
                  (0, "play 9C"))
    assert where("no_return", record) == []


# -- keeping a joker that cannot win while throwing a winner ---------------------------------

JOKER_PLAY = [*NOTRUMP_AUCTION, (0, "play 3D"), (1, "play 7D"), (2, "play KD"), (3, "play 5D"),
              (2, "play 7H"), (3, "play AH"), (0, "play 2H"), (1, "play 8H"),
              (3, "play KC"), (0, "play 8C"), (1, "play TC")]


def test_throwing_the_best_spade_while_keeping_a_notrump_joker_is_found():
    # seat 2, void in clubs in notrump, throws the ace of spades and keeps both jokers
    record = hand(RETURN_DEAL, *JOKER_PLAY, (2, "play AS"))
    assert where("joker_kept", record) == [(4, 2, "AS")]


def test_throwing_the_joker_is_not():
    record = hand(RETURN_DEAL, *JOKER_PLAY, (2, "play LJ"))
    assert where("joker_kept", record) == []


def test_throwing_a_small_card_while_keeping_the_joker_is_not():
    record = hand(RETURN_DEAL, *JOKER_PLAY, (2, "play 6S"))
    assert where("joker_kept", record) == []


# -- drawing trumps the opponents no longer hold ---------------------------------------------

# The drawing deal with the trumps moved: partner (seat 2) holds five, the opponents three
TRUMPS_WITH_PARTNER = {**DRAW_DEAL, "hands": [
    DRAW_DEAL["hands"][0],
    ["KH", "QH", "TH", "9H", "6H", "5H", "KD", "JD", "7D", "6D", "QC", "9C"],
    ["8S", "7S", "6S", "4S", "3S", "8D", "4D", "AC", "KC", "JC", "TC", "8C"],
    ["5S", "2S", "AH", "JH", "8H", "7H", "4H", "AD", "QD", "TD", "9D", "5D"]]}
DRAWN = [(0, "bid 4 uptown"), (1, "pass"), (2, "pass"), (3, "pass"),
         (0, "discard 2C 3C 4C 5C 6C 7C"), (0, "trump S"),
         (0, "play BJ"), (1, "play 5H"), (2, "play 3S"), (3, "play 2S"),
         (0, "play LJ"), (1, "play 6H"), (2, "play 4S"), (3, "play 5S"),
         (0, "play AS"), (1, "play 9H"), (2, "play 6S"), (3, "play 4H")]


def test_leading_a_trump_when_only_partner_may_hold_one_is_found():
    # both opponents have shown out of trumps; partner may still hold the 7 and 8
    record = hand(TRUMPS_WITH_PARTNER, *DRAWN, (0, "play KS"))
    assert where("dead_trumps", record) == [(4, 0, "KS")]


def test_drawing_trumps_the_opponents_may_hold_is_not():
    # seat 3 has not shown out: the ace of trumps draws its last trump
    record = hand(TRUMPS_WITH_PARTNER, *DRAWN[:14], (0, "play AS"))
    assert where("dead_trumps", record) == []


def test_cashing_trumps_nobody_else_holds_is_not():
    # the deal as dealt: every trump left is the declarer's own; a trump lead pulls nothing
    record = hand(DRAW_DEAL, (0, "bid 4 uptown"), (1, "pass"), (2, "pass"), (3, "pass"),
                  (0, "discard 2C 3C 4C 5C 6C 7C"), (0, "trump S"),
                  (0, "play BJ"), (1, "play 3S"), (2, "play 4S"), (3, "play 2S"),
                  (0, "play LJ"), (1, "play 6S"), (2, "play 7S"), (3, "play 5S"),
                  (0, "play AS"), (1, "play 5H"), (2, "play 4D"), (3, "play 8S"), (0, "play KS"))
    assert where("dead_trumps", record) == []


def test_leading_a_side_suit_once_trumps_are_drawn_is_not():
    record = hand(TRUMPS_WITH_PARTNER, *DRAWN, (0, "play 3H"))
    assert where("dead_trumps", record) == []


# -- a discard that breaks the void the kitty made -------------------------------------------

def test_keeping_a_small_club_while_throwing_a_trump_is_found():
    # the kitty's six clubs could all go back: the discard keeps the 7 and throws the ace of
    # trumps
    record = hand(DRAW_DEAL, (0, "bid 4 uptown"), (1, "pass"), (2, "pass"), (3, "pass"),
                  (0, "discard 2C 3C 4C 5C 6C AS"), (0, "trump S"))
    assert where("kitty_void", record) == [(0, 0, "7C")]


def test_the_discard_that_makes_the_void_is_not():
    record = hand(DRAW_DEAL, (0, "bid 4 uptown"), (1, "pass"), (2, "pass"), (3, "pass"),
                  (0, "discard 2C 3C 4C 5C 6C 7C"), (0, "trump S"))
    assert where("kitty_void", record) == []


def test_keeping_a_small_club_while_throwing_small_cards_is_not():
    record = hand(DRAW_DEAL, (0, "bid 4 uptown"), (1, "pass"), (2, "pass"), (3, "pass"),
                  (0, "discard 2C 3C 4C 5C 6C 2H"), (0, "trump S"))
    assert where("kitty_void", record) == []


# -- settled blunders --------------------------------------------------------------------------

# A Bid Whist hand played by the easy computer players (downtown, hearts trumps, the ace
# high): at trick 9 the declarer leads the ace of diamonds; seat 3, an opponent second to
# play, holds TD and 3D (3D a winner downtown once the ace is gone) and throws the 3 under the
# ace: the ten would do, and keep the winner.  No opponent can tell a world where the 3 is
# worth throwing: the position is settled.
DOWNTOWN_DEAL = {"format": "whistclub-hand/1", "game": "bid_whist", "rules": {}, "dealer": 2, "hands": [["KD", "2D", "TS", "KC", "AC", "QC", "5H", "QD", "8D", "7S", "2C", "3H"], ["QH", "TC", "7C", "9H", "8C", "7D", "JS", "KH", "6S", "JD", "3S", "5D"], ["4S", "AH", "6C", "9C", "8H", "2H", "6H", "4C", "BJ", "8S", "6D", "AD"], ["2S", "LJ", "TH", "KS", "7H", "4H", "TD", "3D", "JC", "5S", "AS", "QS"]], "kitty": ["JH", "5C", "9D", "9S", "4D", "3C"]}
DOWNTOWN_PLAY = [
    (3, 'bid 3 downtown'), (0, 'bid 4 downtown'), (1, 'pass'), (2, 'bid 5 downtown'),
    (2, 'discard 6C 6D 8S 9C 9D 9S'), (2, 'trump H'), (2, 'play BJ'), (3, 'play 4H'),
    (0, 'play 3H'), (1, 'play 9H'), (2, 'play AH'), (3, 'play 7H'), (0, 'play 5H'),
    (1, 'play QH'), (2, 'play JH'), (3, 'play TH'), (0, 'play 2C'), (1, 'play KH'),
    (3, 'play AS'), (0, 'play 7S'), (1, 'play 3S'), (2, 'play 4S'), (3, 'play 2S'),
    (0, 'play TS'), (1, 'play 6S'), (2, 'play 8H'), (2, 'play 3C'), (3, 'play JC'),
    (0, 'play QC'), (1, 'play 7C'), (2, 'play 2H'), (3, 'play LJ'), (0, 'play 2D'),
    (1, 'play 5D'), (3, 'play 5S'), (0, 'play 8D'), (1, 'play JS'), (2, 'play 6H'),
    (2, 'play AD'),
]


def test_throwing_a_winner_under_the_ace_in_a_settled_ending_is_a_blunder():
    record = hand(DOWNTOWN_DEAL, *DOWNTOWN_PLAY, (3, "play 3D"))
    found = blunders.settled_blunders(record)
    assert [(f.trick, f.seat, f.card, f.instead) for f in found] == [(9, 3, "3D", "TD")]


def test_keeping_the_winner_is_not_a_blunder():
    record = hand(DOWNTOWN_DEAL, *DOWNTOWN_PLAY, (3, "play TD"))
    assert blunders.settled_blunders(record) == []


def test_positions_before_the_last_tricks_are_not_judged():
    record = hand(DOWNTOWN_DEAL, *DOWNTOWN_PLAY, (3, "play 3D"))
    assert blunders.settled_blunders(record, tricks_left=3) == []


# Another easy hand (downtown, clubs trumps): at trick 9 seat 3, void in trumps led by the
# declarer, throws QD and keeps KS.  On the actual deal the king was the card to throw, but
# seat 3 cannot see that: in deals that fit what it knows, the queen is as good.  Not settled.
UNSETTLED_DEAL = {"format": "whistclub-hand/1", "game": "bid_whist", "rules": {}, "dealer": 1, "hands": [["QS", "2D", "3S", "2H", "8H", "5S", "9H", "4C", "QH", "JD", "5H", "9S"], ["JS", "LJ", "3D", "8D", "6C", "3C", "4H", "TC", "AC", "6H", "2S", "AD"], ["7D", "7H", "BJ", "9C", "5D", "4S", "6D", "KC", "KH", "TH", "8C", "AS"], ["KD", "JC", "KS", "7C", "8S", "AH", "3H", "QC", "TD", "QD", "9D", "7S"]], "kitty": ["JH", "TS", "5C", "2C", "4D", "6S"]}
UNSETTLED_PLAY = [
    (2, 'bid 3 uptown'), (3, 'pass'), (0, 'bid 4 downtown'), (1, 'bid 5 downtown'),
    (1, 'discard 6H 6S 8D JH JS TS'), (1, 'trump C'), (1, 'play LJ'), (2, 'play BJ'),
    (3, 'play 7C'), (0, 'play 4C'), (2, 'play 8C'), (3, 'play JC'), (0, 'play 2D'),
    (1, 'play 6C'), (1, 'play AC'), (2, 'play 9C'), (3, 'play QC'), (0, 'play 2H'),
    (1, 'play TC'), (2, 'play KC'), (3, 'play 3H'), (0, 'play 3S'), (1, 'play 2C'),
    (2, 'play 4S'), (3, 'play 7S'), (0, 'play 5H'), (1, 'play AD'), (2, 'play 5D'),
    (3, 'play 9D'), (0, 'play JD'), (1, 'play 3C'), (2, 'play 6D'), (3, 'play 8S'),
    (0, 'play 5S'), (1, 'play 3D'), (2, 'play 7D'), (3, 'play TD'), (0, 'play 8H'),
    (1, 'play 5C'), (2, 'play 7H'),
]


def test_a_loss_only_the_hidden_cards_show_is_not_settled():
    record = hand(UNSETTLED_DEAL, *UNSETTLED_PLAY, (3, "play QD"))
    on_the_deal = blunders.settled_blunders(record, worlds=0)  # the actual deal alone
    assert [(f.trick, f.seat, f.card, f.instead) for f in on_the_deal] == [(9, 3, "QD", "KS")]
    assert blunders.settled_blunders(record) == []


# -- Cutthroat Bid Whist: the two defenders are partners for the hand ------------------------

# A hand played by random legal cards (diamonds trumps, downtown): at trick 15 the declarer
# (seat 0) leads the 6 of clubs, seat 1 wins it with the 4; seat 2, the other defender and last
# to play, is out of clubs and ruffs with the jack of diamonds, spades in hand to throw.
CUTTHROAT_RUFF_DEAL = {"format": "whistclub-hand/1", "game": "cutthroat_bid_whist", "rules": {}, "dealer": 0, "hands": [["QD", "QH", "QC", "TH", "5C", "3C", "2C", "8S", "JC", "5D", "6S", "2H", "JH", "QS", "KD", "KC", "6C"], ["TC", "9C", "9H", "9S", "4S", "9D", "3S", "TD", "5H", "AH", "2D", "4C", "7D", "TS", "6D", "7H", "8H"], ["KS", "5S", "7C", "JS", "7S", "AC", "JD", "LJ", "3D", "8C", "2S", "BJ", "3H", "8D", "4H", "AS", "AD"]], "kitty": ["KH", "4D", "6H"]}
CUTTHROAT_RUFF_PLAY = [
    (1, 'bid 16 downtown'), (2, 'bid 16 notrump'), (0, 'bid 18 downtown'),
    (0, 'discard 3C JC QS'), (0, 'trump D'), (0, 'play QD'), (1, 'play 9D'), (2, 'play AD'),
    (2, 'play 7C'), (0, 'play 2C'), (1, 'play TC'), (0, 'play 8S'),
    (1, 'play 9S'), (2, 'play 2S'), (2, 'play 5S'), (0, 'play 6S'),
    (1, 'play 3S'), (1, 'play 7H'), (2, 'play 3H'), (0, 'play QH'),
    (2, 'play AC'), (0, 'play QC'), (1, 'play 9C'), (2, 'play 8D'),
    (0, 'play KD'), (1, 'play 7D'), (1, 'play AH'), (2, 'play 4H'),
    (0, 'play JH'), (1, 'play 8H'), (2, 'play 8C'), (0, 'play TH'),
    (1, 'play 5H'), (2, 'play LJ'), (0, 'play KH'), (2, 'play BJ'),
    (0, 'play 4D'), (1, 'play TD'), (2, 'play 3D'), (0, 'play 5D'),
    (1, 'play 2D'), (1, 'play 4S'), (2, 'play JS'), (0, 'play KC'),
    (1, 'play 9H'), (2, 'play AS'), (0, 'play 6H'), (0, 'play 6C'),
    (1, 'play 4C'),
]


def test_a_defender_trumping_the_other_defenders_winner_is_found():
    record = hand(CUTTHROAT_RUFF_DEAL, *CUTTHROAT_RUFF_PLAY, (2, "play JD"))
    assert where("trump_partner", record) == [(15, 2, "JD")]


def test_a_defender_throwing_under_the_other_defenders_winner_is_not():
    record = hand(CUTTHROAT_RUFF_DEAL, *CUTTHROAT_RUFF_PLAY, (2, "play 7S"))
    assert where("trump_partner", record) == []


# A hand played by the easy computer players (clubs trumps, downtown, the ace high): at trick
# 16 seat 2 leads the 2 of clubs; the declarer (seat 0) holds the ace and the 3 and throws the
# 3 under the 2.  With the low joker still out, the ace takes this trick or none: the 3 loses
# one, whatever the two other hands hold.
CUTTHROAT_DOWNTOWN_DEAL = {"format": "whistclub-hand/1", "game": "cutthroat_bid_whist", "rules": {}, "dealer": 0, "hands": [["2D", "8S", "9S", "5C", "BJ", "AH", "3C", "6D", "8H", "QD", "AC", "6C", "3H", "AD", "TC", "6H", "QS"], ["5D", "9H", "JH", "2H", "QH", "QC", "TD", "4H", "2S", "TH", "4S", "7S", "AS", "6S", "5H", "7C", "TS"], ["8C", "3D", "KS", "9D", "KH", "2C", "KC", "JS", "9C", "KD", "5S", "4D", "JD", "4C", "8D", "3S", "LJ"]], "kitty": ["7H", "JC", "7D"]}
CUTTHROAT_DOWNTOWN_PLAY = [
    (1, 'pass'), (2, 'pass'), (0, 'bid 9 downtown'), (0, 'discard 9S QD QS'),
    (0, 'trump C'), (0, 'play BJ'), (1, 'play QC'), (2, 'play KC'),
    (0, 'play AH'), (1, 'play QH'), (2, 'play KH'), (0, 'play AD'),
    (1, 'play TD'), (2, 'play KD'), (0, 'play 8H'), (1, 'play 5H'),
    (2, 'play KS'), (1, 'play AS'), (2, 'play JS'), (0, 'play 8S'),
    (1, 'play JH'), (2, 'play 5S'), (0, 'play 7H'), (0, 'play 7D'),
    (1, 'play 5D'), (2, 'play JD'), (1, 'play TS'), (2, 'play 3S'),
    (0, 'play JC'), (0, 'play 6D'), (1, 'play 7C'), (2, 'play 9D'),
    (1, 'play TH'), (2, 'play 8D'), (0, 'play 6H'), (0, 'play 3H'),
    (1, 'play 2H'), (2, 'play 4D'), (1, 'play 9H'), (2, 'play 3D'),
    (0, 'play TC'), (0, 'play 2D'), (1, 'play 4H'), (2, 'play 9C'),
    (2, 'play 8C'), (0, 'play 6C'), (1, 'play 7S'), (0, 'play 5C'),
    (1, 'play 6S'), (2, 'play 4C'), (2, 'play 2C'),
]


def test_the_cutthroat_declarer_throwing_its_ace_away_in_a_settled_ending_is_a_blunder():
    record = hand(CUTTHROAT_DOWNTOWN_DEAL, *CUTTHROAT_DOWNTOWN_PLAY, (0, "play 3C"))
    found = blunders.settled_blunders(record)
    assert [(f.trick, f.seat, f.card, f.instead) for f in found] == [(16, 0, "3C", "AC")]


def test_the_cutthroat_declarer_taking_the_trick_with_its_ace_is_not_a_blunder():
    record = hand(CUTTHROAT_DOWNTOWN_DEAL, *CUTTHROAT_DOWNTOWN_PLAY, (0, "play AC"))
    assert blunders.settled_blunders(record) == []


def test_the_bench_prints_a_line_per_game_and_level(capsys):
    from bench import computer_players

    assert computer_players.main(["--blunders", "--deals", "2", "--games", "bid_whist",
                                  "--levels", "easy"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("blunders: game=bid_whist level=easy hands=2 per_100_hands=")
    for kind in blunders.PARTNER_KINDS:
        assert f" {kind}=" in last.split("partner_kinds:")[1].split("settled:")[0]
        assert f" {kind}=" in last.split("settled:")[1]


def test_the_bench_counts_cutthroat_blunders_too(capsys):
    from bench import computer_players

    assert computer_players.main(["--blunders", "--deals", "3", "--games", "cutthroat_bid_whist",
                                  "--levels", "easy"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("blunders: game=cutthroat_bid_whist level=easy hands=3 "
                           "per_100_hands=")
    for kind in blunders.PARTNER_KINDS:
        assert f" {kind}=" in last.split("settled:")[1]
