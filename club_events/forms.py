"""The form of a club's event: the events' own form (``events.forms.EventForm``), and whether
it is for the club's members only (always, for a members-only club: nobody else sees the
club)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from events.forms import EventForm
from events.models import Event


class ClubEventForm(EventForm):
    members_only = forms.BooleanField(
        label=_("For the club's members only"), required=False, initial=True,
        help_text=_("Only the members see the event and may register. Otherwise anyone "
                    "may, and it is on the site's list of events if the club is public."))

    def __init__(self, game: str, club, *args, **kwargs):
        super().__init__(game, *args, **kwargs)
        self.club = club
        # Who sees it follows from the club and the box above.
        del self.fields["visibility"]
        if not club.is_public:
            del self.fields["members_only"]

    @property
    def is_members_only(self) -> bool:
        return not self.club.is_public or self.cleaned_data.get("members_only", True)

    def clean(self):
        data = super().clean()
        data["visibility"] = (Event.Visibility.UNLISTED if self.is_members_only
                              else Event.Visibility.PUBLIC)
        return data
