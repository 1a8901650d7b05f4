"""Solo Whist's score sheet: contract, declarer (and Cop), the side's tricks, a revoke."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from games.rules import solo_whist as engine
from leagues.paper.common import (
    NOT_AT_THIS_TABLE,
    ChoiceButtons,
    DeclarerDealForm,
    describe_declarer_line,
    revoke_field,
    tricks_on_declarer,
    with_revoke,
)
from leagues.scoring import Outcome


class DealForm(DeclarerDealForm):
    GAME = engine.GAME
    PARTNERED = frozenset({engine.PROP_AND_COP.name})
    partner = forms.TypedChoiceField(label=gettext_lazy("Partner (prop and cop)"), coerce=int, widget=ChoiceButtons, initial="",
                                     required=False, empty_value=None,
                                     error_messages=NOT_AT_THIS_TABLE)
    revoke = revoke_field()  # the penalty is the league's house rule revoke_penalty

    @staticmethod
    def offered(contract: str, rules) -> bool:
        return contract != engine.PROP_AND_COP.name or rules.prop_and_cop

    @property
    def facts(self) -> dict:
        facts = super().facts
        if self.cleaned_data.get("revoke") is not None:  # a deal without one keeps old facts
            facts["revoke"] = self.cleaned_data["revoke"]
        return facts


def score(rules, facts: dict) -> Outcome:
    contract, declarer, partner = facts["contract"], facts["declarer"], facts.get("partner")
    units = engine.score_hand(rules, contract, declarer, partner,
                              tricks_on_declarer(declarer, facts["tricks"], engine.SEATS, 13),
                              facts.get("revoke"))
    # Every stake is positive, so the declarer gains exactly when the contract is made.
    return Outcome(points=list(units), contract=contract, declarer=declarer,
                   made=units[declarer] > 0)


def describe(facts: dict, names: list[str]) -> str:
    return with_revoke(describe_declarer_line(engine.GAME, facts, names), facts, names)


def sheet_lines(result: dict) -> list[dict]:
    declarer, partner = result["declarer"], result["partner"]
    side = [declarer] if partner is None else [declarer, partner]
    return [{"contract": result["contract"], "declarer": declarer, "partner": partner,
             "tricks": sum(result["tricks"][seat] for seat in side)}]


def engine_points(result: dict) -> list:
    return list(result.get("units") or [])
