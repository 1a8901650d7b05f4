"""Every game the site offers, described once.

The engines (``games.rules``) know the rules; this is what the rest of the site needs to know
of a game: its name in the players' language, its engine, how many seats, and what kind of
score it keeps (a partnership match, or a running balance of units or points).  Tables,
leagues, forms and pages ask here instead of comparing game names.  Adding a game: its engine
module in ``games/rules/``, one ``register(...)`` below, and the files docs/architecture.md
lists under "Adding a game" (``tests/games/test_new_game.py`` proves the list).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.http import Http404
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.rules import GAME_MODULES, game_module
from games.rules.base import GameModule

# The two kinds of score a game keeps, which decide how an evening table's results add up.
PARTNERSHIP_MATCH = "partnership_match"  # two pairs play hands to a target (Bid Whist to 7)
RUNNING_BALANCE = "running_balance"  # each deal exchanges units or points; balances add up
INDIVIDUAL_MATCH = "individual_match"  # each player for themselves, hands to a target


@dataclass(frozen=True)
class GameDescription:
    id: str  # as in hand records and the database
    label: Promise  # the game's name, translated when shown
    score_kind: str
    # The contracts a score sheet offers, in the order of the sheet, and the words of a
    # contract as players write it ("4 uptown", "solo 7": numbers stay as they are).
    contracts: tuple[str, ...] = ()
    words: dict[str, Promise] = field(default_factory=dict)
    summary: Promise | str = ""  # one sentence for the home page: the game as players know it
    unit: Promise | str = _("points")  # what its scores count (a hand review's figures)
    # An event's difference score (docs/events.md, "Scoring"): the most one deal may move a
    # player's total, up or down, in the numbers an event compares (a direction's result minus
    # the others' average at its table) at the usual house rules; the reason for each game's
    # figure is in docs/events.md, "The cap of each game".  ``cap_scaled_by`` names a house
    # rule that multiplies every score of the game (Solo Whist's stakes), and so the cap.
    difference_cap: int = 10
    cap_scaled_by: str = ""
    # The cap follows the house rules' own table of points: the engine works it out
    # (``difference_cap(rules)``, Belgian Whist's points table); ``difference_cap`` is its
    # figure at the usual house rules.
    cap_worked_out: bool = False
    # Its deals are worth very different amounts (a solo against an abundance): the event
    # form says that the difference score counts how much a result gained.
    swings_widely: bool = False

    @property
    def engine(self) -> GameModule:
        return game_module(self.id)

    @property
    def seats(self) -> int:
        """How many players sit at a table of this game (the engine says: ``SEATS``)."""
        return self.engine.SEATS

    @property
    def rules_class(self):
        return self.engine.Rules

    @property
    def is_partnership_match(self) -> bool:
        return self.score_kind == PARTNERSHIP_MATCH

    @property
    def is_match(self) -> bool:
        """Hands are played until someone reaches a target (a pair, or one player)."""
        return self.score_kind in (PARTNERSHIP_MATCH, INDIVIDUAL_MATCH)

    @property
    def plays_a_number_of_deals(self) -> bool:
        """A session of a running-balance game may stop after a chosen number of deals; a
        partnership match ends when a pair reaches the target."""
        return self.score_kind == RUNNING_BALANCE

    def cap_for(self, rules) -> float:
        """The difference score's cap for a deal played under ``rules`` (the engine's
        ``Rules``)."""
        if self.cap_worked_out:
            return float(self.engine.difference_cap(rules))  # type: ignore[attr-defined]
        if not self.cap_scaled_by:
            return float(self.difference_cap)
        return float(self.difference_cap * getattr(rules, self.cap_scaled_by))

    def contract_label(self, contract: str) -> str:
        """A contract of this game in the reader's language: "4 Uptown", "Solo 7"."""
        return " ".join(str(self.words.get(word, word)) for word in contract.split())

    def contract_choices(self) -> list[tuple[str, Promise]]:
        """``(contract, label)`` for a score sheet's contract field."""
        return [(contract, self.words[contract]) for contract in self.contracts]

    def __str__(self) -> str:
        return str(self.label)


# Tables of three to five seats: the bounds of the models, the protocol and the pages.
MIN_SEATS, MAX_SEATS = 3, 5

_GAMES: dict[str, GameDescription] = {}


def register(description: GameDescription) -> GameDescription:
    if description.id in _GAMES:
        raise ValueError(f"game {description.id!r} is registered twice")
    if not MIN_SEATS <= description.seats <= MAX_SEATS:
        raise ValueError(f"game {description.id!r} has {description.seats} seats; a table has "
                         f"{MIN_SEATS} to {MAX_SEATS}")
    _GAMES[description.id] = description
    _renumber()
    return description


def _renumber() -> None:
    global _IDS
    _IDS = tuple(_GAMES)


def game(game_id: str) -> GameDescription:
    """The description of ``game_id`` (KeyError for a game the site does not offer)."""
    return _GAMES[game_id]


def game_or_404(game_id: str) -> GameDescription:
    """The description of ``game_id``, or the page not found for a game the site does not offer
    (a game in a page's address)."""
    try:
        return game(game_id)
    except KeyError:
        raise Http404 from None


def all_games() -> list[GameDescription]:
    """Every game, in the order the site lists them."""
    return list(_GAMES.values())


_IDS: tuple[str, ...] = ()


def game_ids() -> tuple[str, ...]:
    """Every game's id, in that order (kept as one tuple: a cache's key where a page asks)."""
    return _IDS


def choices() -> list[tuple[str, Promise]]:
    """``(id, label)`` pairs for model and form fields.  The models take this function, not
    its list: Django asks it when it validates, so a new game needs no migration."""
    return [(each.id, each.label) for each in _GAMES.values()]


@contextmanager
def registered(description: GameDescription, engine: str) -> Iterator[GameDescription]:
    """``description`` offered while the block runs, its engine the module named ``engine``
    (what its line in ``games.rules.GAME_MODULES`` would say); then gone again, the real games
    as they were.  For a test's own game (``tests/games/test_new_game.py``)."""
    if description.id in GAME_MODULES:
        raise ValueError(f"game {description.id!r} already has an engine")
    GAME_MODULES[description.id] = engine
    try:
        yield register(description)
    finally:
        _GAMES.pop(description.id, None)
        _renumber()
        del GAME_MODULES[description.id]


# A Bid Whist bid (four players or cutthroat) is a number and one of these modes.
BID_WHIST_MODES = {"uptown": _("Uptown"), "downtown": _("Downtown"), "notrump": _("No trump")}

register(GameDescription(
    "bid_whist", _("Bid Whist"), score_kind=PARTNERSHIP_MATCH,
    contracts=tuple(BID_WHIST_MODES),  # a bid is books over six and a mode
    words=BID_WHIST_MODES,
    summary=_("Partnership matches to 7, with jokers, the kitty, uptown, downtown and "
              "notrump."),
    difference_cap=7))
register(GameDescription(
    "solo_whist", _("Solo Whist"), score_kind=RUNNING_BALANCE,
    contracts=("prop_and_cop", "solo", "misere", "abundance", "royal_abundance",
               "spread_misere", "abundance_declared"),
    words={"prop_and_cop": _("Prop and cop"), "solo": _("Solo"), "misere": _("Misère"),
           "abundance": _("Abundance"), "royal_abundance": _("Royal abundance"),
           "spread_misere": _("Spread misère"), "abundance_declared": _("Abundance declared")},
    summary=_("From Prop and Cop to Abundance Declared: units change hands every deal, "
              "balances over the session."),
    unit=_("units"), difference_cap=20, cap_scaled_by="stake_multiplier", swings_widely=True))
register(GameDescription(
    "belgian_whist", _("Belgian Whist"), score_kind=RUNNING_BALANCE,
    contracts=("emballage", "solo", "abondance", "petit_chelem", "grand_chelem",
               "petite_misere", "piccolo", "grande_misere", "misere_etalee", "trou"),
    words={"emballage": _("Emballage"), "solo": _("Solo"), "abondance": _("Abondance"),
           "petit_chelem": _("Petit chelem"), "grand_chelem": _("Grand chelem"),
           "petite_misere": _("Petite misère"), "piccolo": _("Piccolo"),
           "grande_misere": _("Grande misère"), "misere_etalee": _("Misère étalée"),
           "trou": _("Trou")},
    summary=_("Whist à la couleur: emballages, solos, misères, piccolo and the trou, with the "
              "full auction."),
    difference_cap=40, cap_worked_out=True, swings_widely=True))
register(GameDescription(
    "cutthroat_bid_whist", _("Cutthroat Bid Whist"), score_kind=INDIVIDUAL_MATCH,
    contracts=tuple(BID_WHIST_MODES),  # a bid is tricks out of 18 and a mode
    words=BID_WHIST_MODES,
    summary=_("Three players, each for themselves: 17 cards each, a kitty of 3, bids in tricks, "
              "first to 30."),
    difference_cap=12))
