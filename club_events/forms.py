"""The form of a club's event: the events' own form (``events.forms.EventForm``), and whether
it is for the club's members only (always, for a members-only club: nobody else sees the
club); for an event played as an evening of a league season, the evening's game and house
rules, and a start on the evening's day (``club_events.evenings``)."""

from __future__ import annotations

import datetime

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club_events import evenings
from events.forms import EventForm
from events.models import LONGEST_ROUND_MINUTES, Event
from leagues.scoring import long_date


class ClubEventForm(EventForm):
    members_only = forms.BooleanField(
        label=_("For the club's members only"), required=False, initial=True,
        help_text=_("Only the members see the event and may register. Otherwise anyone "
                    "may, and it is on the site's list of events if the club is public."))

    def __init__(self, game: str, club, *args, evening=None, **kwargs):
        super().__init__(game, *args, **kwargs)
        self.club = club
        self.evening = evening
        # Who sees it follows from the club and the box above.
        del self.fields["visibility"]
        if not club.is_public:
            del self.fields["members_only"]
        if evening is not None:
            # The league's house rules, not the form's: the evening's deals are the league's.
            for name in [name for name in self.fields if name.startswith(self.RULE_PREFIX)]:
                del self.fields[name]
            self.rule_specs = []
            self.fields["name"].initial = evening.season.league.name
            self.fields["starts_at"].initial = datetime.datetime.combine(
                evening.date, evening.start_time or datetime.time(20, 0)).strftime(
                "%Y-%m-%dT%H:%M")
            self.fields["starts_at"].help_text = _(
                "On the evening's day, %(date)s. The tables are formed at this time; people can "
                "register until then.") % {"date": long_date(evening.date)}
            self.plays_matches = evenings.plays_matches(evening.season.league)
            self.partners_are_fixed_pairs = evenings.partners_are_fixed_pairs(
                evening.season.league)
            if self.partners_are_fixed_pairs:
                self.fields["computer_level"].help_text = _(
                    "The season's registered pairs play together, partners across; a pair "
                    "plays once both its members are registered. With an odd number of pairs, "
                    "one pair each round plays against a pair of computer players, and that "
                    "table does not count for the league.")
            if self.plays_matches:
                # Swiss rounds only: an arena's table has a clock for its block of deals and
                # is formed again as soon as it ends, which a match of any length does not fit.
                format_field = self.fields["format"]
                format_field.choices = [(value, label) for value, label in Event.Format.choices
                                        if value == Event.Format.SWISS]
                format_field.error_messages["invalid_choice"] = _(
                    "An evening of %(game)s is played in Swiss rounds: each table plays a match "
                    "to its end, which an arena's clock does not wait for.") % {
                    "game": evening.season.league.game_description.label}
                del self.fields["arena_minutes"]
                self.fields["deals_per_round"].help_text = _(
                    "Each table plays a match to the league's target: the round's deals in "
                    "order, the same at every table, until its match ends; a match that "
                    "outlasts them goes on with new deals, compared with nobody.")
                self.fields["round_minutes"].help_text = _(
                    "The round clock: leave it empty for %(minutes)s minutes, as a match may "
                    "need many more hands than the round's deals. When the time is up, "
                    "computer players finish the matches left.") % {
                    "minutes": LONGEST_ROUND_MINUTES}

    @property
    def is_members_only(self) -> bool:
        return not self.club.is_public or self.cleaned_data.get("members_only", True)

    def clean(self):
        data = super().clean()
        data["visibility"] = (Event.Visibility.UNLISTED if self.is_members_only
                              else Event.Visibility.PUBLIC)
        if self.evening is not None:
            self._clean_evening(data)
        return data

    def _clean_evening(self, data) -> None:
        refusal = evenings.refusal(self.club, self.evening, self.game)
        if refusal:
            raise forms.ValidationError(refusal)
        self.overrides = dict(self.evening.season.house_rules)
        starts_at = data.get("starts_at")
        if starts_at is not None and timezone.localdate(starts_at) != self.evening.date:
            self.add_error("starts_at", _(
                "The event is the evening of %(date)s: it starts on that day.")
                % {"date": long_date(self.evening.date)})
