"""Dealing a table's next hand: the first deal when the last seat fills (``games.seating``) and
each deal after a finished hand (``games.play``)."""

from __future__ import annotations

import secrets

from games.models import Table
from games.rules import game_module
from games.rules.records import HAND_FORMAT, make_automatic_actions
from games.versions import rules_of


def deal_new_hand(table: Table, dealer: int) -> None:
    """A new hand, shuffled with the OS's secure source; its record is the state from now on."""
    module = game_module(table.game)
    rules = rules_of(table)
    dealt = module.deal(rules, dealer, secrets.SystemRandom())
    record = {"format": HAND_FORMAT, "game": table.game, "rules": rules.overrides(),
              "dealer": dealer, "hands": dealt.hands, "actions": []}
    if dealt.kitty is not None:
        record["kitty"] = dealt.kitty
    # What nobody chooses is done at once (Belgian Whist's trou round).
    state = module.new_hand(rules, dealer, dealt.hands, dealt.kitty)
    table.current = make_automatic_actions(state, record)
