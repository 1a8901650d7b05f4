"""The club's side of ``events.policies``: a members-only club event is its members' alone
(the one rule of who is a member: ``leagues.access.is_member_of``), and an event played as an
evening of a league season gives that evening its attendance and its results
(``club_events.evenings``)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from club_events import evenings
from club_events.models import ClubEvent
from events.policies import Note
from leagues.access import is_member_of


def club_event_of(event) -> ClubEvent | None:
    try:
        return event.club_event
    except ClubEvent.DoesNotExist:
        return None


class ClubEventPolicy:
    def may_see(self, event, user) -> bool:
        link = club_event_of(event)
        if link is None or not link.members_only:
            return True
        return (user is not None and user.is_authenticated
                and (event.organiser_id == user.pk or is_member_of(link.club, user)))

    def registration_refusal(self, event, user) -> str | None:
        link = club_event_of(event)
        if link is None:
            return None
        if link.members_only and not is_member_of(link.club, user):
            return _("This event is for the members of %(club)s.") % {"club": link.club.name}
        return evenings.registration_refusal(link)

    def notes(self, event, user) -> list[Note]:
        link = club_event_of(event)
        if link is None:
            return []
        club = link.club
        sees_club = club.is_public or is_member_of(club, user)
        words = (_("An event of %(club)s, for its members.") if link.members_only
                 else _("An event of %(club)s, open to everyone.")) % {"club": club.name}
        notes = [Note(words, club.get_absolute_url() if sees_club else "")]
        if link.evening is not None:
            notes += evening_notes(link, sees_club)
            if event.partners_are_fixed_pairs and event.status != event.Status.FINISHED:
                notes += pair_notes(link, user)
        return notes

    def registration_changed(self, event, user, registered: bool) -> None:
        link = club_event_of(event)
        if link is not None:
            evenings.registration_changed(link, user, registered)

    def fixed_pairs(self, event) -> list[tuple[int, int]] | None:
        link = club_event_of(event)
        return evenings.fixed_pairs(link) if link is not None else None

    def finished(self, event) -> None:
        link = club_event_of(event)
        if link is not None:
            evenings.finished(link)


def evening_notes(link: ClubEvent, sees_club: bool) -> list[Note]:
    """What the event's page says of the evening it is played as."""
    evening = link.evening
    where = evening.get_absolute_url() if sees_club else ""
    said = {"evening": evenings.describe(evening)}
    if link.event.status != link.event.Status.FINISHED:
        return [Note(_("This event is the evening of %(evening)s: when it ends, its results "
                       "become the evening's, and count in the league's standings. "
                       "Registering marks you as coming to the evening.") % said, where),
                Note(_("Only the tables where all the players are members of the club count "
                       "for the league: a table with a computer player or someone who is not "
                       "a member is ranked here, not in the league."))]
    counted, left_out = evenings.entered(link)
    if not counted and evening.season.is_closed:
        return [Note(_("This event was to be the evening of %(evening)s, but the season was "
                       "closed before it ended: its results are not the evening's.") % said,
                     where)]
    notes = [Note(_("This event was the evening of %(evening)s: its results are the evening's.")
                  % said, where)]
    if left_out:
        notes.append(Note(ngettext(
            "One of its tables had a computer player or someone who is not a member of the "
            "club: it is not in the league's standings.",
            "%(count)s of its tables had a computer player or someone who is not a member of "
            "the club: they are not in the league's standings.", left_out)
            % {"count": left_out}))
    return notes


def pair_notes(link: ClubEvent, user) -> list[Note]:
    """An event of the season's registered pairs (``evenings.fixed_pairs``): how pairs play,
    and whether ``user``'s pair plays: a member is seated only with their partner."""
    season = link.evening.season
    notes = [Note(_("The pairs registered for the season %(season)s play together, partners "
                    "across, at every round: a pair plays once both its members are "
                    "registered.") % {"season": season.name})]
    registration = (link.event.registrations.filter(user=user, withdrawn_at__isnull=True).first()
                    if user is not None and user.is_authenticated else None)
    if registration is None:
        return notes
    for pair in evenings.season_pairs(season):
        if user.pk not in (pair.first.user_id, pair.second.user_id):
            continue
        partner = pair.second if pair.first.user_id == user.pk else pair.first
        said = {"partner": partner.name}
        theirs = link.event.registrations.filter(user=partner.user_id,
                                                 withdrawn_at__isnull=True).first()
        if theirs is None:
            notes.append(Note(_("Your partner %(partner)s has not registered: your pair plays "
                                "once both of you are registered.") % said))
        elif theirs.is_away:
            notes.append(Note(_("Your partner %(partner)s is away: your pair plays again once "
                                "both of you are here.") % said))
        else:
            notes.append(Note(_("You play with your partner %(partner)s, your pair of the "
                                "season.") % said))
        return notes
    notes.append(Note(_("You have no pair registered for the season %(season)s: you are not "
                        "seated. An organiser of the club registers the season's pairs.")
                      % {"season": season.name}))
    return notes
