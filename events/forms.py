"""The form that creates an event: its name, who sees it, its format (Swiss rounds or an
arena) and the format's numbers, the start, and the game's house rules (the one builder of
house-rule forms, ``games.forms.HouseRulesMixin``).
Every refusal is a sentence that says what to change."""

from __future__ import annotations

import math
from datetime import timedelta

from django import forms
from django.template.defaultfilters import floatformat
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from events.models import (
    EVENT_MOVE_SECONDS,
    LEAST_MINUTES_PER_DEAL,
    LONGEST_ARENA_MINUTES,
    LONGEST_ROUND_MINUTES,
    MAX_DEALS_PER_ROUND,
    MAX_ROUNDS,
    MINUTES_PER_DEAL,
    SHORTEST_ARENA_MINUTES,
    Event,
    usual_round_minutes,
)
from games import registry
from games.forms import HouseRulesMixin
from games.models import COMPUTER_LEVELS

# How far ahead an event may be set, and how many deals it may have in all (each table plays
# them one after the other: an evening, not a weekend).
LATEST_START_DAYS = 180
# The organiser's cap of the difference score: at most this many times the game's own.
CAP_TIMES_MOST = 10
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
    format = forms.ChoiceField(
        label=_("Format"), choices=Event.Format.choices, initial=Event.Format.SWISS,
        widget=forms.RadioSelect,
        error_messages={"required": _("Choose Swiss rounds or an arena."),
                        "invalid_choice": _("Choose Swiss rounds or an arena.")})
    rounds = forms.IntegerField(
        label=_("Rounds"), initial=3, required=False,
        help_text=_("Swiss rounds: each round, the tables are formed again: the best scores "
                    "play together."),
        error_messages={"invalid": _("The number of rounds is a whole number.")})
    deals_per_round = forms.IntegerField(
        label=_("Deals per round"), initial=4,
        help_text=_("Every table of a round plays the same deals. In an arena: the deals each "
                    "table plays before its players are seated again."),
        error_messages={"required": _("Say how many deals each round has."),
                        "invalid": _("The number of deals is a whole number.")})
    arena_minutes = forms.IntegerField(
        label=_("Length of the arena (minutes)"), required=False,
        error_messages={"invalid": _("The length of the arena is a whole number of "
                                     "minutes.")})
    round_minutes = forms.IntegerField(
        label=_("Minutes per round"), required=False,
        error_messages={"invalid": _("The minutes per round are a whole number.")})
    move_seconds = forms.TypedChoiceField(
        label=_("Time for each move"), coerce=int, initial=Event._meta.get_field(
            "move_seconds").default,
        help_text=_("When a player has not moved in this time, a computer player makes that "
                    "one move for them; they keep their seat and play the next one."),
        error_messages={"required": _("Choose the time for each move."),
                        "invalid_choice": _("Choose one of the times offered for a move.")})
    late_deals = forms.ChoiceField(
        label=_("Deals not finished when the round's time is up"),
        choices=Event.LateDeals.choices, initial=Event.LateDeals.COMPUTERS,
        widget=forms.RadioSelect,
        error_messages={"required": _("Choose what becomes of the deals not finished in "
                                      "time."),
                        "invalid_choice": _("Choose what becomes of the deals not finished "
                                            "in time.")})
    scoring = forms.ChoiceField(
        label=_("Scoring"), choices=Event.Scoring.choices, initial=Event.Scoring.MATCHPOINTS,
        widget=forms.RadioSelect, required=False,
        error_messages={"invalid_choice": _("Choose matchpoints or the difference from the "
                                            "field.")})
    chosen_cap = forms.IntegerField(
        label=_("Cap of the difference a deal"), required=False,
        error_messages={"invalid": _("The cap is a whole number.")})
    visibility = forms.ChoiceField(label=_("Who sees it"), choices=Event.Visibility.choices,
                                   initial=Event.Visibility.PUBLIC)
    computer_level = forms.ChoiceField(
        label=_("Computer players"), choices=COMPUTER_LEVELS, initial="normal",
        help_text=_("They fill the seats nobody takes; their results are not ranked."))

    # Each table plays a match to the target (``Event.plays_matches``): only an event played
    # as a league evening of a match's game sets it (``club_events.forms``).
    plays_matches = False
    # Its partners are fixed pairs (``Event.partners_are_fixed_pairs``): likewise, an evening
    # of a league of registered pairs.
    partners_are_fixed_pairs = False

    def __init__(self, game: str, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        # Said in the reader's language: built here, not when the module is read.
        self.fields["round_minutes"].help_text = _(
            "The round clock: leave it empty for %(minutes)s minutes a deal. When the time is "
            "up, the deals left are finished or scored as chosen below and the next round is "
            "formed: one slow table does not hold up the others.") % {
            "minutes": MINUTES_PER_DEAL}
        self.fields["arena_minutes"].help_text = _(
            "An arena only: for this long, a table that finishes is formed again at once with "
            "players who are free, by score. From %(least)s to %(most)s minutes.") % {
            "least": SHORTEST_ARENA_MINUTES, "most": LONGEST_ARENA_MINUTES}
        self.fields["move_seconds"].choices = [
            (seconds, _("%(seconds)s seconds") % {"seconds": seconds})
            for seconds in EVENT_MOVE_SECONDS]
        self.fields["scoring"].help_text = scoring_help(game)
        description = registry.game(game)
        words = _(
            "Scoring by difference only: the most one deal moves a total, in %(unit)s. Leave it "
            "empty for the game's own, %(cap)s at the usual house rules.")
        if description.cap_worked_out:
            # Belgian Whist: the cap follows the event's points table (docs/events.md).
            words = _(
                "Scoring by difference only: the most one deal moves a total, in %(unit)s. Leave "
                "it empty for the game's own, worked out from the points table below: %(cap)s "
                "with the usual table, more with bigger numbers.")
        self.fields["chosen_cap"].help_text = words % {
            "unit": description.unit,
            "cap": floatformat(description.cap_for(description.rules_class()), -2)}
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

    @property
    def _arena(self) -> bool:
        return self.data.get("format") == Event.Format.ARENA

    def clean_scoring(self):
        # Not chosen (a form posted without it): matchpoints, the usual.
        return self.cleaned_data["scoring"] or Event.Scoring.MATCHPOINTS

    def clean_rounds(self):
        if self._arena:
            return 1  # an arena is one stretch of time, not rounds
        if self.cleaned_data["rounds"] is None:
            raise forms.ValidationError(_("Say how many rounds the event has."))
        return _from_one_to(MAX_ROUNDS, self.cleaned_data["rounds"],
                            _("An event has at least one round."),
                            _("An event has at most %(most)s rounds."))

    def clean_deals_per_round(self):
        return _from_one_to(MAX_DEALS_PER_ROUND, self.cleaned_data["deals_per_round"],
                            _("A round has at least one deal."),
                            _("A round has at most %(most)s deals."))

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("format") == Event.Format.ARENA:
            self._clean_arena(cleaned)
        else:
            self._clean_swiss(cleaned)
        self.clean_house_rules(cleaned)
        self._clean_cap(cleaned)
        return cleaned

    def _clean_cap(self, cleaned) -> None:
        """The organiser's cap: only for an event scored by difference, from 1 to ten times
        the game's own under the house rules chosen."""
        cap = cleaned.get("chosen_cap")
        if cleaned.get("scoring") != Event.Scoring.DIFFERENCE or cap is None:
            cleaned["chosen_cap"] = None
            return
        description = registry.game(self.game)
        rules = getattr(self, "rules", None) or description.rules_class()
        most = math.ceil(CAP_TIMES_MOST * description.cap_for(rules))
        if cap < 1:
            self.add_error("chosen_cap", _("The cap is at least 1."))
        elif cap > most:
            self.add_error("chosen_cap", _(
                "The cap is at most %(most)s %(unit)s a deal, ten times the game's own: choose "
                "a smaller one, or leave it empty.") % {"most": most,
                                                       "unit": description.unit})

    def _clean_arena(self, cleaned) -> None:
        minutes, count = cleaned.get("arena_minutes"), cleaned.get("deals_per_round")
        cleaned["round_minutes"] = None
        if "arena_minutes" in self.errors:
            return
        if minutes is None:
            self.add_error("arena_minutes", _("Say how long the arena lasts, in minutes."))
        elif minutes < SHORTEST_ARENA_MINUTES:
            self.add_error("arena_minutes", _("An arena lasts at least %(least)s minutes.")
                           % {"least": SHORTEST_ARENA_MINUTES})
        elif minutes > LONGEST_ARENA_MINUTES:
            self.add_error("arena_minutes", _("An arena lasts at most %(most)s minutes.")
                           % {"most": LONGEST_ARENA_MINUTES})
        elif count and minutes < count * LEAST_MINUTES_PER_DEAL:
            self.add_error("arena_minutes", _(
                "That is too short for one table: %(count)s deals need at least %(least)s "
                "minutes (%(each)s a deal). Choose a longer arena or fewer deals a table.")
                % {"count": count, "least": count * LEAST_MINUTES_PER_DEAL,
                   "each": LEAST_MINUTES_PER_DEAL})

    def _clean_swiss(self, cleaned) -> None:
        cleaned["arena_minutes"] = None
        rounds, count = cleaned.get("rounds"), cleaned.get("deals_per_round")
        minutes = cleaned.get("round_minutes")
        if minutes is not None and minutes > LONGEST_ROUND_MINUTES:
            self.add_error("round_minutes", _("A round lasts at most %(most)s minutes.")
                           % {"most": LONGEST_ROUND_MINUTES})
        elif minutes is not None and count and minutes < count * LEAST_MINUTES_PER_DEAL:
            self.add_error("round_minutes", _(
                "That is too short: a round of %(count)s deals needs at least %(least)s "
                "minutes (%(each)s a deal).") % {"count": count,
                                                  "least": count * LEAST_MINUTES_PER_DEAL,
                                                  "each": LEAST_MINUTES_PER_DEAL})
        elif minutes is not None and minutes < 1:
            self.add_error("round_minutes", _("A round lasts at least one minute."))
        if rounds and count and rounds * count > MAX_DEALS:
            self.add_error("deals_per_round", _(
                "That is too many deals: %(rounds)s rounds of %(count)s deals make %(total)s, "
                "and an event has at most %(most)s. Choose fewer rounds or fewer deals.")
                % {"rounds": rounds, "count": count, "total": rounds * count,
                   "most": MAX_DEALS})

    def create(self, organiser) -> Event:
        data = self.cleaned_data
        return Event.objects.create(
            name=data["name"], organiser=organiser, game=self.game,
            rules=self.overrides, visibility=data["visibility"], format=data["format"],
            rounds=data["rounds"], deals_per_round=data["deals_per_round"],
            starts_at=data["starts_at"], computer_level=data["computer_level"],
            arena_minutes=data.get("arena_minutes"),
            round_minutes=None if data["format"] == Event.Format.ARENA else (
                data.get("round_minutes") or usual_round_minutes(data["deals_per_round"],
                                                                 self.plays_matches)),
            move_seconds=data["move_seconds"], late_deals=data["late_deals"],
            scoring=data["scoring"], chosen_cap=data.get("chosen_cap"),
            plays_matches=self.plays_matches,
            partners_are_fixed_pairs=self.partners_are_fixed_pairs)


def scoring_help(game: str) -> str:
    """The two ways of scoring an event of ``game``, in plain words, with the game's cap."""
    description = registry.game(game)
    cap = description.cap_for(description.rules_class())
    said = gettext(
        "Matchpoints: each result is compared with those of the tables that held the same "
        "cards: 2 for each result beaten, 1 for each tie; you score a percentage of the most "
        "you could make, however large the margins. Difference: each result minus the average "
        "of those tables, at most %(cap)s %(unit)s up or down a deal so that one wild deal "
        "does not decide the event; the standings add them up.") % {
        "unit": description.unit, "cap": floatformat(cap, -2)}
    if description.swings_widely:
        said += " " + gettext(
            "The deals of %(game)s are worth very different amounts: the difference counts how "
            "much a result gained, where matchpoints count only how many it beat.") % {
            "game": description.label}
    return said
