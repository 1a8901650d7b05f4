"""The form that creates an event: its name, who sees it, the format's numbers, the start, and
the game's house rules (the one builder of house-rule forms, ``games.forms.HouseRulesMixin``).
Every refusal is a sentence that says what to change."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.models import MAX_DEALS_PER_ROUND, MAX_ROUNDS, Event
from games.forms import HouseRulesMixin
from games.models import COMPUTER_LEVELS

# How far ahead an event may be set, and how many deals it may have in all (each table plays
# them one after the other: an evening, not a weekend).
LATEST_START_DAYS = 180
MAX_DEALS = 40


def _from_one_to(most: int, value: int, too_few, too_many) -> int:
    """``value``, refused with ``too_few`` below one and with ``too_many`` (of ``%(most)s``)
    above ``most``."""
    if value < 1:
        raise forms.ValidationError(too_few)
    if value > most:
        raise forms.ValidationError(too_many % {"most": most})
    return value


class EventForm(HouseRulesMixin, forms.Form):
    OFFERS_PAPER_ONLY_RULES = False

    name = forms.CharField(label=_("Name of the event"), max_length=80,
                           error_messages={"required": _("Give the event a name.")})
    starts_at = forms.DateTimeField(
        label=_("Start"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        help_text=_("The tables are formed at this time; people can register until then."),
        error_messages={"required": _("Say when the event starts."),
                        "invalid": _("Give the start as a date and a time.")})
    rounds = forms.IntegerField(
        label=_("Rounds"), initial=3,
        help_text=_("Each round, the tables are formed again: the best scores play together."),
        error_messages={"required": _("Say how many rounds the event has."),
                        "invalid": _("The number of rounds is a whole number.")})
    deals_per_round = forms.IntegerField(
        label=_("Deals per round"), initial=4,
        help_text=_("Every table of a round plays the same deals."),
        error_messages={"required": _("Say how many deals each round has."),
                        "invalid": _("The number of deals is a whole number.")})
    visibility = forms.ChoiceField(label=_("Who sees it"), choices=Event.Visibility.choices,
                                   initial=Event.Visibility.PUBLIC)
    computer_level = forms.ChoiceField(
        label=_("Computer players"), choices=COMPUTER_LEVELS, initial="normal",
        help_text=_("They fill the seats nobody takes; their results are not ranked."))

    def __init__(self, game: str, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        self.add_house_rule_fields(game)

    def clean_starts_at(self):
        starts_at = self.cleaned_data["starts_at"]
        now = timezone.now()
        if starts_at <= now:
            raise forms.ValidationError(_("The start is in the past: choose a later time."))
        if starts_at > now + timedelta(days=LATEST_START_DAYS):
            raise forms.ValidationError(
                _("The start is too far ahead: an event starts within %(days)s days.")
                % {"days": LATEST_START_DAYS})
        return starts_at

    def clean_rounds(self):
        return _from_one_to(MAX_ROUNDS, self.cleaned_data["rounds"],
                            _("An event has at least one round."),
                            _("An event has at most %(most)s rounds."))

    def clean_deals_per_round(self):
        return _from_one_to(MAX_DEALS_PER_ROUND, self.cleaned_data["deals_per_round"],
                            _("A round has at least one deal."),
                            _("A round has at most %(most)s deals."))

    def clean(self):
        cleaned = super().clean()
        rounds, count = cleaned.get("rounds"), cleaned.get("deals_per_round")
        if rounds and count and rounds * count > MAX_DEALS:
            self.add_error("deals_per_round", _(
                "That is too many deals: %(rounds)s rounds of %(count)s deals make %(total)s, "
                "and an event has at most %(most)s. Choose fewer rounds or fewer deals.")
                % {"rounds": rounds, "count": count, "total": rounds * count,
                   "most": MAX_DEALS})
        self.clean_house_rules(cleaned)
        return cleaned

    def create(self, organiser) -> Event:
        data = self.cleaned_data
        return Event.objects.create(
            name=data["name"], organiser=organiser, game=self.game,
            rules=self.overrides, visibility=data["visibility"], rounds=data["rounds"],
            deals_per_round=data["deals_per_round"], starts_at=data["starts_at"],
            computer_level=data["computer_level"])
