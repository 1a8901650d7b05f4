"""Cutthroat Bid Whist's score sheet: the declarer, the bid (tricks out of 18 and a mode) and
the tricks the declarer took (the discards included).  A match to ``game_target`` (30), each
player for themselves."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy, ngettext

from games import registry
from games.rules import cutthroat_bid_whist as engine
from leagues.paper.common import MATCH_TALLY as MATCH_TALLY  # no count beside the score
from leagues.paper.common import NOT_AT_THIS_TABLE, ChoiceButtons, seat_choices
from leagues.paper.common import engine_points as engine_points  # the engine's points
from leagues.scoring import Outcome


class DealForm(forms.Form):
    declarer = forms.TypedChoiceField(label=gettext_lazy("Declarer"), coerce=int,
                                      widget=ChoiceButtons, error_messages=NOT_AT_THIS_TABLE)
    bid = forms.IntegerField(label=gettext_lazy("Bid (tricks out of 18)"), min_value=1,
                             max_value=engine.MAX_BID)
    mode = forms.ChoiceField(label=gettext_lazy("Direction"), widget=ChoiceButtons)
    tricks = forms.IntegerField(label=gettext_lazy("Tricks taken by the declarer, discards "
                                                   "included"), min_value=1,
                                max_value=engine.TRICKS_IN_ALL)

    def __init__(self, names: list[str], *args, rules=None, **kwargs):
        super().__init__(*args, **kwargs)  # every mode is played under any house rules
        self.fields["declarer"].choices = seat_choices(names)
        self.fields["mode"].choices = registry.game(engine.GAME).contract_choices()

    @property
    def facts(self) -> dict:
        data = self.cleaned_data
        return {"declarer": data["declarer"], "bid": data["bid"], "mode": data["mode"],
                "tricks": data["tricks"]}

    @staticmethod
    def initial_from(facts: dict) -> dict:
        return dict(facts)


def match_result(rules, facts: dict) -> dict:
    """The line as the engine's ``Match.add_result`` takes it."""
    return engine.score_hand(rules, facts["bid"], facts["mode"], facts["declarer"],
                             facts["tricks"])


def score(rules, facts: dict) -> Outcome:
    scored = match_result(rules, facts)
    return Outcome(points=list(scored["points"]), contract=f'{facts["bid"]} {facts["mode"]}',
                   declarer=facts["declarer"], made=scored["made"])


def describe(facts: dict, names: list[str]) -> str:
    contract = registry.game(engine.GAME).contract_label(f'{facts["bid"]} {facts["mode"]}')
    return ngettext("%(who)s bid %(contract)s, took %(tricks)s trick",
                    "%(who)s bid %(contract)s, took %(tricks)s tricks", facts["tricks"]) % {
        "who": names[facts["declarer"]], "contract": contract, "tricks": facts["tricks"]}


def sheet_lines(result: dict) -> list[dict]:
    bid, mode = result["bid"].split()
    declarer = result["declarer"]
    return [{"declarer": declarer, "bid": int(bid), "mode": mode,
             "tricks": result["books"][declarer]}]
