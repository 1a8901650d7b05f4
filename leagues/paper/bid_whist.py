"""Bid Whist's score sheet: the bidding team, the bid (books over six and a mode), the books
the team took (the kitty book included), a revoke.  A match to ``game_target``."""

from __future__ import annotations

from django import forms
from django.core.validators import MinValueValidator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import registry
from games.rules import bid_whist as engine
from leagues.paper.common import (
    NOT_AT_THIS_TABLE,
    ChoiceButtons,
    MatchTally,
    revoke_choices,
    revoke_field,
    seat_choices,
    with_revoke,
)
from leagues.paper.common import engine_points as engine_points  # the engine's points
from leagues.scoring import Outcome


class DealForm(forms.Form):
    """One hand of a Bid Whist match as the score sheet records it."""

    team = forms.TypedChoiceField(label=gettext_lazy("Bidding team"), coerce=int,
                                  widget=ChoiceButtons, error_messages=NOT_AT_THIS_TABLE)
    # Buttons from the league's lowest bid to seven: one tap, and no bid the rules refuse.
    bid = forms.TypedChoiceField(label=gettext_lazy("Bid (books over six)"), coerce=int,
                                 widget=ChoiceButtons, error_messages={"invalid_choice":
                                 gettext_lazy("This league's house rules do not allow that "
                                              "bid.")})
    mode = forms.ChoiceField(label=gettext_lazy("Direction"), widget=ChoiceButtons)
    books = forms.IntegerField(label=gettext_lazy("Books taken by the bidding team, kitty "
                                                  "included"), min_value=0, max_value=13)
    revoke = revoke_field()

    def __init__(self, names: list[str], *args, rules=None, **kwargs):
        super().__init__(*args, **kwargs)  # every mode is played under any house rules
        self.fields["team"].choices = seat_choices(names)
        rules = engine.Rules() if rules is None else rules
        lowest = rules.min_bid
        if rules.shape.kitty_size:  # the discards are the bidding team's first book
            books = self.fields["books"]
            books.min_value = 1
            books.widget.attrs["min"] = 1
            books.validators = [v for v in books.validators
                                if getattr(v, "code", "") != "min_value"]
            books.error_messages["min_value"] = _(
                "The bidding team takes at least 1 book: the kitty they laid away is their "
                "first.")
            books.validators.append(MinValueValidator(1, books.error_messages["min_value"]))
        self.fields["bid"].choices = [(b, str(b)) for b in range(lowest, engine.MAX_BID + 1)]
        self.fields["mode"].choices = registry.game(engine.GAME).contract_choices()
        self.fields["revoke"].choices = revoke_choices(names)

    @property
    def facts(self) -> dict:
        data = self.cleaned_data
        return {"team": data["team"], "bid": data["bid"], "mode": data["mode"],
                "books": data["books"], "revoke": data["revoke"]}

    @staticmethod
    def initial_from(facts: dict) -> dict:
        return {**facts, "revoke": "" if facts.get("revoke") is None else facts["revoke"]}


def _scored(rules, facts: dict) -> dict:
    return engine.score_hand(rules, facts["bid"], facts["mode"], facts["team"], facts["books"],
                             facts.get("revoke"))


def score(rules, facts: dict) -> Outcome:
    scored = _scored(rules, facts)
    return Outcome(points=list(scored["points"]), contract=f'{facts["bid"]} {facts["mode"]}',
                   declarer=facts["team"], made=scored["made"] or scored["boston"])


def match_result(rules, facts: dict) -> dict:
    """The line as the engine's ``Match.add_result`` takes it."""
    return {**_scored(rules, facts), "declarer": facts["team"]}


def describe(facts: dict, names: list[str]) -> str:
    contract = registry.game(engine.GAME).contract_label(f'{facts["bid"]} {facts["mode"]}')
    text = ngettext("%(team)s bid %(contract)s, took %(books)s book",
                    "%(team)s bid %(contract)s, took %(books)s books", facts["books"]) % {
        "team": names[facts["team"]], "books": facts["books"], "contract": contract}
    return with_revoke(text, facts, names)


def sheet_lines(result: dict) -> list[dict]:
    bid, mode = result["bid"].split()
    team = engine.team_of(result["declarer"])  # pair 0 sits in seats 0 and 2
    return [{"team": team, "bid": int(bid), "mode": mode, "books": result["books"][team],
             "revoke": None}]


def made_a_boston(result: dict) -> bool:
    """All thirteen books (the game's page in docs/rules/, "A Boston")."""
    return bool(result["boston"])


# A Boston counts for the pair that made it; a league may rank pairs on equal league points by
# their Bostons first (``League.TieBreak.BOSTONS``).
MATCH_TALLY = MatchTally(label=gettext_lazy("Bostons"), tie_break="bostons",
                         counts=made_a_boston)
