"""The one chokepoint for access to clubs and everything in them.

Every view gets its objects through these helpers, never through an ad-hoc filter:

* a members-only club is invisible (404) to anyone who is not a member of it;
* a visible object that the person may not change answers 403;
* an organiser's powers stop at their own club: every object is looked up *within* the club of
  the URL, so an id from another club is a 404;
* the club's people (the member list, every member's page, and who is coming to an evening or
  came to it) are for its members only, even in a public club: ``ClubAccess.sees_members`` is
  that one rule (:func:`check_members_visible` refuses a page of them).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from leagues.models import Club, Evening, EveningTable, Invite, League, Member, Partnership, Season

VIEW, MEMBER, ORGANISER = "view", "member", "organiser"


@dataclass
class ClubAccess:
    club: Club
    member: Member | None  # the viewer's membership, if any

    @property
    def is_member(self) -> bool:
        return self.member is not None

    @property
    def is_organiser(self) -> bool:
        return self.member is not None and self.member.is_organiser

    @property
    def sees_members(self) -> bool:
        """The one rule for the club's people (who is in it, who comes when and where): its
        members see them; anyone else, even in a public club, does not.  Member ids are
        sequential, so a page that answered outsiders would list the club one id at a time,
        and an evening's answers say who will be at which venue on which date."""
        return self.is_member


def get_club_access(request, slug: str, need: str = VIEW) -> ClubAccess:
    """The club of ``slug`` and the viewer's membership: 404 if invisible, 403 if not allowed."""
    return check_access(request, get_object_or_404(Club, slug=slug), need)


def check_access(request, club: Club, need: str) -> ClubAccess:
    member = None
    if request.user.is_authenticated:
        member = Member.objects.filter(club=club, user=request.user).first()
    access = ClubAccess(club, member)
    if not club.is_public and not access.is_member:
        raise Http404("No such club")
    if need == MEMBER and not access.is_member:
        raise PermissionDenied
    if need == ORGANISER and not access.is_organiser:
        raise PermissionDenied
    return access


def is_member_of(club: Club, user) -> bool:
    """Whether ``user`` (maybe anonymous) is one of ``club``'s members, as ``check_access``
    counts them: for what other apps decide by membership (a club's members-only event)."""
    return bool(user is not None and user.is_authenticated
                and Member.objects.filter(club=club, user=user).exists())


def check_members_visible(access: ClubAccess) -> None:
    """A page of the club's people (the member list, each member's page) for whoever
    ``access.sees_members``; anyone else, even in a public club, is refused (403; a
    members-only club is already invisible: 404)."""
    if not access.sees_members:
        raise PermissionDenied


def get_club_members(request, slug) -> ClubAccess:
    """The club whose member list the viewer asks for (see :func:`check_members_visible`)."""
    access = get_club_access(request, slug, VIEW)
    check_members_visible(access)
    return access


def get_club_for_viewer(request, slug):
    return get_club_access(request, slug, VIEW)


def get_club_for_organiser(request, slug):
    return get_club_access(request, slug, ORGANISER)


# Objects inside a club are fetched together with their club, by the club's slug, in one
# query; then the viewer's membership is checked.  An object of another club is a 404.


def get_league(request, slug, league_id, need=VIEW) -> tuple[ClubAccess, League]:
    league = get_object_or_404(League.objects.select_related("club"), pk=league_id,
                               club__slug=slug)
    return check_access(request, league.club, need), league


def get_league_house_rules(request, slug, league_id) -> tuple[ClubAccess, League]:
    """A league's house rules page: whoever sees the league reads every rule (its members
    above all: they play by them); only its organisers change them (a post from anyone else
    is 403, and changes nothing)."""
    need = ORGANISER if request.method == "POST" else VIEW
    return get_league(request, slug, league_id, need)


def may_change_house_rules(access: ClubAccess) -> bool:
    return access.is_organiser


def get_season(request, slug, season_id, need=VIEW) -> tuple[ClubAccess, Season]:
    season = get_object_or_404(Season.objects.select_related("league__club"), pk=season_id,
                               league__club__slug=slug)
    return check_access(request, season.league.club, need), season


def get_evening(request, slug, evening_id, need=VIEW) -> tuple[ClubAccess, Evening]:
    evening = get_object_or_404(Evening.objects.select_related("season__league__club"),
                                pk=evening_id, season__league__club__slug=slug)
    return check_access(request, evening.season.league.club, need), evening


def get_table(request, slug, table_id, need=VIEW) -> tuple[ClubAccess, EveningTable]:
    table = get_object_or_404(
        EveningTable.objects.select_related(
            "evening__season__league__club", "pair_0__first", "pair_0__second",
            "pair_1__first", "pair_1__second", "totals_entered_by__user"),
        pk=table_id, evening__season__league__club__slug=slug)
    return check_access(request, table.league.club, need), table


def may_enter_results(access: ClubAccess, table: EveningTable) -> bool:
    """Organisers enter and correct results; a player seated at the table may too when the
    league allows entry at the table (their entry is then provisional).  Nobody once the
    season is closed: its results are final (the page offers no form)."""
    return not table.evening.season.is_closed and _enters_results(access, table)


def _enters_results(access: ClubAccess, table: EveningTable) -> bool:
    if access.is_organiser:
        return True
    return bool(access.member and table.league.players_enter_results
                and access.member in table.seat_members())


def get_table_for_entry(request, slug, table_id) -> tuple[ClubAccess, EveningTable]:
    """A table whose results the viewer may enter (:func:`may_enter_results`), else 403."""
    access, table = get_table(request, slug, table_id, MEMBER)
    # A closed season is refused in words by the entry itself (a page left open before it
    # closed), not as a forbidden page.
    if not _enters_results(access, table):
        raise PermissionDenied
    return access, table


def get_table_for_confirming(request, slug, table_id) -> tuple[ClubAccess, EveningTable]:
    """Organisers and the players of the table confirm its provisional results (which ones
    each may confirm is the table's rule: ``EveningTable.may_confirm_entry``); anyone else has
    no business there (403)."""
    access, table = get_table(request, slug, table_id, MEMBER)
    if not access.is_organiser and access.member not in table.seat_members():
        raise PermissionDenied
    return access, table


def get_member(request, slug, member_id, need=VIEW) -> tuple[ClubAccess, Member]:
    member = get_object_or_404(Member.objects.select_related("club"), pk=member_id,
                               club__slug=slug)
    access = check_access(request, member.club, need)
    check_members_visible(access)
    return access, member


def get_own_member(request, slug, member_id) -> tuple[ClubAccess, Member]:
    """A member's record for the person it belongs to alone (their own settings: an organiser
    may not turn on the e-mails a member stopped), else 403."""
    access, member = get_member(request, slug, member_id)
    if access.member != member:
        raise PermissionDenied
    return access, member


def get_club_by_calendar_token(slug: str, token: str) -> Club:
    """The club whose evenings a member's secret calendar address gives (a calendar app cannot
    sign in): the token of a member of that club who signs in, else 404, whatever was wrong
    (an unknown, replaced or altered token, another club's, a record without a login any
    more): the answer tells nothing of which."""
    if not token or len(token) > 64:
        raise Http404("No such calendar")
    member = (Member.objects.select_related("club")
              .filter(club__slug=slug, calendar_token=token, user__isnull=False).first())
    if member is None:
        raise Http404("No such calendar")
    return member.club


def board_visible(club: Club, board_token: str | None, token: str | None,
                  is_member: bool) -> bool:
    """Who may watch an evening's board (``leagues.board``): with a token, only the evening's
    own (a members-only club's screen at the venue, which signs in as nobody); without one,
    anyone in a public club, and the members of a members-only one."""
    if token is not None:
        return bool(board_token) and len(token) <= 64 and secrets.compare_digest(
            token.encode(), str(board_token).encode())
    return club.is_public or is_member


def get_evening_for_board(request, slug, evening_id, token=None) -> Evening:
    """The evening of a board page: 404, whatever was wrong (no such evening, another club's,
    a members-only club without its token, a wrong or replaced token): the answer tells
    nothing of which."""
    evening = (Evening.objects.select_related("season__league__club")
               .filter(pk=evening_id, season__league__club__slug=slug).first())
    if evening is None:
        raise Http404("No such board")
    club = evening.season.league.club
    is_member = bool(request.user.is_authenticated and token is None
                     and Member.objects.filter(club=club, user=request.user).exists())
    if not board_visible(club, evening.board_token, token, is_member):
        raise Http404("No such board")
    return evening


def board_socket_access(evening_id: int, token: str | None, user) -> tuple[bool, bool]:
    """The board's socket, by the same rule as its page (``get_evening_for_board``): whether it
    may open, and whether it opened as a member of the club (without a token)."""
    evening = (Evening.objects.select_related("season__league__club")
               .filter(pk=evening_id).first())
    if evening is None:
        return False, False
    club = evening.season.league.club
    is_member = bool(token is None and user is not None and user.is_authenticated
                     and Member.objects.filter(club=club, user=user).exists())
    return board_visible(club, evening.board_token, token, is_member), is_member


def get_partnership(request, slug, pair_id, need=VIEW) -> tuple[ClubAccess, Partnership]:
    pair = get_object_or_404(
        Partnership.objects.select_related("season__league__club", "first", "second"),
        pk=pair_id, season__league__club__slug=slug)
    return check_access(request, pair.season.league.club, need), pair


def get_invite(request, slug, invite_id) -> tuple[ClubAccess, Invite]:
    """An invite link of the club, for its organisers (renew, revoke)."""
    invite = get_object_or_404(Invite.objects.select_related("club", "member"), pk=invite_id,
                               club__slug=slug)
    return check_access(request, invite.club, ORGANISER), invite
