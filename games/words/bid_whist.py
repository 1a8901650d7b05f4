"""Bid Whist in words: two sides (seats 0 and 2 against 1 and 3), books over six, a match."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

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
