"""The e-mail before an event: an hour before the start (``REMIND_BEFORE``), once, to each
person registered (and not withdrawn) whose address is confirmed and who has not stopped them.
Sent by the periodic look (``events.periodic``: each serving process's worker, or ``manage.py
start_events``), in each person's own language, with
the site's address from ``settings.SITE_ADDRESS`` (no request to build links from).

Every e-mail ends with a link that stops them: a signed token naming the account and the
address it was sent to, so no login is needed to stop, and a link sent to an earlier address
does nothing.  The stop link asks before it stops (a mail scanner following links changes
nothing); the person turns them on again from their profile."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from events.models import Event, Registration
from games import registry
from whistclub import signed_links
from whistclub.accounts.models import Profile

REMIND_BEFORE = timedelta(hours=1)
SALT = "events.reminders.stop"
INVALID, CHANGED = "invalid", "changed"


def stop_token(user) -> str:
    return signed_links.sign(user.pk, user.email, SALT)


def person_of_stop_token(token: str):
    """The account a stop link was made for, and what is wrong with it: INVALID (altered, not
    ours, or its account gone), CHANGED (made for an earlier address)."""
    data, _expired = signed_links.read(token, SALT)
    if data is None:
        return None, INVALID
    # "user" and "address": the links of the first weeks, which wrote the address out.
    user = (get_user_model().objects.filter(pk=data.get("m", data.get("user")))
            .select_related("profile").first())
    if user is None:
        return None, INVALID
    if "address" in data:
        same = (user.email or "").lower() == str(data["address"]).lower()
    else:
        same = signed_links.made_for(data, user.email)
    return user, None if same else CHANGED


def set_wanted(user, wanted: bool) -> None:
    """The e-mails before events on or off for ``user`` (the stop link; their profile)."""
    Profile.objects.update_or_create(user=user, defaults={"event_reminders": wanted})


def wanted(user) -> bool:
    """Whether ``user`` receives them (the default, without a profile)."""
    return Profile.objects.filter(user=user).values_list(
        "event_reminders", flat=True).first() is not False


def may_write(user) -> bool:
    """A confirmed address that wants them: an account that finished its sign-up (the link
    sent to its address was followed), not a guest, and reminders not stopped."""
    profile = getattr(user, "profile", None)
    return bool(user.email and user.is_active and user.last_login
                and (profile is None or (profile.event_reminders and not profile.is_guest)))


def due(now=None) -> list[Registration]:
    """The registrations to remind now: their event starts within ``REMIND_BEFORE`` and is
    still open, they were made before that hour began (someone who registers in the last hour
    needs no reminder), and none has gone."""
    now = now or timezone.now()
    return list(Registration.objects.filter(
        event__status=Event.Status.REGISTRATION, event__starts_at__gt=now,
        event__starts_at__lte=now + REMIND_BEFORE,
        registered_at__lte=F("event__starts_at") - REMIND_BEFORE,
        withdrawn_at__isnull=True, reminded_at__isnull=True,
    ).select_related("event", "user", "user__profile"))


def message(registration: Registration) -> EmailMessage:
    """The e-mail, in the person's language (their profile's, else the site's)."""
    event, user = registration.event, registration.user
    profile = getattr(user, "profile", None)
    language = (profile.language if profile else "") or settings.LANGUAGE_CODE
    with translation.override(language):
        start = date_format(timezone.localtime(event.starts_at), "l j F Y, H:i")
        page = settings.SITE_ADDRESS + event.get_absolute_url()
        stop = settings.SITE_ADDRESS + reverse("event_reminders_stop", args=[stop_token(user)])
        words = {"event": event.name, "game": registry.game(event.game).label, "start": start}
        subject = _("%(event)s starts in an hour") % words
        body = "\n".join([
            _("%(event)s (%(game)s) starts at %(start)s.") % words,
            "",
            _("You registered for it. Its page, where your table will be:"),
            page,
            "",
            _("Cannot come? Withdraw on that page before the start, and the tables are formed "
              "without you."),
            "",
            "-- ",
            _("To receive no more e-mails before events: %(link)s") % {"link": stop},
        ])
    return EmailMessage(subject, body, to=[user.email],
                        headers={"List-Unsubscribe": f"<{stop}>"})


def send_due(now=None) -> int:
    """Send every reminder due now; how many went.  Each registration is marked as it goes, in
    its own transaction with the row locked, so that two runs at once send it once."""
    sent = 0
    connection = get_connection()
    for registration in due(now):
        with transaction.atomic():
            fresh = (Registration.objects.select_for_update()
                     .filter(pk=registration.pk, reminded_at__isnull=True).first())
            if fresh is None:
                continue
            fresh.reminded_at = timezone.now()
            fresh.save(update_fields=["reminded_at"])
            if may_write(registration.user):
                mail = message(registration)
                mail.connection = connection
                mail.send()
                sent += 1
    return sent
