"""The create-table form: every house rule of the chosen game, built from the engine's rules."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import registry
from games.engine_messages import engine_message
from games.rules import game_module
from games.rules.base import RulesError


def rule_field(spec: dict) -> forms.Field:
    label = spec["name"].replace("_", " ").capitalize()
    help_text = gettext(spec["help"]) + " " + gettext("Default: %(default)s.") % {
        "default": json.dumps(spec["default"]) if isinstance(spec["default"], dict)
        else spec["default"]}
    kind, default = spec["kind"], spec["default"]
    common = {"label": label, "help_text": help_text, "initial": default}
    if kind is bool:
        return forms.BooleanField(required=False, **common)
    if spec.get("choices"):
        return forms.ChoiceField(choices=[(c, c) for c in spec["choices"]], **common)
    if kind is int:
        return forms.IntegerField(min_value=spec.get("minimum"), max_value=spec.get("maximum"),
                                  **common)
    if kind is float:
        return forms.FloatField(min_value=spec.get("minimum"), max_value=spec.get("maximum"),
                                **common)
    common["initial"] = json.dumps(default)
    return forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), **common)


class TableForm(forms.Form):
    is_private = forms.BooleanField(
        label=_("Private table"), required=False,
        help_text=_("Only people you send the invite link to can find and watch it."))
    deals_limit = forms.IntegerField(
        label=_("Number of deals"), required=False, min_value=1, max_value=200,
        help_text=_("Solo and Belgian Whist: the session ends after this many deals. "
                    "Leave empty to play until the table closes. Bid Whist plays to 7."))

    grace_seconds = forms.IntegerField(
        label=_("Grace period (seconds)"), initial=60, min_value=10, max_value=600,
        required=False,
        help_text=_("How long a player who drops off keeps their seat before a computer player "
                    "takes over; they get it back as soon as they return."))

    def __init__(self, game: str, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        self.rules_class = game_module(game).Rules
        self.rule_specs = self.rules_class.describe()
        for spec in self.rule_specs:
            self.fields[f"rule_{spec['name']}"] = rule_field(spec)
        if not registry.game(game).plays_a_number_of_deals:
            del self.fields["deals_limit"]

    def clean(self):
        cleaned = super().clean()
        overrides = {}
        for spec in self.rule_specs:
            key = f"rule_{spec['name']}"
            if key not in cleaned:
                continue
            value = cleaned[key]
            if spec["kind"] not in (bool, int, float, str) and isinstance(value, str):
                try:
                    value = json.loads(value)
                except json.JSONDecodeError as exc:
                    self.add_error(key, _("Not valid JSON: %(reason)s") % {"reason": exc.msg})
                    continue
                except (ValueError, RecursionError):  # a 5,000-digit number, 50,000 "["
                    self.add_error(key, _("This value is too large or too deeply nested."))
                    continue
            overrides[spec["name"]] = value
        try:
            self.rules = self.rules_class.from_overrides(overrides)
        except RulesError as exc:
            raise forms.ValidationError(engine_message(exc)) from None
        return cleaned
