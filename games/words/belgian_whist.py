"""Belgian Whist in words: emballage and trou two against two, the rest alone, misères side by
side, points exchanged."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from games.words import (
    Names,
    balances,
    capitalise,
    contract_word,
    each_score,
    goal,
    last_result,
    phases,
    trumps,
    with_tricks,
)

GAME = "belgian_whist"
PHASES = phases(trou=pgettext_lazy("phase", "announcing trou"))
# What a contract without a level asks (the others ask their level: emballage, solo, abondance).
GOALS = {"trou": 9, "petit_chelem": 12, "grand_chelem": 13, "piccolo": 1}
EXACTLY = ("piccolo",)


def goal_of(kind: str, level: int | None) -> str:
    return goal(level if level is not None else GOALS.get(kind, 0), exactly=kind in EXACTLY)


def contract(view: dict[str, Any], names: Names) -> str | None:
    hand = view.get("hand") or {}
    called = hand.get("contract")
    if not called:
        return None
    kind, declarers = called["contract"], called["declarers"]
    params = {"who": names.capital_together(declarers), "contract": contract_word(GAME, kind),
              "goal": goal_of(kind, called.get("level")),
              "trumps": trumps(called.get("trump") or hand.get("trump"))}
    if called.get("together"):
        return _("%(who)s play %(contract)s together, %(trumps)s: %(goal)s between them.") % params
    if len(declarers) > 1:
        return _("%(who)s each play %(contract)s, %(trumps)s: %(goal)s each.") % params
    return _("%(who)s called %(contract)s, alone, %(trumps)s: %(goal)s.") % params


@last_result
def result(outcome: dict[str, Any], names: Names) -> str | None:
    settled = outcome.get("contracts")
    if not settled:
        return None
    parts = []
    for each in settled:
        params = {"who": names.together(each["declarers"]),
                  "contract": contract_word(GAME, each["contract"]),
                  "tricks": with_tricks(each["tricks"])}
        if each["made"]:
            parts.append(_("%(who)s made %(contract)s %(tricks)s") % params)
        else:
            parts.append(_("%(who)s went down in %(contract)s %(tricks)s") % params)
    return _("%(contracts)s: %(points)s.") % {"contracts": capitalise("; ".join(parts)),
                                             "points": each_score(outcome["points"], names)}


def score(view: dict[str, Any], names: Names) -> str | None:
    return balances(view, names, _("points"))
