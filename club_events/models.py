from django.db import models
from django.utils.translation import gettext_lazy as _


class ClubEvent(models.Model):
    """An event organised for a club.  ``members_only``: only the club's members see it and
    may register (always, for a members-only club); otherwise anyone may, as for any event.
    ``evening``: the evening of a league season the event is played as (its results become the
    evening's when it ends: ``club_events.evenings``), or None."""

    event = models.OneToOneField("events.Event", on_delete=models.CASCADE,
                                 related_name="club_event")
    club = models.ForeignKey("leagues.Club", on_delete=models.CASCADE, related_name="events")
    members_only = models.BooleanField(_("for the club's members only"), default=True)
    evening = models.OneToOneField("leagues.Evening", on_delete=models.SET_NULL, null=True,
                                   blank=True, related_name="club_event",
                                   verbose_name=_("evening of a league"))

    class Meta:
        verbose_name = _("club's event")
        verbose_name_plural = _("clubs' events")

    def __str__(self):
        return f"{self.club}: {self.event}"
