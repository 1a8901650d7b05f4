"""An event and its people, rounds and tables (docs/events.md).

An event belongs to the person who organised it; it is public (on the site's events list) or
unlisted (reached by its address alone).  A club's event is for later: the link would be on the
leagues' side, since events never import leagues (docs/architecture.md).  Each of its tables
is a ``games.Table`` playing the round's deals from the event's deal set
(``Table.preset_deals``), so the play, the computer players and the hidden information are the
tables' own."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import registry
from games.models import COMPUTER_LEVELS, PUBLIC_MOVE_SECONDS
from games.rules import game_module

MAX_ROUNDS = 12
MAX_DEALS_PER_ROUND = 8
# The round clock (docs/events.md, "Time"): a round lasts this many minutes a deal unless the
# organiser chose otherwise, at least the least a deal, at most the longest round.
MINUTES_PER_DEAL = 6
LEAST_MINUTES_PER_DEAL = 2
LONGEST_ROUND_MINUTES = 120
# The time for each move an event may give (a computer makes the move when it runs out).
EVENT_MOVE_SECONDS = (30, 60, 120)
# A deal not finished in time, scored "average minus" as the bridge programs do: this
# percentage of the deal's top for every direction at the table.
AVERAGE_MINUS_PERCENT = 40
# The event's page is its lobby from this long before the start.
LOBBY_MINUTES = 30
# An arena (docs/events.md, "Arena"): how long it may last, in minutes.
SHORTEST_ARENA_MINUTES = 10
LONGEST_ARENA_MINUTES = 180


def new_seed() -> int:
    return secrets.randbelow(2**31)


class Event(models.Model):
    class Visibility(models.TextChoices):
        PUBLIC = "public", _("public: on the events list")
        UNLISTED = "unlisted", _("unlisted: only for people with its address")

    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss rounds")
        ARENA = "arena", _("Arena: for a set time, each table that finishes is formed again at once")

    class LateDeals(models.TextChoices):
        COMPUTERS = "computers", _("computer players finish them; their results count")
        AVERAGE_MINUS = "average_minus", _(
            "they are not scored: everyone at the table gets average minus (40%)")

    class Scoring(models.TextChoices):
        # docs/events.md, "Scoring": how a deal's results are compared, and the standings
        # ranked.
        MATCHPOINTS = "matchpoints", _("By matchpoints")
        DIFFERENCE = "difference", _("By the difference from the field")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("open for registration")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", pgettext_lazy("an event", "finished")

    name = models.CharField(_("name"), max_length=80)
    # Empty once the organiser's account is deleted (the event and its results stay).
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                  null=True, blank=True, related_name="organised_events")
    visibility = models.CharField(_("who sees it"), max_length=10, choices=Visibility.choices,
                                  default=Visibility.PUBLIC)
    game = models.CharField(_("game"), max_length=20, choices=registry.choices)
    rules = models.JSONField(_("house rules"), default=dict, blank=True)
    format = models.CharField(_("format"), max_length=10, choices=Format.choices,
                              default=Format.SWISS)
    rounds = models.PositiveSmallIntegerField(
        _("rounds"), default=3, validators=[MinValueValidator(1), MaxValueValidator(MAX_ROUNDS)])
    deals_per_round = models.PositiveSmallIntegerField(
        _("deals per round"), default=4,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_DEALS_PER_ROUND)])
    starts_at = models.DateTimeField(_("start"))
    # An arena's length (its one ``EventRound`` ends this long after the start); null for a
    # Swiss event.  An arena's ``deals_per_round`` is the deals each of its tables plays, and
    # its ``rounds`` is 1.
    arena_minutes = models.PositiveSmallIntegerField(
        _("minutes of the arena"), null=True, blank=True,
        validators=[MinValueValidator(SHORTEST_ARENA_MINUTES),
                    MaxValueValidator(LONGEST_ARENA_MINUTES)])
    # The round clock: null gives MINUTES_PER_DEAL a deal (``round_minutes_or_usual``).
    round_minutes = models.PositiveSmallIntegerField(
        _("minutes per round"), null=True, blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(LONGEST_ROUND_MINUTES)])
    move_seconds = models.PositiveSmallIntegerField(
        _("time for a move (seconds)"), default=PUBLIC_MOVE_SECONDS,
        choices=[(seconds, seconds) for seconds in EVENT_MOVE_SECONDS])
    # What becomes of the deals a table has not finished when the round's time is up.
    late_deals = models.CharField(_("deals not finished in time"), max_length=16,
                                  choices=LateDeals.choices, default=LateDeals.COMPUTERS)
    scoring = models.CharField(_("scoring"), max_length=12, choices=Scoring.choices,
                               default=Scoring.MATCHPOINTS)
    # The organiser's cap of the difference score, in the game's numbers; null: the game's own
    # (``games.registry``, ``difference_cap``).
    chosen_cap = models.PositiveIntegerField(_("cap of the difference a deal"), null=True,
                                             blank=True)
    computer_level = models.CharField(_("computer players"), max_length=10,
                                      choices=COMPUTER_LEVELS, default="normal")
    # Each table plays a match to the target of the event's house rules (an event played as
    # a league evening of Bid Whist or Cutthroat, whose league tables are matches): it plays
    # the round's deals in order and ends when its match does (``games.Table.match_ends_it``);
    # a deal it never reached is not scored for it, and a deal past the round's is compared
    # with nobody (docs/events.md, "League evenings played as events").
    plays_matches = models.BooleanField(default=False, editable=False)
    # Its partners are fixed pairs (an event played as an evening of a Bid Whist league of
    # registered pairs): the pairs are the policy's (``policies.fixed_pairs``), each round
    # pairs them as units and a pair plays only when both its members are there
    # (``pairing.fixed_pairs_round``; docs/events.md, "League evenings played as events").
    partners_are_fixed_pairs = models.BooleanField(default=False, editable=False)
    status = models.CharField(max_length=12, choices=Status.choices,
                              default=Status.REGISTRATION)
    # The deal set, ``whistclub-deals/1`` (events.deals.to_document): chosen at the start,
    # ``rounds × deals_per_round`` deals, round r playing deals [(r-1)·d, r·d); an arena's
    # blocks of ``deals_per_round``, more added as its players need them (``events.arena``).
    # Never shown until a round is over for everyone (an arena's deal: once played, to those
    # who played it).
    deals = models.JSONField(null=True, blank=True, editable=False)
    # The seed of each round's pairing (with the round's number): a round can be formed again.
    seed = models.PositiveIntegerField(default=new_seed, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["starts_at", "pk"]
        indexes = [models.Index(fields=["visibility", "status", "starts_at"],
                                name="events_listed")]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("event", args=[self.pk])

    @property
    def lobby_open(self) -> bool:
        return self.status == self.Status.REGISTRATION and timezone.now() >= (
            self.starts_at - timedelta(minutes=LOBBY_MINUTES))

    @property
    def is_arena(self) -> bool:
        return self.format == self.Format.ARENA

    @property
    def round_minutes_or_usual(self) -> int:
        return self.round_minutes or usual_round_minutes(self.deals_per_round,
                                                         self.plays_matches)

    @property
    def by_difference(self) -> bool:
        return self.scoring == self.Scoring.DIFFERENCE

    @property
    def difference_cap(self) -> float | None:
        """The most one deal moves a player's difference score: the organiser's, or the
        game's for the event's house rules (``games.registry``); None for an event scored by
        matchpoints."""
        if not self.by_difference:
            return None
        if self.chosen_cap:
            return float(self.chosen_cap)
        return registry.game(self.game).cap_for(
            game_module(self.game).Rules.from_overrides(self.rules or {}))

    def round_deals(self, number: int) -> range:
        """The indexes in the deal set of round ``number``'s deals."""
        first = (number - 1) * self.deals_per_round
        return range(first, first + self.deals_per_round)


def usual_round_minutes(deals_per_round: int, plays_matches: bool = False) -> int:
    """A round's clock unless the organiser chose: ``MINUTES_PER_DEAL`` a deal; a round of
    matches the longest round, since a match may need many more hands than the round's deals
    (docs/events.md, "The clock of a round of matches") and its table ends with its match."""
    if plays_matches:
        return LONGEST_ROUND_MINUTES
    return min(LONGEST_ROUND_MINUTES, deals_per_round * MINUTES_PER_DEAL)


class Registration(models.Model):
    """A person registered for an event; withdrawn before the start keeps the row (they may
    register again).  Once it runs, a person may pause (not seated again until they come back)
    or leave it for good; their results so far count either way (``events.away``; docs/events.md,
    "Pausing, leaving and joining late")."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="event_registrations")
    registered_at = models.DateTimeField(default=timezone.now)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    # When the e-mail before the start went (``events.reminders``): it goes once.
    reminded_at = models.DateTimeField(null=True, blank=True)
    # Since when they are paused (null: playing), when they left for good (never seated
    # again), and when they last became free to play apart from a table's end: they
    # registered once it was running, or came back from a pause (``events.arena``: they wait
    # from then, as a person whose table has just finished; a Swiss event seats them from the
    # next round formed).
    paused_at = models.DateTimeField(null=True, blank=True)
    left_at = models.DateTimeField(null=True, blank=True)
    back_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["registered_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["event", "user"],
                                               name="one_event_registration_per_person")]

    def __str__(self):
        return f"{self.event} {self.user}"

    @property
    def is_away(self) -> bool:
        """Paused, or gone for good: not seated at a new table or in a new round
        (``events.away``)."""
        return self.paused_at is not None or self.left_at is not None


class EventRound(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="event_rounds")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(default=timezone.now)
    # When its time is up (the round clock): every table's ``games.Table.time_up_at``.  Null
    # for a round formed before events had a clock.
    ends_at = models.DateTimeField(null=True, blank=True)
    # Set once every table of the round has played its deals: only then are the round's
    # results and cards shown beyond each table (travellers, standings).
    finished_at = models.DateTimeField(null=True, blank=True)
    # Who sat out (by user id): the pairing's byes.
    sitting_out = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"],
                                               name="one_event_round_per_number")]

    def __str__(self):
        return f"{self.event} round {self.number}"


class EventTable(models.Model):
    """One table of a round (or of an arena: all its tables belong to its one round): a
    ``games.Table`` whose seats say who played (a person, or a computer player whose results
    do not rank)."""

    round = models.ForeignKey(EventRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    table = models.OneToOneField("games.Table", on_delete=models.CASCADE,
                                 related_name="event_table")
    # An arena's table: the index in the event's deal set of its first deal (it plays
    # ``deals_per_round`` from there; ``events.arena``).  Null at a Swiss round's table, which
    # plays its round's deals.
    first_deal = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"],
                                               name="one_event_table_per_number")]

    def __str__(self):
        return f"{self.round} table {self.number}"
