"""Guests and substitutes: who plays an evening without being on the members list, and who
takes a seat of a table from a given deal on.

A **guest** is a ``Member`` row with ``guest`` set, added by an organiser at the door of an
evening (:func:`add_guest`): marked coming to that evening, so the draw seats them; their seat
and results are a member's like any other, so the table's sheet, the standings and the history
need nothing of their own; they are not on the members list, are never written to, never asked
to answer for another evening and not offered in another evening's forms.  Made a member
(:func:`make_member`), the same record stays, with its results.

A **substitute** (:class:`leagues.models.Substitute`) plays a seat of a table from a deal on:
the deals before stay with whoever played them.  Only a table whose seats keep a running
balance takes one (``ScoreKind.takes_substitutes``: each deal's units are the seat's, so they
can be credited deal by deal); a match is its players' whole.
"""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from leagues.edits import evening_facts
from leagues.models import (
    Attendance,
    ClubChange,
    EntryError,
    Evening,
    EveningTable,
    Member,
    Substitute,
)


def _clean_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise EntryError(_("Give the guest's name."))
    most = Member._meta.get_field("name").max_length
    if len(name) > most:
        raise EntryError(_("A name has at most %(max)s characters.") % {"max": most})
    return name


def add_guest(evening: Evening, name: str, by) -> Member:
    """A walk-in guest, marked coming to ``evening``.  A guest of an earlier evening with the
    same name (any case) is the same person, coming again; a member of that name is refused in
    words (mark them coming instead)."""
    name = _clean_name(name)
    with transaction.atomic():
        evening = (Evening.objects.select_for_update(of=("self",))
                   .select_related("season__league__club").get(pk=evening.pk))
        evening.season.refuse_if_closed()
        evening.refuse_if_cancelled()
        club = evening.season.league.club
        same = [m for m in club.members.filter(name__iexact=name)]
        member = next((m for m in same if not m.guest), None)
        if member is not None:
            raise EntryError(_("%(name)s is a member of the club: mark them as coming on the "
                               "list instead of adding a guest.") % {"name": member.name})
        guest = next(iter(same), None)
        if guest is None:
            guest = Member.objects.create(club=club, name=name, guest=True)
        elif guest.retired:
            guest.retired = False
            guest.save(update_fields=["retired"])
        Attendance.objects.update_or_create(evening=evening, member=guest,
                                            defaults={"coming": True})
        ClubChange.record(club, by, "guest_add", None, {"name": guest.name,
                                                        "evening": evening_facts(evening)})
        return guest


def make_member(member: Member, by) -> None:
    """A guest becomes a member of the club: the same record, its results kept."""
    with transaction.atomic():
        member = Member.objects.select_for_update().get(pk=member.pk)
        if not member.guest:
            raise EntryError(_("%(name)s is already a member.") % {"name": member.name})
        member.guest = False
        member.save(update_fields=["guest"])
        ClubChange.record(member.club, by, "guest_member", {"name": member.name}, None)


def offered_at(evening: Evening, club):
    """Who an organiser may seat at one of the evening's tables: the members not retired and
    the guests coming to this evening."""
    return club.members.filter(
        Q(retired=False, guest=False)
        | Q(guest=True, attendances__evening=evening, attendances__coming=True)).distinct()


def free_to_substitute(table: EveningTable, club):
    """Who the substitute form offers for ``table``: those who may be seated this evening
    (``offered_at``), less anyone seated at, or substituting at, another table of its round
    (played at the same time; ``add_substitute`` refuses them in words too)."""
    same_time = EveningTable.objects.filter(evening_id=table.evening_id, round=table.round)
    same_time = same_time.exclude(pk=table.pk)
    return offered_at(table.evening, club).exclude(seats__table__in=same_time).exclude(
        substitutions__table__in=same_time)


# -- substitutes ----------------------------------------------------------------------------------


def seat_players(table: EveningTable, members: list[Member] | None = None) -> list[list[dict]]:
    """Who played each seat, in turn: for each seat, ``[{"member", "from_deal", "total"}]``,
    the seat's member first (from deal 1, their part of the seat's total), then each
    substitute.  A seat without substitutes is one entry with the seat's total."""
    members = table.seat_members() if members is None else members
    seats = {s.seat: s for s in table.seats.all()}
    subs: dict[int, list[Substitute]] = {}
    for sub in table.substitutes.select_related("member").order_by("seat", "from_deal"):
        subs.setdefault(sub.seat, []).append(sub)
    out = []
    for index, member in enumerate(members):
        seat_total = seats[index].total if index in seats else Decimal(0)
        later = subs.get(index, [])
        first = seat_total - sum((s.total for s in later), Decimal(0))
        out.append([{"member": member, "from_deal": 1, "total": first}]
                   + [{"member": s.member, "from_deal": s.from_deal, "total": s.total}
                      for s in later])
    return out


def add_substitute(table: EveningTable, seat: int, member: Member, from_deal: int,
                   by) -> Substitute:
    """``member`` plays ``seat`` from deal ``from_deal`` on (at least 2, at most one after
    the last deal entered); the deals before stay with whoever played them.  Refused in words:
    a table whose game is played as a match, a table entered as totals or played online, a
    player already at the table."""
    with transaction.atomic():
        table = table._lock()
        table.refuse_while_online()
        if not table.league.score_kind.takes_substitutes:
            raise EntryError(_("A match counts whole for the players who sat down: change the "
                               "table's players instead of naming a substitute."))
        if table.entry == EveningTable.Entry.TOTALS:
            raise EntryError(_("This table's result was entered as totals: a substitute needs "
                               "the deals, to know who played which."))
        members = table.seat_members()
        if not 0 <= seat < len(members):
            raise EntryError(_("Choose a seat of this table."))
        deals = table.deals.count()
        if from_deal < 2:
            raise EntryError(_("A substitute plays from deal 2 at the earliest: for the whole "
                               "table, change its players instead."))
        if deals == 0:
            raise EntryError(_("No deal is entered yet: a substitute comes in after the seat's "
                               "player has played a deal. If someone else plays the seat from "
                               "the first deal, change the table's players instead."))
        if from_deal > deals + 1:
            # Deals not entered yet may never be played as planned: up to the next one only.
            raise EntryError(ngettext(
                "Deal %(asked)s is too far ahead: %(count)s deal is entered so far, so the "
                "substitute's first deal is deal %(next)s, the next one to enter.",
                "Deal %(asked)s is too far ahead: %(count)s deals are entered so far, so the "
                "substitute's first deal is one of deals 2 to %(next)s (%(next)s is the next "
                "one to enter).", deals) % {"asked": from_deal, "count": deals,
                                            "next": deals + 1})
        playing = {m.pk for m in members} | set(
            table.substitutes.values_list("member_id", flat=True))
        if member.pk in playing:
            raise EntryError(_("%(name)s already plays at this table.") % {"name": member.name})
        # The evening's other tables of the same round are played at the same time.
        elsewhere = EveningTable.objects.filter(evening_id=table.evening_id, round=table.round)
        elsewhere = elsewhere.exclude(pk=table.pk).filter(
            Q(seats__member=member) | Q(substitutes__member=member)).order_by("number").first()
        if elsewhere is not None:
            raise EntryError(_("%(name)s plays at table %(number)s at the same time: choose "
                               "someone who is not at a table.")
                             % {"name": member.name, "number": elsewhere.number})
        if table.substitutes.filter(seat=seat, from_deal__gte=from_deal).exists():
            raise EntryError(_("Someone already takes this seat from deal %(number)s or later: "
                               "take them back first.") % {"number": from_deal})
        before = seat_players(table, members)[seat]
        replaces = Substitute.names_at(list(table.substitutes.select_related("member")),
                                       [m.name for m in members], from_deal)[seat]
        sub = Substitute.objects.create(table=table, seat=seat, member=member,
                                        from_deal=from_deal)
        # They are here and play: the evening counts them among those who came (and the next
        # rounds' draws seat them).
        Attendance.objects.update_or_create(evening_id=table.evening_id, member=member,
                                            defaults={"coming": True, "left": False})
        table.recompute()
        after = seat_players(table, members)[seat]
        table._record(by, "substitute", {"seat": spells_json(before)},
                      {"seat": spells_json(after), "name": member.name,
                       "replaces": replaces, "from": from_deal}, None)
        return sub


def remove_substitute(table: EveningTable, substitute_id: int, by) -> None:
    """A substitute named by mistake: the seat's deals go back to whoever played before."""
    with transaction.atomic():
        table = table._lock()
        table.refuse_while_online()
        sub = table.substitutes.select_related("member").filter(pk=substitute_id).first()
        if sub is None:
            raise EntryError(_("This substitute is no longer at this table."))
        members = table.seat_members()
        before = seat_players(table, members)[sub.seat]
        sub.delete()
        table.recompute()
        after = seat_players(table, members)[sub.seat]
        table._record(by, "unsub", {"seat": spells_json(before), "name": sub.member.name,
                                    "from": sub.from_deal}, {"seat": spells_json(after)}, None)


def spells_json(players: list[dict]) -> list[dict]:
    """Who played a seat, as plain JSON for the table's history."""
    return [{"name": p["member"].name, "from": p["from_deal"], "total": str(p["total"])}
            for p in players]
