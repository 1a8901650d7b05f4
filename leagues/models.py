"""Clubs and leagues: who plays, when they meet, and what was scored.

Club → Member (a person, with or without a login) · League (one game, its house rules and its
standings options) → Season → Evening → EveningTable → Deal.  Every change of a result is kept
as a ResultChange.  Scoring never happens here: :mod:`leagues.scoring` calls ``games.rules``.
The invariants live on the models (``EveningTable.add_deal`` and friends), views stay short.
"""

from __future__ import annotations

import datetime
import secrets
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models, transaction
from django.urls import get_resolver, reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import registry
from leagues import result_events, score_kinds, scoring
from leagues.scoring import EntryError  # noqa: F401  (raised by the entry methods)
from leagues.sheets import Sheet, as_decimal

if TYPE_CHECKING:
    from leagues.score_kinds.base import ScoreKind

# An evening in rounds: at most this many rounds, and deals a round.
MAX_ROUNDS = 12
MAX_DEALS_PER_ROUND = 99

def new_token() -> str:
    return secrets.token_urlsafe(16)


def reserved_club_slugs() -> frozenset[str]:
    """The words the clubs' routes use right under /clubs/ ("new", "join", "reminders"): a club
    whose slug were one of them would lose its pages to those routes (``Club.save`` gives it
    another).  Read from the routes themselves, through Django's resolver by the app's
    namespace as ``reverse`` does, so a new route is reserved too."""
    _prefix, routes = get_resolver().namespace_dict["leagues"]
    first_segments = (str(pattern.pattern).split("/", 1)[0] for pattern in routes.url_patterns)
    return frozenset(segment for segment in first_segments if segment and "<" not in segment)


class DuplicateDeal(EntryError):
    """The deal sent is the one already entered under its number: nothing to add."""


class EndsTheMatch(EntryError):
    """The deal would end the table's match and the person entering it has not said that it
    should: a typo (the wrong team, "1" for "11") must not end a match unasked."""

    def __init__(self):
        super().__init__(_("This hand ends the match. Enter it?"))


def is_players_entry(member) -> bool:
    """An organiser's entry is final; a player's waits for an opponent's confirmation.  No
    member (an online table, an import, a script) is final too."""
    return member is not None and not member.is_organiser


@dataclass
class Confirmable:
    """What one person may confirm at a table (deal numbers, or the totals), and what waits for
    someone else."""

    deals: list = field(default_factory=list)
    totals: bool = False
    waiting: list = field(default_factory=list)
    totals_waiting: bool = False

    def __bool__(self):
        return bool(self.deals or self.totals)


class Club(models.Model):
    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(unique=True, max_length=90)
    description = models.TextField(_("description"), blank=True)
    is_public = models.BooleanField(
        _("public"), default=False,
        help_text=_("Anyone can see the club page, standings and results. Otherwise only members."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        if not self.slug:
            reserved = reserved_club_slugs()  # "new", "join": /clubs/new/ is the create form
            base = slugify(self.name)[:80] or "club"
            slug, n = base, 1
            while slug in reserved or Club.objects.filter(slug=slug).exists():
                n += 1
                slug = f"{base}-{n}"
            self.slug = slug
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("leagues:club", args=[self.slug])

    @classmethod
    @transaction.atomic
    def create_with_organiser(cls, user, **fields) -> Club:
        """A new club whose creator is its first organiser (the first line of its history)."""
        club = cls.objects.create(**fields)
        organiser = Member.objects.create(club=club, user=user, name=user.profile.name if hasattr(
            user, "profile") else user.get_username(), role=Member.Role.ORGANISER)
        ClubChange.record(club, user, "club_create", None,
                          {"name": club.name, "organiser": organiser.name})
        return club

    def first_result_days(self) -> dict[str, datetime.date]:
        """The day of the first result of each game in the club's leagues."""
        return dict(EveningTable.objects.filter(evening__season__league__club=self)
                    .exclude(entry="").order_by().values("evening__season__league__game")
                    .annotate(first=models.Min("evening__date"))
                    .values_list("evening__season__league__game", "first"))

    def known_as(self, user) -> str | None:
        """What the history calls ``user`` at the time of a change: the club's name for them,
        or their username when they are not a member."""
        if user is None:
            return None
        member = self.members.filter(user=user).first()
        return member.name if member is not None else f"@{user.get_username()}"


class Member(models.Model):
    """A person in a club.  ``user`` is empty for people who never sign in; an invite lets
    them claim this record later, keeping their history."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("organiser")
        MEMBER = "member", _("member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="club_memberships")
    name = models.CharField(_("name"), max_length=60)
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    email = models.EmailField(_("email"), blank=True)
    # A retired member stays in past results and standings, and is no longer offered in
    # draws, new tables or attendance.
    retired = models.BooleanField(_("retired"), default=False)
    # The organisers' e-mails about evenings (leagues.reminders); each e-mail has a link to stop.
    reminders = models.BooleanField(_("e-mails about evenings"), default=True)
    # The address whose owner followed the confirmation link (leagues.confirmations), and when;
    # it counts only while it is still the member's address (see address_confirmed).
    confirmed_email = models.EmailField(blank=True)
    confirmed_email_at = models.DateTimeField(null=True, blank=True)
    # A walk-in guest, added at the door of an evening (``leagues.guests``): they play and have
    # results, but are not on the members list, get no e-mails and are not asked to answer;
    # made a member later, they keep the same record and its results.
    guest = models.BooleanField(_("guest"), default=False)
    joined_at = models.DateTimeField(auto_now_add=True)
    # The secret of the member's own calendar address (a members-only club's evenings for a
    # calendar app, which cannot sign in): made and replaced by the member alone.
    calendar_token = models.CharField(max_length=64, null=True, blank=True, unique=True,
                                      editable=False)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_member_per_user_and_club"),
        ]
        verbose_name = _("member")
        verbose_name_plural = _("members")

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("leagues:member", args=[self.club.slug, self.pk])

    def new_calendar_token(self) -> str:
        """A new secret calendar address for this member: the one before stops at once."""
        self.calendar_token = secrets.token_urlsafe(24)
        self.save(update_fields=["calendar_token"])
        return self.calendar_token

    @property
    def email_address(self) -> str:
        """Where the club writes to this member: the address the organiser set, else the
        address of their login (a member who signs in need not be given one twice)."""
        return self.email or (self.user.email if self.user_id else "")

    @property
    def address_confirmed(self) -> bool:
        """Whether the site may write to :attr:`email_address` for the club: its owner followed
        the confirmation link sent to it, or it is the address of the login this member signs
        in with (the person chose it themselves).  Capitals aside; any other address, or a
        changed one, is unconfirmed until its owner says yes.  Load ``user`` with the member."""
        address = self.email_address.casefold()
        if not address:
            return False
        if self.user_id and self.user.email.casefold() == address:
            return True
        return self.confirmed_email.casefold() == address

    @property
    def is_organiser(self) -> bool:
        return self.role == self.Role.ORGANISER

    @property
    def identity(self) -> str:
        """The name with the account's username, which no rename can imitate: names are free
        and not unique, usernames are unique and fixed.  Load ``user`` with the member."""
        if self.user_id is None:
            return self.name
        return f"{self.name} (@{self.user.get_username()})"


class Invite(models.Model):
    """A link to join a club; with ``member`` set, the link claims that member's record.

    An organiser may revoke a link, or renew it (revoke it and make a new one for the same
    purpose).  A revoked link is kept, with who revoked it and when and the link that replaced
    it: that is the history of the club's links, and the old link's page can say in words that
    it is no longer valid."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=40, unique=True, default=new_token)
    member = models.ForeignKey(Member, on_delete=models.CASCADE, null=True, blank=True,
                               related_name="invites")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    replaced_by = models.OneToOneField("self", on_delete=models.SET_NULL, null=True,
                                       blank=True, related_name="replaces")

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return f"{self.club}: {self.member or '*'}"

    def get_absolute_url(self):
        return reverse("leagues:join", args=[self.token])

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    @property
    def is_usable(self) -> bool:
        # A club-wide link serves many people; a claim link serves the one person it names.
        if self.is_revoked:
            return False
        return self.member_id is None or (self.used_at is None and self.member.user_id is None)

    def _lock(self) -> Invite:
        # Revoking and accepting the same link at once: one waits for the other, and sees it.
        return Invite.objects.select_for_update().get(pk=self.pk)

    @transaction.atomic
    def revoke(self, by) -> None:
        """The link stops working at once; refuses (ValidationError) a link already revoked."""
        invite = self._lock()
        if invite.is_revoked:
            raise ValidationError(_("This invite link is no longer valid: it was already "
                                    "revoked or renewed."))
        invite.revoked_at, invite.revoked_by = timezone.now(), by
        invite.save(update_fields=["revoked_at", "revoked_by"])
        self.revoked_at, self.revoked_by = invite.revoked_at, by

    @transaction.atomic
    def renew(self, by) -> Invite:
        """Revokes this link and makes a new one for the same purpose (club-wide, or claiming
        the same member); returns the new one."""
        self.revoke(by)
        new = Invite.objects.create(club=self.club, member=self.member, created_by=by)
        Invite.objects.filter(pk=self.pk).update(replaced_by=new)
        self.replaced_by = new
        return new

    @transaction.atomic
    def accept(self, user) -> Member:
        """Makes ``user`` a member (or the claimed member, with the claimed record's role: an
        organiser's record makes them an organiser); refuses with ValidationError.  Joining
        and claiming are in the club's history."""
        if self._lock().is_revoked:
            raise ValidationError(_("This invite link is no longer valid. Ask an organiser of "
                                    "the club for a new one."))
        existing = Member.objects.filter(club=self.club, user=user).first()
        made_by = self.club.known_as(self.created_by)
        if self.member_id is None:
            if existing:
                return existing
            name = user.profile.name if hasattr(user, "profile") else user.get_username()
            member = Member.objects.create(club=self.club, user=user, name=name)
            ClubChange.record(self.club, user, "member_join", None, {
                "name": name, "username": user.get_username(), "invited_by": made_by})
            return member
        member = Member.objects.select_for_update().get(pk=self.member_id)
        if member.user_id is not None or self.used_at is not None:
            raise ValidationError(_("This invite has already been used."))
        if existing:
            raise ValidationError(_("You are already a member of this club as %(name)s.")
                                  % {"name": existing.name})
        member.user = user
        member.save(update_fields=["user"])
        result_events.records_claimed(self.club)
        self.used_at = timezone.now()
        self.save(update_fields=["used_at"])
        ClubChange.record(self.club, user, "member_claim",
                          {"name": member.name, "role": member.role},
                          {"username": user.get_username(), "invited_by": made_by})
        return member


@dataclass(frozen=True)
class StandingsOptions:
    """How a season's standings are counted: the league's options while the season is open,
    the ones it closed with once it is closed (``Season.closed_options``)."""

    ranking: str
    best_evenings: int
    min_evenings: int
    points_for_win: int
    points_for_loss: int
    tie_break: str
    sit_out_credit: str
    sit_out_score: int | None

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @classmethod
    def of_league(cls, league: League) -> StandingsOptions:
        return cls(**{name: getattr(league, name) for name in cls.names()})

    @classmethod
    def from_json(cls, stored: dict) -> StandingsOptions:
        # An option added after a season closed counts with its default: the season was
        # counted without it.
        return cls(**{name: stored.get(name, League._meta.get_field(name).get_default())
                      for name in cls.names()})

    def as_json(self) -> dict:
        return asdict(self)


class League(models.Model):
    """A club's competition for one game, with its house rules and standings options."""

    class Ranking(models.TextChoices):
        TOTAL = "total", _("total balance")
        AVERAGE = "average", _("average per evening")
        BEST_N = "best_n", _("best N evenings")

    class TieBreak(models.TextChoices):
        DIFFERENCE = "difference", _("points difference, then head to head, then Bostons")
        HEAD_TO_HEAD = "head_to_head", _("head to head, then points difference, then Bostons")
        BOSTONS = "bostons", _("Bostons, then points difference, then head to head")

    class SitOutCredit(models.TextChoices):
        NOTHING = "nothing", _("nothing")
        AVERAGE = "average", _("the average of the round's tables")
        FIXED = "fixed", _("a fixed score")

    class Partners(models.TextChoices):
        REGISTERED = "registered", _("registered pairs, the same all season")
        DRAWN = "drawn", _("partners drawn each round")

    class OddNumbers(models.TextChoices):
        SIT_OUT = "sit_out", _("those left over sit out")
        FIVE_SEATS = "five_seats", _("five-seat tables, the dealer sitting out each deal")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(_("name"), max_length=80)
    game = models.CharField(_("game"), max_length=20, choices=registry.choices)
    rules = models.JSONField(_("house rules"), default=dict, blank=True,
                             help_text=_("Only the rules that differ from the defaults."))
    # Solo and Belgian Whist standings.
    ranking = models.CharField(_("rank by"), max_length=10, choices=Ranking.choices,
                               default=Ranking.TOTAL)
    best_evenings = models.PositiveSmallIntegerField(
        _("best N evenings"), default=6, help_text=_("Used when ranking by the best N evenings."))
    min_evenings = models.PositiveSmallIntegerField(
        _("minimum evenings to qualify"), default=0)
    # Bid Whist standings.
    points_for_win = models.PositiveSmallIntegerField(_("league points for a match won"),
                                                      default=2)
    points_for_loss = models.PositiveSmallIntegerField(_("league points for a match lost"),
                                                       default=0)
    tie_break = models.CharField(_("tie-breaks"), max_length=14, choices=TieBreak.choices,
                                 default=TieBreak.DIFFERENCE)
    # Solo, Belgian Whist: what a player who sat out a round (or a one-draw evening they came
    # to) is credited with for it (``leagues.sit_outs``).
    sit_out_credit = models.CharField(
        _("a sit-out is credited with"), max_length=10, choices=SitOutCredit.choices,
        default=SitOutCredit.NOTHING,
        help_text=_("Solo and Belgian Whist. A sit-out credited with a score counts as an "
                    "evening played."))
    sit_out_score = models.IntegerField(
        _("fixed score for a sit-out"), null=True, blank=True,
        help_text=_("Used when a sit-out is credited with a fixed score."))
    # Solo, Belgian Whist: what the draw does with the players a table of four leaves over
    # (``leagues.movement.table_sizes``): they sit out, or tables of five seat them, where
    # the dealer sits out each deal (``leagues.paper.common``: a five-seat deal).
    odd_numbers = models.CharField(
        _("when the numbers don't divide by four"), max_length=10,
        choices=OddNumbers.choices, default=OddNumbers.SIT_OUT,
        help_text=_("Solo and Belgian Whist. At a five-seat table the dealer sits out each "
                    "deal and scores nothing for it; the deal passes to the left."))
    # Bid Whist: who partners whom.  Registered pairs (the default, every league before this
    # existed), or players who come alone, partners drawn each round by the movement
    # (``leagues.movement``, partners across) and stored as the season's pairs, ``drawn``.
    partners = models.CharField(
        _("partners"), max_length=10, choices=Partners.choices, default=Partners.REGISTERED,
        help_text=_("Bid Whist. With partners drawn each round, players come alone and play "
                    "with a new partner each round."))
    # The evening's prizes (``leagues.prizes``): each on or off, with what it is.
    prize_winner = models.BooleanField(_("a prize for the evening's winner"), default=False)
    prize_winner_text = models.CharField(_("winner's prize"), max_length=80, blank=True,
                                         help_text=_("For example: a bottle of wine."))
    prize_runner_up = models.BooleanField(_("a prize for the runner-up"), default=False)
    prize_runner_up_text = models.CharField(_("runner-up's prize"), max_length=80, blank=True)
    prize_booby = models.BooleanField(_("a booby prize for the lowest score"), default=False)
    prize_booby_text = models.CharField(_("booby prize"), max_length=80, blank=True)
    players_enter_results = models.BooleanField(
        _("players may enter results at the table"), default=False,
        help_text=_("A player's entry stays provisional until an opponent confirms it."))
    # What a new evening of the league starts with (each evening keeps its own: Evening.rounds).
    rounds = models.PositiveSmallIntegerField(
        _("rounds an evening"), default=1,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_ROUNDS)],
        help_text=_("Players change tables after each round. A new evening starts with this "
                    "number; 1: one draw for the whole evening."))
    deals_per_round = models.PositiveSmallIntegerField(
        _("deals a round"), null=True, blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_DEALS_PER_ROUND)],
        help_text=_("Leave empty if the tables play as many deals as they like."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("leagues:league", args=[self.club.slug, self.pk])

    def clean(self):
        self.rules = scoring.normalise_rules(self.game, self.rules)

    def engine_rules(self):
        return scoring.engine_rules(self.game, self.rules)

    @property
    def game_description(self) -> registry.GameDescription:
        return registry.game(self.game)

    @property
    def score_kind(self) -> ScoreKind:
        """Its game's kind of score (a partnership match, a running balance...): what the
        pages, standings, charts, exports and the draw ask of how results add up."""
        return score_kinds.of(self.game)

    @property
    def sheet(self) -> Sheet:
        """How its tables' results add up."""
        return self.score_kind.sheet

    def standings_options(self) -> StandingsOptions:
        return StandingsOptions.of_league(self)

    @property
    def offers_five_seat_tables(self) -> bool:
        """Whether its game can be played five to a table, the dealer sitting out: a game of
        four players each for themselves (Solo, Belgian Whist)."""
        return self.score_kind.five_seat_tables and self.game_description.seats == 4

    @property
    def draws_partners(self) -> bool:
        """Whether the draw forms each table's two pairs from the players present (an
        individual Bid Whist evening), rather than drawing registered pairs."""
        return (self.partners == self.Partners.DRAWN
                and bool(self.score_kind.registers_pairs)
                and self.game_description.seats == 4)

    @property
    def registers_pairs(self) -> bool:
        """Whether its seasons' pairs are registered before the draw (Bid Whist's, unless its
        partners are drawn each round: then its players come alone)."""
        return bool(self.score_kind.registers_pairs) and not self.draws_partners

    @property
    def draws_five_seat_tables(self) -> bool:
        """Whether the draw seats those a table of four leaves over at tables of five."""
        return (self.odd_numbers == self.OddNumbers.FIVE_SEATS
                and self.offers_five_seat_tables)


class Season(models.Model):
    class Draw(models.TextChoices):
        RANDOM = "random", _("random tables")
        SPREAD = "spread", _("spread opponents over the season")
        ROUND_ROBIN = "round_robin", _("round robin (Bid Whist)")
        BY_STANDINGS = "by_standings", _("pairings by standings (Bid Whist)")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
    draw = models.CharField(_("draw"), max_length=14, choices=Draw.choices, default=Draw.RANDOM)
    created_at = models.DateTimeField(auto_now_add=True)
    # A closed season's results are final: no new evening, table or result; its standings
    # are still shown.
    closed_at = models.DateTimeField(null=True, blank=True)
    # The league's standings options and house rules when the season closed: its final
    # standings stay counted by them, whatever the league changes later.
    closed_options = models.JSONField(null=True, blank=True)
    closed_rules = models.JSONField(null=True, blank=True)
    # Raised, inside the change's transaction, by every write that changes what its standings
    # show (``leagues.results_version``): the key of its standings kept between two changes.
    # Only ever raised in the database (never written back by a save of a stale instance).
    results_version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self):
        return f"{self.league} · {self.name}"

    def save(self, *args, **kwargs):
        # A season loaded before its results changed must not put its old version back.
        if not self._state.adding and kwargs.get("update_fields") is None and not kwargs.get(
                "force_insert"):
            kwargs["update_fields"] = [f.name for f in self._meta.concrete_fields
                                       if not f.primary_key and f.name != "results_version"]
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("leagues:season", args=[self.league.club.slug, self.pk])

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None

    @property
    def standings_options(self) -> StandingsOptions:
        """The options its standings are counted by: those it closed with, else the
        league's."""
        if self.is_closed and self.closed_options is not None:
            return StandingsOptions.from_json(self.closed_options)
        return self.league.standings_options()

    @property
    def house_rules(self) -> dict:
        """The house rules it was played with: those it closed with, else the league's."""
        if self.is_closed and self.closed_rules is not None:
            return self.closed_rules
        return self.league.rules

    def refuse_if_closed(self) -> None:
        """The one rule of a closed season: nothing in it changes any more (EntryError)."""
        if self.is_closed:
            raise EntryError(_("The season %(season)s is closed: its evenings, tables and "
                               "results can no longer be changed.") % {"season": self.name})


class Partnership(models.Model):
    """A Bid Whist pair registered for a season."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="partnerships")
    first = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="+")
    second = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="+")
    name = models.CharField(_("name"), max_length=80, blank=True)
    # A retired pair keeps its matches and standings but is drawn no more.
    retired = models.BooleanField(_("retired"), default=False)
    # Formed by the draw of a league whose partners are drawn each round (League.partners),
    # not registered: the draw of registered pairs never draws it.
    drawn = models.BooleanField(_("drawn for a round"), default=False)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("partnership")
        verbose_name_plural = _("partnerships")

    def __str__(self):
        return self.name or f"{self.first} & {self.second}"

    def get_absolute_url(self):
        return reverse("leagues:pair", args=[self.season.league.club.slug, self.pk])

    @property
    def members(self) -> tuple[int, int]:
        return (self.first_id, self.second_id)


class Evening(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="evenings")
    date = models.DateField(_("date"))
    start_time = models.TimeField(_("time"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=120, blank=True)
    # An evening in rounds: a draw (a round of the movement, leagues.draw.draw_round) for each
    # round, everyone changing tables; 1 is one draw for the evening.
    rounds = models.PositiveSmallIntegerField(
        _("rounds"), default=1,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_ROUNDS)],
        help_text=_("How many rounds the evening is played in, everyone changing tables "
                    "after each; 1: one draw for the whole evening."))
    deals_per_round = models.PositiveSmallIntegerField(
        _("deals a round"), null=True, blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_DEALS_PER_ROUND)],
        help_text=_("Leave empty if the tables play as many deals as they like."))
    # A cancelled evening stays on the calendar, marked so; it holds no table and no result
    # (``leagues.season_calendar.cancel_evening``), and its answers are kept.
    cancelled_at = models.DateTimeField(null=True, blank=True)
    # The secret of the evening's board link (``leagues.board``): what a members-only club's
    # screen at the venue opens without signing in.  An organiser makes it, or a new one
    # (the old link then answers 404).
    board_token = models.CharField(max_length=64, null=True, blank=True, unique=True,
                                   editable=False)

    class Meta:
        ordering = ["date", "start_time", "pk"]
        verbose_name = _("evening")
        verbose_name_plural = _("evenings")

    def __str__(self):
        return f"{self.date:%Y-%m-%d} {self.venue}".strip()

    def get_absolute_url(self):
        return reverse("leagues:evening", args=[self.season.league.club.slug, self.pk])

    @property
    def is_cancelled(self) -> bool:
        return self.cancelled_at is not None

    def new_board_token(self) -> str:
        """A new secret board link for this evening; the previous one stops working (the
        organisers' path, with its line of the club's history: ``edits.set_board_link``)."""
        self.board_token = secrets.token_urlsafe(24)
        self.save(update_fields=["board_token"])
        return self.board_token

    def refuse_if_cancelled(self) -> None:
        """A cancelled evening holds no table and no result (EntryError)."""
        if self.is_cancelled:
            raise EntryError(_("This evening is cancelled: it holds no table and no result. "
                               "Bring it back first."))

    @property
    def is_past(self) -> bool:
        """The evening's date has gone: its page shows who came, not the question."""
        return self.date < timezone.localdate()

    @property
    def in_rounds(self) -> bool:
        """Played in rounds, players changing tables after each (``leagues.draw.draw_round``);
        else one draw for the evening, as always."""
        return self.rounds > 1

    def rounds_drawn(self) -> int:
        """The last round with tables (0 before the draw)."""
        return self.tables.aggregate(last=models.Max("round"))["last"] or 0

    def played_in_a_round_before(self, member: Member, round_number: int) -> bool:
        """Whether ``member`` sat at a table of an earlier round than ``round_number`` (a
        seat, or a pair)."""
        return EveningTable.objects.filter(evening=self, round__lt=round_number).filter(
            models.Q(seats__member=member) | models.Q(pair_0__first=member)
            | models.Q(pair_0__second=member) | models.Q(pair_1__first=member)
            | models.Q(pair_1__second=member)).exists()

    def set_attendance(self, member: Member, coming: bool | None) -> None:
        """Whether ``member`` comes to this evening (their answer, or an organiser's for them),
        in place of any answer before; None: no answer (the answer taken back).  Who may
        answer for whom is decided before.  Someone with a result at one of the evening's
        tables came: "not coming" or no answer is refused in words (EntryError), and so is
        any answer to an evening of a closed season (who came decides a one-draw evening's
        sit-outs, final with it)."""
        if self.season.is_closed:
            raise EntryError(_("The season %(season)s is closed: its evenings take no answers "
                               "any more.") % {"season": self.season.name})
        drawn = self.rounds_drawn() if coming is False and self.in_rounds else 0
        if coming is False and self.in_rounds and drawn < self.rounds and (
                self.tables_with_a_result_of(member).exists()
                or self.played_in_a_round_before(member, drawn)):
            # They came and played, and go home between rounds: the next rounds' draws leave
            # them out, and they stay among those who came.  (Once the last round is drawn
            # there is no "between": someone with a result is refused below, as at an evening
            # of one draw.)
            Attendance.objects.update_or_create(evening=self, member=member,
                                                defaults={"coming": True, "left": True})
            return
        if coming is not True:
            table = self.tables_with_a_result_of(member).first()
            if table is not None:
                raise EntryError(_("%(name)s has a result at table %(number)s of this evening: "
                                   "they came, so their answer stays “coming”.")
                                 % {"name": member.name, "number": table.number})
        if coming is None:
            Attendance.objects.filter(evening=self, member=member).delete()
            return
        Attendance.objects.update_or_create(evening=self, member=member,
                                            defaults={"coming": coming, "left": False})

    def tables_with_a_result_of(self, member: Member):
        """This evening's tables with a result where ``member`` sits (a seat, or a pair)."""
        return EveningTable.objects.filter(evening=self).exclude(entry="").filter(
            models.Q(seats__member=member) | models.Q(pair_0__first=member)
            | models.Q(pair_0__second=member) | models.Q(pair_1__first=member)
            | models.Q(pair_1__second=member)).distinct().order_by("number")

    def attendance_counts(self) -> dict[str, int]:
        """The head count: coming, not coming, and no answer among the members not retired
        (a retired member who had answered counts with their answer)."""
        answers = dict(self.attendances.values_list("member_id", "coming"))
        unanswered = self.season.league.club.members.filter(retired=False, guest=False).exclude(
            pk__in=list(answers)).count()
        coming = sum(1 for value in answers.values() if value)
        return {"coming": coming, "not_coming": len(answers) - coming, "no_answer": unanswered}


class Attendance(models.Model):
    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="attendances")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="attendances")
    coming = models.BooleanField(default=True)
    # An evening in rounds: they came and played, then went home; the next rounds' draws leave
    # them out (``coming`` stays true: they came).
    left = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["evening", "member"], name="one_answer_per_evening"),
        ]

    def __str__(self):
        return f"{self.member} @ {self.evening}: {self.coming}"


class EveningRound(models.Model):
    """A round drawn of an evening in rounds: who sat it out (members, or pairs), kept as
    drawn, since who is present changes between rounds.  Its tables are the evening's tables
    of its ``number``."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="drawn_rounds")
    number = models.PositiveSmallIntegerField()
    sitting_out = models.ManyToManyField(Member, blank=True, related_name="+")
    pairs_sitting_out = models.ManyToManyField(Partnership, blank=True, related_name="+")
    drawn_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["evening", "number"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "number"], name="one_round_per_number"),
        ]

    def __str__(self):
        return f"{self.evening} · round {self.number}"


def upcoming_evenings(*, club=None, user=None, cancelled: bool = False):
    """Evenings from today on, soonest first: a club's (with those cancelled, marked so on its
    page, when ``cancelled``), or those of every club a person is a member of (the home page's
    "next evening", never a cancelled one)."""
    evenings = Evening.objects.filter(date__gte=timezone.localdate())
    if not cancelled:
        evenings = evenings.filter(cancelled_at__isnull=True)
    if club is not None:
        evenings = evenings.filter(season__league__club=club)
    if user is not None:
        evenings = evenings.filter(season__league__club__members__user=user).distinct()
    return evenings.select_related("season__league__club").order_by("date", "start_time", "pk")


class EveningTableQuerySet(models.QuerySet):
    def counted(self):
        """The tables whose results count (standings, a member's history): entered, and not
        waiting for an opponent's confirmation.  The one place this rule is written."""
        return self.filter(provisional=False).exclude(entry="")


class EveningTable(models.Model):
    """One table of an evening: its players (Solo, Belgian) or a match of two pairs (Bid
    Whist).  Its totals are kept up to date by :meth:`recompute`, so standings read a few rows
    per table instead of every deal.  What depends on the kind of score is the league's
    ``sheet`` (leagues.sheets); these methods lock, check, write and audit."""

    class Entry(models.TextChoices):
        NONE = "", _("no result yet")
        DEALS = "deals", _("deal by deal")
        TOTALS = "totals", _("totals only")

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="tables")
    # The round of the evening it belongs to (an evening in rounds); its number is the
    # round's: round 2 has its table 1.
    round = models.PositiveSmallIntegerField(_("round"), default=1)
    number = models.PositiveSmallIntegerField(_("table"), default=1)
    pair_0 = models.ForeignKey(Partnership, on_delete=models.PROTECT, null=True, blank=True,
                               related_name="+")
    pair_1 = models.ForeignKey(Partnership, on_delete=models.PROTECT, null=True, blank=True,
                               related_name="+")
    entry = models.CharField(max_length=6, choices=Entry.choices, default=Entry.NONE, blank=True)
    # A partnership match: the pairs' scores, the winner (0 or 1) once the match is over, and
    # the pairs' tallies of what their game counts beside the score (Bid Whist's Bostons:
    # ``leagues.paper.common.MatchTally``; 0 for a game that keeps none).
    score_0 = models.DecimalField(max_digits=14, decimal_places=6, default=0)
    score_1 = models.DecimalField(max_digits=14, decimal_places=6, default=0)
    bostons_0 = models.PositiveSmallIntegerField(default=0)
    bostons_1 = models.PositiveSmallIntegerField(default=0)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    # Something in the result waits for an opponent's confirmation (a player's deal or totals):
    # the table does not count in the standings meanwhile.  Kept by the entry methods.
    provisional = models.BooleanField(default=False)
    # Who entered the totals (totals only); with ``provisional`` the totals wait for an opponent
    # of this member.
    totals_entered_by = models.ForeignKey(Member, on_delete=models.SET_NULL, null=True,
                                          blank=True, related_name="+")

    objects = EveningTableQuerySet.as_manager()

    class Meta:
        ordering = ["evening", "round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "round", "number"],
                                    name="one_number_per_table_of_a_round"),
        ]
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self):
        return f"{self.evening} · {self.number}"

    def get_absolute_url(self):
        return reverse("leagues:table", args=[self.evening.season.league.club.slug, self.pk])

    @property
    def label(self) -> str:
        """"Table 3", or in an evening in rounds "Round 2 · table 3"."""
        if self.evening.in_rounds:
            return gettext("Round %(round)s · table %(number)s") % {"round": self.round,
                                                                     "number": self.number}
        return gettext("Table %(number)s") % {"number": self.number}

    @property
    def league(self) -> League:
        return self.evening.season.league

    @property
    def is_provisional(self) -> bool:
        return self.provisional

    @property
    def sheet(self) -> Sheet:
        return self.league.sheet

    def seat_members(self) -> list[Member]:
        """Members by seat, 0 first.  Bid Whist: seats 0 and 2 are pair 0, 1 and 3 pair 1."""
        return self.sheet.seat_members(self)

    def sides(self) -> list[str]:
        """Column headings of the score sheet: the two pairs, or the players."""
        return self.sheet.sides(self)

    def names_at(self, number: int) -> list[str]:
        """The sides as they sat at deal ``number``: a substitute in the seat they took from
        that deal on (``Substitute.names_at``)."""
        return Substitute.names_at(list(self.substitutes.select_related("member")),
                                   self.sides(), number)

    def seat_names_at(self, number: int) -> list[str]:
        """Each seat's player at deal ``number``, by seat: a substitute from their deal on."""
        return Substitute.names_at(list(self.substitutes.select_related("member")),
                                   [member.name for member in self.seat_members()], number)

    def snapshot(self) -> dict:
        """The table's result as plain JSON, for the audit trail."""
        if self.entry == self.Entry.TOTALS:
            provisional = self.provisional  # the totals as a whole
        else:
            provisional = list(self.deals.filter(provisional=True).order_by("number")
                               .values_list("number", flat=True))
        return {**self.sheet.result(self), "provisional": provisional}

    # -- result entry: every path locks, checks, writes, recomputes, audits and announces ---

    def _lock(self) -> EveningTable:
        """The table, locked for a change of its results. Two people entering deals at once
        must not both take number N or interleave totals; and every change of results comes
        here, so a closed season's results cannot change by any path (a form, an online table
        finishing late, an import): EntryError."""
        table = (EveningTable.objects.select_for_update(of=("self",))
                 .select_related("evening__season").get(pk=self.pk))
        table.evening.season.refuse_if_closed()
        return table

    def _record(self, by, action: str, before, after, deal_number: int | None,
                note: str = "") -> ResultChange:
        """The end of every change of this table's result: its line in the audit trail, and
        its announcement to whoever follows the results (``leagues.result_events``), both in
        the change's transaction."""
        change = ResultChange.record(self, by, action, before, after, deal_number, note)
        result_events.table_changed(self)
        return change

    def refuse_while_online(self, message: str | None = None,
                            hands_of: OnlineFixture | None = None) -> None:
        """The one rule: while the table is played online, its hands are its deals, and
        nothing else enters, moves or deletes them (EntryError, with ``message`` if given).
        ``hands_of``: the online table a hand comes from, which alone may add its deals."""
        playing = OnlineFixture.objects.filter(table=self, completed_at__isnull=True).first()
        if playing is not None and (hands_of is None or hands_of.pk != playing.pk):
            raise EntryError(message or _("This table is being played online: its hands are "
                                          "recorded as they finish."))

    def _refuse_if_totals(self):
        if self.entry == self.Entry.TOTALS:
            raise EntryError(_("This table's result was entered as totals; clear them to enter "
                               "deal by deal."))

    def add_deal(self, facts: dict, by, member: Member | None = None,
                 number: int | None = None, online: OnlineFixture | None = None,
                 may_end_the_match: bool = True) -> Deal:
        """Scores ``facts`` through the engine and appends the deal, or raises EntryError.

        ``member``: the club member who entered it; a player's deal (not an organiser's) is
        provisional until an opponent of theirs confirms it, and entering it changes nothing
        about the other deals.  ``number``: the deal the form meant to add (its hidden field); a
        form sent twice, or typed on a page that was not fresh, adds nothing (DuplicateDeal or
        EntryError).  The check is made under the table's row lock, so two simultaneous posts
        cannot both see the number free.  ``online``: the online table whose finished hand
        this is (its audit note says so); while a table is played online, only its own hands
        are added.  ``may_end_the_match``: False to refuse (EndsTheMatch) a deal that would
        end the match, which the person entering it then confirms."""
        with transaction.atomic():
            table = self._lock()
            table.refuse_while_online(hands_of=online)
            table._refuse_if_totals()
            deals = list(table.deals.select_related("entered_by_member__user").order_by("number"))
            if number is not None:
                table._check_next_number(number, deals, facts, by)
            if not table.sheet.accepts_another_hand(table, [d.facts for d in deals]):
                raise EntryError(_("The match is over: no more hands can be entered."))
            table.sheet.check_seats(table, [facts])
            outcome = scoring.score_deal(table.league.game, table.league.engine_rules(), facts)
            if not may_end_the_match and not table.sheet.accepts_another_hand(
                    table, [*(d.facts for d in deals), facts]):
                raise EndsTheMatch
            before = table.snapshot()
            deal = Deal.objects.create(
                table=table, number=(deals[-1].number + 1) if deals else 1, facts=facts,
                points=outcome.points, contract=outcome.contract, declarer=outcome.declarer,
                made=outcome.made, entered_by=by, entered_by_member=member,
                provisional=is_players_entry(member))
            table.entry = self.Entry.DEALS
            table._refresh_provisional()
            table.recompute()
            table._record(by, "add", {"deal": None, "table": before},
                          {"deal": deal.as_json(), "table": table.snapshot()}, deal.number,
                          online.note if online else "")
            return deal

    def _check_next_number(self, number: int, deals: list[Deal], facts: dict, by) -> None:
        expected = (deals[-1].number + 1) if deals else 1
        if number == expected:
            return
        taken = next((d for d in deals if d.number == number), None)
        if taken is not None and taken.facts == facts and taken.entered_by_id == (
                by.pk if by is not None else None):
            raise DuplicateDeal(_("Deal %(number)s was already entered (the same deal was sent "
                                  "twice); it is on the sheet once.") % {"number": number})
        if taken is not None:
            who = taken.entered_by_member.identity if taken.entered_by_member else _("someone")
            raise EntryError(_("Deal %(number)s has already been entered by %(name)s, so yours "
                               "was not added. Check the sheet below and enter the next deal.")
                             % {"number": number, "name": who})
        raise EntryError(_("The sheet changed while you were entering this deal, so it was not "
                           "added. Check the sheet below and enter the next deal."))

    def add_deals(self, facts_list: list[dict], by) -> None:
        """Many deals at once (an imported sheet, demo data, benchmarks): all scored, or none
        kept; one audit row for the lot.  Imported deals are final (an organiser's import)."""
        with transaction.atomic():
            table = self._lock()
            table.refuse_while_online()
            table._refuse_if_totals()
            game, rules = table.league.game, table.league.engine_rules()
            start = table.deals.count()
            table.sheet.check_hands(table, [*(d.facts for d in table.deals.order_by("number")),
                                            *facts_list])
            table.sheet.check_seats(table, facts_list)
            outcomes = [scoring.score_deal(game, rules, facts) for facts in facts_list]
            before = table.snapshot()
            Deal.objects.bulk_create(
                Deal(table=table, number=start + i, facts=facts, points=o.points,
                     contract=o.contract, declarer=o.declarer, made=o.made, entered_by=by)
                for i, (facts, o) in enumerate(zip(facts_list, outcomes, strict=True), start=1))
            table.entry = self.Entry.DEALS
            table._refresh_provisional()
            table.recompute()
            table._record(by, "import", {"table": before},
                          {"deals": len(facts_list), "table": table.snapshot()}, None)

    def change_deal(self, number: int, facts: dict | None, by,
                    member: Member | None = None,
                    expected: int | None = None) -> ResultChange:
        """Corrects deal ``number`` (or deletes it when ``facts`` is None).

        A correction is a new entry of that one deal by ``member``: an organiser's is final, a
        player's provisional.  The other deals keep their state.  ``expected``: the id of the
        deal the person saw under that number (a confirmation page); another deal there now
        changes nothing (EntryError).  A deletion keeps a copy of the deal in its
        ``ResultChange`` (and a line in the club's history), from which :meth:`restore_deal`
        puts it back."""
        with transaction.atomic():
            table = self._lock()
            deal = table.deals.filter(number=number).first()
            if deal is None:
                raise EntryError(_("There is no deal %(number)s at this table.")
                                 % {"number": number})
            if expected is not None and deal.pk != expected:
                raise EntryError(_("The sheet changed since you opened this deal: deal "
                                   "%(number)s is now another deal. Nothing was changed; "
                                   "check the sheet and try again.") % {"number": number})
            before = {"deal": deal.as_json(), "table": table.snapshot()}
            if facts is None:
                # The stored copy a restore puts back (``restore_deal``): the deal as it was,
                # with who entered it and when.
                before["deal"].update(entered_by_user=deal.entered_by_id,
                                      entered_at=deal.entered_at.isoformat())
                # A substitute keeps the deals they played: those from a later deal come one
                # number earlier with them (the restore puts back exactly these).
                shifted = table._shift_substitutes(number)
                before["deal"]["substitutes_moved"] = shifted
                deal.delete()
                # Keep numbers consecutive so the sheet reads 1, 2, 3...
                for later in table.deals.filter(number__gt=number).order_by("number"):
                    later.number -= 1
                    later.save(update_fields=["number"])
                after_deal = None
            else:
                table.sheet.check_seats(table, [facts])
                outcome = scoring.score_deal(table.league.game, table.league.engine_rules(),
                                             facts)
                deal.facts, deal.points = facts, outcome.points
                deal.contract, deal.declarer, deal.made = (outcome.contract, outcome.declarer,
                                                           outcome.made)
                deal.entered_by, deal.entered_by_member = by, member
                deal.provisional = is_players_entry(member)
                deal.save()
                after_deal = deal.as_json()
            # A correction may end a match earlier: every later hand must still be legal.
            table.sheet.check_hands(table, [d.facts for d in table.deals.order_by("number")])
            if not table.deals.exists():
                table.entry = self.Entry.NONE
            table._refresh_provisional()
            table.recompute()
            change = table._record(by, "delete" if facts is None else "edit", before,
                                   {"deal": after_deal, "table": table.snapshot()}, number)
            if facts is None:
                ClubChange.record(table.league.club, by, "deal_delete", {
                    **table._facts_for_history(), "deal": number, "facts": before["deal"]["facts"],
                }, {"change": change.pk})
            return change

    def _shift_substitutes(self, number: int) -> list[int]:
        """Deal ``number`` goes: the substitutes who took a seat after it now take it one deal
        earlier (their ids).  Refused in words when it is the only deal a substitute played
        before the next one took the seat (they would be left with none)."""
        subs = list(self.substitutes.select_related("member").order_by("seat", "from_deal"))
        for sub in subs:
            if sub.from_deal == number and any(
                    o.seat == sub.seat and o.from_deal == number + 1 for o in subs):
                raise EntryError(_("Deal %(number)s is the only deal %(name)s played as a "
                                   "substitute: take the substitute back first.")
                                 % {"number": number, "name": sub.member.name})
        moved = [sub for sub in subs if sub.from_deal > number]
        for sub in moved:  # in order, so that two of one seat never share a number
            sub.from_deal -= 1
            sub.save(update_fields=["from_deal"])
        return [sub.pk for sub in moved]

    def _facts_for_history(self) -> dict:
        """The table as the club's history names it: its number, evening, league, game and the
        names of its sides (the names of the time)."""
        league = self.league
        return {"table": self.number, "game": league.game, "sides": self.sides(),
                "evening": {"date": self.evening.date.isoformat(), "league": league.name}}

    def restore_deal(self, change_id: int, by) -> Deal:
        """Puts back the deal that the table's deletion ``change_id`` removed, as it was (its
        facts, points, who entered it and when, provisional or not), at its number again when
        it is free, the later deals moving one on; its table's totals, the standings and the
        ratings follow, as they followed the deletion.  Once only; refused in words (nothing
        changes) when the deal is already back, the table has totals only, plays online, or a
        match has ended since."""
        with transaction.atomic():
            table = self._lock()
            deleted = (ResultChange.objects.select_for_update()
                       .filter(table=table, pk=change_id, action="delete").first())
            if deleted is None:
                raise EntryError(_("There is no deleted deal to restore here."))
            if deleted.restored_by_id is not None:
                raise EntryError(_("Deal %(number)s was already restored.")
                                 % {"number": deleted.deal_number})
            table.refuse_while_online(_("This table is being played online: restore the deal "
                                        "once it has finished."))
            if table.entry == self.Entry.TOTALS:
                raise EntryError(_("This table's result is now entered as totals: clear them "
                                   "to restore deal %(number)s.")
                                 % {"number": deleted.deal_number})
            copy = (deleted.before or {}).get("deal") or {}
            deals = list(table.deals.order_by("number"))
            number = min(deleted.deal_number or len(deals) + 1, len(deals) + 1)
            hands = [d.facts for d in deals]
            hands.insert(number - 1, copy["facts"])
            try:
                table.sheet.check_hands(table, hands)
            except EntryError as exc:
                raise EntryError(_("Deal %(number)s cannot be restored: %(reason)s") % {
                    "number": deleted.deal_number, "reason": exc.message}) from exc
            before = table.snapshot()
            for later in reversed([d for d in deals if d.number >= number]):
                later.number += 1
                later.save(update_fields=["number"])
            for sub in table.substitutes.filter(
                    pk__in=copy.get("substitutes_moved") or []).order_by("-from_deal"):
                sub.from_deal += 1  # they took the seat one deal later than the restored one
                sub.save(update_fields=["from_deal"])
            author = Member.objects.filter(pk=copy.get("entered_by"),
                                           club=table.league.club).first()
            user_model = Deal._meta.get_field("entered_by").related_model
            # The points as they were (the same totals as before the deletion, whatever the
            # house rules became since); the engine names the contract again.
            outcome = scoring.score_deal(table.league.game, table.league.engine_rules(),
                                         copy["facts"])
            deal = Deal.objects.create(
                table=table, number=number, facts=copy["facts"], points=copy["points"],
                contract=outcome.contract, declarer=outcome.declarer, made=outcome.made,
                entered_by=user_model.objects.filter(pk=copy.get("entered_by_user")).first(),
                entered_by_member=author, provisional=bool(copy.get("provisional")))
            if copy.get("entered_at"):
                deal.entered_at = datetime.datetime.fromisoformat(copy["entered_at"])
                Deal.objects.filter(pk=deal.pk).update(entered_at=deal.entered_at)
            table.entry = self.Entry.DEALS
            table._refresh_provisional()
            table.recompute()
            restore = table._record(by, "restore", {"table": before, "restores": deleted.pk},
                                    {"deal": deal.as_json(), "table": table.snapshot()}, number)
            deleted.restored_by = restore
            deleted.save(update_fields=["restored_by"])
            ClubChange.record(table.league.club, by, "deal_restore", {
                **table._facts_for_history(), "deal": number, "facts": copy["facts"],
                "deleted_as": deleted.deal_number}, {"change": restore.pk})
            return deal

    def set_totals(self, totals: list, by, member: Member | None = None) -> None:
        """Totals only: four balances summing to zero (Solo, Belgian) or two match scores.
        A player's totals are provisional until an opponent of theirs confirms them."""
        with transaction.atomic():
            table = self._lock()
            table.refuse_while_online()
            if table.deals.exists():
                raise EntryError(_("This table has deal-by-deal results; totals cannot replace "
                                   "them."))
            if table.substitutes.exists():
                raise EntryError(_("A substitute plays at this table: enter its deals, so that "
                                   "each is credited to whoever played it."))
            values = [as_decimal(t) for t in totals]
            before = table.snapshot()
            table.sheet.set_totals(table, values)
            table.entry = self.Entry.TOTALS
            table.totals_entered_by = member
            table.provisional = is_players_entry(member)
            table.save()
            table._record(by, "totals", {"table": before}, {"table": table.snapshot()}, None)

    def clear_totals(self, by) -> None:
        with transaction.atomic():
            table = self._lock()
            before = table.snapshot()
            table.sheet.clear_totals(table)
            table.entry = self.Entry.NONE
            table.totals_entered_by = None
            table.provisional = False
            table.save()
            table._record(by, "clear", {"table": before}, {"table": table.snapshot()}, None)

    # -- confirming provisional entries ---------------------------------------------------

    def may_confirm_entry(self, author: Member | None, member: Member,
                          members: list[Member] | None = None) -> bool:
        """The one rule: an entry is confirmed by an opponent of its author at this table, or
        by an organiser (explicitly, with the confirm button); never by its author."""
        if author is not None and author.pk == member.pk:
            return False
        if member.is_organiser:
            return True
        return author is not None and self.is_opponent(author, member, members)

    def confirmable(self, member: Member | None) -> Confirmable:
        """What ``member`` may confirm at this table, and what waits for someone else."""
        result = Confirmable()
        if not self.provisional or member is None:
            return result
        members = self.seat_members()
        if self.entry == self.Entry.TOTALS:
            author = self.totals_entered_by
            if self.may_confirm_entry(author, member, members):
                result.totals = True
            else:
                result.totals_waiting = True
            return result
        for deal in self.deals.filter(provisional=True).select_related(
                "entered_by_member").order_by("number"):
            if self.may_confirm_entry(deal.entered_by_member, member, members):
                result.deals.append(deal.number)
            else:
                result.waiting.append(deal.number)
        return result

    def confirm(self, by, member: Member) -> Confirmable:
        """Confirms what ``member`` may confirm (see :meth:`may_confirm_entry`), nothing more;
        raises EntryError when that is nothing.  Returns what was confirmed."""
        with transaction.atomic():
            table = self._lock()
            mine = table.confirmable(member)
            if not mine:
                raise EntryError(_("There is nothing here that you may confirm: an entry is "
                                   "confirmed by an opponent of the player who entered it, or "
                                   "by an organiser."))
            before = table.snapshot()
            if mine.totals:
                table.provisional = False
            else:
                table.deals.filter(number__in=mine.deals).update(provisional=False)
                table._refresh_provisional()
            table.save(update_fields=["provisional"])
            table._record(by, "confirm", {"table": before},
                          {"confirmed": {"deals": mine.deals, "totals": mine.totals},
                           "table": table.snapshot()}, None)
            return mine

    def is_opponent(self, one: Member, other: Member,
                    members: list[Member] | None = None) -> bool:
        members = self.seat_members() if members is None else members
        if one not in members or other not in members or one == other:
            return False
        return self.sheet.are_opponents(members, one, other)

    def _refresh_provisional(self):
        # The table waits while any of its deals waits; totals set their own flag.
        if self.entry != self.Entry.TOTALS:
            self.provisional = self.deals.filter(provisional=True).exists()

    def recompute(self) -> None:
        """Derives the table's totals from its deals (the only writer of those totals)."""
        self.sheet.recompute(self, list(self.deals.order_by("number")))
        self.save()


class TableSeat(models.Model):
    """A player at a table where each seat keeps its own score (a running balance, or each
    player for themselves), with their total for the evening; pairs are ``Partnership`` rows."""

    table = models.ForeignKey(EveningTable, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="seats")
    total = models.DecimalField(max_digits=14, decimal_places=6, default=0)

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["table", "member"], name="one_seat_per_player"),
            # as at an online table: a game seats three to five (games.registry)
            models.CheckConstraint(condition=models.Q(seat__lt=registry.MAX_SEATS),
                                   name="table_seat_at_most_five_seats"),
        ]

    def __str__(self):
        return f"{self.table} · {self.seat}: {self.member}"


class Substitute(models.Model):
    """Someone who took a seat of a table from a deal on (a player gone home, a latecomer):
    the deals before stay with whoever sat there before (the seat's ``TableSeat.member``, or
    an earlier substitute), each deal from ``from_deal`` on is this member's.  ``total`` is
    their part of the seat's balance, kept by the table's ``recompute`` like the seat's own
    total (which stays the whole seat's, so a table's balances still add up to zero); the
    standings credit the seat's member with the seat's total less its substitutes' parts."""

    table = models.ForeignKey(EveningTable, on_delete=models.CASCADE, related_name="substitutes")
    seat = models.PositiveSmallIntegerField()
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="substitutions")
    from_deal = models.PositiveSmallIntegerField()
    total = models.DecimalField(max_digits=14, decimal_places=6, default=0)

    class Meta:
        ordering = ["table", "seat", "from_deal"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat", "from_deal"],
                                    name="one_substitute_per_seat_and_deal"),
        ]

    def __str__(self):
        return f"{self.table} · {self.seat}: {self.member} from {self.from_deal}"

    @staticmethod
    def playing(substitutes, seat: int, number: int) -> Substitute | None:
        """Of a table's ``substitutes``, the one who played ``seat`` at deal ``number`` (None:
        the seat's member)."""
        found = None
        for sub in substitutes:
            if sub.seat == seat and sub.from_deal <= number and (
                    found is None or sub.from_deal > found.from_deal):
                found = sub
        return found

    @staticmethod
    def names_at(substitutes, names: list[str], number: int) -> list[str]:
        """The score sheet's ``names`` (a table's ``sides()``, by seat) as they sat at deal
        ``number``: a seat's substitute from their deal on (of ``substitutes``, their members
        read), the seat's member before.  The one answer the table's page, its deal lines,
        forms and history give to "who held this seat at that deal"."""
        return [sub.member.name if (sub := Substitute.playing(substitutes, seat, number))
                else name for seat, name in enumerate(names)]


class Deal(models.Model):
    """One deal from the score sheet: the facts as entered and the engine's score."""

    table = models.ForeignKey(EveningTable, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()
    facts = models.JSONField()
    # Units per seat (Solo, Belgian: four numbers) or points per team (Bid Whist: two).
    points = models.JSONField()
    contract = models.CharField(max_length=30, blank=True)
    declarer = models.PositiveSmallIntegerField(null=True, blank=True)  # seat, or team for Bid
    made = models.BooleanField(null=True)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                   related_name="+")
    # The club member who entered it (empty: an online table, an import); a player's deal is
    # provisional until an opponent of theirs (or an organiser) confirms it.
    entered_by_member = models.ForeignKey(Member, on_delete=models.SET_NULL, null=True,
                                          blank=True, related_name="+")
    provisional = models.BooleanField(default=False)
    entered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            # Backs the row lock of the entry methods: a deal number is taken once per table.
            models.UniqueConstraint(fields=["table", "number"], name="one_deal_per_number"),
        ]

    def __str__(self):
        return f"{self.table} · {self.number}"

    def as_json(self) -> dict:
        return {"number": self.number, "facts": self.facts, "points": self.points,
                "entered_by": self.entered_by_member_id, "provisional": self.provisional}


class ResultChange(models.Model):
    """Who changed which result, when, and what it was before and after."""

    table = models.ForeignKey(EveningTable, on_delete=models.CASCADE, related_name="changes")
    deal_number = models.PositiveSmallIntegerField(null=True, blank=True)
    action = models.CharField(max_length=10)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, related_name="+")
    changed_at = models.DateTimeField(auto_now_add=True)
    before = models.JSONField(null=True)
    after = models.JSONField(null=True)
    # Where a change came from when nobody typed it in (e.g. "online table #12").
    note = models.CharField(max_length=120, blank=True)
    # A deletion undone: the change that restored the deal (``EveningTable.restore_deal``).
    restored_by = models.OneToOneField("self", on_delete=models.SET_NULL, null=True,
                                       blank=True, related_name="restores")

    class Meta:
        ordering = ["-changed_at", "-pk"]

    def __str__(self):
        return f"{self.table} · {self.action}"

    @classmethod
    def record(cls, table, by, action, before, after, deal_number, note=""):
        return cls.objects.create(table=table, changed_by=by, action=action, before=before,
                                  after=after, deal_number=deal_number, note=note)


class ClubChange(models.Model):
    """A change to the club, its fixtures and its people (the club created or its settings
    changed, a league's options or house rules changed, a table added by hand, an evening or
    a table edited or deleted, a member added, joining or claiming a record through an invite link, renamed,
    merged, retired, given a role or an e-mail address, a season closed, members added in
    bulk):
    what it was before and after, in plain JSON with the names of the time, read as a
    sentence by :func:`leagues.history.describe_club_change`.  Kept when the thing it is
    about is deleted."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=20)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, related_name="+")
    changed_at = models.DateTimeField(auto_now_add=True)
    before = models.JSONField(null=True)
    after = models.JSONField(null=True)

    class Meta:
        ordering = ["-changed_at", "-pk"]

    def __str__(self):
        return f"{self.club} · {self.action}"

    @classmethod
    def record(cls, club, by, action, before=None, after=None):
        return cls.objects.create(club=club, changed_by=by, action=action, before=before,
                                  after=after)


class Letter(models.Model):
    """An organiser's e-mail about an evening: kept, so that what the club's daily limit held
    back can be sent to the rest later (:func:`leagues.reminders.waiting`)."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="letters")
    who = models.CharField(max_length=10)  # leagues.reminders.COMING or EVERYONE
    subject = models.CharField(max_length=150)
    message = models.TextField()
    written_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, related_name="+")
    written_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-written_at", "-pk"]

    def __str__(self):
        return self.subject


class ClubEmail(models.Model):
    """One e-mail the site sent for a club, to one address (:mod:`leagues.club_mail`).  The
    club's daily limit counts these, a confirmation is not sent to an address twice in a day,
    and a letter's rest is whom it has not reached.  Kept when the member goes (merged: moved
    to the kept record)."""

    class Kind(models.TextChoices):
        CONFIRMATION = "confirmation", _("asked to confirm the address")
        EVENING = "evening", _("e-mail about an evening")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="emails")
    member = models.ForeignKey(Member, on_delete=models.SET_NULL, null=True,
                               related_name="emails_received")
    # Lower case: what the limits compare, not what the mail was sent to.
    address = models.CharField(max_length=254)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    letter = models.ForeignKey(Letter, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="emails")
    sent_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                null=True, related_name="+")
    sent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-sent_at", "-pk"]
        indexes = [models.Index(fields=["club", "sent_at"], name="club_email_per_day"),
                   models.Index(fields=["address", "kind", "sent_at"],
                                name="club_email_per_address")]

    def __str__(self):
        return f"{self.club} → {self.address} ({self.kind})"


class OnlineFixture(models.Model):
    """An evening table played at an online table (``games.Table``): its finished hands are
    entered as the table's deals, through the same :meth:`EveningTable.add_deal` as paper."""

    table = models.OneToOneField(EveningTable, on_delete=models.CASCADE, related_name="online")
    game_table = models.OneToOneField("games.Table", on_delete=models.PROTECT,
                                      related_name="league_fixture")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    # Set when the online table ended (match won, deals played, or closed by its creator).
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("online fixture")
        verbose_name_plural = _("online fixtures")

    def __str__(self):
        return f"{self.table} → {self.game_table_id}"

    @property
    def is_complete(self) -> bool:
        return self.completed_at is not None

    @property
    def note(self) -> str:
        # Not translated: it is stored in the audit trail, read in any language.
        return f"online table #{self.game_table_id}"


class RecordedHand(models.Model):
    """A finished online hand already taken into the league: the unique ``hand`` is what makes
    recording idempotent (a hand is never entered twice, even after a correction deleted its
    deal)."""

    fixture = models.ForeignKey(OnlineFixture, on_delete=models.CASCADE, related_name="hands")
    hand = models.OneToOneField("games.Hand", on_delete=models.CASCADE, related_name="+")
    deals = models.PositiveSmallIntegerField(default=0)  # 0: an all-pass redeal
    error = models.CharField(max_length=300, blank=True)  # why it could not be entered
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["fixture", "hand"]

    def __str__(self):
        return f"{self.fixture}: {self.hand_id}"
