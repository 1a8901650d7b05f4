"""The one door of every e-mail the site sends for a club: an organiser's e-mail about an
evening (:mod:`leagues.reminders`) and the request to confirm an address
(:mod:`leagues.confirmations`).

What passes it:

* only to members the club may write to (:func:`may_write`: an address its owner confirmed,
  e-mails not stopped, not retired), except the request to confirm itself;
* at most ``CLUB_EMAILS_PER_DAY`` recipients a club a day (the site's calendar day), the
  requests to confirm included; what is over the limit is not sent and is said
  (:class:`Outcome`), never dropped in silence;
* a request to confirm goes to one address at most once in 24 hours, whichever club asks;
* From the site (``DEFAULT_FROM_EMAIL``), with Reply-To the organiser who sent it: the site
  vouches for no one's address, and answers go to a person.

Each e-mail sent is a :class:`leagues.models.ClubEmail` row: what the limits count.
"""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass, field

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from leagues.models import Club, ClubEmail, Letter, Member

log = logging.getLogger(__name__)

# A request to confirm is not repeated to an address sooner than this.
CONFIRMATION_INTERVAL = datetime.timedelta(days=1)


def may_write(member: Member) -> bool:
    """Whether the club's e-mails may go to this member now (never to a guest: they are not
    on the members list)."""
    return (bool(member.email_address) and member.reminders and not member.retired
            and not member.guest and member.address_confirmed)


def start_of_today() -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(timezone.localdate(), datetime.time.min))


def sent_today(club: Club) -> int:
    return ClubEmail.objects.filter(club=club, sent_at__gte=start_of_today()).count()


def left_today(club: Club) -> int:
    return max(0, settings.CLUB_EMAILS_PER_DAY - sent_today(club))


def reply_to(club: Club, user) -> list[str]:
    """The organiser's address: the club's address for them, else their login's."""
    member = Member.objects.filter(club=club, user=user).select_related("user").first()
    address = member.email_address if member else getattr(user, "email", "")
    return [address] if address else []


def compose(subject: str, body: str, to: str, reply: list[str],
            headers: dict | None = None) -> EmailMessage:
    return EmailMessage(subject, body, from_email=settings.DEFAULT_FROM_EMAIL, to=[to],
                        reply_to=reply, headers=headers)


@dataclass
class Outgoing:
    """One e-mail to one member (its ``to`` is the member's address)."""

    member: Member
    message: EmailMessage


@dataclass
class Outcome:
    """What became of a batch: every member is in exactly one list."""

    sent: list[Member] = field(default_factory=list)
    # The club's daily limit was reached: not sent; can be sent tomorrow.
    over_limit: list[Member] = field(default_factory=list)
    # A request to confirm went to the address less than CONFIRMATION_INTERVAL ago.
    too_soon: list[Member] = field(default_factory=list)
    # The mail server refused (or could not be reached): not sent, not counted.
    refused: list[Member] = field(default_factory=list)


def send(club: Club, by, kind: str, outgoing: list[Outgoing],
         letter: Letter | None = None) -> Outcome:
    """Sends what the limits allow, in order, and says what became of the rest."""
    outcome = Outcome()
    if kind != ClubEmail.Kind.CONFIRMATION:
        unconfirmed = [o.member.name for o in outgoing if not may_write(o.member)]
        if unconfirmed:
            raise ValueError(f"not to be written to: {unconfirmed}")
    with transaction.atomic():
        # Two organisers sending at once: the second counts after the first has written its rows.
        Club.objects.select_for_update().filter(pk=club.pk).first()
        left = left_today(club)
        asked = set()
        if kind == ClubEmail.Kind.CONFIRMATION:
            asked = set(ClubEmail.objects.filter(
                kind=kind, address__in=[o.message.to[0].lower() for o in outgoing],
                sent_at__gt=timezone.now() - CONFIRMATION_INTERVAL).values_list(
                "address", flat=True))
        going = []
        for item in outgoing:
            address = item.message.to[0].lower()
            if address in asked:
                outcome.too_soon.append(item.member)
            elif len(going) >= left:
                outcome.over_limit.append(item.member)
            else:
                if kind == ClubEmail.Kind.CONFIRMATION:
                    asked.add(address)  # two members sharing an address: asked once
                going.append(item)
        rows = ClubEmail.objects.bulk_create(
            ClubEmail(club=club, member=item.member, address=item.message.to[0].lower(),
                      kind=kind, letter=letter, sent_by=by)
            for item in going)
    # Sent after the rows are written, so that the lock is not held while the mail server
    # answers; what it refuses is taken back off the count.
    refused_rows = []
    try:
        with get_connection() as connection:
            for number, item in enumerate(going):
                try:
                    connection.send_messages([item.message])
                except Exception:
                    log.exception("The mail server refused a club's e-mail; the rest of the "
                                  "batch is not tried")
                    refused_rows = rows[number:]
                    break
                outcome.sent.append(item.member)
    except Exception:  # the connection itself failed (opening or closing)
        log.exception("No connection to the mail server for a club's e-mail")
        refused_rows = rows[len(outcome.sent):]
    if refused_rows:
        ClubEmail.objects.filter(pk__in=[r.pk for r in refused_rows]).delete()
        outcome.refused = [r.member for r in refused_rows]
    return outcome


# -- the outcome in words ----------------------------------------------------------------------


def names_in_words(names: list[str], most: int = 10) -> str:
    """'Ann', 'Ann and Bob', 'Ann, Bob and Cy', or the first ``most`` and how many others."""
    if len(names) > most:
        others = len(names) - most
        return ngettext("%(names)s and %(count)s other", "%(names)s and %(count)s others",
                        others) % {"names": ", ".join(names[:most]), "count": others}
    if len(names) < 2:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def per_day() -> str:
    limit = settings.CLUB_EMAILS_PER_DAY
    return ngettext("%(limit)s e-mail a day", "%(limit)s e-mails a day", limit) % {
        "limit": limit}


def refused_words(outcome: Outcome) -> str:
    names = [m.name for m in outcome.refused]
    return ngettext("The mail server did not take the e-mail to %(names)s: nothing was sent "
                    "to them. Try again later.",
                    "The mail server did not take the e-mails to %(names)s: nothing was sent "
                    "to them. Try again later.", len(names)) % {"names": names_in_words(names)}
