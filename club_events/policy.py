"""The club's side of ``events.policies``: a members-only club event is its members' alone
(the one rule of who is a member: ``leagues.access.is_member_of``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

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
        if link is None or not link.members_only or is_member_of(link.club, user):
            return None
        return _("This event is for the members of %(club)s.") % {"club": link.club.name}

    def notes(self, event, user) -> list[Note]:
        link = club_event_of(event)
        if link is None:
            return []
        club = link.club
        sees_club = club.is_public or is_member_of(club, user)
        words = (_("An event of %(club)s, for its members.") if link.members_only
                 else _("An event of %(club)s, open to everyone.")) % {"club": club.name}
        return [Note(words, club.get_absolute_url() if sees_club else "")]
