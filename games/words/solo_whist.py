"""Solo Whist in words: a contract from Prop and Cop to Abundance Declared, units exchanged."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.words import (
    Names,
    balances,
    contract_word,
    exchange,
    goal,
    last_result,
    phases,
    trumps,
    with_tricks,
)

GAME = "solo_whist"
PHASES = phases()
PROP_AND_COP = "prop_and_cop"
NO_TRUMPS = ("misere", "spread_misere")


def trumps_of(name: str, trump: str | None) -> str:
    if trump or name in NO_TRUMPS:
        return trumps(trump)
    return _("trumps still to be named")


def contract(view: dict[str, Any], names: Names) -> str | None:
    hand = view.get("hand") or {}
    called = hand.get("contract")
    if not called:
        return None
    params = {"name": names.capital(called["declarer"]), "partner": names(called["partner"]),
              "contract": contract_word(GAME, called["name"]),
              "goal": goal(called["goal"]),
              "trumps": trumps_of(called["name"], called.get("trump") or hand.get("trump")),
              "stake": ngettext("%(n)s unit a player", "%(n)s units a player",
                                called["stake"]) % {"n": called["stake"]}}
    if called["name"] == PROP_AND_COP:
        return _("%(name)s proposed, %(partner)s accepted: together %(goal)s, %(trumps)s; "
                 "%(stake)s.") % params
    return _("%(name)s called %(contract)s, alone: %(goal)s, %(trumps)s; %(stake)s.") % params


@last_result
def result(outcome: dict[str, Any], names: Names) -> str | None:
    declarers = [s for s in (outcome["declarer"], outcome.get("partner")) if s is not None]
    params = {"who": names.capital_together(declarers),
              "contract": contract_word(GAME, outcome["contract"]),
              "tricks": with_tricks(sum(outcome["tricks"][s] for s in declarers)),
              "units": exchange(outcome["units"], names, declarers)}
    if outcome.get("made"):
        return _("%(who)s made %(contract)s %(tricks)s: %(units)s.") % params
    return _("%(who)s went down in %(contract)s %(tricks)s: %(units)s.") % params


def score(view: dict[str, Any], names: Names) -> str | None:
    return balances(view, names, _("units"))
