"""Trio Whist, the test's new game (``tests/games/test_new_game.py``): Cutthroat Bid Whist's
hand under a name of its own, three seats each for themselves.  An engine module
(``games.rules.base.GameModule``) as small as a game's can be."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from games.rules import cutthroat_bid_whist as cutthroat
from games.rules.base import Deal, HandView
from games.rules.cards import CARD_BIT

GAME = "trio_whist"
SEATS = cutthroat.SEATS


@dataclass(frozen=True)
class Rules(cutthroat.Rules):
    GAME: ClassVar[str] = GAME


class TrioHand(cutthroat.CutthroatHand):
    game: ClassVar[str] = GAME
    __slots__ = ()

    def view(self, seat: int | None) -> HandView:
        out = super().view(seat)
        out["game"] = GAME
        return out


def deal(rules: Rules, dealer: int, rng: random.Random) -> Deal:
    return cutthroat.deal(rules, dealer, rng)


def new_hand(rules: Rules, dealer: int, hands: Any, kitty: Any = None) -> TrioHand:
    checked = cutthroat.new_hand(rules, dealer, hands, kitty)  # refused as Cutthroat refuses
    masks = [sum(CARD_BIT[card] for card in hand) for hand in checked.dealt_hands]
    kitty_cards = checked.dealt_kitty or ()
    return TrioHand(rules, dealer, checked.dealt_hands, kitty_cards, masks,
                    sum(CARD_BIT[card] for card in kitty_cards))


class Match(cutthroat.Match):
    hand_type: ClassVar[type] = TrioHand
    wrong_hand: ClassVar[str] = "only a Trio Whist hand can be added to a Trio Whist match"


CHAIN = Match
