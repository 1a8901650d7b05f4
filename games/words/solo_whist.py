"""Solo Whist in words: a contract from Prop and Cop to Abundance Declared, units exchanged."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from games.computer_conventions import DISCARDS, FIRST_LEAD, Convention, NoAgreement
from games.rules.solo_whist import CONTRACT_TABLE, CONTRACTS
from games.words import (
    Names,
    balances,
    box,
    call,
    contract_word,
    declared_by_one,
    exchange,
    first_word,
    goal,
    group,
    house_rules,
    last_result,
    passes,
    phases,
    row,
    trump_rows,
    trumps,
    with_tricks,
)

GAME = "solo_whist"
PHASES = phases()
ACTION_WORDS = {
    "prop": pgettext_lazy("action", "prop"),
    "cop": pgettext_lazy("action", "cop"),
    "solo": pgettext_lazy("action", "solo"),
    "misere": pgettext_lazy("action", "misère"),
    "abundance": pgettext_lazy("action", "abundance"),
    "royal_abundance": pgettext_lazy("action", "royal abundance"),
    "spread_misere": pgettext_lazy("action", "spread misère"),
    "abundance_declared": pgettext_lazy("action", "abundance declared"),
}
PROP_AND_COP = "prop_and_cop"
NO_TRUMPS = ("misere", "spread_misere")


def trumps_of(name: str, trump: str | None) -> str:
    if trump or name in NO_TRUMPS:
        return trumps(trump)
    return _("trumps still to be named")


def contract(view: dict[str, Any], names: Names) -> str | None:
    hand = view.get("hand") or {}
    called = hand.get("contract")
    if not called:
        return None
    params = {"name": names.capital(called["declarer"]), "partner": names(called["partner"]),
              "contract": contract_word(GAME, called["name"]),
              "goal": goal(called["goal"]),
              "trumps": trumps_of(called["name"], called.get("trump") or hand.get("trump")),
              "stake": ngettext("%(n)s unit a player", "%(n)s units a player",
                                called["stake"]) % {"n": called["stake"]}}
    if called["name"] == PROP_AND_COP:
        return _("%(name)s proposed, %(partner)s accepted: together %(goal)s, %(trumps)s; "
                 "%(stake)s.") % params
    return _("%(name)s called %(contract)s, alone: %(goal)s, %(trumps)s; %(stake)s.") % params


@last_result
def result(outcome: dict[str, Any], names: Names) -> str | None:
    declarers = [s for s in (outcome["declarer"], outcome.get("partner")) if s is not None]
    params = {"who": names.capital_together(declarers),
              "contract": contract_word(GAME, outcome["contract"]),
              "tricks": with_tricks(sum(outcome["tricks"][s] for s in declarers)),
              "units": exchange(outcome["units"], names, declarers)}
    if outcome.get("made"):
        return _("%(who)s made %(contract)s %(tricks)s: %(units)s.") % params
    return _("%(who)s went down in %(contract)s %(tricks)s: %(units)s.") % params


def score(view: dict[str, Any], names: Names) -> str | None:
    return balances(view, names, _("units"))


def rung(contract, legal: list[str], action: str | None = None) -> dict[str, Any]:
    """One call of the ladder: its name, and what it asks and pays in words."""
    action = action or contract.bid
    aim = goal(contract.goal)
    if contract is CONTRACTS[PROP_AND_COP]:
        aim = _("%(goal)s with a partner") % {"goal": aim}
    stake = ngettext("%(n)s unit a player", "%(n)s units a player",
                     contract.stake) % {"n": contract.stake}
    return call(action, legal, first_word(action), detail=f"{aim}, {stake}",
                name=f"{first_word(action)}: {aim}, {stake}")


declared = declared_by_one


def bid_box(legal: list[str], view: dict[str, Any]) -> dict[str, Any]:
    """Pass, then the ladder from Prop (Cop when accepting one is the call) to Abundance
    Declared, in the order calls beat each other; a call the table's rules never allow is
    left out, one that is too low now is shown disabled."""
    rules = house_rules(view)
    ladder = []
    for contract in CONTRACT_TABLE:
        if contract is CONTRACTS[PROP_AND_COP]:
            if not rules.prop_and_cop:
                continue
            ladder.append(rung(contract, legal, "cop" if "cop" in legal else "prop"))
        elif contract.name == "royal_abundance" and not rules.turn_up:
            continue
        else:
            ladder.append(rung(contract, legal))
    return box([passes(legal), group([row([r]) for r in ladder], ladder=True), group(trump_rows(legal))],
               legal)


# How this game's computer players play (games/computer_conventions.py: the page
# /games/<game>/computer-players/; each convention held by a position of
# tests/games/rules/test_conventions.py).
COMPUTER_CONVENTIONS: dict[str, list[Convention | NoAgreement]] = {
    "calls": [
        Convention(
            "solo_whist/weak_hand_passes",
            gettext_lazy("With little, it passes"),
            gettext_lazy("A hand with no sure trick and no hand for misère passes.")),
        Convention(
            "solo_whist/prop_about_four_tricks",
            gettext_lazy("Prop: about four tricks"),
            gettext_lazy("It props with about four tricks in its own hand with the turned-up suit as "
              "trumps, such as two aces and two kings, and passes with less: a queen and a jack "
              "are not a Prop."),
            easy=gettext_lazy("Easy counts high cards and props only with two aces and a little more, "
                   "so it may pass such a hand.")),
        Convention(
            "solo_whist/cop_about_three_tricks",
            gettext_lazy("Cop: about three tricks"),
            gettext_lazy("After a Prop, it cops with about three tricks or more of its own, and passes "
              "with none to bring.")),
        Convention(
            "solo_whist/solo_from_four_and_a_half",
            gettext_lazy("Solo: about four and a half tricks or more"),
            gettext_lazy("From about four and a half tricks with the turned-up suit as trumps it calls "
              "Solo rather than Prop; with about four it props."),
            easy=gettext_lazy("Easy calls Solo only with five trumps and good high cards, and props "
                   "such a hand.")),
        Convention(
            "solo_whist/misere_low_cards",
            gettext_lazy("Misère: low cards in every suit"),
            gettext_lazy("It calls misère with low cards in every suit, when no more than about two of "
              "them could be forced to take a trick.")),
        Convention(
            "solo_whist/spread_misere_only_when_certain",
            gettext_lazy("Spread misère only with a hand that cannot be caught"),
            gettext_lazy("It spreads its misère only when no card of it can ever be forced to win a "
              "trick, however the others hold and lead their cards, as the rule advises: in "
              "each suit its lowest card is the 2, its second no higher than the 4, its third "
              "no higher than the 6, and so on. With one card that could be caught, such as a "
              "9 over four smaller cards of the others, it calls a plain misère."),
            easy=gettext_lazy("Easy never calls a spread misère.")),
        Convention(
            "solo_whist/abundance_about_eight_tricks",
            gettext_lazy("Abundance: about eight tricks or more"),
            gettext_lazy("With about eight tricks or more in a suit other than the turn-up, it calls "
              "abundance and names that suit; with about nine with the turn-up as trumps, "
              "royal abundance."),
            easy=gettext_lazy("Easy never calls abundance: it props or calls Solo instead.")),
    ],
    "leads": [
        FIRST_LEAD,
        Convention(
            "solo_whist/trumps_against_abundance",
            gettext_lazy("Against an abundance it leads trumps"),
            gettext_lazy("Defending against an abundance, it leads trumps to take away the declarer's "
              "ruffs.")),
    ],
    "play": [
        Convention(
            "solo_whist/no_overtaking_a_fellow_defender",
            gettext_lazy("It does not overtake a fellow defender"),
            gettext_lazy("When another defender's ace is winning the trick it plays a small card and "
              "keeps its king.")),
        Convention(
            "solo_whist/misere_plays_highest_loser",
            gettext_lazy("In misère it plays its highest losing card"),
            gettext_lazy("Playing misère, under an opponent's card it plays the highest card that still "
              "loses the trick, to get rid of its danger cards.")),
    ],
    "discards": [DISCARDS],
}
