"""What the result pages show: score sheets with running totals, a member's history, a pair's
matches, head to head.  Read-only; each function keeps to a few queries."""

from __future__ import annotations

import datetime
import re
from collections import Counter
from decimal import Decimal

from django.db.models import Count, Exists, F, OuterRef, Q
from django.utils.formats import date_format
from django.utils.text import Truncator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from games import registry
from games.forms import rule_changes_in_words
from leagues import charts, paper, prizes, score_kinds, scoring, sit_outs
from leagues.models import (
    Deal,
    EveningTable,
    League,
    Member,
    Partnership,
    ResultChange,
    Season,
    Substitute,
    TableSeat,
    as_decimal,
)
from leagues.scoring import number


def contract_label(game: str, contract: str) -> str:
    """A contract as entered on a sheet of ``game`` ("4 uptown"), in the reader's words."""
    return registry.game(game).contract_label(contract)


def describe_deal(game: str, facts: dict, names: list[str]) -> str:
    """One line of the sheet in words: who declared what and how it went (at a five-seat
    table, who sat the deal out)."""
    text = paper.of(game).describe(facts, names)
    sitter = facts.get("sits_out")
    if sitter is not None and 0 <= sitter < len(names):
        text += " · " + _("%(name)s sits out") % {"name": names[sitter]}
    return text


def table_sheet(table: EveningTable) -> dict:
    """The table's deals with running totals after each, as the paper sheet would show them."""
    names = table.sides()
    # Each deal's line names whoever played it: a substitute from their first deal on.
    substitutes = list(table.substitutes.select_related("member"))
    running = [Decimal(0)] * len(names)
    rows = []
    for deal in table.deals.select_related("entered_by_member__user").order_by("number"):
        running = [r + as_decimal(p) for r, p in zip(running, deal.points, strict=True)]
        rows.append({"deal": deal, "text": describe_deal(
                         table.league.game, deal.facts,
                         Substitute.names_at(substitutes, names, deal.number)),
                     "sits_out": deal.facts.get("sits_out"),  # a five-seat table's dealer
                     "points": [scoring.format_units(Decimal(str(p))) for p in deal.points],
                     "running": [scoring.format_units(r) for r in running]})
    totals = table.league.score_kind.totals(table)
    return {"rows": rows, "totals": [scoring.format_units(t) for t in totals]}


def table_sheet_points(deal: Deal) -> list[str]:
    """A deal's points for each side, as people write them ("+6", "−2")."""
    return [scoring.signed(as_decimal(p)) for p in deal.points]


def change_rows(table: EveningTable) -> list[dict]:
    """The table's history, newest first, each change in sentences (:func:`describe_change`)
    with who made it (:func:`people_names`).  A fixed number of queries whatever the
    history's length."""
    changes = list(table.changes.select_related("changed_by"))
    names = people_names(table.league.club_id, [c.changed_by for c in changes])
    sides = table.sides()
    substitutes = list(table.substitutes.select_related("member"))
    rows = []
    for change in changes:
        who = names.get(change.changed_by_id, "")  # no "who": recorded automatically
        # A deal's line names whoever holds its seats at that deal now (a substitute's).
        at = sides if change.deal_number is None else Substitute.names_at(
            substitutes, sides, change.deal_number)
        rows.append({"change": change, "who": who,
                     **describe_change(table.league, change, who, at)})
    return rows


def people_names(club_id: int, users) -> dict[int, str]:
    """How the history names accounts (by user id): the club's name for the member ("Mike"),
    with the username only where two members of the club share that name ("Mike (@mike)"),
    so no one can pass for someone else; "@lee" for an account no longer in the club (its
    display name is free, so it is not shown).  Two queries."""
    users = {user.pk: user for user in users if user is not None}
    members = {m.user_id: m for m in Member.objects.filter(
        club_id=club_id, user_id__in=users).select_related("user")}
    shared = Counter(name.casefold() for name in Member.objects.filter(
        club_id=club_id).values_list("name", flat=True))
    out = {}
    for pk, user in users.items():
        member = members.get(pk)
        if member is None:
            out[pk] = f"@{user.get_username()}"
        elif shared[member.name.casefold()] > 1 or not member.name.strip():
            out[pk] = member.identity
        else:
            out[pk] = member.name
    return out


# The note an online table leaves on its deals (OnlineFixture.note, stored untranslated).
ONLINE_NOTE = re.compile(r"online table #(\d+)")


def _values(result: dict | None) -> list:
    if not result:
        return []
    return list(result.get("totals") or result.get("scores") or [])


def _totals_line(league, before: dict | None, after: dict | None, names: list[str],
                 only_changes: bool = True) -> str:
    """"Totals: Carla −9 → +3, Bob …" (only those that changed), or "" when nothing did."""
    old, new = _values(before), _values(after)
    kind = league.score_kind
    show = kind.show_total
    parts = []
    for seat, name in enumerate(names):
        if seat >= len(new):
            break
        if seat < len(old) and as_decimal(old[seat]) != as_decimal(new[seat]):
            parts.append(_("%(name)s %(before)s → %(after)s") % {
                "name": name, "before": show(old[seat]), "after": show(new[seat])})
        elif not only_changes or seat >= len(old):
            parts.append(f"{name} {show(new[seat])}")
    if not parts:
        return ""
    return kind.totals_sentence(", ".join(parts))


def _winner_line(before: dict | None, after: dict | None, names: list[str]) -> str:
    winner = (after or {}).get("winner")
    if winner is None or winner == (before or {}).get("winner") or winner >= len(names):
        return ""
    return _("%(name)s won the match.") % {"name": names[winner]}


def _counts_now(before: dict | None, after: dict | None) -> str:
    if (before or {}).get("provisional") and not (after or {}).get("provisional"):
        return _("The table's result now counts in the standings.")
    return ""


def _deal_line(game: str, deal: dict | None, names: list[str]) -> str:
    if not deal or not deal.get("facts"):
        return ""
    try:
        return describe_deal(game, deal["facts"], names)
    except (KeyError, IndexError, TypeError, ValueError):
        return ""  # a line of an older form: the headline still says what happened


def describe_change(league, change, who: str, names: list[str]) -> dict:
    """One recorded change in the reader's words: ``headline`` ("Deal 1 corrected by Demo
    Organiser") and ``details`` (the deal's line before → after, the totals that moved, a
    match won, a result that now counts), from the change's stored before and after."""
    before, after = change.before or {}, change.after or {}
    before_table, after_table = before.get("table"), after.get("table")
    number_ = change.deal_number
    who = who or _("a deleted account")
    waiting = bool((after.get("deal") or {}).get("provisional")) or (
        after_table or {}).get("provisional") is True
    details = []
    action = change.action
    if action == "add":
        online = ONLINE_NOTE.fullmatch(change.note or "")
        if change.changed_by_id is None and online:
            headline = _("Deal %(number)s recorded automatically from online table "
                         "#%(table)s") % {"number": number_, "table": online[1]}
        elif change.changed_by_id is None:
            headline = _("Deal %(number)s recorded automatically") % {"number": number_}
        elif waiting:
            headline = _("Deal %(number)s entered by %(who)s, waiting for an opponent's "
                         "confirmation") % {"number": number_, "who": who}
        else:
            headline = _("Deal %(number)s entered by %(who)s") % {"number": number_, "who": who}
        details.append(_deal_line(league.game, after.get("deal"), names))
    elif action == "edit":
        if waiting:
            headline = _("Deal %(number)s corrected by %(who)s, waiting for an opponent's "
                         "confirmation") % {"number": number_, "who": who}
        else:
            headline = _("Deal %(number)s corrected by %(who)s") % {"number": number_,
                                                                     "who": who}
        old = _deal_line(league.game, before.get("deal"), names)
        new = _deal_line(league.game, after.get("deal"), names)
        details.append(new if old == new or not old else
                       _("%(before)s → %(after)s") % {"before": old, "after": new})
    elif action == "delete":
        headline = _("Deal %(number)s deleted by %(who)s") % {"number": number_, "who": who}
        old = _deal_line(league.game, before.get("deal"), names)
        if old:
            details.append(_("It read: %(line)s") % {"line": old})
        if change.restored_by_id is not None:
            details.append(_("Restored since."))
    elif action == "restore":
        headline = _("Deal %(number)s restored by %(who)s") % {"number": number_, "who": who}
        line = _deal_line(league.game, after.get("deal"), names)
        if line:
            details.append(_("It reads: %(line)s") % {"line": line})
    elif action == "totals":
        if waiting:
            headline = _("Totals entered by %(who)s, waiting for an opponent's confirmation") % {
                "who": who}
        else:
            headline = _("Totals entered by %(who)s") % {"who": who}
        details.append(_totals_line(league, None, after_table, names, only_changes=False))
        details.append(_winner_line(before_table, after_table, names))
        return {"headline": headline, "details": [d for d in details if d]}
    elif action == "clear":
        headline = _("Totals cleared by %(who)s") % {"who": who}
        return {"headline": headline, "details": []}
    elif action == "confirm":
        confirmed = after.get("confirmed") or {}
        deals = confirmed.get("deals") or []
        if confirmed.get("totals") or not deals:
            headline = _("Totals confirmed by %(who)s") % {"who": who}
        else:
            headline = ngettext("Deal %(numbers)s confirmed by %(who)s",
                                "Deals %(numbers)s confirmed by %(who)s", len(deals)) % {
                "numbers": ", ".join(str(n) for n in deals), "who": who}
        details.append(_counts_now(before_table, after_table))
        return {"headline": headline, "details": [d for d in details if d]}
    elif action in ("substitute", "unsub"):
        facts = after if action == "substitute" else before
        params = {"name": facts.get("name", ""), "seat": facts.get("replaces", ""),
                  "number": facts.get("from"), "who": who}
        headline = _HEADLINES[action] % params
        details.append(seat_spells_line(after.get("seat") or []))
        return {"headline": headline, "details": [d for d in details if d]}
    elif action == "import":
        count = after.get("deals") or 0
        headline = ngettext("%(count)s deal imported by %(who)s",
                            "%(count)s deals imported by %(who)s", count) % {
            "count": count, "who": who}
    else:
        headline = _("Result changed by %(who)s") % {"who": who}
    totals = _totals_line(league, before_table, after_table, names)
    if not totals and action == "edit" and before_table and after_table:
        totals = _("The totals did not change.")
    details.append(totals)
    details.append(_winner_line(before_table, after_table, names))
    return {"headline": headline, "details": [d for d in details if d]}


def identities(club_id: int, users) -> dict[int, str]:
    """Unmistakable names of accounts (by user id) for the club's pages: "Mike (@mike)" for a
    member of the club, "@lee" for an account no longer in it.  One query."""
    users = {user.pk: user for user in users if user is not None}
    members = {m.user_id: m for m in Member.objects.filter(
        club_id=club_id, user_id__in=users).select_related("user")}
    return {pk: members[pk].identity if pk in members else f"@{user.get_username()}"
            for pk, user in users.items()}


def invite_rows(club) -> dict:
    """The club's invite links for its organisers: the links that work, and the earlier ones
    (revoked, renewed or used) with who made, revoked or renewed them and when."""
    invites = list(club.invites.select_related("member", "created_by", "revoked_by"))
    names = identities(club.pk, [u for i in invites for u in (i.created_by, i.revoked_by)])
    rows = [{"invite": invite, "made_by": names.get(invite.created_by_id, ""),
             "revoked_by": names.get(invite.revoked_by_id, "")} for invite in invites]
    return {"live_invites": [r for r in rows if r["invite"].is_usable],
            "past_invites": [r for r in rows if not r["invite"].is_usable]}


def evening_tables(evening) -> list[dict]:
    """Each table of the evening with its players or pairs and their results (two queries)."""
    tables = list(evening.tables.select_related(
        "pair_0__first", "pair_0__second", "pair_1__first", "pair_1__second",
        "online__game_table")
        .prefetch_related("seats__member", "online__game_table__seats"))
    out = []
    kind = evening.season.league.score_kind
    for table in tables:
        table.evening = evening  # already loaded; spares a query per table
        sides = kind.sides(table)
        members = kind.seated(table)
        fixture = getattr(table, "online", None)  # None when the table is not played online
        computer_for = []
        if fixture is not None:
            computers = {s.position for s in fixture.game_table.seats.all() if s.is_computer}
            computer_for = [m.name for position, m in enumerate(members) if position in computers]
        out.append({"table": table, "online": fixture, "computer_for": computer_for,
                    # a five-seat table: the dealer sits out each deal
                    "five_seats": len(members) > kind.game.seats, "sides": [
            {"who": who, "total": scoring.format_units(total),
             "won": table.winner is not None and table.winner == index}
            for index, (who, total) in enumerate(sides)]})
    return out


def _match_evenings(member: Member) -> dict:
    """The evenings of the counted matches ``member`` played in a pair, with those matches."""
    found: dict = {}
    in_pair = (Q(pair_0__first=member) | Q(pair_0__second=member) | Q(pair_1__first=member)
               | Q(pair_1__second=member))
    for table in (EveningTable.objects.counted().filter(in_pair)
                  .select_related("evening__season__league").order_by("evening__date", "pk")):
        found.setdefault(table.evening, []).append(table)
    return found


def _evening_line_of(member: Member, evening):
    """``member``'s line of the evening's standings (``prizes.evening_lines``): their own when
    partners are drawn each round, else their pair's."""
    pairs = {("pair", pk) for pk in Partnership.objects.filter(
        Q(first=member) | Q(second=member), season=evening.season_id).values_list("pk",
                                                                                  flat=True)}
    return next((line for line in prizes.evening_lines(evening)
                 if line.key == member.pk or line.key in pairs), None)


def member_history(member: Member) -> dict:
    """Evenings played (Solo, Belgian) with the running balance, Bid Whist matches through the
    member's pairs, and the contracts they declared and made."""
    seats = (TableSeat.objects.filter(member=member)
             .filter(table__in=EveningTable.objects.counted())
             .select_related("table__evening__season__league")
             .order_by("table__evening__date", "table__evening__pk"))
    # What substitutes played in the member's seats is theirs, and a seat they substituted in
    # is a line of its own: each evening as the standings count it (leagues.guests).
    counted = EveningTable.objects.counted()
    given: dict[int, Decimal] = {}
    for table_id, part in Substitute.objects.filter(table__in=counted).filter(
            Exists(TableSeat.objects.filter(table=OuterRef("table"), seat=OuterRef("seat"),
                                            member=member))).values_list("table_id", "total"):
        given[table_id] = given.get(table_id, Decimal(0)) + part
    # A round sat out with a credit (leagues.sit_outs) is a line of its own, in its place.
    played = [{"evening": seat.table.evening, "table": seat.table,
               "score": seat.total - given.get(seat.table_id, Decimal(0)),
               "round": seat.table.round} for seat in seats]
    played += [{"evening": sub.table.evening, "table": sub.table, "score": sub.total,
                "round": sub.table.round} for sub in Substitute.objects.filter(
        member=member, table__in=counted).select_related("table__evening__season__league")]
    # One line per evening, its rounds (and a round sat out and credited) summed as the
    # standings and the member's chart count the evening; a match league's credit is in league
    # points, which its scores never add up with, so it stays a line of its own.
    merged: dict[tuple, dict] = {}
    for item in sorted([*played, *sit_outs.member_credits(member)],
                       key=lambda i: (i["evening"].date, i["evening"].pk, i["round"])):
        league_points = item.get("league_points", False)
        line = merged.setdefault((item["evening"].pk, league_points), {
            "evening": item["evening"], "league_points": league_points, "score": Decimal(0),
            "tables": [], "sat_out": []})
        line["score"] += item["score"]
        if "table" in item:
            line["tables"].append(item["table"])
        else:
            line["sat_out"].append(item["round"])
    # A match league's evenings (Bid Whist): the member played through pairs, registered or
    # drawn each round, which have no seats.  Their evening's line is the one the evening's
    # standings give them or their pair (league points, a round sat out's credit included).
    for evening, tables in _match_evenings(member).items():
        line = merged.setdefault((evening.pk, True), {
            "evening": evening, "league_points": True, "score": Decimal(0), "tables": [],
            "sat_out": []})
        line["tables"] += tables
        mine = _evening_line_of(member, evening)
        if mine is not None:
            line["score"] = mine.score
    evenings, balances = [], {}
    for line in sorted(merged.values(), key=lambda item: (item["evening"].date,
                                                           item["evening"].pk)):
        # One balance per league: Solo units and Belgian points never add up together.
        league = line["evening"].season.league
        league_points = line["league_points"]
        balance = balances[league.pk] = balances.get(league.pk, Decimal(0)) + (
            0 if league_points else line["score"])
        tables = line["tables"]
        evenings.append({"evening": line["evening"],
                         # a one-table evening links to its table, else to the evening
                         "table": tables[0] if len(tables) == 1 else None,
                         "sat_out": not tables, "sat_out_rounds": line["sat_out"],
                         "rounds_played": len(tables),
                         "league_points": league_points,
                         "total": scoring.format_units(line["score"]),
                         "balance": "" if league_points else scoring.format_units(balance)})
    # Only tables of players have seats (a pair's match has none), so a deal's declarer is
    # a seat here, never a team.
    contracts = (Deal.objects.filter(table__seats__member=member,
                                     declarer=F("table__seats__seat"))
                 .values("table__evening__season__league__game", "contract")
                 .annotate(declared=Count("pk"), made=Count("pk", filter=Q(made=True)))
                 .order_by("-declared", "contract"))
    # The pairs they registered in; not those a draw formed for a round (partners drawn each
    # round: a partner a round is no pair of theirs).
    pairs = Partnership.objects.filter(Q(first=member) | Q(second=member), drawn=False
                                       ).select_related("season__league", "first", "second")
    return {"evenings": evenings, "charts": [
                {"league": league, "caption": charts.member_caption(
                    league, charts.member_series(member, league))}
                for league in charts.member_leagues(member)],
            "contracts": [{"name": contract_label(c["table__evening__season__league__game"],
                                                  c["contract"]), **c} for c in contracts],
            "pairs": pairs}


def pair_matches(pair: Partnership):
    return (EveningTable.objects.filter(Q(pair_0=pair) | Q(pair_1=pair))
            .select_related("evening", "pair_0", "pair_1", "pair_0__first", "pair_0__second",
                            "pair_1__first", "pair_1__second")
            .order_by("evening__date", "number"))


def pair_history(pair: Partnership) -> dict:
    """The pair's matches as the page lists them; ``chart``: whether a finished one is there
    to draw (``leagues.charts.pair_svg``)."""
    matches, chart = [], False
    for table in pair_matches(pair):
        side = 0 if table.pair_0_id == pair.pk else 1
        opponent = table.pair_1 if side == 0 else table.pair_0
        mine = table.score_0 if side == 0 else table.score_1
        theirs = table.score_1 if side == 0 else table.score_0
        chart = chart or (table.winner is not None and not table.is_provisional)
        matches.append({"table": table, "opponent": opponent,
                        # "7 – −5": spaced, and a minus sign that cannot read as the dash
                        "score": f"{number(mine)} – {number(theirs)}",
                        "won": table.winner == side if table.winner is not None else None,
                        "provisional": table.is_provisional})
    return {"matches": matches, "chart": chart}


def head_to_head(season: Season, a, b) -> dict:
    """Two pairs (Bid Whist) or two players (Solo, Belgian) compared over a season."""
    kind = season.league.score_kind
    choices = kind.rivals(season)
    by_id = {str(c.pk): c for c in choices}
    first, second = by_id.get(a or ""), by_id.get(b or "")
    rows = []
    if first and second and first != second:
        rows = kind.meetings(season, first, second)
    return {"choices": choices, "first": first, "second": second, "meetings": rows}


# -- the club's history: fixtures and people ---------------------------------------------------


def club_change_rows(club, limit: int = 200, show_addresses: bool = False) -> list[dict]:
    """The club's changes to its settings, leagues, evenings, tables, seasons and people,
    newest first, each in sentences (:func:`describe_club_change`); members' e-mail addresses
    only with ``show_addresses`` (for organisers, who see them on the members' pages).  Three
    queries."""
    changes = list(club.changes.select_related("changed_by")[:limit])
    names = people_names(club.pk, [c.changed_by for c in changes])
    restorable = restorable_deletions(club, changes)
    return [{"change": change, "restore": restorable.get(change.pk), **describe_club_change(
                change, names.get(change.changed_by_id, ""), show_addresses)}
            for change in changes]


def restorable_deletions(club, changes) -> dict[int, ResultChange]:
    """The club history's deal deletions that can still be undone (their table is there and
    the deal not back yet), by the club change's id: one query."""
    wanted = {(c.after or {}).get("change"): c.pk for c in changes
              if c.action == "deal_delete"}
    wanted.pop(None, None)
    if not wanted:
        return {}
    found = ResultChange.objects.filter(
        pk__in=list(wanted), action="delete", restored_by__isnull=True,
        table__evening__season__league__club=club).select_related("table")
    return {wanted[rc.pk]: rc for rc in found}


def seat_spells_line(spells: list[dict]) -> str:
    """Who played a seat, deal by deal, and their part of it: "Ann, deals 1 to 4: +12;
    Bob, from deal 5: −3"."""
    parts = []
    for index, spell in enumerate(spells):
        until = spells[index + 1]["from"] - 1 if index + 1 < len(spells) else None
        if until is None:
            when = _("from deal %(first)s") % {"first": spell["from"]}
        elif until <= spell["from"]:
            when = _("deal %(first)s") % {"first": spell["from"]}
        else:
            when = _("deals %(first)s to %(last)s") % {"first": spell["from"], "last": until}
        parts.append(_("%(name)s, %(when)s: %(total)s") % {
            "name": spell["name"], "when": when,
            "total": scoring.signed(Decimal(spell["total"]))})
    # French puts a space before the semicolon.
    return pgettext("between the parts of a list", "; ").join(parts)


def _day(iso: str | None) -> str:
    if not iso:
        return ""
    return date_format(datetime.date.fromisoformat(iso), "SHORT_DATE_FORMAT")


def _moment(iso: str | None) -> str:
    """A stored moment (ISO, with its offset) as the reader writes a date and a time."""
    if not iso:
        return ""
    return date_format(datetime.datetime.fromisoformat(iso), "SHORT_DATETIME_FORMAT")


class _Game:
    """What :func:`_totals_line` asks of a league, for a league named in a stored change."""

    def __init__(self, game: str):
        self.score_kind = score_kinds.of(game)


def _table_lines(facts: dict) -> list[str]:
    """A deleted or changed table in words: its players, and its result when it had one."""
    lines = [_("Players: %(names)s") % {"names": ", ".join(facts.get("players") or [])}]
    result = facts.get("result")
    game = (facts.get("evening") or {}).get("game")
    if result and game in dict(registry.choices()):
        deals = facts.get("deals") or 0
        totals = _totals_line(_Game(game), None, result, facts.get("sides") or [],
                              only_changes=False)
        if deals:
            lines.append(ngettext("%(count)s deal, now gone.", "%(count)s deals, now gone.",
                                  deals) % {"count": deals})
        lines.append(totals)
    else:
        lines.append(_("No result had been entered."))
    return [line for line in lines if line]


def _quoted(text: str) -> str:
    return Truncator(text).chars(200)


def _club_settings_lines(before: dict, after: dict) -> list[str]:
    """What changed on the club's settings page, a sentence each."""
    lines = []
    if "name" in after:
        lines.append(_("Renamed the club from %(before)s to %(after)s") % {
            "before": before.get("name", ""), "after": after["name"]})
    if "slug" in after:
        lines.append(_("Changed the club's address from %(before)s to %(after)s") % {
            "before": before.get("slug", ""), "after": after["slug"]})
    if "is_public" in after:
        lines.append(_("Made the club public") if after["is_public"] else
                     _("Made the club members-only"))
    if "description" in after:
        old, new = before.get("description") or "", after["description"] or ""
        if not old:
            lines.append(_("Wrote the description: “%(after)s”") % {"after": _quoted(new)})
        elif not new:
            lines.append(_("Removed the description"))
        else:
            lines.append(_("Changed the description from “%(before)s” to “%(after)s”") % {
                "before": _quoted(old), "after": _quoted(new)})
    return lines


def _choice_words(choices, value) -> str:
    """A stored choice in the reader's words (the id itself for a choice that is gone)."""
    return str(dict(choices.choices).get(value, value))


def _league_settings_lines(before: dict, after: dict) -> list[str]:
    """What changed on a league's settings page, a sentence each, in the page's order."""
    sentences = {
        "name": _("Renamed the league from %(before)s to %(after)s"),
        "ranking": _("Changed the ranking from %(before)s to %(after)s"),
        "best_evenings": _("Changed the number of best evenings counted from %(before)s to "
                           "%(after)s"),
        "min_evenings": _("Changed the minimum evenings from %(before)s to %(after)s"),
        "points_for_win": _("Changed the league points for a match won from %(before)s to "
                            "%(after)s"),
        "points_for_loss": _("Changed the league points for a match lost from %(before)s to "
                             "%(after)s"),
        "tie_break": _("Changed the tie-breaks from %(before)s to %(after)s"),
        "rounds": _("Changed the rounds of a new evening from %(before)s to %(after)s"),
        "deals_per_round": _("Changed the deals a round of a new evening from %(before)s to "
                             "%(after)s"),
        "sit_out_credit": _("Changed what a sit-out is credited with from %(before)s to "
                            "%(after)s; the standings are counted again"),
        "sit_out_score": _("Changed the fixed score for a sit-out from %(before)s to "
                           "%(after)s"),
        "odd_numbers": _("Changed what the draw does when the numbers don't divide by four "
                         "from %(before)s to %(after)s"),
        "partners": _("Changed who partners whom from %(before)s to %(after)s"),
    }
    words = {"ranking": League.Ranking, "tie_break": League.TieBreak,
             "sit_out_credit": League.SitOutCredit, "odd_numbers": League.OddNumbers,
             "partners": League.Partners}
    lines = []
    for name, sentence in sentences.items():
        if name not in after:
            continue
        old, new = before.get(name), after[name]
        if name in words:
            old, new = _choice_words(words[name], old), _choice_words(words[name], new)
        if name in ("deals_per_round", "sit_out_score"):
            old, new = "–" if old is None else old, "–" if new is None else new
        lines.append(sentence % {"before": old, "after": new})
    if "players_enter_results" in after:
        lines.append(_("Players may now enter results at the table")
                     if after["players_enter_results"] else
                     _("Only organisers enter results now"))
    return lines + _prize_lines(before, after)


def _prize_lines(before: dict, after: dict) -> list[str]:
    """The evening's prizes named, taken away or described (leagues.prizes)."""
    prizes = {"prize_winner": (_("A prize for the evening's winner"),
                               _("No prize for the evening's winner any more")),
              "prize_runner_up": (_("A prize for the runner-up"),
                                  _("No prize for the runner-up any more")),
              "prize_booby": (_("A booby prize for the lowest score"),
                              _("No booby prize any more"))}
    lines = []
    for name, (given, gone) in prizes.items():
        if name in after:
            lines.append(given if after[name] else gone)
        if f"{name}_text" in after:
            lines.append(_("%(prize)s: “%(before)s” → “%(after)s”") % {
                "prize": given, "before": _quoted(before.get(f"{name}_text") or "–"),
                "after": _quoted(after[f"{name}_text"] or "–")})
    return lines


def _house_rules_lines(before: dict, after: dict) -> list[str]:
    game = before.get("game")
    if game not in dict(registry.choices()):
        return []
    return [_("Changed the house rule “%(rule)s” from %(before)s to %(after)s") % {
                "rule": rule, "before": old, "after": new}
            for rule, old, new in rule_changes_in_words(game, before.get("rules"),
                                                        after.get("rules"))]


def _email_change(before: dict, after: dict, who: str, show_addresses: bool):
    params = {"name": before.get("name", ""), "who": who, "before": before.get("email") or "",
              "after": after.get("email") or ""}
    if not params["before"]:
        headline = _("E-mail address of %(name)s set by %(who)s") % params
        detail = _("Set to %(after)s") % params
    elif not params["after"]:
        headline = _("E-mail address of %(name)s removed by %(who)s") % params
        detail = _("It was %(before)s") % params
    else:
        headline = _("E-mail address of %(name)s changed by %(who)s") % params
        detail = _("From %(before)s to %(after)s") % params
    return headline, [detail] if show_addresses else []


def _invite_headline(action: str, before: dict, after: dict) -> str:
    params = {"name": after.get("name") or before.get("name", ""),
              "username": after.get("username", ""), "maker": after.get("invited_by")}
    if action == "member_join":
        if params["maker"]:
            return _("%(name)s (@%(username)s) joined through an invite link made by "
                     "%(maker)s") % params
        return _("%(name)s (@%(username)s) joined through an invite link") % params
    if params["maker"]:
        return _("The record of %(name)s claimed by the login @%(username)s, through an invite "
                 "link made by %(maker)s") % params
    return _("The record of %(name)s claimed by the login @%(username)s, through an invite "
             "link") % params


# The headlines of the changes that share their facts with a sibling (a deletion and its
# restoring, a pair's four changes, ...): the branch that reads the facts picks one of these, so
# each sibling is a line here rather than a branch of its own.  Keyed by the action, or by the
# action and what the change says it did.
_HEADLINES = {
    "substitute": gettext_lazy("%(name)s takes the seat of %(seat)s from deal %(number)s, by "
                               "%(who)s"),
    "unsub": gettext_lazy("%(name)s taken back as a substitute from deal %(number)s, by "
                          "%(who)s"),
    ("member_add", True): gettext_lazy("%(name)s added as an organiser by %(who)s"),
    ("member_add", False): gettext_lazy("%(name)s added by %(who)s"),
    ("member_role", True): gettext_lazy("%(name)s made an organiser by %(who)s"),
    ("member_role", False): gettext_lazy("%(name)s is no longer an organiser, changed by "
                                         "%(who)s"),
    "pair_add": gettext_lazy("Pair %(pair)s registered for %(season)s (%(league)s) by %(who)s"),
    "pair_edit": gettext_lazy("Pair %(pair)s of %(season)s (%(league)s) changed by %(who)s"),
    "pair_retire": gettext_lazy("Pair %(pair)s of %(season)s (%(league)s) retired by %(who)s"),
    "pair_return": gettext_lazy("Pair %(pair)s of %(season)s (%(league)s) brought back by "
                                "%(who)s"),
    "deal_delete": gettext_lazy("Deal %(deal)s of table %(table)s, %(date)s (%(league)s), "
                                "deleted by %(who)s"),
    "deal_restore": gettext_lazy("Deal %(deal)s of table %(table)s, %(date)s (%(league)s), "
                                 "restored by %(who)s"),
    ("board_link", "removed"): gettext_lazy("Board link of %(date)s (%(league)s) removed by "
                                            "%(who)s"),
    ("board_link", "replaced"): gettext_lazy("Board link of %(date)s (%(league)s) replaced by "
                                             "%(who)s"),
    ("board_link", "made"): gettext_lazy("Board link of %(date)s (%(league)s) made by %(who)s"),
    "evening_cancel": gettext_lazy("Evening of %(date)s (%(league)s) cancelled by %(who)s"),
    "evening_uncancel": gettext_lazy("Evening of %(date)s (%(league)s) brought back by "
                                     "%(who)s"),
}


def season_close_evenings(after: dict | None) -> list[str]:
    """What closing a season did to its evenings still to come, in sentences (the history's
    details, and what the organiser is told once it is closed)."""
    after = after or {}
    said = []
    cancelled, removed = after.get("cancelled") or [], after.get("removed") or []
    if cancelled:
        said.append(ngettext("Evening still to come cancelled: %(dates)s",
                             "Evenings still to come cancelled: %(dates)s",
                             len(cancelled)) % {"dates": ", ".join(_day(d) for d in cancelled)})
    if removed:
        said.append(ngettext("Evening still to come removed (nobody had answered): %(dates)s",
                             "Evenings still to come removed (nobody had answered): %(dates)s",
                             len(removed))
                    % {"dates": ", ".join(_day(d) for d in removed)})
    return said


def describe_club_change(change, who: str, show_addresses: bool = False) -> dict:
    """One change to the club, its fixtures or people in the reader's words: ``headline``
    ("Evening of 7 Jan 2030 (Tuesday Solo) deleted by Olga") and ``details`` ("Changed the
    minimum evenings from 3 to 5"), from the change's stored before and after (the names of
    the time: a renamed or deleted thing still reads right).  A member's e-mail addresses only
    with ``show_addresses``."""
    before, after = change.before or {}, change.after or {}
    who = who or _("a deleted account")
    action, details = change.action, []
    if action == "club_create":
        headline = _("Club %(name)s created by %(who)s") % {"name": after.get("name", ""),
                                                            "who": who}
        if after.get("organiser"):
            details.append(_("%(name)s is its first organiser.") % {"name": after["organiser"]})
    elif action == "club_edit":
        headline = _("Club settings changed by %(who)s") % {"who": who}
        details.extend(_club_settings_lines(before, after))
    elif action == "league_create":
        game = after.get("game", "")
        headline = _("League %(league)s (%(game)s) created by %(who)s") % {
            "league": after.get("league", ""), "who": who,
            "game": registry.game(game).label if game in dict(registry.choices()) else game}
    elif action == "season_create":
        headline = _("Season %(season)s of %(league)s started by %(who)s") % {
            "season": after.get("season", ""), "league": after.get("league", ""), "who": who}
    elif action == "league_edit":
        headline = _("League %(league)s changed by %(who)s") % {
            "league": before.get("league", ""), "who": who}
        details.extend(_league_settings_lines(before, after))
    elif action == "league_rules":
        headline = _("House rules of %(league)s changed by %(who)s") % {
            "league": before.get("league", ""), "who": who}
        details.extend(_house_rules_lines(before, after))
    elif action in ("member_add", "member_role"):
        facts = after if action == "member_add" else before
        headline = _HEADLINES[action, after.get("role") == "organiser"] % {
            "name": facts.get("name", ""), "who": who}
    elif action == "member_email":
        headline, lines = _email_change(before, after, who, show_addresses)
        details.extend(lines)
    elif action in ("member_join", "member_claim"):
        headline = _invite_headline(action, before, after)
        if action == "member_claim" and before.get("role") == "organiser":
            details.append(_("%(name)s is an organiser: this login now manages the club.")
                           % {"name": before.get("name", "")})
    elif action in ("evening_edit", "evening_delete"):
        params = {"date": _day(before.get("date")), "league": before.get("league", ""),
                  "who": who}
        if action == "evening_edit":
            headline = _("Evening of %(date)s (%(league)s) changed by %(who)s") % params
            for key, label in (("date", _("Date")), ("time", _("Time")), ("venue", _("Venue")),
                               ("rounds", _("Rounds")), ("deals_per_round", _("Deals a round"))):
                old, new = before.get(key), after.get(key)
                if key in ("rounds", "deals_per_round") and key not in after:
                    continue  # a change from before evenings had rounds
                if key == "rounds":  # evenings stored before rounds had one
                    old = old or 1
                if old != new:
                    if key == "date":
                        old, new = _day(old), _day(new)
                    details.append(_("%(what)s: %(before)s → %(after)s") % {
                        "what": label, "before": old or "–", "after": new or "–"})
            for followed in after.get("followed") or []:  # an event played as the evening
                details.append(_("Its event “%(event)s” moved with it: it starts on %(start)s.")
                               % {"event": followed.get("event", ""),
                                  "start": _moment(followed.get("starts_at"))})
        else:
            headline = _("Evening of %(date)s (%(league)s) deleted by %(who)s") % params
            tables = before.get("tables") or []
            if not tables:
                details.append(_("It had no table."))
            for table in tables:
                # Each table's players, then its deals and totals, each a line of its own
                # (run together, "…, Pat 1 deal, now gone." read as one garbled sentence).
                first, *rest = _table_lines(table)
                details.append(_("Table %(number)s: %(lines)s") % {
                    "number": table.get("number"), "lines": first})
                details.extend(rest)
    elif action == "evening_at_tables":
        headline = _("Evening of %(date)s (%(league)s) taken back from its event “%(event)s” "
                     "by %(who)s") % {"date": _day(before.get("date")),
                                      "league": before.get("league", ""),
                                      "event": before.get("event", ""), "who": who}
        details.append(_("It is played at its tables; the event stays one of the club's, and "
                         "its results will not be the evening's."))
    elif action == "round_draw":
        evening = after.get("evening") or {}
        params = {"round": after.get("round"), "rounds": after.get("rounds"),
                  "date": _day(evening.get("date")), "league": evening.get("league", ""),
                  "who": who}
        if after.get("again"):
            headline = _("Round %(round)s of %(rounds)s of %(date)s (%(league)s) drawn again "
                         "by %(who)s") % params
        else:
            headline = _("Round %(round)s of %(rounds)s of %(date)s (%(league)s) drawn by "
                         "%(who)s") % params
        for number, names in enumerate(after.get("tables") or [], start=1):
            details.append(_("Table %(number)s: %(lines)s") % {"number": number,
                                                               "lines": ", ".join(names)})
        if after.get("sitting_out"):
            details.append(_("Sitting out: %(names)s") % {
                "names": ", ".join(after["sitting_out"])})
    elif action == "table_add":
        evening = after.get("evening") or {}
        headline = _("Table %(number)s of %(date)s (%(league)s) added by %(who)s") % {
            "number": after.get("number"), "date": _day(evening.get("date")),
            "league": evening.get("league", ""), "who": who}
        details.append(_("Players: %(names)s") % {"names": ", ".join(after.get("players") or [])})
        if after.get("round"):
            details.insert(0, _("Round %(number)s of the evening.") % {"number": after["round"]})
    elif action in ("table_edit", "table_delete"):
        evening = before.get("evening") or {}
        params = {"number": before.get("number"), "date": _day(evening.get("date")),
                  "league": evening.get("league", ""), "who": who}
        if action == "table_edit":
            headline = _("Table %(number)s of %(date)s (%(league)s) changed by %(who)s") % params
            details.append(_("Players: %(before)s → %(after)s") % {
                "before": ", ".join(before.get("players") or []),
                "after": ", ".join(after.get("players") or [])})
            if before.get("result"):
                details.append(_("Its deals and totals stay, now in the new players' names."))
        else:
            headline = _("Table %(number)s of %(date)s (%(league)s) deleted by %(who)s") % params
            details.extend(_table_lines(before))
        if before.get("round"):
            details.insert(0, _("Round %(number)s of the evening.") % {"number": before["round"]})
    elif action == "season_close":
        headline = _("Season %(season)s of %(league)s closed by %(who)s") % {
            "season": before.get("season", ""), "league": before.get("league", ""), "who": who}
        details.append(_("Its standings are final."))
        details += season_close_evenings(after)
        if after.get("next"):
            details.append(_("Next season: %(season)s") % {"season": after["next"]})
    elif action == "member_rename":
        headline = _("%(before)s renamed %(after)s by %(who)s") % {
            "before": before.get("name", ""), "after": after.get("name", ""), "who": who}
    elif action == "member_merge":
        headline = _("%(other)s merged into %(kept)s by %(who)s") % {
            "other": before.get("name", ""), "kept": after.get("name", ""), "who": who}
        details.append(_("Their seats, pairs, attendance and results are now %(kept)s's.")
                       % {"kept": after.get("name", "")})
    elif action == "member_retire":
        headline = _("%(name)s retired by %(who)s") % {"name": before.get("name", ""),
                                                         "who": who}
        details.append(_("Kept in past results and standings; no longer offered in draws or "
                         "attendance."))
    elif action == "member_return":
        headline = _("%(name)s brought back from retirement by %(who)s") % {
            "name": before.get("name", ""), "who": who}
    elif action == "account_deleted":
        headline = _("The account of %(name)s on the site was deleted") % {
            "name": before.get("name", "")}
        details.append(_("The club's record of them stays, with its name and results; it no "
                         "longer signs in."))
    elif action in ("pair_add", "pair_edit", "pair_retire", "pair_return"):
        facts = after if action == "pair_add" else before
        params = {"pair": facts.get("pair", ""), "season": facts.get("season", ""),
                  "league": facts.get("league", ""), "who": who}
        headline = _HEADLINES[action] % params
        if action == "pair_add":
            details.append(" & ".join(after.get("players") or []))
        elif action == "pair_edit":
            if before.get("pair") != after.get("pair"):
                details.append(_("Name: %(before)s → %(after)s") % {
                    "before": before.get("pair", ""), "after": after.get("pair", "")})
            if before.get("players") != after.get("players"):
                details.append(_("Players: %(before)s → %(after)s") % {
                    "before": " & ".join(before.get("players") or []),
                    "after": " & ".join(after.get("players") or [])})
        elif action == "pair_retire":
            details.append(_("Kept in past matches and standings; no longer drawn."))
    elif action in ("deal_delete", "deal_restore"):
        evening = before.get("evening") or {}
        params = {"deal": before.get("deal"), "table": before.get("table"),
                  "date": _day(evening.get("date")), "league": evening.get("league", ""),
                  "who": who}
        headline = _HEADLINES[action] % params
        if action == "deal_restore":
            if before.get("deleted_as") not in (None, before.get("deal")):
                details.append(_("It was deal %(number)s when it was deleted; it is back at "
                                 "its place on the sheet.") % {"number": before["deleted_as"]})
        line = _deal_line(before.get("game", ""), {"facts": before.get("facts")},
                          before.get("sides") or [])
        if line:
            details.append(_("It reads: %(line)s") % {"line": line})
    elif action == "evenings_add":
        dates = after.get("dates") or []
        headline = ngettext("%(count)s evening of %(league)s (%(season)s) added by %(who)s",
                            "%(count)s evenings of %(league)s (%(season)s) added by %(who)s",
                            len(dates)) % {"count": len(dates), "league": after.get("league", ""),
                                           "season": after.get("season", ""), "who": who}
        details.append(", ".join(_day(d) for d in dates))
        where = " · ".join(part for part in (after.get("time"), after.get("venue")) if part)
        if where:
            details.append(where)
    elif action == "board_link":
        evening = after.get("evening") or {}
        params = {"date": _day(evening.get("date")), "league": evening.get("league", ""),
                  "who": who}
        done = after.get("done")
        # made, or anything else (as it always read)
        headline = _HEADLINES[action, done if done in ("removed", "replaced") else "made"] % params
        if done == "removed":
            details.append(_("The venue's screen no longer opens the board through it."))
        elif done == "replaced":
            details.append(_("The previous link no longer works."))
    elif action in ("evening_cancel", "evening_uncancel"):
        params = {"date": _day(before.get("date")), "league": before.get("league", ""),
                  "who": who}
        headline = _HEADLINES[action] % params
        if action == "evening_cancel":
            for table in before.get("tables") or []:
                details.append(_("Drawn table %(number)s removed: %(players)s") % {
                    "number": table.get("number"),
                    "players": ", ".join(table.get("players") or [])})
    elif action == "guest_add":
        evening = after.get("evening") or {}
        headline = _("%(name)s added as a guest for %(date)s (%(league)s) by %(who)s") % {
            "name": after.get("name", ""), "date": _day(evening.get("date")),
            "league": evening.get("league", ""), "who": who}
    elif action == "guest_member":
        headline = _("Guest %(name)s made a member by %(who)s") % {
            "name": before.get("name", ""), "who": who}
        details.append(_("Their results stay theirs."))
    elif action == "results_sent":
        from leagues.prizes import prize_label
        headline = ngettext(
            "Results of %(date)s (%(league)s) sent by %(who)s to %(count)s member",
            "Results of %(date)s (%(league)s) sent by %(who)s to %(count)s members",
            after.get("sent") or 0) % {"date": _day(after.get("date")),
                                       "league": after.get("league", ""), "who": who,
                                       "count": after.get("sent") or 0}
        for kind, names in after.get("prizes") or []:
            details.append(_("%(prize)s: %(names)s") % {"prize": prize_label(kind),
                                                       "names": ", ".join(names)})
        if after.get("held_back"):
            details.append(ngettext(
                "%(count)s member not reached: the club's daily limit.",
                "%(count)s members not reached: the club's daily limit.",
                after["held_back"]) % {"count": after["held_back"]})
    elif action == "members_add":
        names = after.get("names") or []
        headline = ngettext("%(count)s member added by %(who)s",
                            "%(count)s members added by %(who)s", len(names)) % {
            "count": len(names), "who": who}
        details.append(", ".join(names))
    else:
        headline = _("Club changed by %(who)s") % {"who": who}
    return {"headline": headline, "details": [d for d in details if d]}
