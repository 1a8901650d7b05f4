"""An evening of a league season played as a club's event: the link (``ClubEvent.evening``),
what may be linked (``refusal``), the attendance it implies, and the results it gives.

- **Which evenings.** An evening of one of the club's own leagues, not cancelled, its season
  open, today or later, without a result and without another event; its league's game must be
  the event's.  The event plays the league's house rules (the season's) and starts on the
  evening's day.
- **Matches.** A league of a game played as a match to a target (Bid Whist, Cutthroat) makes
  an event whose tables play matches (``Event.plays_matches``, set by ``club_events.forms``):
  each table plays the round's deals in order and ends when its match ends, as a league table
  does, so the match the evening's table gets is finished (docs/events.md).
- **Registered pairs.** A Bid Whist league of registered pairs makes an event whose partners
  are fixed pairs (``Event.partners_are_fixed_pairs``, set by ``club_events.forms``): the
  season's pairs (``season_pairs``, given to events by ``fixed_pairs``), each seated together
  across when both its members are registered and here (``events.pairing.fixed_pairs_round``);
  a member whose partner is not is not seated, and the event's page tells them why
  (``club_events.policy.pair_notes``).  A league whose partners are drawn each round is
  paired as any Bid Whist event, its sides becoming that round's drawn pairs.
- **Attendance.** Registering for the event marks the member as coming to the evening;
  withdrawing marks them as not coming (``registration_changed``).  Answering on the evening's
  page does not register anyone: the page links to the event.
- **While the event is on** (before it ends) the evening is the event's: its page says so and
  links to it instead of offering the draw, and the draw and a table added by hand are refused
  in words (``EventPlace.playing``, asked by ``leagues.played_elsewhere``).  Before the event
  starts, the organiser may play the evening at its tables instead (``play_at_tables``): the
  event stays, a club's event like any other.  Once it is over, the evening is drawn or given
  tables as any other (the event's tables are numbered after them).
- **Its date.** Moving the evening to another day moves the event's start to that day, at
  the same time of day, while the event has not started (and its new start is neither past nor
  too far ahead); once it has started, the evening keeps its date (``EventPlace.moved``).
- **Results.** When the event ends (``finished``, in the transaction that ends it), each of
  its tables where every seat is a member of the club (a person, not a computer player)
  becomes a table of the evening (a Bid Whist table's two sides, partners across: the
  season's registered pairs, or in a league of drawn partners the season's pairs of those
  players as the league's own draw stores them: ``draw.drawn_pairs``), in the
  event's round (each round of the event a round of
  the evening, its byes the evening's sit-outs, credited as the league credits a sit-out of
  its own draw; a member at a table left out did not sit out), and its hands are entered as that
  table's deals by the path of online fixtures (``leagues.online.take_finished_table``: an
  ``OnlineFixture`` of the event's table, recorded by ``finish_fixture``, each hand through
  ``EveningTable.add_deal``; the ratings re-rate the site, where those hands counted online).
  A table with a computer player or a person who is not a member of the club does not enter
  the evening: the league's standings never hold a result against someone the club does not
  know.  Nothing is entered before the end, so nothing of a deal reaches the evening's page
  while other tables still play it (the events' rule of hidden information).
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from club_events.models import ClubEvent
from events import live
from events.forms import LATEST_START_DAYS
from events.models import Event, EventTable
from games import registry
from leagues import draw, edits, online
from leagues.models import (
    ClubChange,
    EntryError,
    Evening,
    EveningRound,
    EveningTable,
    Member,
    OnlineFixture,
    Partnership,
    TableSeat,
)
from leagues.played_elsewhere import Elsewhere
from leagues.scoring import long_date


def evening_of(event) -> Evening | None:
    link = ClubEvent.objects.filter(event=event).select_related(
        "evening__season__league__club").first()
    return link.evening if link is not None else None


def has_a_result(evening: Evening) -> bool:
    return evening.tables.exclude(entry="").exists()


def refusal(club, evening: Evening | None, game: str | None = None) -> str | None:
    """Why ``evening`` cannot be played as an event of ``club`` (of ``game``, when given), in
    words; None when it can."""
    if evening is None or evening.season.league.club_id != club.pk:
        return _("That evening is not one of this club's: choose an evening of the club's own "
                 "leagues.")
    league = evening.season.league
    if evening.season.is_closed:
        return _("The season %(season)s is closed: its evenings take no new results.") % {
            "season": evening.season.name}
    if evening.is_cancelled:
        return _("This evening is cancelled: bring it back before playing it as an event.")
    if evening.date < timezone.localdate():
        return _("This evening's date has passed: an event is played on an evening to come.")
    if has_a_result(evening):
        return _("This evening already has results: only an evening without results can be "
                 "played as an event.")
    if evening.tables.exists():
        return _("This evening's tables are already drawn or added: it is played at the "
                 "tables, not as an event.")
    if ClubEvent.objects.filter(evening=evening).exists():
        return _("This evening is already played as an event.")
    if game is not None and game != league.game:
        return _("This evening is one of %(league)s, a league of %(league_game)s: it cannot "
                 "be played as an event of %(game)s.") % {
            "league": league.name, "league_game": league.game_description.label,
            "game": registry.game(game).label}
    return None


def plays_matches(league) -> bool:
    """Whether an event played as an evening of ``league`` plays matches to the league's
    target at its tables (``Event.plays_matches``): Bid Whist and Cutthroat, whose league
    tables are matches played to their end."""
    return not league.game_description.plays_a_number_of_deals


def partners_are_fixed_pairs(league) -> bool:
    """Whether an event played as an evening of ``league`` seats the season's registered
    pairs, partners across (``Event.partners_are_fixed_pairs``), rather than pairing its
    players afresh each round: a Bid Whist league of registered pairs."""
    return league.registers_pairs


def season_pairs(season) -> list[Partnership]:
    """The season's registered pairs an event can seat: not retired, not drawn, both members
    with an account; a pair sharing a member with an earlier one is left out (the draw's own
    rule, ``draw.pairs_among``)."""
    seated: set[int] = set()
    pairs = []
    for pair in (season.partnerships.filter(retired=False, drawn=False, first__user__isnull=False,
                                            second__user__isnull=False)
                 .select_related("first__user", "second__user").order_by("pk")):
        if seated & set(pair.members):
            continue
        seated.update(pair.members)
        pairs.append(pair)
    return pairs


def fixed_pairs(link: ClubEvent) -> list[tuple[int, int]] | None:
    """``events.policies``' pairs of an event whose partners are fixed pairs: the evening's
    season's (``season_pairs``), each its members' user ids."""
    if link.evening is None or not link.event.partners_are_fixed_pairs:
        return None
    return [(pair.first.user_id, pair.second.user_id)
            for pair in season_pairs(link.evening.season)]


def playable_evenings(club) -> list[Evening]:
    """The club's evenings an organiser may play as an event now, soonest first."""
    evenings = (Evening.objects.filter(season__league__club=club, season__closed_at__isnull=True,
                                       cancelled_at__isnull=True,
                                       date__gte=timezone.localdate(), club_event__isnull=True)
                .select_related("season__league__club").order_by("date", "start_time", "pk"))
    return [evening for evening in evenings if refusal(club, evening) is None]


def describe(evening: Evening) -> str:
    """"Tuesday 7 January 2030, Tuesday Solo (Winter)"."""
    return _("%(date)s, %(league)s (%(season)s)") % {
        "league": evening.season.league.name, "season": evening.season.name,
        "date": long_date(evening.date)}


def member_of(club, user) -> Member | None:
    if user is None or user.pk is None:
        return None
    return Member.objects.filter(club=club, user=user, guest=False).first()


# -- while registration is open -----------------------------------------------------------


def registration_refusal(link: ClubEvent) -> str | None:
    if link.evening is not None and link.evening.season.is_closed:
        return _("The season %(season)s is closed: this event's evening takes no new results.") % {
            "season": link.evening.season.name}
    return None


def registration_changed(link: ClubEvent, user, registered: bool) -> None:
    """Registering marks the member as coming to the evening, withdrawing as not coming."""
    member = member_of(link.club, user)
    if link.evening is None or member is None:
        return
    try:
        link.evening.set_attendance(member, registered)
    except EntryError:
        pass  # the evening's own rule keeps its answer (a closed season, a result there)


# -- while the event is on: the evening is the event's --------------------------------------


def on_now(evening: Evening) -> ClubEvent | None:
    """The link of ``evening`` with its event while the event is not over, else None."""
    return (ClubEvent.objects.filter(evening=evening).exclude(event__status=Event.Status.FINISHED)
            .select_related("event").first())


class EventPlace:
    """``leagues.played_elsewhere``'s place: an evening played as a club's event."""

    def playing(self, evening: Evening) -> Elsewhere | None:
        link = on_now(evening)
        if link is None:
            return None
        return Elsewhere(
            _("This evening is played online as the event “%(event)s”: its tables will be the "
              "event's, so it has no draw and no table added by hand until the event ends.")
            % {"event": link.event.name},
            link.event.get_absolute_url(), _("Go to the event"))

    def moved(self, evening: Evening, date: datetime.date) -> dict | None:
        """The event starts on the evening's new day, at the same time of day; refused in
        words once it has started, or when that start is past or too far ahead.  The facts of
        the move, for the club's history."""
        link = ClubEvent.objects.filter(evening=evening).first()
        if link is None:
            return None
        event = Event.objects.select_for_update().get(pk=link.event_id)
        said = {"event": event.name, "date": long_date(evening.date)}
        if event.status != Event.Status.REGISTRATION:
            raise EntryError(_("The event “%(event)s” of this evening has started: the evening "
                               "stays on %(date)s, the event's day.") % said)
        starts_at = timezone.make_aware(datetime.datetime.combine(
            date, timezone.localtime(event.starts_at).time()))
        if starts_at <= timezone.now():
            raise EntryError(_("This evening is played online as the event “%(event)s”, and an "
                               "event cannot start in the past: choose a day to come.") % said)
        if starts_at > timezone.now() + datetime.timedelta(days=LATEST_START_DAYS):
            raise EntryError(_("This evening is played online as the event “%(event)s”, and an "
                               "event starts within %(days)s days: choose an earlier day.")
                             % {**said, "days": LATEST_START_DAYS})
        event.starts_at = starts_at
        event.save(update_fields=["starts_at"])
        # Those reminded of the old start are reminded again an hour before the new one.
        event.registrations.update(reminded_at=None)
        live.changed(event.pk)
        return {"event": event.name, "starts_at": timezone.localtime(starts_at).isoformat()}


def play_at_tables(club, evening: Evening, by=None) -> Event:
    """The organiser (``by``) takes the evening back from its event before the event starts:
    the event stays, a club's event like any other (its results no longer the evening's), and
    the evening is drawn at its tables; a line of the club's history.  EntryError, in words,
    once the event has started."""
    with transaction.atomic():
        Evening.objects.select_for_update().get(pk=evening.pk)
        evening.season.refuse_if_closed()
        link = ClubEvent.objects.select_for_update().filter(evening=evening, club=club).first()
        if link is None:
            raise EntryError(_("This evening is not played as an event: it is played at its "
                               "tables already."))
        event = Event.objects.select_for_update().get(pk=link.event_id)
        if event.status != Event.Status.REGISTRATION:
            raise EntryError(_("The event has started: the evening is played as the event until "
                               "it ends, and its results become the evening's."))
        link.evening = None
        link.save(update_fields=["evening"])
        ClubChange.record(club, by, "evening_at_tables",
                          {**edits.evening_facts(evening), "event": event.name})
        live.changed(event.pk)
        return event


# -- when the event ends --------------------------------------------------------------------


def seated_members(club, event_table: EventTable) -> list[Member] | None:
    """The club's members in the seats of ``event_table``, in seat order; None when a seat is
    a computer player's or a person's who is not a member of the club."""
    members = {member.user_id: member for member in
               Member.objects.filter(club=club, guest=False,
                                     user__in=event_table.table.seats.values("user"))}
    seated = []
    for seat in event_table.table.seats.order_by("position"):
        if seat.is_computer or seat.user_id is None or seat.user_id not in members:
            return None
        seated.append(members[seat.user_id])
    return seated


def finished(link: ClubEvent) -> None:
    """The event is over: its tables of the club's members become the evening's tables, their
    hands its deals (the online fixtures' path), and who played is marked as having come."""
    evening = link.evening
    if evening is None or evening.season.is_closed or evening.is_cancelled:
        return  # said on the event's page (``left_out``); nothing to enter
    event = link.event
    with transaction.atomic():
        tables = list(EventTable.objects.filter(round__event=event)
                      .select_related("round", "table").order_by("round__number", "number"))
        numbers = dict(EveningTable.objects.filter(evening=evening).values("round")
                       .annotate(last=Max("number")).values_list("round", "last"))
        if not event.is_arena and event.rounds > evening.rounds:
            evening.rounds = event.rounds
            evening.deals_per_round = evening.deals_per_round or event.deals_per_round
            evening.save(update_fields=["rounds", "deals_per_round"])
        _store_rounds(link, evening)
        came = set()
        league = evening.season.league
        registered = {frozenset(pair.members): pair for pair in season_pairs(evening.season)}
        for event_table in tables:
            members = seated_members(link.club, event_table)
            if members is None or OnlineFixture.objects.filter(
                    game_table=event_table.table).exists():
                continue
            round_number = 1 if event.is_arena else event_table.round.number
            numbers[round_number] = numbers.get(round_number, 0) + 1
            if league.draws_partners:
                # The event's partners (across) are the round's drawn pairs.
                ((pair_0, pair_1),) = draw.drawn_pairs(evening.season, [members])
                table = EveningTable.objects.create(evening=evening, round=round_number,
                                                    number=numbers[round_number],
                                                    pair_0=pair_0, pair_1=pair_1)
            elif league.registers_pairs:
                # The season's registered pairs sat across (``fixed_pairs``).
                sides = [registered.get(frozenset((members[0].pk, members[2].pk))),
                         registered.get(frozenset((members[1].pk, members[3].pk)))]
                if None in sides:
                    continue  # not two of the season's pairs: nothing the league knows
                table = EveningTable.objects.create(evening=evening, round=round_number,
                                                    number=numbers[round_number],
                                                    pair_0=sides[0], pair_1=sides[1])
            else:
                table = EveningTable.objects.create(evening=evening, round=round_number,
                                                    number=numbers[round_number])
                TableSeat.objects.bulk_create(TableSeat(table=table, seat=position,
                                                        member=member)
                                              for position, member in enumerate(members))
            online.take_finished_table(table, event_table.table, event.organiser)
            came.update(members)
        for member in came:
            evening.set_attendance(member, True)


def _store_rounds(link: ClubEvent, evening: Evening) -> None:
    """Each round of the event is a round of the evening (``EveningRound``), its sit-outs the
    event's byes of the club's members: the league credits them as its own draw's, and a
    member whose table stayed out of the league (a computer player there) did not sit out."""
    for event_round in link.event.event_rounds.order_by("number"):
        number = 1 if link.event.is_arena else event_round.number
        stored, _created = EveningRound.objects.get_or_create(evening=evening, number=number)
        byes = Member.objects.filter(club=link.club, guest=False,
                                     user__in=event_round.sitting_out or [])
        stored.sitting_out.add(*byes)


def entered(link: ClubEvent) -> tuple[int, int]:
    """How many of the event's tables entered the evening, and how many did not."""
    tables = EventTable.objects.filter(round__event=link.event)
    counted = tables.filter(table__league_fixture__table__evening=link.evening).count() \
        if link.evening is not None else 0
    return counted, tables.count() - counted
