"""What organisers change after the fact: the club's settings, a league's options and house
rules, tables added by hand, evenings and tables edited or deleted, members added (one or in
bulk), renamed, merged, retired, given a role or an e-mail address, seasons closed.  (A club's
creation and an invite link accepted are recorded by ``Club.create_with_organiser`` and
``Invite.accept``.)  The admin's saves of clubs, leagues and evenings come here too
(``leagues/admin.py``); and what a member's account deleted leaves in the club.

Each function checks, writes and records the change in the club's history
(:class:`leagues.models.ClubChange`, read in sentences by
:func:`leagues.history.describe_club_change`) in one transaction, or raises EntryError with a
sentence and changes nothing; a change of results (an evening moved or deleted, a table's
players changed or the table deleted, records merged, a club's visibility) is announced in the
same transaction (:mod:`leagues.result_events`).  Who may call them is decided before, in
:mod:`leagues.access`.
"""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from leagues import board_events, played_elsewhere, result_events
from leagues.models import (
    Attendance,
    Club,
    ClubChange,
    ClubEmail,
    Deal,
    EntryError,
    Evening,
    EveningRound,
    EveningTable,
    Invite,
    League,
    Member,
    Partnership,
    Season,
    StandingsOptions,
    Substitute,
    TableSeat,
)
from leagues.scoring import long_date

# -- what the history keeps of things that may be deleted -----------------------------------


def evening_facts(evening: Evening) -> dict:
    return {"date": evening.date.isoformat(),
            "time": evening.start_time.strftime("%H:%M") if evening.start_time else None,
            "venue": evening.venue, "season": evening.season.name,
            "league": evening.season.league.name, "game": evening.season.league.game,
            "rounds": evening.rounds, "deals_per_round": evening.deals_per_round}


def table_facts(table: EveningTable) -> dict:
    return {"evening": evening_facts(table.evening), "number": table.number,
            "round": table.round if table.evening.in_rounds else None,
            "sides": table.sides(), "players": [m.name for m in table.seat_members()],
            "result": table.snapshot() if table.entry else None,
            "deals": table.deals.count()}


def _club(evening: Evening):
    return evening.season.league.club


def _changed(before: dict, after: dict) -> tuple[dict, dict]:
    """The entries of ``after`` that differ from ``before``, and what they were."""
    keys = [key for key in after if before.get(key) != after[key]]
    return {key: before.get(key) for key in keys}, {key: after[key] for key in keys}


# -- the club and its leagues ----------------------------------------------------------------

# What an organiser sets on the club's settings page (the address, ``slug``, only in the admin).
CLUB_SETTINGS = ("name", "slug", "description", "is_public")


def _save_settings(instance, names: tuple[str, ...], fields: dict):
    """Writes the settings ``names`` of ``fields`` that differ from the stored row (locked; the
    caller holds the transaction) on it and on ``instance``, and saves them.  Compared with the
    stored row, not with ``instance``: a model form has already written its values on the
    instance it was given.  Returns the stored row, its settings before, and the old and new
    values of those that changed."""
    stored = type(instance).objects.select_for_update().get(pk=instance.pk)
    before = {name: getattr(stored, name) for name in names}
    old, new = _changed(before, {k: v for k, v in fields.items() if k in names})
    for name, value in new.items():
        setattr(stored, name, value)
        setattr(instance, name, value)
    if new:
        stored.save(update_fields=list(new))
    return stored, before, old, new


def change_club(club: Club, fields: dict, by) -> list[str]:
    """Sets the club's name, description, visibility (and, from the admin, its address);
    returns the names of the settings that changed."""
    with transaction.atomic():
        stored, _before, old, new = _save_settings(club, CLUB_SETTINGS, fields)
        if new:
            ClubChange.record(stored, by, "club_edit", old, new)
        if "is_public" in new:
            result_events.visibility_switched(stored)
        return list(new)


# A league's settings on its edit page: its name, standings options and who enters results.
# The evening's prizes (``leagues.prizes``): each on or off, and what it is.
PRIZE_SETTINGS = ("prize_winner", "prize_winner_text", "prize_runner_up", "prize_runner_up_text",
                  "prize_booby", "prize_booby_text")
LEAGUE_SETTINGS = ("name", *StandingsOptions.names(), "players_enter_results", "rounds",
                   "deals_per_round", "odd_numbers", "partners", *PRIZE_SETTINGS)


def refuse_partners_change(league: League, partners: str) -> None:
    """Who partners whom (``League.partners``) stays once a season of the league has pairs of
    the other kind: a season's standings are pairs' or players', never both (its tables are
    matches of the pairs it has)."""
    if not league.pk or partners == league.partners:
        return
    pairs = Partnership.objects.filter(season__league=league)
    if partners == League.Partners.DRAWN and pairs.filter(drawn=False).exists():
        raise EntryError(_("%(league)s has registered pairs already: its partners cannot be "
                           "drawn each round. Start a new league for players who come alone.")
                         % {"league": league.name})
    if partners == League.Partners.REGISTERED and pairs.filter(drawn=True).exists():
        raise EntryError(_("%(league)s has played with partners drawn each round already: it "
                           "cannot register pairs now. Start a new league for registered "
                           "pairs.") % {"league": league.name})


def change_league(league: League, fields: dict, by) -> list[str]:
    """Sets the league's name, standings options and whether players enter results; returns
    the names of those that changed.  A closed season keeps the options it closed with
    (``Season.standings_options``)."""
    with transaction.atomic():
        if "partners" in fields:
            refuse_partners_change(League.objects.select_for_update().get(pk=league.pk),
                                   fields["partners"])
        stored, before, old, new = _save_settings(league, LEAGUE_SETTINGS, fields)
        if new:
            ClubChange.record(stored.club, by, "league_edit", {"league": before["name"], **old},
                              new)
        return list(new)


def change_house_rules(league: League, rules: dict, by) -> bool:
    """Sets the league's house rules (only those that differ from the game's defaults, as the
    engine normalises them); returns whether they changed."""
    with transaction.atomic():
        stored = League.objects.select_for_update().get(pk=league.pk)
        before = dict(stored.rules or {})
        stored.rules = rules
        stored.clean()  # the engine's validation and normal form
        league.rules = stored.rules
        if stored.rules == before:
            return False
        stored.save(update_fields=["rules"])
        ClubChange.record(stored.club, by, "league_rules",
                          {"league": stored.name, "game": stored.game, "rules": before},
                          {"rules": stored.rules})
        return True


# -- evenings and tables ---------------------------------------------------------------------


def edit_evening(evening: Evening, fields: dict, by) -> list[str]:
    """Sets the evening's date, time and venue; returns the names of the fields that changed.
    Compared with the stored row, not with ``evening``: a model form (the admin's) has already
    written its values on the instance it was given."""
    with transaction.atomic():
        stored = (Evening.objects.select_for_update(of=("self",))
                  .select_related("season__league").get(pk=evening.pk))
        stored.season.refuse_if_closed()
        before = evening_facts(stored)
        drawn = stored.rounds_drawn()
        if "rounds" in fields and fields["rounds"] < drawn:
            raise EntryError(ngettext(
                "%(count)s round is drawn already: the evening keeps at least %(count)s round.",
                "%(count)s rounds are drawn already: the evening keeps at least %(count)s "
                "rounds.", drawn) % {"count": drawn})
        followed = []
        if "date" in fields and fields["date"] != stored.date:
            # What is played elsewhere on that day follows it, or refuses (nothing changes).
            followed = played_elsewhere.moved(stored, fields["date"])
        for name, value in fields.items():
            setattr(stored, name, value)
            setattr(evening, name, value)
        stored.save()
        after = evening_facts(stored)
        if followed:
            after["followed"] = followed  # the history says its event moved with it
        changed = [k for k in EVENING_FIELDS if before.get(k) != after[k]]
        if changed:
            ClubChange.record(_club(stored), by, "evening_edit", before, after)
        if "date" in changed:
            result_events.evening_moved(stored, date.fromisoformat(before["date"]))
        return changed


# What the history compares of an evening (its facts' keys).
EVENING_FIELDS = ("date", "time", "venue", "rounds", "deals_per_round")


def delete_evening(evening: Evening, by) -> None:
    """The evening, its tables, their results and the attendance go; the history keeps what
    they were."""
    with transaction.atomic():
        evening.season.refuse_if_closed()
        for table in EveningTable.objects.select_for_update().filter(evening=evening):
            _refuse_while_online(table)  # its online table would have no evening to record in
        tables = [table_facts(t) for t in evening.tables.order_by("number")]
        before = {**evening_facts(evening), "tables": tables}
        club = _club(evening)
        result_events.tables_changed(EveningTable.objects.filter(evening=evening))
        evening.delete()
        ClubChange.record(club, by, "evening_delete", before, None)


def _refuse_while_online(table: EveningTable) -> None:
    # The rule is the table's (EveningTable.refuse_while_online); these words say what to do.
    table.refuse_while_online(_("This table is being played online; wait until it ends."))


def add_table(evening: Evening, seats: list[Member] | None, pairs: list[Partnership] | None,
              by) -> EveningTable:
    """A table added by hand, numbered after the evening's others: its players by seat, or the
    two pairs of a match."""
    with transaction.atomic():
        # Lock the evening: two tables added at once (or a draw) do not both take a number.
        Evening.objects.select_for_update().get(pk=evening.pk)
        evening.season.refuse_if_closed()
        evening.refuse_if_cancelled()
        played_elsewhere.refuse_if_playing(evening)
        # An evening in rounds: a table of the last round drawn (the first before a draw).
        round_number = evening.rounds_drawn() or 1
        number = (evening.tables.filter(round=round_number).order_by("-number")
                  .values_list("number", flat=True).first() or 0) + 1
        if pairs is not None:
            table = EveningTable.objects.create(evening=evening, round=round_number,
                                                number=number, pair_0=pairs[0],
                                                pair_1=pairs[1])
        else:
            table = EveningTable.objects.create(evening=evening, round=round_number,
                                                number=number)
            TableSeat.objects.bulk_create(TableSeat(table=table, seat=seat, member=member)
                                          for seat, member in enumerate(seats or ()))
        ClubChange.record(_club(evening), by, "table_add", None, table_facts(table))
        return table


def edit_table(table: EveningTable, seats: list[Member] | None, pairs: list | None, by) -> bool:
    """Changes who sits at the table (players by seat, or the two pairs); its deals and totals
    stay and now count for whoever sits in each seat.  Returns whether anything changed."""
    with transaction.atomic():
        table = EveningTable.objects.select_for_update().get(pk=table.pk)
        table.evening.season.refuse_if_closed()
        _refuse_while_online(table)
        before = table_facts(table)
        if pairs is not None:
            table.pair_0, table.pair_1 = pairs
            table.save(update_fields=["pair_0", "pair_1"])
        else:
            assert seats is not None  # the caller gives seats or pairs
            current = {s.seat: s for s in table.seats.all()}
            # Two steps, so that two players swapping seats never meet the one-seat rule.
            moved = [(current[i], m) for i, m in enumerate(seats) if current[i].member_id != m.pk]
            for seat, _member in moved:
                TableSeat.objects.filter(pk=seat.pk).delete()
            TableSeat.objects.bulk_create(
                TableSeat(table=table, seat=seat.seat, member=member, total=seat.total)
                for seat, member in moved)
        table = EveningTable.objects.get(pk=table.pk)
        after = table_facts(table)
        if before["sides"] == after["sides"] and before["players"] == after["players"]:
            return False
        ClubChange.record(_club(table.evening), by, "table_edit", before, after)
        if table.entry:  # its result is now another player's
            result_events.table_changed(table)
        return True


def delete_table(table: EveningTable, by) -> None:
    """The table, its deals and its result go (the standings follow); the history keeps what
    its result was."""
    with transaction.atomic():
        table = EveningTable.objects.select_for_update().get(pk=table.pk)
        table.evening.season.refuse_if_closed()
        _refuse_while_online(table)
        before = table_facts(table)
        club = _club(table.evening)
        result_events.tables_changed(EveningTable.objects.filter(pk=table.pk))
        table.delete()
        ClubChange.record(club, by, "table_delete", before, None)


# -- seasons ---------------------------------------------------------------------------------


def planned_evenings(season: Season) -> tuple[list[Evening], list[Evening]]:
    """What closing the season does to its evenings still to come (from today on, not
    cancelled, no table with a result): those where something was entered (an answer, a
    drawn table, an e-mail to the members) are cancelled, kept on the calendar marked so;
    those where nothing was, removed.  Returns (to cancel, to remove), soonest first.  A
    closed season takes no answer and no result, so none of them could be played."""
    planned = (season.evenings.filter(date__gte=timezone.localdate(), cancelled_at__isnull=True)
               .exclude(tables__in=EveningTable.objects.exclude(entry=""))
               .order_by("date", "start_time", "pk"))
    entered = set(planned.filter(Q(attendances__isnull=False) | Q(tables__isnull=False)
                                 | Q(letters__isnull=False)
                                 | Q(board_token__isnull=False)).values_list("pk", flat=True))
    planned = list(planned.select_related("season__league"))
    return ([e for e in planned if e.pk in entered], [e for e in planned if e.pk not in entered])


def close_season(season: Season, by, next_name: str = "") -> Season | None:
    """Closes the season (its standings stay as they are, nothing in it changes any more);
    its evenings still to come are cancelled or removed (``planned_evenings``), in the same
    line of the club's history; with ``next_name``, starts the next season of the league
    with the same draw."""
    with transaction.atomic():
        season = Season.objects.select_for_update().select_related("league__club").get(
            pk=season.pk)
        if season.is_closed:
            raise EntryError(_("The season %(season)s is already closed.")
                             % {"season": season.name})
        to_cancel, to_remove = planned_evenings(season)
        tables = list(EveningTable.objects.select_for_update().filter(
            evening__in=to_cancel + to_remove).select_related("evening").order_by("number"))
        for table in tables:
            table.refuse_while_online(_(
                "Table %(number)s of %(date)s is being played online: close the season once "
                "it ends.") % {"number": table.number, "date": long_date(table.evening.date)})
        # Their drawn tables hold no result: nothing of the standings goes with them.
        EveningTable.objects.filter(pk__in=[t.pk for t in tables]).delete()
        now = timezone.now()
        Evening.objects.filter(pk__in=[e.pk for e in to_cancel]).update(cancelled_at=now)
        Evening.objects.filter(pk__in=[e.pk for e in to_remove]).delete()
        # Its final standings keep the options and house rules they were counted by.
        season.closed_at = now
        season.closed_options = season.league.standings_options().as_json()
        season.closed_rules = dict(season.league.rules or {})
        season.save(update_fields=["closed_at", "closed_options", "closed_rules"])
        following = None
        if next_name:
            following = Season.objects.create(league=season.league, name=next_name,
                                              draw=season.draw)
        ClubChange.record(season.league.club, by, "season_close",
                          {"season": season.name, "league": season.league.name},
                          {"next": following.name if following else None,
                           "cancelled": [e.date.isoformat() for e in to_cancel],
                           "removed": [e.date.isoformat() for e in to_remove]})
        for evening in to_cancel:  # an open board of one of them hears that it is cancelled
            board_events.evening_changed(evening.pk)
        return following


# -- members ---------------------------------------------------------------------------------


# -- a season's pairs (partnership games) ------------------------------------------------------


def _pair_facts(pair: Partnership) -> dict:
    return {"pair": str(pair), "players": [pair.first.name, pair.second.name],
            "season": str(pair.season), "league": pair.season.league.name}


def _check_pair(season: Season, first: Member, second: Member, pair: Partnership | None) -> None:
    """Two different members of the club, neither in another pair of the season still drawn:
    otherwise one person could be drawn on both sides of a table, or at two tables."""
    if first == second:
        raise EntryError(_("A pair is two different members."))
    others = season.partnerships.filter(retired=False)
    if pair is not None:
        others = others.exclude(pk=pair.pk)
    for member in (first, second):
        taken = others.filter(Q(first=member) | Q(second=member)).first()
        if taken is not None:
            raise EntryError(_("%(name)s already plays in the pair %(pair)s this season: retire "
                               "that pair first, or choose someone else.")
                             % {"name": member.name, "pair": taken})


def refuse_registered_pairs(season: Season) -> None:
    """A league whose partners are drawn each round registers no pair: its players come
    alone."""
    if season.league.draws_partners:
        raise EntryError(_("In %(league)s partners are drawn each round: players come alone "
                           "and no pair is registered.") % {"league": season.league.name})


def register_pair(season: Season, first: Member, second: Member, name: str, by) -> Partnership:
    refuse_registered_pairs(season)
    with transaction.atomic():
        Season.objects.select_for_update().get(pk=season.pk)  # two organisers at once
        _check_pair(season, first, second, None)
        pair = Partnership.objects.create(season=season, first=first, second=second,
                                          name=name.strip())
        ClubChange.record(season.league.club, by, "pair_add", None, _pair_facts(pair))
    return pair


def change_pair(pair: Partnership, first: Member, second: Member, name: str, by) -> bool:
    """Renames the pair, or changes its players while it has played no match (its matches
    are its players' results)."""
    with transaction.atomic():
        Season.objects.select_for_update().get(pk=pair.season_id)
        pair = Partnership.objects.select_related("first", "second", "season__league").get(
            pk=pair.pk)
        before = _pair_facts(pair)
        players_change = (first.pk, second.pk) != pair.members
        if players_change and EveningTable.objects.filter(
                Q(pair_0=pair) | Q(pair_1=pair)).exists():
            raise EntryError(_("This pair has played: its players stay. Retire it and "
                               "register the new pair instead."))
        _check_pair(pair.season, first, second, pair)
        pair.first, pair.second, pair.name = first, second, name.strip()
        after = _pair_facts(pair)
        if after == before:
            return False
        pair.save(update_fields=["first", "second", "name"])
        ClubChange.record(pair.season.league.club, by, "pair_edit", before, after)
    return True


def set_pair_retired(pair: Partnership, retired: bool, by) -> None:
    with transaction.atomic():
        pair = Partnership.objects.select_for_update().select_related(
            "first", "second", "season__league__club").get(pk=pair.pk)
        if pair.retired == retired:
            return
        if not retired:
            _check_pair(pair.season, pair.first, pair.second, pair)
        pair.retired = retired
        pair.save(update_fields=["retired"])
        ClubChange.record(pair.season.league.club, by,
                          "pair_retire" if retired else "pair_return", _pair_facts(pair), None)


def add_member(club: Club, name: str, role: str, by, email: str = "") -> Member:
    """One person added by an organiser (who may never sign in), as a member or an
    organiser."""
    with transaction.atomic():
        member = Member.objects.create(club=club, name=name, role=role, email=email)
        ClubChange.record(club, by, "member_add", None, {"name": name, "role": role})
        return member


def set_email(member: Member, email: str, by) -> bool:
    """Sets the address the club writes to (empty: none), with a line in the club's history
    (both addresses, shown to organisers only).  A new address is unconfirmed until its owner
    says yes (leagues.confirmations), even one the member had before; the same address in
    other capitals stays as it was.  Returns whether a new address needs confirming."""
    email = email.strip()
    with transaction.atomic():
        locked = Member.objects.select_for_update().get(pk=member.pk)
        if locked.email == email:
            return False
        before = locked.email
        fields = ["email"]
        if locked.email.casefold() != email.casefold():
            locked.confirmed_email, locked.confirmed_email_at = "", None
            fields += ["confirmed_email", "confirmed_email_at"]
        changed = "confirmed_email" in fields
        locked.email = email
        locked.save(update_fields=fields)
        ClubChange.record(locked.club, by, "member_email", {"name": locked.name, "email": before},
                          {"email": email})
    for name in fields:
        setattr(member, name, getattr(locked, name))
    return changed


def rename_member(member: Member, name: str, by) -> None:
    name = name.strip()
    if not name:
        raise EntryError(_("Give the member a name."))
    if len(name) > Member._meta.get_field("name").max_length:
        raise EntryError(_("A name has at most %(max)s characters.")
                         % {"max": Member._meta.get_field("name").max_length})
    if name == member.name:
        return
    with transaction.atomic():
        old = member.name
        member.name = name
        member.save(update_fields=["name"])
        ClubChange.record(member.club, by, "member_rename", {"name": old}, {"name": name})


def set_retired(member: Member, retired: bool, by) -> None:
    with transaction.atomic():
        member = Member.objects.select_for_update().get(pk=member.pk)
        if member.retired == retired:
            return
        if retired and member.is_organiser:
            raise EntryError(_("%(name)s is an organiser: make them a member first, then "
                               "retire them.") % {"name": member.name})
        member.retired = retired
        member.save(update_fields=["retired"])
        ClubChange.record(member.club, by, "member_retire" if retired else "member_return",
                          {"name": member.name}, None)


def set_role(member: Member, role: str, by) -> None:
    """Promotes or demotes; the club always keeps at least one organiser."""
    if role not in Member.Role.values:
        raise EntryError(_("Choose a role: organiser or member."))
    with transaction.atomic():
        # Lock the club's organisers: two demotions at once cannot both pass the check.
        organisers = list(Member.objects.select_for_update().filter(
            club_id=member.club_id, role=Member.Role.ORGANISER).values_list("pk", flat=True))
        member = Member.objects.select_for_update().get(pk=member.pk)
        if member.role == role:
            return
        if role == Member.Role.MEMBER and organisers == [member.pk]:
            raise EntryError(_("%(name)s is the club's only organiser. Make someone else an "
                               "organiser first: a club always keeps at least one.")
                             % {"name": member.name})
        if role == Member.Role.ORGANISER and member.retired:
            raise EntryError(_("%(name)s is retired: bring them back first.")
                             % {"name": member.name})
        before = member.role
        member.role = role
        member.save(update_fields=["role"])
        ClubChange.record(member.club, by, "member_role", {"name": member.name, "role": before},
                          {"role": role})


def clubs_only_organised_by(user, lock: bool = False) -> list[Club]:
    """The clubs where ``user`` is the only organiser who signs in: without them nobody could
    run the club (a club always keeps an organiser: :func:`set_role`).  ``lock``: lock those
    clubs' organisers until the transaction ends, so that two organisers leaving at once cannot
    both count on the other."""
    organisers = Member.objects.filter(
        club__in=Member.objects.filter(user=user, role=Member.Role.ORGANISER).values("club_id"),
        role=Member.Role.ORGANISER)
    if lock:
        organisers = organisers.select_for_update()
    others: dict[int, bool] = {}
    for club_id, user_id in organisers.values_list("club_id", "user_id"):
        others[club_id] = others.get(club_id, False) or (
            user_id is not None and user_id != user.pk)
    return list(Club.objects.filter(pk__in=[pk for pk, other in others.items() if not other])
                .order_by("name"))


def account_deleted(user_id: int) -> None:
    """An account is being deleted (by its person or by staff): each club keeps its record of
    them, with the name the club gave it and every result, no longer signing in (the account
    goes from the record by itself: ``Member.user`` is SET_NULL); the club's history says so."""
    for member in Member.objects.filter(user_id=user_id).select_related("club"):
        ClubChange.record(member.club, None, "account_deleted", {"name": member.name})


def on_account_deleted(sender, instance, **kwargs) -> None:
    """``pre_delete`` of the user model (connected in ``leagues.apps``)."""
    account_deleted(instance.pk)


def merge_members(kept: Member, other: Member, by) -> None:
    """Two records of one person become ``kept``: ``other``'s seats, pairs, attendance, entries
    and login move to it and ``other`` goes.  Refused (nothing changed) when the two sat at
    one table or in one pair, or both sign in with a login of their own."""
    if kept.pk == other.pk:
        raise EntryError(_("Choose two different members to merge."))
    if kept.club_id != other.club_id:
        raise EntryError(_("Choose a member of this club."))
    with transaction.atomic():
        kept, other = (Member.objects.select_for_update().get(pk=m.pk) for m in (kept, other))
        if kept.user_id and other.user_id:
            raise EntryError(_("%(a)s and %(b)s both sign in with a login of their own: they "
                               "are two people, so they cannot be merged.")
                             % {"a": kept.name, "b": other.name})
        def at(m):  # seated, or a substitute
            return Q(seats__member=m) | Q(substitutes__member=m)
        shared = (EveningTable.objects.filter(at(kept)).filter(at(other))
                  .select_related("evening").first())
        if shared is None:
            def pairs(m):
                return Partnership.objects.filter(Q(first=m) | Q(second=m))
            shared = EveningTable.objects.filter(
                Q(pair_0__in=pairs(kept), pair_1__in=pairs(other))
                | Q(pair_0__in=pairs(other), pair_1__in=pairs(kept))).select_related(
                "evening").first()
        if shared is not None:
            raise EntryError(_("%(a)s and %(b)s played at the same table (table %(table)s on "
                               "%(date)s), so they are two people and cannot be merged.")
                             % {"a": kept.name, "b": other.name, "table": shared.number,
                                "date": shared.evening.date.isoformat()})
        if Partnership.objects.filter(Q(first=kept, second=other)
                                      | Q(first=other, second=kept)).exists():
            raise EntryError(_("%(a)s and %(b)s are partners in a pair, so they are two people "
                               "and cannot be merged.") % {"a": kept.name, "b": other.name})
        # A closed season's standings are final: two of its rows may not become one.
        frozen = (Season.objects.filter(closed_at__isnull=False,
                                        evenings__tables__seats__member=kept)
                  .filter(evenings__tables__seats__member=other).first())
        if frozen is not None:
            raise EntryError(_("%(a)s and %(b)s both have results in %(season)s, which is "
                               "closed: merging them would change its final standings.")
                             % {"a": kept.name, "b": other.name, "season": frozen.name})
        # The tables whose results change hands, announced once they have.
        moved = set(TableSeat.objects.filter(member=other).values_list("table_id", flat=True))
        moved |= set(EveningTable.objects.filter(
            Q(pair_0__first=other) | Q(pair_0__second=other) | Q(pair_1__first=other)
            | Q(pair_1__second=other)).values_list("pk", flat=True))
        moved |= set(Substitute.objects.filter(member=other).values_list("table_id", flat=True))
        TableSeat.objects.filter(member=other).update(member=kept)
        Substitute.objects.filter(member=other).update(member=kept)
        Partnership.objects.filter(first=other).update(first=kept)
        Partnership.objects.filter(second=other).update(second=kept)
        # One answer per evening: "coming" wins, since one of the two records said so.
        for answer in Attendance.objects.filter(member=other):
            mine = Attendance.objects.filter(evening=answer.evening_id, member=kept).first()
            if mine is None:
                answer.member = kept
                answer.save(update_fields=["member"])
            else:
                if answer.coming and not mine.coming:
                    mine.coming = True
                    mine.save(update_fields=["coming"])
                answer.delete()
        # The rounds they sat out (an evening in rounds), as drawn.
        sat_out = EveningRound.sitting_out.through
        for row in sat_out.objects.filter(member=other):
            if not sat_out.objects.filter(eveninground_id=row.eveninground_id,
                                          member=kept).exists():
                sat_out.objects.create(eveninground_id=row.eveninground_id, member=kept)
        Deal.objects.filter(entered_by_member=other).update(entered_by_member=kept)
        EveningTable.objects.filter(totals_entered_by=other).update(totals_entered_by=kept)
        # The other record's history goes with it: its invite links (a link that claimed it
        # now claims the same person's kept record) and the e-mails sent to it.
        Invite.objects.filter(member=other).update(member=kept)
        ClubEmail.objects.filter(member=other).update(member=kept)
        fields = []
        if other.user_id:
            kept.user_id = other.user_id
            other.user = None
            other.save(update_fields=["user"])
            fields.append("user")
        if other.is_organiser and not kept.is_organiser:
            kept.role = Member.Role.ORGANISER
            fields.append("role")
        if not kept.email and other.email:
            kept.email = other.email
            fields.append("email")
        if kept.retired and not other.retired:
            kept.retired = False
            fields.append("retired")
        # One person: a stop of the e-mails on either record is theirs, and wins.
        if kept.reminders and not other.reminders:
            kept.reminders = False
            fields.append("reminders")
        # The owner's yes to the address the kept record now has, given on the other record.
        if (not kept.address_confirmed and other.confirmed_email
                and other.confirmed_email.casefold() == kept.email_address.casefold()):
            kept.confirmed_email = other.confirmed_email
            kept.confirmed_email_at = other.confirmed_email_at
            fields += ["confirmed_email", "confirmed_email_at"]
        if fields:
            kept.save(update_fields=fields)
        name = other.name
        other.delete()
        if "user" in fields:  # a login moved: every result of either record changes hands
            result_events.records_claimed(kept.club)
        else:
            result_events.tables_changed(EveningTable.objects.filter(pk__in=moved))
        ClubChange.record(kept.club, by, "member_merge", {"name": name}, {"name": kept.name})


def add_members(club, people: list[tuple[str, str]], by) -> list[Member]:
    """Members from a confirmed list of (name, email); names already in the club (any case)
    are left out, so a list confirmed twice adds them once."""
    with transaction.atomic():
        existing = {n.casefold() for n in Member.objects.select_for_update().filter(
            club=club).values_list("name", flat=True)}
        new = []
        for name, email in people:
            if name.casefold() in existing:
                continue
            existing.add(name.casefold())
            new.append(Member(club=club, name=name, email=email))
        Member.objects.bulk_create(new)
        if new:
            ClubChange.record(club, by, "members_add", None,
                              {"names": [m.name for m in new]})
        return new


BOARD_MADE, BOARD_REPLACED, BOARD_REMOVED = "made", "replaced", "removed"


def set_board_link(evening: Evening, by, *, remove: bool = False) -> str:
    """Makes the evening's secret board link, replaces it (the previous one stops working at
    once) or, with ``remove``, removes it (a members-only club's board then answers 404 to
    everyone signed out); a line of the club's history.  Returns what was done
    (``BOARD_MADE``...); removing a link the evening does not have raises ``EntryError`` and
    changes nothing."""
    with transaction.atomic():
        locked = Evening.objects.select_for_update().select_related(
            "season__league__club").get(pk=evening.pk)
        had_one = bool(locked.board_token)
        if remove:
            if not had_one:
                raise EntryError(_("This evening has no secret board link: nothing was "
                                   "removed."))
            locked.board_token = None
            locked.save(update_fields=["board_token"])
            done = BOARD_REMOVED
        else:
            # Removing a link stays possible (it closes a screen still open); making one is not.
            if locked.season.is_closed:
                raise EntryError(_("The season %(season)s is closed: its evenings get no new "
                                   "board link.") % {"season": locked.season.name})
            locked.refuse_if_cancelled()
            locked.new_board_token()
            done = BOARD_REPLACED if had_one else BOARD_MADE
        ClubChange.record(locked.season.league.club, by, "board_link", None,
                          {"evening": evening_facts(locked), "done": done})
        # an open board of the old link hears of it at once, and is closed (board_feed)
        board_events.evening_changed(locked.pk)
    evening.board_token = locked.board_token
    return done
