"""Bid Whist in words: two sides (seats 0 and 2 against 1 and 3), books over six, a match."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.computer_conventions import DISCARDS, FIRST_LEAD, Convention, NoAgreement
from games.rules.bid_whist import MAX_BID
from games.words import (
    Declarations,
    Names,
    bid_grid,
    bid_words,
    contract_word,
    house_rules,
    last_result,
    phases,
    score_number,
    scores_so_far,
    signed,
)

GAME = "bid_whist"
PHASES = phases()
ACTION_WORDS: dict[str, Any] = {}  # a bid's words are the ones Bid Whist's family shares
BOOKS_OVER = 6  # a bid of 5 promises 11 books


def side_of(seat: int) -> tuple[int, int]:
    return (seat % 2, seat % 2 + 2)


def has_kitty(view: dict[str, Any]) -> bool:
    return house_rules(view).kitty != "none"


def contract(view: dict[str, Any], names: Names) -> str | None:
    hand = view.get("hand") or {}
    params = bid_words(GAME, hand, names)
    if params is None:
        return None
    declarer = params["declarer"]
    params.update(side=names.together(side_of(declarer)), need=params["number"] + BOOKS_OVER,
                  have=(hand.get("books") or [0, 0])[declarer % 2])
    if has_kitty(view):
        return _("%(name)s bid %(bid)s, %(trumps)s: %(side)s need %(need)s books, the kitty "
                 "counts as one; %(have)s so far.") % params
    return _("%(name)s bid %(bid)s, %(trumps)s: %(side)s need %(need)s books; %(have)s so "
             "far.") % params


def points_line(points: list[int], names: Names) -> str:
    parts = [_("%(name)s %(score)s") % {"name": names.together(side_of(team)),
                                        "score": signed(points[team])}
             for team in (0, 1) if points[team]]
    return ", ".join(parts) or _("no points")


@last_result
def result(outcome: dict[str, Any], names: Names) -> str | None:
    declarer = outcome["declarer"]
    number = int(str(outcome["bid"]).split()[0])
    books = outcome["books"][declarer % 2]
    params = {"side": names.capital_together(side_of(declarer)),
              "bid": contract_word(GAME, outcome["bid"]), "books": books,
              "points": points_line(outcome["points"], names)}
    if books >= number + BOOKS_OVER:
        sentence = _("%(side)s made %(bid)s with %(books)s books: %(points)s.") % params
    else:
        sentence = _("%(side)s were set on %(bid)s with %(books)s books: %(points)s.") % params
    if outcome.get("boston"):
        sentence = _("A Boston, every book! %(sentence)s") % {"sentence": sentence}
    return sentence


def score(view: dict[str, Any], names: Names) -> str | None:
    scores = scores_so_far(view)
    if not scores:
        return None
    summary = view.get("summary") or {}
    me = view.get("seat")
    first = me % 2 if me is not None else 0
    target = house_rules(view).game_target
    line = _("Score: %(first)s %(a)s — %(second)s %(b)s; %(target)s wins, %(floor)s loses") % {
        "first": names.together(side_of(first)), "a": score_number(scores[first]),
        "second": names.together(side_of(1 - first)), "b": score_number(scores[1 - first]),
        "target": target, "floor": score_number(-target)}
    if summary.get("winner") is not None:
        line += " · " + _("%(side)s win the match.") % {
            "side": names.capital_together(side_of(summary["winner"]))}
    return line


def declared(result: dict[str, Any]) -> Declarations:
    """The declarer, and made when their side scored (a set scores minus the bid)."""
    if result.get("redeal") or result.get("declarer") is None:
        return []
    return [((result["declarer"],), result["points"][result["declarer"] % 2] > 0)]


def bid_box(legal: list[str], view: dict[str, Any]) -> dict[str, Any]:
    """Pass, then books up to 7 (from the table's lowest bid) × uptown / downtown / no trump."""
    return bid_grid(legal, range(house_rules(view).min_bid, MAX_BID + 1))


# How this game's computer players play (games/computer_conventions.py: the page
# /games/<game>/computer-players/; each convention held by a position of
# tests/games/rules/test_conventions.py).
COMPUTER_CONVENTIONS: dict[str, list[Convention | NoAgreement]] = {
    "calls": [
        Convention(
            "bid_whist/opening_three",
            gettext_lazy("An opening bid of 3 says little"),
            gettext_lazy("With no bid yet to beat, it opens 3 with almost any hand worth a trick or two "
              "of its own: it counts on the kitty and on you for the rest. It passes a weak "
              "hand, such as three small trumps and no ace, and any hand without an ace or a "
              "joker."),
            easy=gettext_lazy("Easy counts its high cards and its longest suit, and passes more "
                   "often.")),
        Convention(
            "bid_whist/opening_four",
            gettext_lazy("An opening 4: about six tricks in its own hand"),
            gettext_lazy("It opens 4 with a joker and about six tricks of its own, such as five "
              "trumps to the ace, king and queen, another ace and a joker: the rule's “five "
              "trumps and two aces”."),
            easy=gettext_lazy("Easy opens such a hand at 3.")),
        Convention(
            "bid_whist/four_says_joker",
            gettext_lazy("An opening bid of 4 in a suit says it holds a joker"),
            gettext_lazy("As many club tables play it, when it opens the auction with 4 uptown or "
              "downtown, nobody having bid before it, it promises at least one joker; with "
              "about six tricks and no joker it opens 3 instead. Its 4 over another bid, yours "
              "or an opponent's, promises nothing of the jokers. When you open with 4 uptown "
              "or downtown, it takes you to hold a joker, until the play shows otherwise; it "
              "reads nothing of the jokers into your 4 over a bid. A 4 in no trump says "
              "nothing of the jokers, which are worthless there."),
            easy=gettext_lazy("Easy does not keep it: it opens 3 whatever its hand, and it reads "
                   "nothing into yours.")),
        Convention(
            "bid_whist/opening_five",
            gettext_lazy("An opening 5 or more: about eight tricks or more"),
            gettext_lazy("With about eight tricks or more of its own, such as a joker, five trumps "
              "to the ace, king, queen and jack and the ace, king and queen of another "
              "suit, it opens 5 or higher, to leave the others "
              "no cheap bid."),
            easy=gettext_lazy("Easy opens at 3 however strong its hand.")),
        Convention(
            "bid_whist/dealer_bids_just_enough",
            gettext_lazy("The dealer bids just enough"),
            gettext_lazy("Last to speak, it bids only what it needs to win the auction, however strong "
              "its hand: a dealer's bid says it wants to play the hand, not how well.")),
        Convention(
            "bid_whist/over_an_opponent",
            gettext_lazy("Over an opponent it competes"),
            gettext_lazy("It outbids the opponents with about three tricks of its own, less than it "
              "would open 4 with: letting them play costs points too. Its 4 uptown or "
              "downtown there says nothing of the jokers: only an opening 4 does. With hardly "
              "a trick, or without an ace or a joker, it passes.")),
        Convention(
            "bid_whist/over_partner",
            gettext_lazy("Over your bid it passes unless it is much stronger"),
            gettext_lazy("It leaves your bid alone unless its own hand is worth about four and a half "
              "tricks or more, or it stops three suits for a no-trump bid, which counts double.")),
        Convention(
            "bid_whist/uptown_downtown_no_trump",
            gettext_lazy("Uptown, downtown or no trump: how its cards play best"),
            gettext_lazy("It counts its hand with the high cards winning (uptown), the low cards "
              "winning (downtown: aces, 2s and 3s) and without trumps, and bids the best. "
              "No trump only with at least three suits stopped, and then often, since no "
              "trump counts double; its jokers are worth nothing there.")),
        Convention(
            "bid_whist/an_ace_or_a_joker",
            gettext_lazy("Every bid holds an ace or a joker"),
            gettext_lazy("It does not bid without an ace or a joker, however long its trumps or low "
              "its cards, as the rule advises: downtown the aces are still high, and a hand "
              "without them controls no trick. Only where the house makes the dealer bid after "
              "three passes does its dealer bid without one."),
            easy=gettext_lazy("Easy bids on its high cards or its low cards alone.")),
        Convention(
            "bid_whist/notrump_two_aces",
            gettext_lazy("No trump: two aces or more"),
            gettext_lazy("It bids no trump only with two aces or more, as the rule advises (“several "
              "aces and long, solid suits”): its jokers are worth nothing there and the others' "
              "aces would take the lead. Six spades to the ace, king, queen and jack with "
              "kings and queens beside, and one ace, bid spades."),
            easy=gettext_lazy("Easy never bids no trump.")),
        Convention(
            "bid_whist/kitty_keeps_jokers_and_trumps",
            gettext_lazy("With the kitty it keeps the jokers and the top trumps"),
            gettext_lazy("As declarer it keeps the jokers, its best trumps and its side aces, and "
              "throws the small cards of its short side suits, to trump them later. Then it "
              "names the suit its twelve cards play best.")),
    ],
    "leads": [
        Convention(
            "bid_whist/declarer_draws_trumps",
            gettext_lazy("As declarer it draws trumps"),
            gettext_lazy("On lead with the highest trump still out, while an opponent may still hold "
              "a trump, it leads trumps.")),
        FIRST_LEAD,
        Convention(
            "bid_whist/returns_partners_suit",
            gettext_lazy("It returns your suit"),
            gettext_lazy("Once you have led a suit, it leads that suit back when it wins the lead, "
              "unless another card is clearly better.")),
        Convention(
            "bid_whist/spares_partners_trumps",
            gettext_lazy("Strong spares your trumps"),
            gettext_lazy("When the opponents have no trumps left and you may still hold some, it leads "
              "a winner of a side suit rather than a trump that would only pull yours. "
              "Normal may still lead the trump."),
            strong_only=True),
    ],
    "play": [
        Convention(
            "bid_whist/no_ruff_of_partners_winner",
            gettext_lazy("It does not trump your winning card"),
            gettext_lazy("When your card is winning the trick it throws a small card rather than "
              "trumping it, and it does not overtake your ace with its king.")),
        Convention(
            "bid_whist/takes_the_trick_cheaply_last",
            gettext_lazy("Last to play, it takes the trick as cheaply as it can"),
            gettext_lazy("With an opponent winning the trick it takes it with its cheapest winning "
              "card: the ace over their king, or its smallest trump when it has no card of "
              "the suit.")),
    ],
    "discards": [DISCARDS],
}
