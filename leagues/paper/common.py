"""What several games' score sheets share: seat choices, the revoke field, declarer lines, and
the engine's points of a hand (``engine_points``, for a game whose engine scores in points)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import registry
from leagues.scoring import SEAT_FACTS, EntryError


@dataclass(frozen=True)
class MatchTally:
    """A count a partnership game keeps for each pair beside the match's score (Bid Whist's
    Bostons).  A game declares it as its paper module's ``MATCH_TALLY``; a game without one
    keeps none.  The tables keep it (``EveningTable.bostons_0``/``bostons_1``), the standings
    and their CSV file show it in a column of its own, and a league may break ties on it."""

    label: Promise  # the column's heading: "Bostons"
    tie_break: str  # the ``League.TieBreak`` that ranks pairs on equal league points by it first
    counts: Callable[[dict], bool]  # whether a hand's result (the engine's) counts one for the
    # declaring pair


# The default: a match game keeps no count beside its score.
MATCH_TALLY: MatchTally | None = None


def seat_choices(names: list[str]):
    return [(seat, name) for seat, name in enumerate(names)]


class ChoiceButtons(forms.RadioSelect):
    """A choice as a row of buttons, one tap each (static/css/leagues.css, ``.choice-buttons``):
    fewer taps at the venue than a dropdown's two, and every choice in sight."""

    def __init__(self, attrs=None, choices=()):
        super().__init__({"class": "choice-buttons", **(attrs or {})}, choices)


def revoke_field() -> forms.TypedChoiceField:
    """Who was caught revoking (paper play only; online play cannot revoke), or nobody."""
    return forms.TypedChoiceField(label=gettext_lazy("Revoke by"), coerce=int, required=False,
                                  empty_value=None, error_messages=NOT_AT_THIS_TABLE,
                                  widget=ChoiceButtons, initial="")


# A seat the sheet does not have (a hand-made or stale form): said in words, never the value.
NOT_AT_THIS_TABLE = {"invalid_choice": gettext_lazy("Nobody at this table sits there.")}


def revoke_choices(names: list[str]):
    return [("", _("nobody")), *seat_choices(names)]


def with_revoke(text: str, facts: dict, names: list[str]) -> str:
    """A sheet line with the revoke, when one was entered."""
    if facts.get("revoke") is None:
        return text
    return text + " · " + _("revoke by %(team)s") % {"team": names[facts["revoke"]]}


def tricks_on_declarer(declarer, side_tricks, seats: int, most: int) -> list:
    """Per-seat tricks for an engine from the sheet's one number, the declaring side's tricks:
    only the side's total matters to the score, so they all go on the declarer."""
    if type(side_tricks) is not int or not 0 <= side_tricks <= most:
        raise EntryError(_("Tricks taken must be a number from 0 to %(most)s.") % {"most": most})
    tricks = [0] * seats
    if type(declarer) is int and 0 <= declarer < seats:
        tricks[declarer] = side_tricks
    return tricks


def sits_out_field() -> forms.TypedChoiceField:
    """At a five-seat table (one more player than the game's seats), who sits this deal out:
    the dealer, who scores nothing for it."""
    return forms.TypedChoiceField(
        label=gettext_lazy("Dealer (sits out this deal)"), coerce=int, widget=ChoiceButtons,
        error_messages={**NOT_AT_THIS_TABLE, "required": gettext_lazy(
            "Say who sits out this deal: at a table of five, the dealer sits out each deal.")},
        help_text=gettext_lazy("The dealer sits out each deal and scores nothing for it; the "
                               "four others play it. The deal passes to the left."))


class DeclarerDealForm(forms.Form):
    """A sheet line of a game where one player (or two) declares a contract: contract,
    declarer, partner, tricks taken.  Validation of the contract itself is the engine's: the
    form only turns the sheet's fields into facts.  ``GAME`` gives the contracts.

    At a five-seat table (``names`` one more than the game's seats) the line first says who
    sits the deal out, the dealer (``sits_out``; the page offers the seat after the last deal's
    sitter): the four others play it, and a seat of the line can be none but theirs."""

    GAME = ""
    contract = forms.ChoiceField(label=gettext_lazy("Contract"), widget=ChoiceButtons,
                                 error_messages={"invalid_choice": gettext_lazy(
                                     "This league's house rules do not play that contract.")})
    declarer = forms.TypedChoiceField(label=gettext_lazy("Declarer"), coerce=int,
                                      widget=ChoiceButtons, error_messages=NOT_AT_THIS_TABLE)
    partner = forms.TypedChoiceField(label=gettext_lazy("Partner"), coerce=int,
                                     required=False, empty_value=None, widget=ChoiceButtons,
                                     initial="", error_messages=NOT_AT_THIS_TABLE)
    tricks = forms.IntegerField(label=gettext_lazy("Tricks taken by the declaring side"),
                                min_value=0, max_value=13)

    def __init__(self, names: list[str], *args, rules=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["contract"].choices = [
            (contract, label) for contract, label in registry.game(self.GAME).contract_choices()
            if rules is None or self.offered(contract, rules)]
        self.fields["declarer"].choices = seat_choices(names)
        self.fields["partner"].choices = [("", _("no partner")), *seat_choices(names)]
        if "revoke" in self.fields:
            self.fields["revoke"].choices = revoke_choices(names)
        self.names = names
        if len(names) > registry.game(self.GAME).seats:
            self.fields["sits_out"] = sits_out_field()
            self.fields["sits_out"].choices = seat_choices(names)
            self.order_fields(["sits_out", *self.fields])

    # The contracts played by the declarer and a partner (the game's module says which).
    PARTNERED: frozenset[str] = frozenset()

    @staticmethod
    def offered(contract: str, rules) -> bool:
        """Whether the league's house rules (the engine's ``Rules``) allow ``contract``."""
        return True

    def clean(self):
        """Who plays with the declarer, told beside the partner field in words (the engine
        would refuse it in seat numbers)."""
        data = super().clean()
        sitter = data.get("sits_out")
        if sitter is not None:
            playing_sitter = [key for key in SEAT_FACTS
                              if key in self.fields and data.get(key) == sitter]
            for key in playing_sitter:
                self.add_error(key, _("%(name)s sits out this deal: choose one of the four "
                                      "who play it.") % {"name": self.names[sitter]})
            if playing_sitter:
                return data
        contract, declarer, partner = (data.get("contract"), data.get("declarer"),
                                       data.get("partner"))
        if contract is None or declarer is None:
            return data  # their fields have their own errors
        words = {"contract": registry.game(self.GAME).contract_label(contract)}
        if contract in self.PARTNERED and partner is None:
            self.add_error("partner", _("%(contract)s is played by two: choose the "
                                        "declarer's partner.") % words)
        elif contract in self.PARTNERED and partner == declarer:
            self.add_error("partner", _("The partner is another player than the declarer."))
        elif contract not in self.PARTNERED and partner is not None:
            self.add_error("partner", _("%(contract)s is played without a partner: leave the "
                                        "partner empty.") % words)
        return data

    @property
    def facts(self) -> dict:
        data = self.cleaned_data
        facts = {"contract": data["contract"], "declarer": data["declarer"],
                 "partner": data["partner"], "tricks": data["tricks"]}
        if data.get("sits_out") is not None:  # a five-seat table's
            facts["sits_out"] = data["sits_out"]
        return facts

    @staticmethod
    def initial_from(facts: dict) -> dict:
        return {**facts, "partner": "" if facts.get("partner") is None else facts["partner"],
                "revoke": "" if facts.get("revoke") is None else facts["revoke"]}


def describe_declarer_line(game: str, facts: dict, names: list[str]) -> str:
    """"Ana & Bob: Prop and cop, 8 tricks" (a level, when the game has one, after the
    contract: "Solo 7")."""
    who = names[facts["declarer"]]
    if facts.get("partner") is not None:
        who = f"{who} & {names[facts['partner']]}"
    contract = facts["contract"]
    if facts.get("level"):
        contract = f'{contract} {facts["level"]}'
    return ngettext("%(who)s: %(contract)s, %(tricks)s trick",
                    "%(who)s: %(contract)s, %(tricks)s tricks", facts["tricks"]) % {
        "who": who, "contract": registry.game(game).contract_label(contract),
        "tricks": facts["tricks"]}


def engine_points(result: dict) -> list:
    """What the engine scored for a hand played online, per seat or side (its ``points``)."""
    return list(result.get("points") or [])
