"""An organiser's e-mail to the members about an evening (the draw, a change of venue), through
Django's e-mail backend (the console unless EMAIL_HOST is set).  Each e-mail ends with a link
that stops them for that member: a signed token, so no login is needed to use it."""

from __future__ import annotations

from django.core import signing
from django.core.mail import EmailMessage, get_connection
from django.urls import reverse
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _

from leagues import history
from leagues.models import Evening, Member

SALT = "leagues.reminders.stop"
COMING, EVERYONE = "coming", "everyone"


def stop_token(member: Member) -> str:
    return signing.dumps(member.pk, salt=SALT)


def member_of_stop_token(token: str) -> Member | None:
    """The member a stop link was made for, or None for a link that was not (or was altered)."""
    try:
        return Member.objects.filter(pk=signing.loads(token, salt=SALT)).first()
    except signing.BadSignature:
        return None


def recipients(evening: Evening, who: str) -> tuple[list[Member], int]:
    """The members to write to (those coming, or every member not retired) and how many of
    those are left out because they have no address or asked for no e-mails."""
    members = evening.season.league.club.members.filter(retired=False)
    if who == COMING:
        members = members.filter(attendances__evening=evening, attendances__coming=True)
    members = list(members.select_related("user").order_by("name").distinct())
    reachable = [m for m in members if m.email_address and m.reminders]
    return reachable, len(members) - len(reachable)


def suggested(evening: Evening) -> dict[str, str]:
    """A subject and a message to start from: when and where, and the draw once made."""
    when = date_format(evening.date, "l j F Y")
    if evening.start_time:
        when += " " + time_format(evening.start_time, "H:i")
    subject = _("%(league)s: %(when)s") % {"league": evening.season.league.name, "when": when}
    lines = [_("%(league)s, %(when)s.") % {"league": evening.season.league.name, "when": when}]
    if evening.venue:
        lines.append(_("Venue: %(venue)s.") % {"venue": evening.venue})
    tables = history.evening_tables(evening)
    if tables:
        lines.append("")
        lines.append(_("The draw:"))
        for item in tables:
            names = ", ".join(str(side["who"]) for side in item["sides"])
            lines.append(_("Table %(number)s: %(names)s") % {"number": item["table"].number,
                                                           "names": names})
    return {"subject": subject, "message": "\n".join(lines)}


def send(request, evening: Evening, who: str, subject: str, message: str) -> tuple[int, int]:
    """One e-mail per member (each with their own stop link); returns (sent, left out)."""
    members, left_out = recipients(evening, who)
    footer = _("You receive this because you are a member of %(club)s. To receive no more "
               "e-mails about evenings: %(link)s")
    club = evening.season.league.club
    mails = [EmailMessage(subject, message + "\n\n-- \n" + footer % {
        "club": club.name,
        "link": request.build_absolute_uri(reverse("leagues:reminders_stop",
                                                   args=[stop_token(member)]))},
        to=[member.email_address]) for member in members]
    with get_connection() as connection:
        connection.send_messages(mails)
    return len(mails), left_out
