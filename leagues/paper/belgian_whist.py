"""Belgian Whist's score sheet: one line per settlement (several misère players: one each)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.rules import belgian_whist as engine
from leagues.paper.common import (
    NOT_AT_THIS_TABLE,
    ChoiceButtons,
    DeclarerDealForm,
    describe_declarer_line,
    tricks_on_declarer,
)
from leagues.paper.common import engine_points as engine_points  # the engine's points
from leagues.scoring import EntryError, Outcome


class DealForm(DeclarerDealForm):
    GAME = engine.GAME
    PARTNERED = frozenset({engine.EMBALLAGE, engine.TROU_CONTRACT})
    level = forms.IntegerField(label=gettext_lazy("Tricks bid (emballage, solo, abondance)"),
                               min_value=6, max_value=13, required=False)
    partner = forms.TypedChoiceField(label=gettext_lazy("Partner (emballage, trou)"), coerce=int, widget=ChoiceButtons, initial="",
                                     error_messages=NOT_AT_THIS_TABLE,
                                     required=False, empty_value=None)
    field_order = ["contract", "level", "declarer", "partner", "tricks"]

    @property
    def facts(self) -> dict:
        return {**super().facts, "level": self.cleaned_data["level"]}


def score(rules, facts: dict) -> Outcome:
    contract, declarer, partner = facts["contract"], facts["declarer"], facts.get("partner")
    if partner is not None and contract in engine.MISERES:
        # Each misère player is settled on their own tricks: one line of the sheet each.
        raise EntryError(_("Enter one line per misère or piccolo player."))
    declarers = [declarer] if partner is None else [declarer, partner]
    result = engine.score_hand(rules, contract, declarers,
                               tricks_on_declarer(declarer, facts["tricks"], engine.SEATS, 13),
                               facts.get("level"))
    label = contract if facts.get("level") is None else f'{contract} {facts["level"]}'
    return Outcome(points=list(result["points"]), contract=label, declarer=declarer,
                   made=result["contracts"][0]["made"])


def describe(facts: dict, names: list[str]) -> str:
    return describe_declarer_line(engine.GAME, facts, names)


def sheet_lines(result: dict) -> list[dict]:
    lines = []
    for settlement in result["contracts"]:
        declarers = settlement["declarers"]
        lines.append({"contract": settlement["contract"], "level": settlement["level"],
                      "declarer": declarers[0],
                      "partner": declarers[1] if len(declarers) > 1 else None,
                      "tricks": settlement["tricks"]})
    return lines
