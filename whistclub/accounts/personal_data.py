"""Everything the site holds on one person, as plain JSON: what "Download my data" gives.

The one place that gathers a person's data from every app (this module sits above them all:
docs/architecture.md).  Only what is theirs: their account and settings, their club records and
the results of those records, their seats at online tables with the cards they were dealt
(never another seat's), the reviews they asked for, their ratings, their e-mail preferences,
the history lines they made or that are about their records, their recorded sign-ins.  Never
the password hash, nor another person's e-mail address or hidden cards.

A new kind of personal data stored anywhere is added here, and removed or kept on deletion in
the same app's ``account_deleted`` (docs/deploy.md, "Personal data").
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from axes.models import AccessLog
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from events.models import Event, Registration
from games import registry
from games.models import ChatLine, Hand, HandReview, Seat, Table
from leagues import history
from leagues.models import (
    Attendance,
    ClubChange,
    EveningTable,
    Member,
    Partnership,
    ResultChange,
    Substitute,
    TableSeat,
)
from ratings.core import display
from ratings.events import SITE
from ratings.models import Rating, RatingPoint
from whistclub.accounts.models import profile_for

FORMAT = "whistclub-personal-data/1"
# The history's member lines name a member record by its name of the time.
MEMBER_ACTIONS = ("member_rename", "member_merge", "member_retire", "member_return",
                  "member_role", "account_deleted")


def _when(moment) -> str | None:
    return moment.isoformat() if moment is not None else None


def _number(value) -> str:
    # Totals are decimals (Solo units in sixths): as text, so nothing is rounded.
    return format(value.normalize(), "f") if isinstance(value, Decimal) else str(value)


def _game(game: str) -> dict[str, str]:
    try:
        name = str(registry.game(game).label)
    except KeyError:
        name = game
    return {"id": game, "name": name}


def collect(user) -> dict[str, Any]:
    """The person's data as one JSON-ready dict (the download's content)."""
    members = list(Member.objects.filter(user=user).select_related("club").order_by("club__name"))
    return {
        "format": FORMAT,
        "exported_at": timezone.now().isoformat(),
        "account": _account(user),
        "profile": _profile(user),
        "clubs": [_membership(member) for member in members],
        "email_preferences": _email_preferences(user, members),
        "online_tables": _online_tables(user),
        "events": _events(user),
        "hand_reviews": _hand_reviews(user),
        "chat_lines": _chat_lines(user),
        "ratings": _ratings(user, members),
        "history": _history(user, members),
        "sign_ins": _sign_ins(user),
    }


def _events(user) -> list[dict[str, Any]]:
    """The events the person registered for or organised (their tables are among
    ``online_tables``)."""
    registrations = {r.event_id: r for r in Registration.objects.filter(user=user)}
    events = Event.objects.filter(Q(pk__in=list(registrations)) | Q(organiser=user)).order_by(
        "starts_at", "pk")
    return [{"name": event.name, "game": _game(event.game), "starts_at": _when(event.starts_at),
             "organiser": event.organiser_id == user.pk,
             # How it was scored: matchpoints, or the difference from the field.
             "scoring": event.scoring,
             "registered_at": _when(registrations[event.pk].registered_at)
             if event.pk in registrations else None,
             "withdrawn_at": _when(registrations[event.pk].withdrawn_at)
             if event.pk in registrations else None,
             "reminded_at": _when(registrations[event.pk].reminded_at)
             if event.pk in registrations else None,
             # An arena: when they paused (still paused), left it for good, came back or joined
             # it late.
             "paused_at": _when(registrations[event.pk].paused_at)
             if event.pk in registrations else None,
             "left_at": _when(registrations[event.pk].left_at)
             if event.pk in registrations else None,
             "back_at": _when(registrations[event.pk].back_at)
             if event.pk in registrations else None}
            for event in events]


def _account(user) -> dict[str, Any]:
    return {"username": user.get_username(), "email": user.email,
            "first_name": user.first_name, "last_name": user.last_name,
            "joined": _when(user.date_joined), "last_login": _when(user.last_login),
            "active": user.is_active, "staff": user.is_staff, "superuser": user.is_superuser}


def _profile(user) -> dict[str, Any]:
    profile = profile_for(user)
    return {"display_name": profile.display_name, "language": profile.language,
            "four_colour_deck": profile.four_colour_deck, "table_sounds": profile.table_sounds,
            "emails_before_events": profile.event_reminders}


def _email_preferences(user, members: list[Member]) -> dict[str, Any]:
    return {"account_email": user.email,
            "clubs": [{"club": member.club.name,
                       "address_the_club_uses": member.email_address,
                       "emails_about_evenings": member.reminders} for member in members]}


# -- clubs ------------------------------------------------------------------------------------


def _membership(member: Member) -> dict[str, Any]:
    return {
        "club": member.club.name, "club_address": member.club.get_absolute_url(),
        "name_in_the_club": member.name, "role": member.role, "retired": member.retired,
        "email_the_club_typed": member.email, "emails_about_evenings": member.reminders,
        "joined": _when(member.joined_at),
        "guest": member.guest,
        "league_results": _seat_results(member),
        "substitutions": _substitutions(member),
        "pair_matches": _pair_matches(member),
        "attendance": [
            {"league": a.evening.season.league.name, "season": a.evening.season.name,
             "evening": a.evening.date.isoformat(), "coming": a.coming,
             "gone_home": a.left}
            for a in Attendance.objects.filter(member=member)
            .select_related("evening__season__league").order_by("evening__date")],
    }


def _table_place(table: EveningTable) -> dict[str, Any]:
    league = table.evening.season.league
    return {"league": league.name, "game": _game(league.game), "season": table.evening.season.name,
            "evening": table.evening.date.isoformat(), "table": table.number}


def _seat_results(member: Member) -> list[dict[str, Any]]:
    """Each table the member sat at (a running balance, or each for themselves): their seat and
    their total, and whether it counts yet (an entry may wait for an opponent)."""
    counted = set(EveningTable.objects.counted().filter(seats__member=member)
                  .values_list("pk", flat=True))
    return [{**_table_place(seat.table), "seat": seat.seat, "total": _number(seat.total),
             "counted": seat.table_id in counted}
            for seat in TableSeat.objects.filter(member=member)
            .select_related("table__evening__season__league")
            .order_by("table__evening__date", "table__number")]


def _substitutions(member: Member) -> list[dict[str, Any]]:
    """Each seat the member took over from a deal on: their part of its total."""
    return [{**_table_place(sub.table), "seat": sub.seat, "from_deal": sub.from_deal,
             "total": _number(sub.total)}
            for sub in Substitute.objects.filter(member=member)
            .select_related("table__evening__season__league")
            .order_by("table__evening__date", "table__number")]


def _pair_matches(member: Member) -> list[dict[str, Any]]:
    pairs = Partnership.objects.filter(Q(first=member) | Q(second=member))
    tables = (EveningTable.objects.filter(Q(pair_0__in=pairs) | Q(pair_1__in=pairs))
              .select_related("evening__season__league", "pair_0__first", "pair_0__second",
                              "pair_1__first", "pair_1__second")
              .order_by("evening__date", "number"))
    counted = set(EveningTable.objects.counted().filter(pk__in=tables).values_list("pk",
                                                                                 flat=True))
    out = []
    for table in tables:
        side = 0 if table.pair_0 is not None and member.pk in (
            table.pair_0.first_id, table.pair_0.second_id) else 1
        pair = table.pair_0 if side == 0 else table.pair_1
        scores = (table.score_0, table.score_1)
        out.append({**_table_place(table), "pair": str(pair),
                    "score": _number(scores[side]), "opponents_score": _number(scores[1 - side]),
                    "won": None if table.winner is None else table.winner == side,
                    "counted": table.pk in counted})
    return out


# -- online tables ----------------------------------------------------------------------------


def _online_tables(user) -> list[dict[str, Any]]:
    """The tables they sat at or opened; at each, the hands finished there with the cards their
    own seat was dealt (never another seat's) and the hand's result."""
    seats = {seat.table_id: seat.position for seat in Seat.objects.filter(user=user)}
    tables = Table.objects.filter(Q(pk__in=list(seats)) | Q(created_by=user)).order_by("created_at")
    hands: dict[int, list[Hand]] = {}
    for hand in Hand.objects.filter(table__in=list(seats)).order_by("table_id", "number"):
        hands.setdefault(hand.table_id, []).append(hand)
    out = []
    for table in tables:
        position = seats.get(table.pk)
        out.append({
            "table": table.pk, "address": table.get_absolute_url(), "game": _game(table.game),
            "opened": _when(table.created_at), "opened_by_you": table.created_by_id == user.pk,
            "status": table.status, "private": table.is_private, "house_rules": table.rules,
            "your_seat": position,
            "hands": [{"number": hand.number, "finished": _when(hand.finished_at),
                       "your_cards": _own_cards(hand.record, position),
                       "result": hand.result} for hand in hands.get(table.pk, [])],
        })
    return out


def _own_cards(record: dict, position: int | None) -> list[str]:
    dealt = (record or {}).get("hands") or []
    return list(dealt[position]) if position is not None and 0 <= position < len(dealt) else []


def _hand_reviews(user) -> list[dict[str, Any]]:
    """The reviews of their own seats (a review looks at its seat's decisions only)."""
    reviews = (HandReview.objects.filter(Exists(Seat.objects.filter(
        user=user, table_id=OuterRef("hand__table_id"), position=OuterRef("seat"))))
               .select_related("hand").order_by("hand__table_id", "hand__number"))
    return [{"table": review.hand.table_id, "hand": review.hand.number, "seat": review.seat,
             "status": review.status, "asked": _when(review.started_at),
             "ready": _when(review.finished_at), "review": review.result}
            for review in reviews]


def _chat_lines(user) -> list[dict[str, Any]]:
    """What they said at tables (a preset phrase by its id); never another person's lines."""
    return [{"table": line.table_id, "said": _when(line.at), "to": line.audience,
             "phrase": line.phrase or None, "text": line.text}
            for line in ChatLine.objects.filter(author=user).order_by("id")]


# -- ratings ----------------------------------------------------------------------------------


def _ratings(user, members: list[Member]) -> list[dict[str, Any]]:
    player = f"u:{user.pk}"
    clubs = {f"club-{member.club_id}": member.club.name for member in members}
    history: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for point in RatingPoint.objects.filter(player=player).order_by("scope", "game", "day"):
        value, plus_minus = display(point.mu, point.sigma)
        history.setdefault((point.scope, point.game), []).append(
            {"day": point.day.isoformat(), "rating": value, "plus_minus": plus_minus,
             "results": point.results})
    out = []
    for rating in Rating.objects.filter(player=player).order_by("scope", "game"):
        value, plus_minus = display(rating.mu, rating.sigma)
        out.append({"where": "site" if rating.scope == SITE else clubs.get(rating.scope,
                                                                            rating.scope),
                    "game": _game(rating.game), "rating": value, "plus_minus": plus_minus,
                    "mu": rating.mu, "sigma": rating.sigma, "results": rating.results,
                    "online_hands": rating.online, "last_day": rating.day.isoformat(),
                    "by_day": history.get((rating.scope, rating.game), [])})
    return out


# -- history ----------------------------------------------------------------------------------


def _history(user, members: list[Member]) -> dict[str, list[dict[str, Any]]]:
    """The lines of the clubs' histories they made (results entered or corrected, fixtures
    and people changed), and the lines about their own member records."""
    results = [{"club": change.table.evening.season.league.club.name,
                **_table_place(change.table), "action": change.action,
                "deal": change.deal_number, "when": _when(change.changed_at)}
               for change in ResultChange.objects.filter(changed_by=user)
               .select_related("table__evening__season__league__club")
               .order_by("changed_at", "pk")]
    made = [{"club": change.club.name, "when": _when(change.changed_at),
             "line": history.describe_club_change(change, user.get_username())["headline"]}
            for change in ClubChange.objects.filter(changed_by=user).select_related("club")
            .order_by("changed_at", "pk")]
    about = []
    for member in members:
        for change in _lines_about(member):
            who = history.people_names(member.club_id, [change.changed_by]).get(
                change.changed_by_id, "")
            about.append({"club": member.club.name, "when": _when(change.changed_at),
                          "line": history.describe_club_change(change, who)["headline"]})
    return {"results_you_entered_or_changed": results, "club_changes_you_made": made,
            "club_changes_about_you": about}


def _lines_about(member: Member) -> list[ClubChange]:
    """The club's lines about this record: the history names a member by the name of the time,
    so the record's earlier names are followed back through its renames.  A name another
    record of the club bears too is not followed (the line could be theirs)."""
    others = {name.casefold() for name in Member.objects.filter(club_id=member.club_id)
              .exclude(pk=member.pk).values_list("name", flat=True)}
    names = {member.name.casefold()}
    found = []
    for change in (ClubChange.objects.filter(club_id=member.club_id, action__in=MEMBER_ACTIONS)
                   .select_related("changed_by").order_by("-changed_at", "-pk")):
        before, after = change.before or {}, change.after or {}
        # A rename or a merge names the record as it is after; the other lines as it was.
        renamed = change.action in ("member_rename", "member_merge")
        named = ((after if renamed else before).get("name") or "").casefold()
        if not named or named in others or named not in names:
            continue
        found.append(change)
        if renamed:  # the lines before it name the record (or the merged one) by that name
            names.add((before.get("name") or "").casefold())
    found.reverse()
    return found


# -- sign-ins ---------------------------------------------------------------------------------


def _sign_ins(user) -> list[dict[str, Any]]:
    """The sign-ins the login throttle recorded (django-axes' access log): when, from which
    address, with which browser."""
    return [{"when": _when(entry.attempt_time), "address": entry.ip_address,
             "browser": entry.user_agent, "signed_out": _when(entry.logout_time)}
            for entry in AccessLog.objects.filter(username=user.get_username())
            .order_by("attempt_time")]
