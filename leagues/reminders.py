"""An organiser's e-mail to the members about an evening (the draw, a change of venue), through
:mod:`leagues.club_mail` (Django's e-mail backend: the console unless EMAIL_HOST is set): only to
members whose address is confirmed, within the club's daily limit.  Each e-mail ends with a
link that stops them for that member: a signed token naming the member and the address it was
sent to, so no login is needed to stop, and a link sent to an earlier address does nothing.
Only the member, signed in, turns them on again.  The e-mail is kept (a Letter), so that what
the daily limit held back can be sent to the rest later."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.urls import reverse
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from leagues import club_mail, history, prizes
from leagues.confirmations import member_and_address, signed_for_address
from leagues.models import ClubChange, ClubEmail, EntryError, Evening, Letter, Member
from leagues.scoring import long_date
from whistclub import signed_links

SALT = "leagues.reminders.stop"
COMING, EVERYONE = "coming", "everyone"


def stop_token(member: Member) -> str:
    return signed_for_address(member, SALT)


def member_of_stop_token(token: str) -> tuple[Member | None, str | None]:
    """The member a stop link was made for, and what is wrong with it: INVALID (altered, not
    ours, or of the old kind that named no address), CHANGED (made for an earlier address)."""
    return member_and_address(signed_links.read(token, SALT)[0])


def may_resume(request, member: Member) -> bool:
    """Only the person, signed in: a stop link can be forwarded, and an organiser may not turn
    on what a member stopped."""
    return request.user.is_authenticated and member.user_id == request.user.pk


def set_wanted(member: Member, wanted: bool) -> None:
    """The member's e-mails about evenings on or off (the stop link, their own page): who may
    turn them on again is decided before (:func:`may_resume`, ``leagues.access``)."""
    member.reminders = wanted
    member.save(update_fields=["reminders"])


@dataclass
class Recipients:
    reachable: list[Member]
    unconfirmed: list[Member]  # an address whose owner has not said yes yet
    left_out: int  # no address, or asked for no e-mails


def recipients(evening: Evening, who: str) -> Recipients:
    """The members to write to (those coming, or every member not retired), those waiting for
    their address to be confirmed, and how many have no address or asked for none."""
    members = evening.season.league.club.members.filter(retired=False, guest=False)
    if who == COMING:
        members = members.filter(attendances__evening=evening, attendances__coming=True)
    members = list(members.select_related("user").order_by("name").distinct())
    reachable = [m for m in members if club_mail.may_write(m)]
    unconfirmed = [m for m in members if m.email_address and m.reminders
                   and not m.address_confirmed]
    return Recipients(reachable, unconfirmed, len(members) - len(reachable) - len(unconfirmed))


def suggested(evening: Evening) -> dict[str, str]:
    """A subject and a message to start from: when and where, and the draw once made."""
    when = long_date(evening.date)
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
            lines.append(_("%(table)s: %(names)s") % {"table": item["table"].label,
                                                    "names": names})
    return {"subject": subject, "message": "\n".join(lines)}


def send(request, evening: Evening, who: str, subject: str, message: str,
         ) -> tuple[club_mail.Outcome, Recipients]:
    """One e-mail per member the club may write to (each with their own stop link)."""
    letter = Letter.objects.create(evening=evening, who=who, subject=subject, message=message,
                                   written_by=request.user)
    people = recipients(evening, who)
    return deliver(request, letter, people.reachable), people


def waiting(letter: Letter) -> list[Member]:
    """Whom the letter would reach now and has not reached: held back by the daily limit (or
    refused by the mail server), or confirmed their address since."""
    reached = set(letter.emails.values_list("member", flat=True))
    return [m for m in recipients(letter.evening, letter.who).reachable if m.pk not in reached]


def waiting_letters(evening: Evening) -> list[tuple[Letter, list[Member]]]:
    """The evening's latest letters that have not reached everyone yet."""
    out = []
    for letter in evening.letters.all()[:3]:
        rest = waiting(letter)
        if rest:
            out.append((letter, rest))
    return out


def deliver(request, letter: Letter, members: list[Member]) -> club_mail.Outcome:
    footer = _("You receive this because you are a member of %(club)s. To receive no more "
               "e-mails about evenings: %(link)s")
    club = letter.evening.season.league.club
    reply = club_mail.reply_to(club, request.user)
    outgoing = []
    for member in members:
        link = request.build_absolute_uri(reverse("leagues:reminders_stop",
                                                  args=[stop_token(member)]))
        body = letter.message + "\n\n-- \n" + footer % {"club": club.name, "link": link}
        outgoing.append(club_mail.Outgoing(member, club_mail.compose(
            letter.subject, body, member.email_address, reply,
            headers={"List-Unsubscribe": f"<{link}>"})))
    return club_mail.send(club, request.user, ClubEmail.Kind.EVENING, outgoing, letter=letter)


def outcome_words(outcome: club_mail.Outcome) -> list[tuple[str, str]]:
    """What the organiser is told after sending, as (level, sentence)."""
    said = []
    if outcome.sent:
        said.append(("success", ngettext("E-mail sent to %(n)s member.",
                                         "E-mail sent to %(n)s members.",
                                         len(outcome.sent)) % {"n": len(outcome.sent)}))
    if outcome.over_limit:
        names = [m.name for m in outcome.over_limit]
        text = ngettext(
            "The club may send %(per_day)s and has reached that limit: %(count)s member did "
            "not receive it (%(names)s).",
            "The club may send %(per_day)s and has reached that limit: %(count)s members did "
            "not receive it (%(names)s).", len(names)) % {
            "per_day": club_mail.per_day(), "count": len(names),
            "names": club_mail.names_in_words(names)}
        text += " " + _("It is kept: send it to them from this page tomorrow.")
        if not outcome.sent:
            text = _("Nothing was sent.") + " " + text
        said.append(("warning", text))
    if outcome.refused:
        said.append(("error", club_mail.refused_words(outcome)))
    if not said:
        said.append(("info", _("Nobody to send it to: no member it is meant for can be reached "
                               "by e-mail.")))
    return said


def recipients_words(people: Recipients) -> list[str]:
    """Who was left out of an e-mail, in words."""
    said = []
    if people.unconfirmed:
        said.append(ngettext(
            "%(n)s member has not confirmed their address yet and did not receive it.",
            "%(n)s members have not confirmed their address yet and did not receive it.",
            len(people.unconfirmed)) % {"n": len(people.unconfirmed)})
    if people.left_out:
        said.append(ngettext("%(n)s member has no e-mail address or asked for none.",
                             "%(n)s members have no e-mail address or asked for none.",
                             people.left_out) % {"n": people.left_out})
    return said


def send_results(request, evening: Evening, seen: int | None
                 ) -> tuple[club_mail.Outcome, Recipients]:
    """The evening's results and prizes (``leagues.prizes``) e-mailed to every member the club
    may write to, kept as a letter (what the daily limit holds back is sent later from the
    e-mail page) and recorded in the club's history.  ``seen``: how many times the page said they were sent; a form sent twice
    (a double tap) or from a page left open sends nothing.  Raises ``EntryError`` (nothing
    sent) while a table has no result."""
    with transaction.atomic():
        Evening.objects.select_for_update().get(pk=evening.pk)  # one sending at a time
        if seen != prizes.times_sent(evening):
            raise EntryError(_("The results of this evening were sent already: the page was "
                               "not up to date, nothing was sent."))
        prizes.refuse_if_not_done(evening)
        lines = prizes.evening_lines(evening)
        won = prizes.prizes(evening, lines)
        subject, message = prizes.results_letter(evening, lines, won)
        letter = Letter.objects.create(evening=evening, who=EVERYONE,
                                       subject=subject, message=message,
                                       written_by=request.user)
        league = evening.season.league
        change = ClubChange.record(league.club, request.user, "results_sent", None, {
            "evening": evening.pk, "date": evening.date.isoformat(), "league": league.name,
            "prizes": [[p.kind, p.names] for p in won]})
    people = recipients(evening, EVERYONE)
    outcome = deliver(request, letter, people.reachable)
    change.after.update(sent=len(outcome.sent), held_back=len(outcome.over_limit))
    change.save(update_fields=["after"])
    return outcome, people
