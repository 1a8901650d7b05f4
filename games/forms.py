"""The create-table form: every house rule of the chosen game, built from the engine's rules."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import registry
from games.engine_messages import engine_message
from games.rules.base import RulesError


def rule_field(spec: dict, current=None) -> forms.Field:
    """The form field of one house rule, from the engine's description of it; ``current`` is
    the value in force (a league's saved rules), else the default."""
    label = spec["name"].replace("_", " ").capitalize()
    kind, default = spec["kind"], spec["default"]
    initial = default if current is None else current
    # The engine marks each help text for translation (makemessages --keyword=rule:2).
    help_text = gettext(spec["help"])
    if not isinstance(default, (dict, list)):  # a whole table is in the field itself
        help_text += " " + gettext("Default: %(default)s.") % {"default": default}
    common = {"label": label, "help_text": help_text, "initial": initial}
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
    if kind is str:
        return forms.CharField(**common)
    common["initial"] = json.dumps(initial)
    return forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), **common)


class HouseRulesMixin:
    """One field per house rule of a game, the one builder of house-rule forms: online tables
    (``TableForm``) and leagues (``leagues.forms.HouseRulesForm``) offer exactly the same
    options, checked by the engine the same way.  After ``is_valid()``, ``self.rules`` is the
    engine's Rules and ``self.overrides`` the rules that differ from the defaults."""

    RULE_PREFIX = "rule_"

    def add_house_rule_fields(self, game: str, current: dict | None = None) -> None:
        self.rules_class = registry.game(game).rules_class
        self.rule_specs = self.rules_class.describe()
        current = current or {}
        for spec in self.rule_specs:
            self.fields[self.RULE_PREFIX + spec["name"]] = rule_field(
                spec, current.get(spec["name"]))

    def clean_house_rules(self, cleaned: dict) -> None:
        overrides = {}
        for spec in self.rule_specs:
            key = self.RULE_PREFIX + spec["name"]
            if key not in cleaned:
                continue  # the field has its own error already
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
            if isinstance(value, float) and value.is_integer():
                value = int(value)  # a stake multiplier of 2, not 2.0
            overrides[spec["name"]] = value
        try:
            self.rules = self.rules_class.from_overrides(overrides)
        except RulesError as exc:
            raise forms.ValidationError(engine_message(exc)) from None
        self.overrides = self.rules.overrides()


class TableForm(HouseRulesMixin, forms.Form):
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
        self.add_house_rule_fields(game)
        if not registry.game(game).plays_a_number_of_deals:
            del self.fields["deals_limit"]

    def clean(self):
        cleaned = super().clean()
        self.clean_house_rules(cleaned)
        return cleaned
