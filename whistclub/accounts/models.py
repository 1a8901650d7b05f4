from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Profile(models.Model):
    """What a person tells the site about themselves beyond Django's user."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="profile")
    display_name = models.CharField(_("display name"), max_length=60, blank=True,
                                    help_text=_("The name other players see at tables and in standings."))
    language = models.CharField(_("preferred language"), max_length=8, blank=True,
                                choices=settings.LANGUAGES,
                                help_text=_("Leave empty to follow your browser."))
    four_colour_deck = models.BooleanField(
        _("four-colour deck"), default=False,
        help_text=_("Diamonds in blue and clubs in green, so that no two suits share a colour."))
    table_sounds = models.BooleanField(
        _("sounds at the table"), default=False,
        help_text=_("A short sound when it is your turn and when a trick is won."))
    event_reminders = models.BooleanField(
        _("e-mail before my events"), default=True,
        help_text=_("An e-mail an hour before an event you registered for starts."))
    # A guest plays without having signed up (whistclub.accounts.guests); signing up turns the
    # same account into an ordinary one, so their tables and hands stay theirs.
    is_guest = models.BooleanField(_("guest"), default=False, editable=False)
    # Which address started a guest, as a keyed hash (never the address): guests are counted
    # per address and hour.
    guest_from = models.CharField(max_length=64, blank=True, editable=False)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self):
        return self.name

    @property
    def name(self) -> str:
        return self.display_name or self.user.get_username()


def profile_for(user) -> Profile:
    """The user's profile, created on first use (users made before profiles existed have none)."""
    profile, _created = Profile.objects.get_or_create(user=user)
    return profile
