"""The benches' oracle: the strong search seeing every card (perfect information).

It is the ceiling against which ``bench/computer_players.py`` measures how much of the gap between ``easy``
and perfect card play a level closes.  It bids, discards and names trumps as ``strong`` does
(those calls come before the cards are seen in play); from the first card on, every deal it
"samples" is the real one.  It is not a level: nothing the site runs can reach it
(``choose_action`` and the computer players' service refuse the name), and it is handed the hidden
hands explicitly, by the bench that deals them.
"""

from __future__ import annotations

import random

from games.rules.base import HandView
from games.rules.cards import mask_of

from . import choose_action as choose_level_action
from . import search
from .knowledge import seat_of


def choose_action(view: HandView, hands: list[list[str]], rng: random.Random) -> str:
    """The oracle's action at ``view["seat"]``, knowing ``hands`` (the cards still in each
    seat's hand, seat order)."""
    if view.get("phase") != "play" or len(view["legal"]) == 1:
        return choose_level_action(view, "strong", rng)
    if mask_of(view["hand"]) != mask_of(hands[seat_of(view)]):
        raise ValueError("the oracle was handed a deal that is not the one in play")
    return search.choose_card(view, search.ORACLE, rng,
                              seen_hands=[mask_of(cards) for cards in hands])
