"""How the computer players play: what their calls, leads and discards mean, game by game.

Each game's page (``/games/<game>/computer-players/``) is written from here: its parts, and in
each the conventions the computer players at the levels a table offers above easy (normal and
strong) keep, in a club player's words.  A :class:`Convention` is something a partner can rely
on, and each one's ``id`` names the position in tests/games/rules/test_conventions.py that holds
the computer players to it; a :class:`NoAgreement` says plainly where they have no convention
(a discard that is no signal), so that nobody reads one into their play.

The figures are the computer players' own (games/rules/computer/bidding.py and the measured
figures they bid from), said as a player counts them: "about four tricks", never a threshold.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games import registry


@dataclass(frozen=True)
class Convention:
    id: str  # the test that holds the computer players to it (test_conventions.py)
    title: Promise
    text: Promise
    easy: Promise | None = None  # where the easy computer players play otherwise
    strong_only: bool = False  # kept by the strong level alone


@dataclass(frozen=True)
class NoAgreement:
    """Where the computer players follow no convention, said so that none is read into it."""
    title: Promise
    text: Promise


# The parts of every game's page, in order, by the id its contents link to.
PARTS = {
    "calls": _("What its calls mean"),
    "leads": _("Its leads"),
    "play": _("Following and taking tricks"),
    "discards": _("Its discards"),
}

FIRST_LEAD = NoAgreement(
    _("A first lead has no agreed meaning"),
    _("Its first lead is the card it judges best after trying many ways the hidden cards could "
      "lie, not a fixed rule such as the top of a sequence or the fourth best. It tells you "
      "nothing beyond the card itself."))
DISCARDS = NoAgreement(
    _("Its discards are not signals"),
    _("When it cannot follow suit it throws the card it expects to miss least. A high or a low "
      "discard asks for nothing and shows nothing, and it does not read your discards as "
      "signals either: it only notes that you had no card of the suit led."))

CONVENTIONS: dict[str, dict[str, list[Convention | NoAgreement]]] = {
    "bid_whist": {
        "calls": [
            Convention(
                "bid_whist/opening_three",
                _("An opening bid of 3 says little"),
                _("With no bid yet to beat, it opens 3 with almost any hand worth a trick or two "
                  "of its own: it counts on the kitty and on you for the rest. It passes only a "
                  "weak hand, such as three small trumps and no ace."),
                easy=_("Easy counts its high cards and its longest suit, and passes more "
                       "often.")),
            Convention(
                "bid_whist/opening_four",
                _("An opening 4: about six tricks in its own hand"),
                _("It opens 4 with about six tricks of its own, such as five trumps to the "
                  "ace, king and queen and another ace: the rule's “five trumps and two aces”. "
                  "Three times in four it holds a joker, but a 4 does not promise one."),
                easy=_("Easy opens such a hand at 3.")),
            Convention(
                "bid_whist/opening_five",
                _("An opening 5 or more: about eight tricks or more"),
                _("With about eight tricks or more of its own, such as a joker, five trumps "
                  "to the ace, king, queen and jack and the ace, king and queen of another "
                  "suit, it opens 5 or higher, to leave the others "
                  "no cheap bid."),
                easy=_("Easy opens at 3 however strong its hand.")),
            Convention(
                "bid_whist/dealer_bids_just_enough",
                _("The dealer bids just enough"),
                _("Last to speak, it bids only what it needs to win the auction, however strong "
                  "its hand: a dealer's bid says it wants to play the hand, not how well.")),
            Convention(
                "bid_whist/over_an_opponent",
                _("Over an opponent it competes"),
                _("It outbids the opponents with about three tricks of its own, less than it "
                  "would open 4 with: letting them play costs points too. With hardly a trick "
                  "it passes.")),
            Convention(
                "bid_whist/over_partner",
                _("Over your bid it passes unless it is much stronger"),
                _("It leaves your bid alone unless its own hand is worth about four and a half "
                  "tricks or more, or it stops three suits for a no-trump bid, which counts double.")),
            Convention(
                "bid_whist/uptown_downtown_no_trump",
                _("Uptown, downtown or no trump: how its cards play best"),
                _("It counts its hand with the high cards winning (uptown), the low cards "
                  "winning (downtown: aces, 2s and 3s) and without trumps, and bids the best. "
                  "No trump only with at least three suits stopped, and then often, since no "
                  "trump counts double; its jokers are worth nothing there.")),
            Convention(
                "bid_whist/kitty_keeps_jokers_and_trumps",
                _("With the kitty it keeps the jokers and the top trumps"),
                _("As declarer it keeps the jokers, its best trumps and its side aces, and "
                  "throws the small cards of its short side suits, to trump them later. Then it "
                  "names the suit its twelve cards play best.")),
        ],
        "leads": [
            Convention(
                "bid_whist/declarer_draws_trumps",
                _("As declarer it draws trumps"),
                _("On lead with the highest trump still out, while an opponent may still hold "
                  "a trump, it leads trumps.")),
            FIRST_LEAD,
            Convention(
                "bid_whist/returns_partners_suit",
                _("It returns your suit"),
                _("Once you have led a suit, it leads that suit back when it wins the lead, "
                  "unless another card is clearly better.")),
            Convention(
                "bid_whist/spares_partners_trumps",
                _("Strong spares your trumps"),
                _("When the opponents have no trumps left and you may still hold some, it leads "
                  "a winner of a side suit rather than a trump that would only pull yours. "
                  "Normal may still lead the trump."),
                strong_only=True),
        ],
        "play": [
            Convention(
                "bid_whist/no_ruff_of_partners_winner",
                _("It does not trump your winning card"),
                _("When your card is winning the trick it throws a small card rather than "
                  "trumping it, and it does not overtake your ace with its king.")),
            Convention(
                "bid_whist/takes_the_trick_cheaply_last",
                _("Last to play, it takes the trick as cheaply as it can"),
                _("With an opponent winning the trick it takes it with its cheapest winning "
                  "card: the ace over their king, or its smallest trump when it has no card of "
                  "the suit.")),
        ],
        "discards": [DISCARDS],
    },
    "solo_whist": {
        "calls": [
            Convention(
                "solo_whist/weak_hand_passes",
                _("With little, it passes"),
                _("A hand with no sure trick and no hand for misère passes.")),
            Convention(
                "solo_whist/prop_about_four_tricks",
                _("Prop: about four tricks"),
                _("It props with about four tricks in its own hand with the turned-up suit as "
                  "trumps, such as two aces and two kings, and passes with less: a queen and a jack "
                  "are not a Prop."),
                easy=_("Easy counts high cards and props only with two aces and a little more, "
                       "so it may pass such a hand.")),
            Convention(
                "solo_whist/cop_about_three_tricks",
                _("Cop: about three tricks"),
                _("After a Prop, it cops with about three tricks or more of its own, and passes "
                  "with none to bring.")),
            Convention(
                "solo_whist/solo_from_four_and_a_half",
                _("Solo: about four and a half tricks or more"),
                _("From about four and a half tricks with the turned-up suit as trumps it calls "
                  "Solo rather than Prop; with about four it props."),
                easy=_("Easy calls Solo only with five trumps and good high cards, and props "
                       "such a hand.")),
            Convention(
                "solo_whist/misere_low_cards",
                _("Misère: low cards in every suit"),
                _("It calls misère with low cards in every suit, when no more than about two of "
                  "them could be forced to take a trick; spread misère, which scores more, when "
                  "fewer still are in danger.")),
            Convention(
                "solo_whist/abundance_about_eight_tricks",
                _("Abundance: about eight tricks or more"),
                _("With about eight tricks or more in a suit other than the turn-up, it calls "
                  "abundance and names that suit; with about nine with the turn-up as trumps, "
                  "royal abundance."),
                easy=_("Easy never calls abundance: it props or calls Solo instead.")),
        ],
        "leads": [
            FIRST_LEAD,
            Convention(
                "solo_whist/trumps_against_abundance",
                _("Against an abundance it leads trumps"),
                _("Defending against an abundance, it leads trumps to take away the declarer's "
                  "ruffs.")),
        ],
        "play": [
            Convention(
                "solo_whist/no_overtaking_a_fellow_defender",
                _("It does not overtake a fellow defender"),
                _("When another defender's ace is winning the trick it plays a small card and "
                  "keeps its king.")),
            Convention(
                "solo_whist/misere_plays_highest_loser",
                _("In misère it plays its highest losing card"),
                _("Playing misère, under an opponent's card it plays the highest card that still "
                  "loses the trick, to get rid of its danger cards.")),
        ],
        "discards": [DISCARDS],
    },
    "belgian_whist": {
        "calls": [
            Convention(
                "belgian_whist/proposal_about_five_tricks",
                _("A proposal: a suit of four or more and about five tricks"),
                _("It proposes a suit of at least four cards when its hand, with that suit as "
                  "trumps, counts a little over four tricks it can rely on: the five potential "
                  "tricks clubs ask of a proposal. Five small trumps and a king are not a "
                  "proposal."),
                easy=_("Easy proposes a suit of five cards or more with two of the ace, king "
                       "and queen.")),
            Convention(
                "belgian_whist/emballage_about_three_tricks",
                _("An emballage: about three tricks"),
                _("It joins a proposal when it can bring about three tricks with that suit as "
                  "trumps: the three the proposer needs beside its five. Three small trumps and "
                  "an ace are not enough."),
                easy=_("Easy joins a proposal with four cards of its suit, whatever their "
                       "rank.")),
        ],
        "leads": [FIRST_LEAD],
        "play": [
            Convention(
                "belgian_whist/no_overtaking_partner",
                _("It does not overtake you"),
                _("When your ace is winning the trick it plays its small card, not its king.")),
            Convention(
                "belgian_whist/takes_the_declarers_king",
                _("Last to play, it takes the declarer's king"),
                _("Defending, last to play with the declarer's king winning, it takes the trick "
                  "with its ace.")),
        ],
        "discards": [DISCARDS],
    },
}


def games_with_page() -> list[str]:
    return list(CONVENTIONS)


def conventions(game_id: str) -> list[Convention]:
    """Every convention of the game's page, in the page's order."""
    return [each for part in CONVENTIONS[game_id].values() for each in part
            if isinstance(each, Convention)]


def page_context(game: registry.GameDescription) -> dict[str, object]:
    """What a game's page is rendered with: the game and its parts, each with its title and
    what it says."""
    parts = [(part_id, PARTS[part_id], CONVENTIONS[game.id][part_id]) for part_id in PARTS
             if CONVENTIONS[game.id].get(part_id)]
    return {"game": game, "parts": parts}
