"""Trio Whist's computer players: Cutthroat's own, which decide everything themselves
(``games.rules.computer.hooks.ComputerPlayers``), and the defaults for the rest."""

from games.rules.computer.cutthroat_bid_whist import THRESHOLDS as THRESHOLDS
from games.rules.computer.cutthroat_bid_whist import auction_known as auction_known
from games.rules.computer.cutthroat_bid_whist import choose_action as choose_action
from games.rules.computer.cutthroat_bid_whist import order_dealt as order_dealt
from games.rules.computer.hooks import DOUBLE_DUMMY as DOUBLE_DUMMY

GAME = "trio_whist"
