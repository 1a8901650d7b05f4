"""The levels the benches compare against: earlier settings of a level, and candidates for the
next, kept as settings.  No table, and not the computer players' service, offers them: only a bench that
calls :func:`register` adds them to the computer players' level table (``search.SEARCH_LEVELS``), after
which ``choose_action`` plays them like any level.
"""

from __future__ import annotations

from dataclasses import replace

from games.rules.computer import search
from games.rules.computer.search import SearchLevel

# Every earlier strong solved the last four tricks exactly, not five, and let its habits
# outweigh a trick there: each compared level built on strong or normal is built on that one,
# so that its name keeps meaning what was measured.
# Nor did any call against the rule texts' advice (the convention "advice").
STRONG = replace(search.STRONG, exact_tricks=4, solved_ties_only=False,
                 conventions=("four_says_joker",))
NORMAL = replace(search.NORMAL, solved_ties_only=False, conventions=("four_says_joker",))

COMPARED_LEVELS: dict[str, SearchLevel] = {
    # normal as first shipped
    "normal_v1": SearchLevel(samples=10, exact_tricks=2, budget=0.05),
    # strong as first shipped
    "strong_v1": SearchLevel(samples=28, exact_tricks=3, budget=0.15),
    # the two levels before the last-seat habit and strong's wider sample (Bid Whist's bids
    # hand-set)
    "normal_v2": replace(NORMAL, habits_within_noise=False, measured=()),
    "strong_v2": replace(STRONG, samples=48, budget=0.2, habits_within_noise=False,
                         measured=()),
    # the two levels before Bid Whist's bids measured in real auctions: the same but for the
    # hand-set bids
    "normal_v3": replace(NORMAL, measured=()),
    "strong_v3": replace(STRONG, measured=()),
    # the two levels before Solo's solo was measured against the prop: a hand that reaches the
    # solo solos
    "normal_v4": replace(NORMAL, measured=("bids", "kitty")),
    "strong_v4": replace(STRONG, measured=("bids", "kitty")),
    # candidates, each strong with one thing changed: its sampled deals weighted by the
    # auction; deals drawn by the other seats' play; Bid Whist bids from the measured books
    # model (with the hand-set bids, as strong had them when it lost to strong)
    "strong_calls": replace(STRONG, infer_calls=True),
    "strong_reads": replace(STRONG, infer_play=True),
    "strong_books": replace(STRONG, measured=("books",)),
    # normal and strong with the partnership calls measured in real auctions: they win among
    # computer players (docs/performance.md, "Solo and Belgian Whist's calls in real
    # auctions", measured before the group "partnership", which they take with normal's) but
    # break the partner's promise, so no level offered at a table takes them
    "normal_auctions": replace(NORMAL, measured=(*NORMAL.measured, "auctions")),
    "strong_auctions": replace(STRONG, measured=(*STRONG.measured, "auctions")),
}


# strong before it spared partner's trumps: a trump led where only partner could
# still hold one cost nothing (docs/computer-players.md, "Blunders a partner notices")
COMPARED_LEVELS["strong_v5"] = STRONG
# Each level as it was, and each candidate as measured: strong's sparing of partner's trumps
# (docs/computer-players.md, "Blunders a partner notices") and the convention that a first
# bid of 4 in a suit says a joker came after them all.
COMPARED_LEVELS = {name: replace(level, spare_partners_trumps=False, conventions=())
                   for name, level in COMPARED_LEVELS.items()}
# normal and strong before a Bid Whist seat's first bid of 4 in a suit said a joker:
# they opened 4 with about six tricks, joker or not, and read nothing of a partner's 4
COMPARED_LEVELS["normal_v5"] = replace(NORMAL, conventions=())
COMPARED_LEVELS["strong_v6"] = replace(STRONG, conventions=())
# strong before it solved the last five tricks exactly (the fifth from the end played out)
# and before its habits only broke ties in a solved ending
COMPARED_LEVELS["strong_v7"] = STRONG
# normal before its habits only broke ties in a solved ending
COMPARED_LEVELS["normal_v6"] = NORMAL
# normal and strong before they kept the rule texts' advice on what a call needs: a spread
# misère from a hand that could be caught, Bid Whist bids without an ace or a joker and
# notrump with one ace
COMPARED_LEVELS["normal_v7"] = replace(search.NORMAL, conventions=("four_says_joker",))
COMPARED_LEVELS["strong_v8"] = replace(search.STRONG, conventions=("four_says_joker",))


def register() -> None:
    """Add the compared levels to the computer players' level table (again: no harm).  A bench calls it
    when its module loads, so that the worker processes it starts (which load the module
    anew) know them too."""
    search.SEARCH_LEVELS.update(COMPARED_LEVELS)
