"""Belgian Whist in words: emballage and trou two against two, the rest alone, misères side by
side, points exchanged."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games import registry
from games.computer_conventions import DISCARDS, FIRST_LEAD, Convention, NoAgreement
from games.rules.belgian_whist import MISERES
from games.words import (
    Declarations,
    Names,
    balances,
    box,
    call,
    capitalise,
    contract_word,
    each_score,
    first_word,
    goal,
    group,
    last_result,
    passes,
    phases,
    row,
    suit_row,
    trumps,
    with_tricks,
)

GAME = "belgian_whist"
PHASES = phases(trou=pgettext_lazy("phase", "announcing trou"))
ACTION_WORDS = {
    "trou": pgettext_lazy("action", "trou"),
    "passe_trou": pgettext_lazy("action", "no trou"),
    "premier": pgettext_lazy("action", "wait (premier)"),
    "propose": pgettext_lazy("action", "propose"),
    "emballer": pgettext_lazy("action", "emballer"),
    "raise": pgettext_lazy("action", "raise to"),
    "maintain": pgettext_lazy("action", "maintain"),
    "solo": pgettext_lazy("action", "solo"),
    "abondance": pgettext_lazy("action", "abondance"),
    "petit_chelem": pgettext_lazy("action", "petit chelem"),
    "grand_chelem": pgettext_lazy("action", "grand chelem"),
    "petite_misere": pgettext_lazy("action", "petite misère"),
    "grande_misere": pgettext_lazy("action", "grande misère"),
    "misere_etalee": pgettext_lazy("action", "misère étalée"),
    "piccolo": pgettext_lazy("action", "piccolo"),
}
# What a contract without a level asks (the others ask their level: emballage, solo, abondance).
GOALS = {"trou": 9, "petit_chelem": 12, "grand_chelem": 13, "piccolo": 1}
EXACTLY = ("piccolo",)


def goal_of(kind: str, level: int | None) -> str:
    return goal(level if level is not None else GOALS.get(kind, 0), exactly=kind in EXACTLY)


def contract(view: dict[str, Any], names: Names) -> str | None:
    hand = view.get("hand") or {}
    called = hand.get("contract")
    if not called:
        return None
    kind, declarers = called["contract"], called["declarers"]
    params = {"who": names.capital_together(declarers), "contract": contract_word(GAME, kind),
              "goal": goal_of(kind, called.get("level")),
              "trumps": trumps(called.get("trump") or hand.get("trump"))}
    if called.get("together"):
        return _("%(who)s play %(contract)s together, %(trumps)s: %(goal)s between them.") % params
    if len(declarers) > 1:
        return _("%(who)s each play %(contract)s, %(trumps)s: %(goal)s each.") % params
    return _("%(who)s called %(contract)s, alone, %(trumps)s: %(goal)s.") % params


@last_result
def result(outcome: dict[str, Any], names: Names) -> str | None:
    settled = outcome.get("contracts")
    if not settled:
        return None
    parts = []
    for each in settled:
        params = {"who": names.together(each["declarers"]),
                  "contract": contract_word(GAME, each["contract"]),
                  "tricks": with_tricks(each["tricks"])}
        if each["made"]:
            parts.append(_("%(who)s made %(contract)s %(tricks)s") % params)
        else:
            parts.append(_("%(who)s went down in %(contract)s %(tricks)s") % params)
    return _("%(contracts)s: %(points)s.") % {"contracts": capitalise("; ".join(parts)),
                                             "points": each_score(outcome["points"], names)}


def score(view: dict[str, Any], names: Names) -> str | None:
    return balances(view, names, _("points"))


def declared(result: dict[str, Any]) -> Declarations:
    """Every contract of the hand (misères and piccolo may be several), with its declarers."""
    if result.get("redeal"):
        return []
    return [(tuple(each["declarers"]), bool(each["made"]))
            for each in result.get("contracts") or []]


def bid_box(legal: list[str], view: dict[str, Any]) -> dict[str, Any]:
    """Grouped as players think of the auction: pass / trou first; propose or emballer a suit
    (raise an emballage, maintain a proposal); solo; abondance; misères and piccolo; chelems.
    A contract is a row, its suits the buttons of the row (spades, hearts, diamonds, clubs)."""
    word = registry.game(GAME).words
    levels = {kind: sorted({int(a.split()[1]) for a in legal if a.startswith(kind + " ")})
              for kind in ("raise", "solo", "abondance")}

    def by_level(kind: str) -> list[dict[str, Any]]:
        return [suit_row(legal, f"{kind} {n}", f"{first_word(kind)} {n}") for n in levels[kind]]

    emballage = [suit_row(legal, "propose", first_word("propose")),
                 suit_row(legal, "emballer", first_word("emballer")), *by_level("raise"),
                 row([call("maintain", legal, first_word("maintain"))])]
    miseres = [row([call(kind, legal, first_word(kind)) for kind in MISERES])]
    chelems = [suit_row(legal, kind, first_word(kind), extra=("NT",))
               for kind in ("petit_chelem", "grand_chelem")]
    return box([passes(legal, "premier", "trou", "passe_trou"),
                group(emballage, word["emballage"]),
                group(by_level("solo"), word["solo"]),
                group(by_level("abondance"), word["abondance"]),
                group(miseres, _("Misères and piccolo")),
                group(chelems, _("Chelems")),
                group([suit_row(legal, "trump", first_word("trump"))])], legal)


# How this game's computer players play (games/computer_conventions.py: the page
# /games/<game>/computer-players/; each convention held by a position of
# tests/games/rules/test_conventions.py).
COMPUTER_CONVENTIONS: dict[str, list[Convention | NoAgreement]] = {
    "calls": [
        Convention(
            "belgian_whist/proposal_about_five_tricks",
            gettext_lazy("A proposal: a suit of four or more and about five tricks"),
            gettext_lazy("It proposes a suit of at least four cards when its hand, with that suit as "
              "trumps, counts a little over four tricks it can rely on: the five potential "
              "tricks clubs ask of a proposal. Five small trumps and a king are not a "
              "proposal."),
            easy=gettext_lazy("Easy proposes a suit of five cards or more with two of the ace, king "
                   "and queen.")),
        Convention(
            "belgian_whist/emballage_about_three_tricks",
            gettext_lazy("An emballage: about three tricks"),
            gettext_lazy("It joins a proposal when it can bring about three tricks with that suit as "
              "trumps: the three the proposer needs beside its five. Three small trumps and "
              "an ace are not enough."),
            easy=gettext_lazy("Easy joins a proposal with four cards of its suit, whatever their "
                   "rank.")),
        Convention(
            "belgian_whist/misere_etalee_only_when_certain",
            gettext_lazy("Misère étalée only with a hand that cannot be caught"),
            gettext_lazy("It lays its misère on the table only when no card of it can ever be forced "
              "to win a trick, however the others hold and lead their cards: in each suit its "
              "lowest card is the 2, its second no higher than the 4, its third no higher than "
              "the 6, and so on. With one card that could be caught, such as a 9 over four "
              "smaller cards of the others, it calls a grande misère."),
            easy=gettext_lazy("Easy never calls a misère.")),
    ],
    "leads": [FIRST_LEAD],
    "play": [
        Convention(
            "belgian_whist/no_overtaking_partner",
            gettext_lazy("It does not overtake you"),
            gettext_lazy("When your ace is winning the trick it plays its small card, not its king.")),
        Convention(
            "belgian_whist/takes_the_declarers_king",
            gettext_lazy("Last to play, it takes the declarer's king"),
            gettext_lazy("Defending, last to play with the declarer's king winning, it takes the trick "
              "with its ace.")),
    ],
    "discards": [DISCARDS],
}
