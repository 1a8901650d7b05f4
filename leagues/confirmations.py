"""Asking the owner of a member's address whether the club may write to it, and their answer.

An organiser types addresses; only their owners can say yes.  Adding a member with an address
(one at a time, in bulk) or setting a member's address sends that address one message with a
link (:func:`ask`, through :mod:`leagues.club_mail`: it counts towards the club's daily limit and
goes to one address at most once a day); the link is a signed token naming the member and a
fingerprint of the address, valid ``MEMBER_EMAIL_CONFIRMATION_DAYS`` days, and works only
while that is still the member's address.  Following it and pressing the button (a mail
scanner that opens links says yes to nothing) sets ``Member.confirmed_email``.  Whether an
address counts as confirmed is :attr:`leagues.models.Member.address_confirmed`.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from leagues import club_mail
from leagues.models import Club, ClubEmail, Member
from whistclub import signed_links

SALT = "leagues.confirmations"
INVALID, EXPIRED, CHANGED = "invalid", "expired", "changed"


def token(member: Member) -> str:
    return signed_for_address(member, SALT)


def signed_for_address(member: Member, salt: str) -> str:
    """A link's token naming the member and the address it was sent to (its fingerprint):
    the confirmation's and the stop link's."""
    return signed_links.sign(member.pk, member.email_address, salt)


def member_and_address(data) -> tuple[Member | None, str | None]:
    """The member a token's signed data names, with INVALID (not a token of ours, or the
    member is gone) or CHANGED (made for an address the member no longer has), or None."""
    if not isinstance(data, dict):
        return None, INVALID
    member = Member.objects.select_related("club", "user").filter(pk=data.get("m")).first()
    if member is None:
        return None, INVALID
    if not signed_links.made_for(data, member.email_address):
        return member, CHANGED
    return member, None


def read_token(value: str) -> tuple[Member | None, str | None]:
    """The member a link was made for, and what is wrong with the link (INVALID: altered or not
    ours; EXPIRED; CHANGED: the member's address is no longer the one it was sent to)."""
    data, expired = signed_links.read(value, SALT, max_age=datetime.timedelta(
        days=settings.MEMBER_EMAIL_CONFIRMATION_DAYS))
    member, changed = member_and_address(data)
    if member is None:
        return None, INVALID
    return member, (EXPIRED if expired else None) or changed


def confirm(member: Member) -> bool:
    """The owner said yes to the member's current address; False if it changed meanwhile."""
    address = signed_links.fingerprint(member.email_address)
    with transaction.atomic():
        locked = (Member.objects.select_for_update(of=("self",)).select_related("user")
                  .get(pk=member.pk))
        if signed_links.fingerprint(locked.email_address) != address:
            return False
        if not locked.address_confirmed:
            locked.confirmed_email = locked.email_address
            locked.confirmed_email_at = timezone.now()
            locked.save(update_fields=["confirmed_email", "confirmed_email_at"])
    member.refresh_from_db()
    return True


def needs_asking(member: Member) -> bool:
    """An address not confirmed yet, of a member who has not stopped the e-mails (their stop
    is respected: they are not asked either), not retired and not a guest (a guest gets no
    e-mail until made a member)."""
    return (bool(member.email_address) and not member.address_confirmed and member.reminders
            and not member.retired and not member.guest)


def not_asked(club: Club) -> list[Member]:
    """The members whose address waits for a yes and was never asked (held back by the daily
    limit, say).  Asking again someone who did not answer is one member at a time."""
    asked = set(ClubEmail.objects.filter(club=club, kind=ClubEmail.Kind.CONFIRMATION)
                .values_list("member", "address"))
    return [m for m in club.members.select_related("user").order_by("name")
            if needs_asking(m) and (m.pk, m.email_address.lower()) not in asked]


def last_asked(club: Club) -> dict[int, datetime.datetime]:
    """When each member of the club was last asked to confirm (whatever the address)."""
    return dict(ClubEmail.objects.filter(club=club, kind=ClubEmail.Kind.CONFIRMATION,
                                         member__isnull=False)
                .values("member").annotate(last=Max("sent_at")).values_list("member", "last"))


def ask(request, club: Club, members: list[Member]) -> club_mail.Outcome:
    """One message to each of these members' addresses that waits for its owner's yes."""
    reply = club_mail.reply_to(club, request.user)
    days = settings.MEMBER_EMAIL_CONFIRMATION_DAYS
    outgoing = []
    for member in members:
        if not needs_asking(member):
            continue
        link = request.build_absolute_uri(reverse("leagues:address_confirm",
                                                  args=[token(member)]))
        subject = _("%(club)s would like to e-mail you: please confirm your address") % {
            "club": club.name}
        body = "\n\n".join([
            _("%(club)s, a whist club on %(site)s, has added this address to its list of "
              "members and would like to write to you about its evenings (when and where, the "
              "draw).") % {"club": club.name, "site": request.get_host()},
            ngettext("If you want these e-mails, open this link within %(days)s day and press "
                     "the button:", "If you want these e-mails, open this link within "
                     "%(days)s days and press the button:", days) % {"days": days},
            link,
            _("If you do not, ignore this message: the club cannot write to this address until "
              "you say yes. Once you have, you can stop the e-mails at any time with the link "
              "at the end of each one."),
        ])
        outgoing.append(club_mail.Outgoing(member, club_mail.compose(
            subject, body, member.email_address, reply,
            headers={"Auto-Submitted": "auto-generated"})))
    return club_mail.send(club, request.user, ClubEmail.Kind.CONFIRMATION, outgoing)


def outcome_words(outcome: club_mail.Outcome) -> list[tuple[str, str]]:
    """What the organiser is told, as (level, sentence): level "success", "warning" or
    "error", as django.contrib.messages names them."""
    said = []
    sent = outcome.sent
    if len(sent) == 1:
        said.append(("success", _("A message was sent to %(name)s asking them to confirm their "
                                  "address: the club's e-mails reach them once they do.")
                     % {"name": sent[0].name}))
    elif sent:
        said.append(("success", ngettext(
            "A message was sent to %(count)s member asking them to confirm their address: the "
            "club's e-mails reach them once they do.",
            "A message was sent to %(count)s members asking them to confirm their address: the "
            "club's e-mails reach them once they do.", len(sent)) % {"count": len(sent)}))
    if outcome.over_limit:
        count = len(outcome.over_limit)
        text = ngettext(
            "The club may send %(per_day)s and has reached that limit: %(count)s member was "
            "not asked to confirm their address today. Ask them from the members page "
            "tomorrow.",
            "The club may send %(per_day)s and has reached that limit: %(count)s members were "
            "not asked to confirm their address today. Ask them from the members page "
            "tomorrow.", count) % {"per_day": club_mail.per_day(), "count": count}
        if not sent:
            text = _("Nothing was sent.") + " " + text
        said.append(("warning", text))
    if outcome.too_soon:
        names = [m.name for m in outcome.too_soon]
        said.append(("warning", ngettext(
            "A confirmation was sent to %(names)s less than a day ago; it can be sent again "
            "tomorrow.",
            "Confirmations were sent to %(names)s less than a day ago; they can be sent again "
            "tomorrow.", len(names)) % {"names": club_mail.names_in_words(names)}))
    if outcome.refused:
        said.append(("error", club_mail.refused_words(outcome)))
    return said


def not_confirmed_words(members: list[Member]) -> str:
    names = [m.name for m in members]
    return ngettext("%(names)s has not confirmed their address yet: the club's e-mails do not "
                    "reach them until they follow the link the site sent them.",
                    "%(names)s have not confirmed their address yet: the club's e-mails do not "
                    "reach them until they follow the link the site sent them.",
                    len(names)) % {"names": club_mail.names_in_words(names)}
