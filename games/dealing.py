"""Dealing a table's next hand: the first deal when the last seat fills (``games.seating``) and
each deal after a finished hand (``games.play``); shuffled, or the next of the table's preset
deals (``Table.preset_deals``: an event's, docs/events.md)."""

from __future__ import annotations

import secrets

from games.models import Table
from games.rules import game_module
from games.rules.records import HAND_FORMAT, make_automatic_actions, start_hand
from games.versions import rules_of


def deal_new_hand(table: Table, dealer: int) -> None:
    """A new hand, shuffled with the OS's secure source; its record is the state from now on.
    A table with preset deals takes the next of them instead, with its own dealer."""
    if table.preset_deals is not None and table.hands.count() < len(table.preset_deals):
        _deal_preset(table)
        return
    # Shuffled: a table without preset deals, or one whose match outlasted them
    # (``Table.match_ends_it``: compared with nobody, kept in the hand's record).
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


def presets_played(table: Table, hands: int) -> bool:
    """Whether a table with preset deals has played them all once ``hands`` hands finished
    (an all-pass redeal is one of them: every table of an event compares the same deal)."""
    return table.preset_deals is not None and hands >= len(table.preset_deals)


def _deal_preset(table: Table) -> None:
    """The table's next preset deal, checked by the engine as a hand record is."""
    deal = table.preset_deals[table.hands.count()]
    record = {"format": HAND_FORMAT, "game": table.game, "rules": rules_of(table).overrides(),
              "dealer": deal["dealer"], "hands": deal["hands"], "actions": []}
    if deal.get("kitty") is not None:
        record["kitty"] = deal["kitty"]
    _module, state, _actions = start_hand(record)
    table.current = make_automatic_actions(state, record)
