"""Cutthroat Bid Whist in words: three players, each for themselves, tricks out of 18."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.rules.cutthroat_bid_whist import MAX_BID, TRICKS_IN_ALL
from games.words import (
    Names,
    bid_grid,
    bid_words,
    contract_word,
    declared_by_one,
    exchange,
    house_rules,
    last_result,
    phases,
    score_number,
    scores_so_far,
    you_win,
)

GAME = "cutthroat_bid_whist"
PHASES = phases()
ACTION_WORDS: dict[str, Any] = {}  # a bid's words are the ones Bid Whist's family shares


def contract(view: dict[str, Any], names: Names) -> str | None:
    hand = view.get("hand") or {}
    params = bid_words(GAME, hand, names)
    if params is None:
        return None
    params.update(all=TRICKS_IN_ALL, have=(hand.get("books") or [0, 0, 0])[params["declarer"]])
    return _("%(name)s bid %(bid)s, %(trumps)s, alone against the others: %(number)s of the "
             "%(all)s tricks, the kitty counts as one; %(have)s so far.") % params


@last_result
def result(outcome: dict[str, Any], names: Names) -> str | None:
    declarer = outcome["declarer"]
    params = {"name": names.capital(declarer), "bid": contract_word(GAME, outcome["bid"]),
              "books": outcome["books"][declarer],
              "points": exchange(outcome["points"], names, [declarer])}
    if outcome.get("made"):
        return _("%(name)s made %(bid)s with %(books)s tricks: %(points)s.") % params
    return _("%(name)s went set on %(bid)s with %(books)s tricks: %(points)s.") % params


def score(view: dict[str, Any], names: Names) -> str | None:
    scores = scores_so_far(view)
    if not scores:
        return None
    summary = view.get("summary") or {}
    order = sorted(range(len(scores)), key=lambda s: -scores[s])
    line = _("Score: %(scores)s; %(target)s wins") % {
        "scores": " · ".join(_("%(name)s %(score)s") % {"name": names(s),
                                                          "score": score_number(scores[s])}
                             for s in order),
        "target": house_rules(view).game_target}
    if summary.get("winner") is not None:
        line += " · " + you_win(summary["winner"], names)
    return line


declared = declared_by_one


def bid_box(legal: list[str], view: dict[str, Any]) -> dict[str, Any]:
    """Pass, then the tricks out of 18 (from the table's lowest bid) × the three modes."""
    return bid_grid(legal, range(house_rules(view).min_bid, MAX_BID + 1))
