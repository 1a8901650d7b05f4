from __future__ import annotations

import csv
import datetime
import io

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db.models import Q
from django.utils import timezone
from django.utils.dates import WEEKDAYS
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import registry
from games.forms import HouseRulesMixin
from games.models import COMPUTER_LEVELS
from leagues import edits, paper, score_kinds
from leagues.models import (
    Club,
    EntryError,
    Evening,
    League,
    Member,
    Partnership,
    Season,
    StandingsOptions,
)
from leagues.season_calendar import MOST_EVENINGS, series_dates


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["name", "description", "is_public"]


class MemberForm(forms.ModelForm):
    """An organiser adds a person who may never sign in; an address given is asked to confirm
    before the club writes to it (leagues.confirmations)."""

    class Meta:
        model = Member
        fields = ["name", "email", "role"]
        error_messages = {
            "name": {"required": gettext_lazy("Give the member a name.")},
            "email": {"invalid": gettext_lazy(
                "This is not an e-mail address: check it, or leave it empty.")}}
        help_texts = {"email": gettext_lazy(
            "Optional. The site first asks its owner to confirm it: the club's e-mails reach "
            "them once they do.")}


class EveningEmailForm(forms.Form):
    """An organiser's e-mail about an evening: to whom, its subject and its message."""

    who = forms.ChoiceField(label=gettext_lazy("To"), widget=forms.RadioSelect, choices=[
        ("coming", gettext_lazy("the members coming")),
        ("everyone", gettext_lazy("every member of the club"))], initial="coming")
    subject = forms.CharField(label=gettext_lazy("Subject"), max_length=150)
    message = forms.CharField(label=gettext_lazy("Message"), max_length=5000,
                              widget=forms.Textarea(attrs={"rows": 10}))

    def clean_subject(self):
        # A subject is one header line: a line break in it would let it write other headers
        # (Django refuses to send it, with BadHeaderError).
        subject = self.cleaned_data["subject"]
        if subject.splitlines() != [subject]:
            raise ValidationError(_("A subject is a single line: remove its line breaks."))
        return subject


class AttendanceForm(forms.Form):
    """Coming or not to an evening; an organiser may answer for another member of the club.
    Ids come from the page, never trusted: a member of another club, or no number at all, is a
    form error, not a server error."""

    coming = forms.ChoiceField(choices=[("yes", "yes"), ("no", "no"), ("none", "none")],
                               error_messages={
        "required": gettext_lazy("Say whether you are coming: yes or no."),
        "invalid_choice": gettext_lazy("Say whether you are coming: yes or no.")})

    ANSWERS = {"yes": True, "no": False, "none": None}

    @property
    def answer(self) -> bool | None:
        """Coming (True), not coming (False), or no answer (None)."""
        return self.ANSWERS[self.cleaned_data["coming"]]
    member = forms.ModelChoiceField(Member.objects.none(), required=False, error_messages={
        "invalid_choice": gettext_lazy("Choose a member of this club.")})

    def __init__(self, club: Club, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = club.members.filter(retired=False)


class RenameForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=60, error_messages={
        "required": gettext_lazy("Give the member a name."),
        "max_length": gettext_lazy("A name has at most %(limit_value)d characters.")})


class MemberEmailForm(forms.Form):
    """The address an organiser writes to about evenings (empty: no e-mails)."""

    email = forms.EmailField(label=gettext_lazy("E-mail address"), required=False,
                             error_messages={"invalid": gettext_lazy(
                                 "This is not an e-mail address: check it, or leave it empty.")})


class MergeForm(forms.Form):
    """The other record of the same person, to merge into the member whose page this is."""

    other = forms.ModelChoiceField(
        Member.objects.none(), label=gettext_lazy("The other record of this person"),
        error_messages={"required": gettext_lazy("Choose the member record to merge."),
                        "invalid_choice": gettext_lazy("Choose a member of this club.")})

    def __init__(self, member: Member, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["other"].queryset = member.club.members.exclude(pk=member.pk)


class CloseSeasonForm(forms.Form):
    next_name = forms.CharField(
        label=gettext_lazy("Name of the next season"), max_length=80, required=False,
        help_text=gettext_lazy("Leave empty to close the season without starting another."))


class BulkMembersForm(forms.Form):
    """Names pasted one per line, or a CSV file of name[,email]: read into a list of
    (name, email) with what is wrong with each line, nothing saved (see :func:`read_people`)."""

    MAX_LINES = 300
    MAX_BYTES = 100_000

    names = forms.CharField(label=gettext_lazy("Names, one per line"), required=False,
                            widget=forms.Textarea(attrs={"rows": 8}),
                            help_text=gettext_lazy("A name, or a name, a comma and an email "
                                                   "address."))
    file = forms.FileField(label=gettext_lazy("Or a CSV file (name, email)"), required=False)

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        text = data.get("names") or ""
        if upload is not None:
            if upload.size > self.MAX_BYTES:
                raise forms.ValidationError(_("The file is too large: at most %(kb)s KB.")
                                            % {"kb": self.MAX_BYTES // 1000})
            raw = upload.read()
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                try:
                    text = raw.decode("cp1252")
                except UnicodeDecodeError:
                    text = None
            if text is None or "\x00" in text:
                raise forms.ValidationError(_("This file is not a CSV text file. Save the "
                                              "list as CSV (comma separated) and try again."))
        if len(text) > self.MAX_BYTES:
            raise forms.ValidationError(_("The list is too long: at most %(kb)s KB.")
                                        % {"kb": self.MAX_BYTES // 1000})
        lines = [line for line in text.splitlines() if line.strip()]
        if not lines:
            raise forms.ValidationError(_("Paste at least one name, or choose a CSV file."))
        if len(lines) > self.MAX_LINES:
            raise forms.ValidationError(_("At most %(count)s names at a time, please.")
                                        % {"count": self.MAX_LINES})
        data["lines"] = lines
        data["text"] = text  # kept in the form under the preview, to correct and check again
        return data


class InviteForm(forms.Form):
    """A club-wide invite link, or (with ``member``) one that claims a member's record: only a
    member of this club who does not sign in yet can be claimed."""

    member = forms.ModelChoiceField(Member.objects.none(), required=False, error_messages={
        "invalid_choice": gettext_lazy("Choose a member of this club without a login.")})

    def __init__(self, club: Club, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = club.members.filter(user=None, guest=False)


def first_error(form) -> str:
    """The form's first error message, for a page that answers with a message."""
    for errors in form.errors.values():
        return errors[0]
    return ""


class RoundsFieldsMixin:
    """The rounds of an evening (and a league's for a new evening): left empty, as it was (one
    round for a new one)."""

    def _rounds_optional(self):
        self.fields["rounds"].required = False  # type: ignore[attr-defined]

    def clean_rounds(self):
        rounds = self.cleaned_data.get("rounds")  # type: ignore[attr-defined]
        return rounds or self.instance.rounds or 1  # type: ignore[attr-defined]


class LeagueForm(RoundsFieldsMixin, forms.ModelForm):
    class Meta:
        model = League
        fields = ["name", "game", "ranking", "best_evenings", "min_evenings", "points_for_win",
                  "points_for_loss", "tie_break", "sit_out_credit", "sit_out_score",
                  "odd_numbers", "partners", "players_enter_results", "rounds", "deals_per_round", "prize_winner",
                  "prize_winner_text", "prize_runner_up", "prize_runner_up_text", "prize_booby",
                  "prize_booby_text"]
        help_texts = {
            "ranking": gettext_lazy("Solo and Belgian Whist."),
            "tie_break": gettext_lazy("Bid Whist, between pairs on equal league points."),
            "prize_winner": gettext_lazy("Every game (a pair's prize goes to both its players): "
                                         "shown on the evening's page once every table has a "
                                         "result."),
            "sit_out_credit": gettext_lazy(
                "Every game, in what its standings rank by: units or points for Solo and "
                "Belgian Whist (a sit-out credited counts as an evening played), league points "
                "for Bid Whist's pairs and Cutthroat's players."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            # Changing the game would make every entered deal meaningless.
            del self.fields["game"]
        self._rounds_optional()
        # Left out of a post (a page of before it existed): the league's rule stays.
        self.fields["sit_out_credit"].required = False
        self.fields["odd_numbers"].required = False
        self.fields["partners"].required = False
        if self.instance.pk and not League(game=self.instance.game,
                                           partners=League.Partners.DRAWN).draws_partners:
            del self.fields["partners"]  # only Bid Whist is played by partners
        if self.instance.pk and not self.instance.offers_five_seat_tables:
            del self.fields["odd_numbers"]  # Bid Whist, Cutthroat: never five to a table
        if self.instance.pk:  # only the options its standings read (no league points at Solo)
            offered = self.instance.score_kind.standings_options
            for name in set(StandingsOptions.names()) - offered:
                del self.fields[name]

    def clean(self):
        data = super().clean()
        game = data.get("game") or self.instance.game
        tie_break = data.get("tie_break")
        # A tie-break on a count is offered by the games that keep it (Bostons: Bid Whist's).
        if game and tie_break and tie_break not in score_kinds.of(game).tie_breaks():
            self.add_error("tie_break", _("%(game)s does not offer this tie-break.")
                           % {"game": registry.game(game).label})
        # Left out of a post: the league's rule stays (only for a field the form has: one it
        # does not offer is no value of the form's, and saving it would look for its field).
        for name in ("sit_out_credit", "odd_numbers", "partners"):
            if name in self.fields and not data.get(name):
                data[name] = getattr(self.instance, name)
        if game and data.get("odd_numbers") == League.OddNumbers.FIVE_SEATS and not League(
                game=game).offers_five_seat_tables:
            self.add_error("odd_numbers", _("%(game)s is not played at tables of five: only "
                                            "Solo and Belgian Whist are. Choose that those "
                                            "left over sit out.")
                           % {"game": registry.game(game).label})
        if game and data.get("partners") == League.Partners.DRAWN and not League(
                game=game, partners=League.Partners.DRAWN).draws_partners:
            self.add_error("partners", _("%(game)s is not played by partners: only Bid Whist "
                                         "draws them each round.")
                           % {"game": registry.game(game).label})
        elif "partners" in data:
            try:
                edits.refuse_partners_change(self.instance, data["partners"])
            except EntryError as exc:
                self.add_error("partners", exc.message)
        if (data.get("sit_out_credit") == League.SitOutCredit.FIXED
                and data.get("sit_out_score") is None):
            self.add_error("sit_out_score", _("Type the score a sit-out is credited with, or "
                                              "choose another credit."))
        return data


class HouseRulesForm(HouseRulesMixin, forms.Form):
    """The league's house rules: the same fields, checks and messages as an online table's
    (``games.forms.HouseRulesMixin``), starting from the rules the league keeps now."""

    RULE_PREFIX = ""  # the league's form has no other field to tell them apart from

    def __init__(self, game: str, current: dict, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_house_rule_fields(game, current)

    def clean(self):
        cleaned = super().clean()
        self.clean_house_rules(cleaned)
        return cleaned


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "draw"]


# An evening is planned or recorded within these years of today's: a date beyond them is a slip of
# the keyboard (9999-12-31), and one that calendars cannot hold.
EVENING_YEARS_BACK = 50
EVENING_YEARS_AHEAD = 10


def evening_dates() -> tuple[datetime.date, datetime.date]:
    """The first and the last day an evening may have."""
    year = timezone.localdate().year
    return (datetime.date(year - EVENING_YEARS_BACK, 1, 1),
            datetime.date(year + EVENING_YEARS_AHEAD, 12, 31))


class EveningForm(RoundsFieldsMixin, forms.ModelForm):
    class Meta:
        model = Evening
        fields = ["date", "start_time", "venue", "rounds", "deals_per_round"]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
                   "start_time": forms.TimeInput(attrs={"type": "time"}, format="%H:%M")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        first, last = evening_dates()
        self.fields["date"].widget.attrs.update(min=first.isoformat(), max=last.isoformat())
        self._rounds_optional()

    def clean_date(self):
        day = self.cleaned_data["date"]
        first, last = evening_dates()
        if not first <= day <= last:
            raise ValidationError(_("Choose a date between %(first)s and %(last)s.") % {
                "first": date_format(first, "DATE_FORMAT"), "last": date_format(last, "DATE_FORMAT")})
        return day


class EveningChangeForm(EveningForm):
    """An evening changed: its date, time and venue, and whether the members are told by
    e-mail when it moves to another day."""

    tell_members = forms.BooleanField(
        label=gettext_lazy("E-mail the members if the date changes"), required=False,
        initial=True, help_text=gettext_lazy(
            "To the members whose address is confirmed and who have not stopped the e-mails."))


class SeriesForm(forms.Form):
    """A season's evenings as a series: a day of the week, from one date to another, every
    week or every other week, at a time and a venue."""

    weekday = forms.TypedChoiceField(label=gettext_lazy("Every"), coerce=int,
                                     choices=[(n, day) for n, day in WEEKDAYS.items()])
    every_weeks = forms.TypedChoiceField(
        label=gettext_lazy("How often"), coerce=int, initial=1,
        choices=[(1, gettext_lazy("every week")), (2, gettext_lazy("every other week"))])
    first = forms.DateField(label=gettext_lazy("From"),
                            widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"), error_messages={
                                "required": gettext_lazy("Choose the first date."),
                                "invalid": gettext_lazy("Choose the first date.")})
    last = forms.DateField(label=gettext_lazy("Until"),
                           widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"), error_messages={
                               "required": gettext_lazy("Choose the last date."),
                               "invalid": gettext_lazy("Choose the last date.")})
    start_time = forms.TimeField(label=gettext_lazy("Time"), required=False,
                                 widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
    venue = forms.CharField(label=gettext_lazy("Venue"), required=False,
                            max_length=Evening._meta.get_field("venue").max_length)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        first, last = evening_dates()
        for name in ("first", "last"):
            self.fields[name].widget.attrs.update(min=first.isoformat(), max=last.isoformat())

    def clean(self):
        data = super().clean()
        first, last = data.get("first"), data.get("last")
        if first is None or last is None:
            return data
        earliest, latest = evening_dates()
        if not (earliest <= first <= latest and earliest <= last <= latest):
            raise ValidationError(_("Choose dates between %(first)s and %(last)s.") % {
                "first": date_format(earliest, "j F Y"), "last": date_format(latest, "j F Y")})
        if last < first:
            raise ValidationError(_("The last date comes before the first: swap them."))
        dates = self.dates()
        if not dates:
            raise ValidationError(_("There is no %(day)s between these two dates.") % {
                "day": WEEKDAYS[data["weekday"]]})
        if len(dates) > MOST_EVENINGS:
            raise ValidationError(_("That makes %(count)s evenings; a series has at most "
                                    "%(most)s: choose a shorter period.")
                                  % {"count": len(dates), "most": MOST_EVENINGS})
        return data

    def dates(self) -> list[datetime.date]:
        data = self.cleaned_data
        return series_dates(data["weekday"], data["first"], data["last"], data["every_weeks"])


class GuestForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Guest's name"),
                           max_length=Member._meta.get_field("name").max_length,
                           error_messages={"required": gettext_lazy("Give the guest's name.")})


class SubstituteForm(forms.Form):
    """Who takes which seat of a table, from which deal."""

    seat = forms.TypedChoiceField(label=gettext_lazy("Seat of"), coerce=int, error_messages={
        "required": gettext_lazy("Choose the seat taken over."),
        "invalid_choice": gettext_lazy("Choose a seat of this table.")})
    member = forms.ModelChoiceField(Member.objects.none(), label=gettext_lazy("Taken by"),
                                    error_messages={
        "required": gettext_lazy("Choose who takes the seat."),
        "invalid_choice": gettext_lazy("Choose someone who is not at a table of this round: "
                                       "a member, or a guest coming this evening.")})
    from_deal = forms.IntegerField(label=gettext_lazy("From deal"), min_value=2,
                                   max_value=999, error_messages={
        "required": gettext_lazy("Say from which deal the substitute plays."),
        "invalid": gettext_lazy("Say from which deal the substitute plays: a number."),
        "min_value": gettext_lazy("A substitute plays from deal 2 at the earliest: for the "
                                  "whole table, change its players instead."),
        "max_value": gettext_lazy("Say from which deal the substitute plays: a number.")})

    def __init__(self, table, offered, *args, **kwargs):
        super().__init__(*args, **kwargs)
        members = table.seat_members()
        next_deal = max(table.deals.count() + 1, 2)
        names = [m.name for m in members]
        # a seat is offered by who holds it now: its player, and its substitute if it has one
        now = table.seat_names_at(next_deal)
        self.fields["seat"].choices = [
            (i, name if name == now[i] else _("%(name)s (now %(now)s)") % {
                "name": name, "now": now[i]}) for i, name in enumerate(names)]
        self.fields["member"].queryset = offered.exclude(pk__in=[m.pk for m in members])
        self.fields["from_deal"].initial = next_deal


class PartnershipForm(forms.ModelForm):
    """A pair's players and name; whether they may be a pair (a player in one pair of the
    season at a time) is decided where it is saved, ``leagues.edits``."""

    class Meta:
        model = Partnership
        fields = ["first", "second", "name"]

    def __init__(self, club: Club, *args, **kwargs):
        super().__init__(*args, **kwargs)
        pair = kwargs.get("instance")
        seated = list(pair.members) if pair is not None and pair.pk else []
        for name in ("first", "second"):
            self.fields[name].queryset = club.members.filter(Q(retired=False) | Q(pk__in=seated))

    def clean(self):
        data = super().clean()
        if data.get("first") and data.get("first") == data.get("second"):
            raise forms.ValidationError(_("A pair is two different members."))
        return data


class PlayersTableForm(forms.Form):
    """The members at a table where each plays for themselves (Solo, Belgian Whist), by seat."""

    def __init__(self, club: Club, seats: int, *args, evening: Evening | None = None,
                 fifth_seat: bool = False, **kwargs):
        """``fifth_seat``: a new table of a league that plays five-seat tables offers one more
        seat, left empty for a table of four."""
        super().__init__(*args, **kwargs)
        self.seat_count = seats + (1 if fifth_seat else 0)
        # Retired members are not offered, except those already seated at the table edited;
        # guests only at the evening they come to.
        seated = [m.pk for m in kwargs.get("initial", {}).values() if m is not None]
        guests = Q(guest=True, attendances__evening=evening, attendances__coming=True) \
            if evening is not None else Q(pk__in=[])
        offered = club.members.filter(
            Q(retired=False, guest=False) | Q(pk__in=seated) | guests).distinct()
        for seat in range(seats):
            self.fields[f"seat_{seat}"] = forms.ModelChoiceField(
                offered, label=_("Seat %(seat)s") % {"seat": seat + 1})
        if fifth_seat:
            self.fields[f"seat_{seats}"] = forms.ModelChoiceField(
                offered, required=False,
                label=_("Seat %(seat)s (a table of five)") % {"seat": seats + 1},
                help_text=_("Leave it empty for a table of four. At a table of five the dealer "
                            "sits out each deal."))

    def clean(self):
        data = super().clean()
        members = [data.get(f"seat_{seat}") for seat in range(self.seat_count)]
        chosen = [m for m in members if m is not None]
        required = [data.get(name) for name, field in self.fields.items() if field.required]
        if all(required) and len(set(chosen)) < len(chosen):
            raise forms.ValidationError(_("A different member in each seat, please."))
        return data

    def who_sits(self) -> tuple[list[Member], None]:
        """The members by seat (and no pairs), as ``leagues.edits`` takes a table's players
        (an empty fifth seat left out)."""
        return [m for m in (self.cleaned_data.get(f"seat_{seat}")
                            for seat in range(self.seat_count)) if m is not None], None


class PairsTableForm(forms.Form):
    """Who sits at a table of a partnership game: two of the season's registered pairs."""

    def __init__(self, season: Season, *args, **kwargs):
        super().__init__(*args, **kwargs)
        pairs = season.partnerships.select_related("first", "second")
        self.fields["pair_0"] = forms.ModelChoiceField(pairs, label=_("Pair 1 (seats 1 and 3)"))
        self.fields["pair_1"] = forms.ModelChoiceField(pairs, label=_("Pair 2 (seats 2 and 4)"))

    def clean(self):
        data = super().clean()
        a, b = data.get("pair_0"), data.get("pair_1")
        if a and b and ({a.first_id, a.second_id} & {b.first_id, b.second_id}):
            raise forms.ValidationError(_("The two pairs must not share a player."))
        return data

    def who_sits(self) -> tuple[None, list[Partnership]]:
        """The two pairs (and no seats), as ``leagues.edits`` takes a table's players."""
        return None, [self.cleaned_data["pair_0"], self.cleaned_data["pair_1"]]


class TotalsForm(forms.Form):
    """Totals only: the final balance of each player, or the final score of each pair."""

    def __init__(self, names: list[str], *args, **kwargs):
        super().__init__(*args, **kwargs)
        for index, name in enumerate(names):
            self.fields[f"total_{index}"] = forms.DecimalField(label=name, max_digits=14,
                                                               decimal_places=6)
        self.count = len(names)

    @property
    def totals(self) -> list:
        return [self.cleaned_data[f"total_{index}"] for index in range(self.count)]


def deal_form_class(game: str):
    """The form of one line of ``game``'s score sheet (``leagues/paper/<game>.py``)."""
    return paper.of(game).DealForm


def deal_form(league, names: list[str], data=None, initial=None):
    """A line of ``league``'s score sheet, offering only what its house rules allow."""
    return deal_form_class(league.game)(names, data, initial=initial,
                                        rules=league.engine_rules())


def deal_entry_form(league, names: list[str], data=None, number: int | None = None,
                    sits_out: int | None = None):
    """The "next deal" form: a deal form that also carries, hidden, the number of the deal it
    adds, so that the same form sent twice adds the deal once.  ``sits_out``: at a five-seat
    table, the dealer the form offers as sitting this deal out."""
    form = deal_form(league, names, data, initial={"number": number, "sits_out": sits_out})
    form.fields["number"] = forms.IntegerField(widget=forms.HiddenInput, min_value=1,
                                               max_value=32767)
    return form


class OnlineTableForm(forms.Form):
    """Play an evening table online: how many deals (Solo, Belgian Whist) and who plays the
    seats of members without a login (a free seat for the invite link, or a computer)."""

    deals = forms.IntegerField(label=gettext_lazy("Number of deals"), min_value=1,
                               max_value=200, initial=16)
    computer_level = forms.ChoiceField(label=gettext_lazy("Level of the computer players"),
                                  choices=COMPUTER_LEVELS, initial="normal",
                                  required=False)

    def __init__(self, table, members: list[Member], *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not table.league.score_kind.asks_number_of_deals:
            # A match is played to the league's game target.
            del self.fields["deals"]
        elif table.evening.deals_per_round:  # the round's deals, as at the other tables
            self.fields["deals"].initial = table.evening.deals_per_round
        self.offline = [(seat, m) for seat, m in enumerate(members) if m.user_id is None]
        for seat, m in self.offline:
            self.fields[f"computer_{seat}"] = forms.BooleanField(
                required=False,
                label=_("A computer plays for %(name)s") % {"name": m.name},
                help_text=_("Otherwise the seat stays free: %(name)s, or someone playing for "
                            "them, takes it with the invite link.") % {"name": m.name})
        if not self.offline:
            del self.fields["computer_level"]

    @property
    def computer_seats(self) -> list[int]:
        return [seat for seat, _m in self.offline if self.cleaned_data.get(f"computer_{seat}")]


def read_people(lines: list[str], club: Club) -> list[dict]:
    """Each line as a row of the preview: name, email, and ``problem`` (why it will not be
    added: already a member, twice in the list, too long, a bad email address), or None."""
    existing = {n.casefold() for n in club.members.values_list("name", flat=True)}
    seen: set[str] = set()
    limit = Member._meta.get_field("name").max_length
    rows = []
    for cells in csv.reader(lines):
        name = (cells[0] if cells else "").strip()
        email = (cells[1] if len(cells) > 1 else "").strip()
        problem = None
        if not name:
            problem = _("No name on this line.")
        elif any(ord(c) < 32 for c in name + email):
            problem = _("This line has characters that cannot be kept.")
        elif len(name) > limit:
            problem = _("The name is too long: at most %(max)s characters.") % {"max": limit}
        elif name.casefold() in existing:
            problem = _("Already a member.")
        elif name.casefold() in seen:
            problem = _("Twice in the list: added once.")
        note = None
        if not problem and email:
            try:
                validate_email(email)
            except ValidationError:
                # The person is kept: added without the address, which the list below the
                # preview still holds as typed, to be fixed and checked again.
                note = _("“%(email)s” is not an email address: %(name)s will be added without "
                         "one. Correct it in the list below and check again, or add it later "
                         "on their page.") % {"email": email[:254], "name": name}
                email = ""
        seen.add(name.casefold())
        rows.append({"name": name[:limit + 20], "email": email[:254], "problem": problem,
                     "note": note})
    return rows


def read_people_pairs(names: list[str], emails: list[str], club: Club) -> list[dict]:
    """The confirmed preview (its names and addresses, in order) read again, as
    :func:`read_people` reads a list, so that a member added meanwhile is not added twice."""
    out = io.StringIO()
    writer = csv.writer(out)
    for name, email in zip(names, emails, strict=True):
        writer.writerow([name, email] if email else [name])
    return read_people(out.getvalue().splitlines(), club)
