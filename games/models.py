"""Online tables: the table, its seats and its finished hands.

The state of a live table is its current hand record (deal + actions) and a version number, in
the database: any process can serve any table and a restart loses
nothing.  The engines in ``games.rules`` are the referee; nothing here knows a rule.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Count, Q
from django.db.models.functions import Coalesce, Greatest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import registry

MAX_TRICK_PAUSE_MS = 5000
COMPUTER_LEVELS = [("easy", _("easy")), ("normal", _("normal")), ("strong", _("strong"))]


def new_invite_token() -> str:
    return secrets.token_urlsafe(12)


def takeover_at(user_id, away_since, grace_seconds: int):
    """When a computer player starts playing for an absent person (None: nobody is away)."""
    if user_id is None or away_since is None:
        return None
    return away_since + timedelta(seconds=grace_seconds)


def computer_plays(seat, grace_seconds: int, now=None, move_deadline=None) -> bool:
    """Whether a computer plays ``seat`` now (at ``now``): a computer seat, a person gone past
    the table's grace period, or a former player (their account was deleted); and for the
    seat to act only, given the table's ``move_deadline``, a person whose time for this move
    ran out (a computer makes that one move; the next is theirs again).  ``seat`` is anything
    with a seat's ``computer_level``, ``user_id``, ``away_since`` and ``former_player``: a ``Seat``
    row or a snapshot's facts of one (``games.snapshots.SeatFacts``)."""
    if seat.computer_level or seat.former_player:
        return True
    now = now or timezone.now()
    if move_deadline is not None and now >= move_deadline:
        return True
    takeover = takeover_at(seat.user_id, seat.away_since, grace_seconds)
    return takeover is not None and now >= takeover


def next_move_deadline(move_seconds: int, hand_in_play: bool, now=None, time_up_at=None):
    """When the turn that begins now runs out (``Table.move_deadline``): None at a table
    without a time limit, or with no hand in play.  At a table whose time is up at
    ``time_up_at`` (``Table.time_up_at``: an event's round) every turn runs out by then at the
    latest, and one that begins later has run out already: a computer makes it at once."""
    if not hand_in_play or not (move_seconds or time_up_at):
        return None
    deadline = (now or timezone.now()) + timedelta(seconds=move_seconds) if move_seconds \
        else None
    if time_up_at is not None and (deadline is None or time_up_at < deadline):
        return time_up_at
    return deadline


def time_is_up(time_up_at, now=None) -> bool:
    """Whether a table's time is up (``Table.time_up_at``; never without one)."""
    return time_up_at is not None and (now or timezone.now()) >= time_up_at


def waits_for_its_people(seats, record: dict | None, plays_on: bool = False) -> bool:
    """Whether a table in play stands paused: a new deal not begun, at a table with people
    whom nobody present (every one of them away).  Computer players never play on alone in
    people's names from one hand to the next; a person coming back wakes them
    (``games.presence.connected``).  A table of computer players only plays on, and so does
    a table that ``plays_on``: one of preset deals (an event's, whose round waits for it).
    ``seats``: ``Seat`` rows or a snapshot's facts of them."""
    if plays_on or record is None or record.get("actions"):
        return False
    people = [seat for seat in seats if seat.user_id is not None and not seat.computer_level]
    return bool(people) and all(seat.away_since is not None for seat in people)


# The per-move time limits a table may choose (seconds; 0: none), and the one a public table
# gets unless its creator chose: a private table is friends who wait for each other.
MOVE_SECONDS_CHOICES = (0, 30, 60, 120)
PUBLIC_MOVE_SECONDS = 60


def default_trick_pause_ms() -> int:
    """A new table pauses on a finished trick as long as the site is set to
    (``TRICK_PAUSE_SECONDS``: 1.5 s, 0 for test servers); its creator may choose otherwise."""
    return round(settings.TRICK_PAUSE_SECONDS * 1000)


class Table(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting for players")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")

    game = models.CharField(_("game"), max_length=20, choices=registry.choices)
    rules = models.JSONField(_("house rules"), default=dict, blank=True,
                             help_text=_("Only the rules that differ from the defaults."))
    # Empty once the account that opened the table is deleted (the table and its hands stay).
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="created_tables")
    created_at = models.DateTimeField(auto_now_add=True)
    is_private = models.BooleanField(_("private"), default=False,
                                     help_text=_("Only people with the invite link can see it."))
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token)
    # A rematch keeps the computer players of the table it came from, names included: their
    # names are chosen by this table's id (``games.computer_names``), empty for a first table.
    computer_names_of = models.PositiveIntegerField(null=True, blank=True, editable=False)
    deals_limit = models.PositiveSmallIntegerField(
        _("number of deals"), null=True, blank=True,
        help_text=_("Solo and Belgian Whist: the session ends after this many deals; "
                    "empty = until the table closes."))
    grace_seconds = models.PositiveSmallIntegerField(
        _("grace period (seconds)"), default=60,
        help_text=_("How long a player who dropped off keeps their seat before a computer "
                    "player takes over (they get it back as soon as they return)."))
    trick_pause_ms = models.PositiveSmallIntegerField(
        _("pause on a finished trick (milliseconds)"), default=default_trick_pause_ms,
        validators=[MaxValueValidator(MAX_TRICK_PAUSE_MS)],
        help_text=_("How long a finished trick stays whole in the middle of the table, its "
                    "winner marked, before it is gathered."))
    move_seconds = models.PositiveSmallIntegerField(
        _("time for a move (seconds)"), default=0,
        help_text=_("How long a player has for each move before a computer player makes that "
                    "move for them (they keep their seat); 0: no limit."))
    # When the turn in play runs out (now + move_seconds as each turn begins, whoever's it
    # is; null without a limit or a hand in play): written with the change that began the
    # turn, so an overdue move is found again after a restart
    # (``games.presence.look_at_overdue_moves``).
    move_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # When the table's time is up (an event's round clock, docs/events.md); null: never.
    # Every turn runs out by then at the latest (``next_move_deadline``), so the per-move
    # clock's timer, its sweep and the catch-up at a process's start find it as they find any
    # overdue move; from then on a computer player makes every move, at once, until the
    # table's deals are played, and a person's move is refused.
    time_up_at = models.DateTimeField(null=True, blank=True, editable=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    # Bumped by every change a player can see; clients send the version they acted on.
    version = models.PositiveIntegerField(default=0)
    # The hand in play as a whistclub-hand/1 record; null before the first deal.
    current = models.JSONField(null=True, blank=True)
    # The engine's match/session summary after the last finished hand.
    summary = models.JSONField(default=dict, blank=True)
    # The deals this table plays, in order, instead of shuffling (``games.dealing``): an
    # event's, the same at every table of its round (docs/events.md).  Each is a hand record's
    # deal, ``{"dealer", "hands", "kitty"}`` (the kitty when the game has one); the table
    # finishes once they are all played (unless ``match_ends_it``).  Null: each hand is
    # shuffled.
    preset_deals = models.JSONField(null=True, blank=True, editable=False)
    # A table of preset deals that plays a match (an event played as a league evening of Bid
    # Whist or Cutthroat, docs/events.md): it plays the preset deals in order but ends as soon
    # as the engine's match ends, and if they run out first it plays on with shuffled deals
    # (stored in its hands' records, as any deal is) until the match is over.
    match_ends_it = models.BooleanField(default=False, editable=False)
    # Where the players of a finished table go next (an event's page: their next table or
    # the results are there): its end screen links there instead of offering a rematch.
    # Empty: a rematch is offered.
    return_to = models.CharField(max_length=200, blank=True, default="", editable=False)
    # {"seat", "action", "version"} of the last applied action: a resent click is recognised.
    last_action = models.JSONField(null=True, blank=True)
    # A computer player may have the turn (a computer seat, or a person's after their grace):
    # written in the same transaction as the change that gave it the turn, so a move that a
    # killed process never made is found again (``games.computer_players.resume_stalled``).
    # Never false while a computer is to act; may be true for a moment when none is (the
    # computer players' loop then clears it).
    computer_turn = models.BooleanField(default=False, db_index=True)
    # The table of the rematch asked for once this one finished (one per finished table).
    rematch_table = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="+", verbose_name=_("rematch"))
    # Whist is played in silence (the rule texts forbid signalling): during a hand only the
    # preset phrases, unless the table's creator allows free text (``games.chat``).
    chat_during_play = models.BooleanField(
        _("free text during a hand"), default=False,
        help_text=_("Players may write their own words while a hand is played, not only the "
                    "preset phrases."))

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.get_game_display()} #{self.pk}"

    def get_absolute_url(self):
        return reverse("table", args=[self.pk])

    @property
    def computer_names_key(self) -> int:
        """The table id its computer players' names are chosen by."""
        return self.computer_names_of or self.pk


# A table nobody has moved at for this long leaves a person's tables in play for their older
# tables (``tables_in_play``, ``older_tables``), as a finished one does: the list stays short.
QUIET_DAYS = 7


def _tables_of(user_id: int):
    """The tables a person sits at or opened, each with ``last_sign``: when anything last
    happened there (opened, a hand finished, a seated person came or went, a socket of theirs
    renewed its lease)."""
    seated = Seat.objects.filter(user_id=user_id).values("table_id")
    last_hand = (Hand.objects.filter(table=models.OuterRef("pk")).order_by("-finished_at")
                 .values("finished_at")[:1])
    last_seen = (Seat.objects.filter(table=models.OuterRef("pk"), seen_at__isnull=False)
                 .order_by("-seen_at").values("seen_at")[:1])
    last_lease = (Presence.objects.filter(seat__table=models.OuterRef("pk"))
                  .order_by("-seen_at").values("seen_at")[:1])
    opened = models.F("created_at")
    return (Table.objects.filter(models.Q(pk__in=seated) | models.Q(created_by_id=user_id))
            .annotate(last_sign=Greatest(
                opened,
                Coalesce(models.Subquery(last_hand), opened),
                Coalesce(models.Subquery(last_seen), opened),
                Coalesce(models.Subquery(last_lease), opened)))
            .prefetch_related("seats__user__profile"))


def quiet_since(now=None):
    """The moment before which a table's last sign makes it quiet (``QUIET_DAYS``)."""
    return (now or timezone.now()) - timedelta(days=QUIET_DAYS)


def tables_in_play(user_id: int | None, now=None) -> list[Table]:
    """The tables a person sits at or opened that have not finished and where something
    happened within ``QUIET_DAYS``, newest first, with their seats (the top of the lobby and of
    the home page); none for a visitor."""
    if user_id is None:
        return []
    return list(_tables_of(user_id).exclude(status=Table.Status.FINISHED)
                .filter(last_sign__gte=quiet_since(now)).order_by("-pk")[:50])


def older_tables(user_id: int | None, now=None, count: int = 20) -> list[Table]:
    """A person's other tables, finished or quiet for ``QUIET_DAYS`` (the lobby's folded
    "Older tables"), the latest sign of life first; none for a visitor."""
    if user_id is None:
        return []
    return list(_tables_of(user_id)
                .filter(models.Q(status=Table.Status.FINISHED)
                        | models.Q(last_sign__lt=quiet_since(now)))
                .order_by("-last_sign", "-pk")[:count])


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="seats")
    computer_level = models.CharField(max_length=10, blank=True, choices=COMPUTER_LEVELS)
    # The person who sat here deleted their account (``games.seating.account_deleted``): the
    # seat is not free, it reads "former player", and a computer plays it if the game goes on.
    former_player = models.BooleanField(default=False)
    # Set when the seat's person is gone (games.presence); cleared when they come back.
    away_since = models.DateTimeField(null=True, blank=True)
    # The last sign of the person that is not a live socket: taking the seat, a socket opened
    # or closed.  A seat with no live socket and nothing seen within the lease is gone.
    seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_seat_per_position"),
            models.CheckConstraint(condition=models.Q(position__lt=registry.MAX_SEATS),
                                   name="at_most_five_seats"),
        ]

    def __str__(self):
        return f"{self.table} seat {self.position}"

    @property
    def is_free(self) -> bool:
        return self.user_id is None and not self.computer_level and not self.former_player

    @property
    def is_computer(self) -> bool:
        return bool(self.computer_level)


class ChatLine(models.Model):
    """One line said at a table (``games.chat``): a preset phrase, kept by its id and said in
    each reader's language, or the author's own words.  Players' lines are for everyone at the
    table; spectators' lines for the spectators only.  They go with the author's account."""

    class Audience(models.TextChoices):
        PLAYERS = "players", _("players")
        SPECTATORS = "spectators", _("spectators")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_lines")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="+")
    audience = models.CharField(max_length=10, choices=Audience.choices)
    phrase = models.CharField(max_length=20, blank=True)  # a preset's id, or empty for text
    text = models.CharField(max_length=200, blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["table", "-id"], name="chat_lines_of_a_table")]

    def __str__(self):
        return f"{self.table} chat {self.pk}"


class Presence(models.Model):
    """One open socket of a seated person, a lease its process renews (games.presence): the
    seat is 'away' when no live one is left."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="presences")
    channel_name = models.CharField(max_length=200, unique=True)
    connected_at = models.DateTimeField(auto_now_add=True)
    # Renewed by the heartbeat of the process holding the socket; stale = that process died.
    seen_at = models.DateTimeField(default=timezone.now, db_index=True)
    process = models.CharField(max_length=16, blank=True, db_index=True)

    def __str__(self):
        return f"{self.seat} via {self.channel_name}"


class Hand(models.Model):
    """A finished hand: its complete whistclub-hand/1 record and the engine's result."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    record = models.JSONField()
    result = models.JSONField()
    finished_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_hand_per_number"),
        ]

    def __str__(self):
        return f"{self.table} hand {self.number}"


class HandReview(models.Model):
    """One player's review of a finished hand (``games.reviews``): each of their decisions
    beside what the strong computer player would have chosen from the same view.  Computed
    once, in the computer players' worker pool, and kept with the hand."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting for a computer player")
        WORKING = "working", _("being prepared")
        READY = "ready", _("ready")
        FAILED = "failed", _("could not be prepared")

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="reviews")
    seat = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    result = models.JSONField(null=True, blank=True)
    # Who asked (their reviews waiting or being prepared are capped, and served in turn with
    # everyone else's), when, and when a worker took it: a review is lost only counting from
    # then, never for its time in the queue.
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                     null=True, blank=True, related_name="+")
    requested_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat"], name="one_review_per_hand_seat"),
        ]
        indexes = [  # the queue and the reviews being prepared: a few rows among every review
            models.Index(fields=["requested_at"], name="reviews_queued_or_working",
                         condition=models.Q(status__in=["queued", "working"])),
        ]

    def __str__(self):
        return f"{self.hand} review of seat {self.seat}"


class FollowUp(models.Model):
    """Work that must follow a committed change, written in that change's transaction (an
    outbox): a hand finished (the league records it as a deal, the ratings take it), a table
    finished (its online fixture is complete), a result to rate.  ``games.followups`` does each
    until it succeeds -- in a worker process of every serving process, never on the thread of
    the sockets or of the request that made the change -- and a process that starts catches up
    with what a killed one left.  ``kind`` names a handler registered by the app that does the
    work (games never imports leagues or ratings)."""

    kind = models.CharField(max_length=40)
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)
    # Not before this moment: a failed attempt waits a little longer each time.
    due_at = models.DateTimeField(default=timezone.now, db_index=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return f"{self.kind} {self.payload}"


def lobby_tables(user):
    """Open tables anyone may join or watch, newest first, with their seats."""
    return (Table.objects.filter(is_private=False)
            .exclude(status=Table.Status.FINISHED)
            .annotate(free_seats=Count("seats", filter=Q(seats__user__isnull=True,
                                                         seats__computer_level="",
                                                         seats__former_player=False)))
            .prefetch_related("seats__user__profile")
            .select_related("created_by")[:50])
