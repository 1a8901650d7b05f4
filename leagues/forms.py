from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.forms import HouseRulesMixin
from games.models import BOT_LEVELS
from leagues import paper
from leagues.models import Club, Evening, League, Member, Partnership, Season


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["name", "description", "is_public"]


class MemberForm(forms.ModelForm):
    """An organiser adds a person who may never sign in."""

    class Meta:
        model = Member
        fields = ["name", "role"]


class AttendanceForm(forms.Form):
    """Coming or not to an evening; an organiser may answer for another member of the club.
    Ids come from the page, never trusted: a member of another club, or no number at all, is a
    form error, not a server error."""

    coming = forms.ChoiceField(choices=[("yes", "yes"), ("no", "no")], error_messages={
        "required": gettext_lazy("Say whether you are coming: yes or no."),
        "invalid_choice": gettext_lazy("Say whether you are coming: yes or no.")})
    member = forms.ModelChoiceField(Member.objects.none(), required=False, error_messages={
        "invalid_choice": gettext_lazy("Choose a member of this club.")})

    def __init__(self, club: Club, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = club.members.all()


class InviteForm(forms.Form):
    """A club-wide invite link, or (with ``member``) one that claims a member's record: only a
    member of this club who does not sign in yet can be claimed."""

    member = forms.ModelChoiceField(Member.objects.none(), required=False, error_messages={
        "invalid_choice": gettext_lazy("Choose a member of this club without a login.")})

    def __init__(self, club: Club, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = club.members.filter(user=None)


def first_error(form) -> str:
    """The form's first error message, for a page that answers with a message."""
    for errors in form.errors.values():
        return errors[0]
    return ""


class LeagueForm(forms.ModelForm):
    class Meta:
        model = League
        fields = ["name", "game", "ranking", "best_evenings", "min_evenings", "points_for_win",
                  "points_for_loss", "tie_break", "players_enter_results"]
        help_texts = {
            "ranking": gettext_lazy("Solo and Belgian Whist."),
            "tie_break": gettext_lazy("Bid Whist, between pairs on equal league points."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            # Changing the game would make every entered deal meaningless.
            del self.fields["game"]


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


class EveningForm(forms.ModelForm):
    class Meta:
        model = Evening
        fields = ["date", "start_time", "venue"]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}),
                   "start_time": forms.TimeInput(attrs={"type": "time"})}


class PartnershipForm(forms.ModelForm):
    class Meta:
        model = Partnership
        fields = ["first", "second", "name"]

    def __init__(self, club: Club, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("first", "second"):
            self.fields[name].queryset = club.members.all()

    def clean(self):
        data = super().clean()
        if data.get("first") and data.get("first") == data.get("second"):
            raise forms.ValidationError(_("A pair is two different members."))
        return data


class PlayersTableForm(forms.Form):
    """The members at a table where each plays for themselves (Solo, Belgian Whist), by seat."""

    def __init__(self, club: Club, seats: int, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seat_count = seats
        for seat in range(seats):
            self.fields[f"seat_{seat}"] = forms.ModelChoiceField(
                club.members.all(), label=_("Seat %(seat)s") % {"seat": seat + 1})

    def clean(self):
        data = super().clean()
        members = [data.get(f"seat_{seat}") for seat in range(self.seat_count)]
        if all(members) and len(set(members)) < self.seat_count:
            raise forms.ValidationError(_("A different member in each seat, please."))
        return data


class BidTableForm(forms.Form):
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


def deal_entry_form(league, names: list[str], data=None, number: int | None = None):
    """The "next deal" form: a deal form that also carries, hidden, the number of the deal it
    adds, so that the same form sent twice adds the deal once."""
    form = deal_form(league, names, data, initial={"number": number})
    form.fields["number"] = forms.IntegerField(widget=forms.HiddenInput, min_value=1,
                                               max_value=32767)
    return form


class OnlineTableForm(forms.Form):
    """Play an evening table online: how many deals (Solo, Belgian Whist) and who plays the
    seats of members without a login (a free seat for the invite link, or a computer)."""

    deals = forms.IntegerField(label=gettext_lazy("Number of deals"), min_value=1,
                               max_value=200, initial=16)
    bot_level = forms.ChoiceField(label=gettext_lazy("Level of the computer players"),
                                  choices=BOT_LEVELS, initial="normal",
                                  required=False)

    def __init__(self, table, members: list[Member], *args, **kwargs):
        super().__init__(*args, **kwargs)
        if table.league.is_partnership_match:
            # A Bid Whist match is played to the league's game target.
            del self.fields["deals"]
        self.offline = [(seat, m) for seat, m in enumerate(members) if m.user_id is None]
        for seat, m in self.offline:
            self.fields[f"computer_{seat}"] = forms.BooleanField(
                required=False,
                label=_("A computer plays for %(name)s") % {"name": m.name},
                help_text=_("Otherwise the seat stays free: %(name)s, or someone playing for "
                            "them, takes it with the invite link.") % {"name": m.name})
        if not self.offline:
            del self.fields["bot_level"]

    @property
    def computer_seats(self) -> list[int]:
        return [seat for seat, _m in self.offline if self.cleaned_data.get(f"computer_{seat}")]
