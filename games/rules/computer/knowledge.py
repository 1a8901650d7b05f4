"""What a seat knows, read from its view alone, and the sampling of deals consistent with it.

:func:`read` turns a view in the play phase into a :class:`Knowledge`: the seat's cards, the
cards gone, the cards whose place is known (an exposed misère hand, Solo's turn-up, a shown
kitty), the suits each seat has shown void in, hidden piles (the Bid Whist declarer's discards,
petite misère discards), and checks on the *dealt* hands that the auction implies (Belgian
``passe_trou``/``trou`` = not/exactly three aces, ``emballer S`` = holds an S, Solo's turn-up
suit in the dealer's hand).  :func:`sample` deals the unseen cards to satisfy all of it;
:func:`rebuild` turns a sample back into a real engine state by replaying the public history
through the engine (the tests use it to prove every sample is a deal the seat could be facing).

Nothing here reads anything but the view: the computer player cannot know more than the person in
its seat.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from games.rules import game_module
from games.rules.base import HandView
from games.rules.cards import ALL_CARDS, CARD_INDEX, CARD_RANK, SUIT_MASK, mask_of
from games.rules.errors import WhistError

from .kernel import LOSE, NO_SUIT, TRUMP, WIN, PlaySpec, Position, bits, play

SUIT_ORDER = "SHDC"
ACE_MASK = mask_of(["AS", "AH", "AD", "AC"])


def seat_of(view: HandView) -> int:
    """The seat a computer player plays (its view is always a seated player's)."""
    seat = view["seat"]
    assert seat is not None, "a computer player's view is a seated player's"
    return seat


def contract_of(view: HandView) -> dict[str, Any]:
    """The contract, after the auction (the only phases that ask for it)."""
    contract = view["contract"]
    assert contract is not None, "asked for the contract before the auction ended"
    return contract


def rules_of(view: HandView):
    """The table's house rules: ``view["rules"]`` (the overrides) when the caller adds them."""
    return game_module(view["game"]).Rules.from_overrides(view.get("rules") or {})


def hooks(view: HandView):
    """The shared computer players' module of the view's game (:mod:`games.rules.computer.hooks`)."""
    from .hooks import shared  # the games' modules import this one

    return shared(view["game"])


@dataclass
class Hidden:
    """What a game's ``read_hidden`` adds to the seat's knowledge, per seat where it says so:
    cards known to be in a hand (``fixed``), cards that cannot be (``forbidden``), hidden
    piles, checks on the dealt hands, and cards known to be out of play (``known_gone``)."""

    fixed: list[int]
    forbidden: list[int]
    piles: list[tuple[str, int, int]]
    checks: list[tuple[int, str, Any]]
    known_gone: int = 0
    # The conventions the reading level keeps (search.SearchLevel.conventions): what a call
    # of the auction says of the hand that made it (Bid Whist's "four_says_joker")
    conventions: tuple[str, ...] = ()


@dataclass
class Knowledge:
    game: str
    me: int
    rules: Any
    spec: PlaySpec
    hand: int
    sizes: list[int]  # current hand sizes
    unseen: int  # cards whose place the seat does not know
    fixed: list[int]  # per seat: cards known to be in that hand (never the computer player's own)
    forbidden: list[int]  # per seat: cards that cannot be in that hand (voids, known places)
    piles: list[tuple[str, int, int]]  # hidden piles: (name, size, owner seat)
    played_by: list[int]  # per seat: cards played so far
    checks: list[tuple[int, str, Any]] = field(default_factory=list)  # (seat, kind, arg)
    tricks_done: int = 0
    trick: list[tuple[int, int]] = field(default_factory=list)  # (seat, card index)
    leader: int = 0
    won: list[int] = field(default_factory=list)
    # What the other seats' play says they did not hold (:func:`play_misfit`): (seat, mask) for
    # each time a seat third or fourth to play let an opponent's card stand when the cards of
    # ``mask`` (the suit led, above the winning card) would have beaten it.
    not_held: list[tuple[int, int]] = field(default_factory=list)


# -- the play spec -----------------------------------------------------------------------------


def plain_tables(trump: str | None):
    strength, suit_id = [], []
    for index, card in enumerate(ALL_CARDS):
        if card in ("BJ", "LJ"):
            strength.append(0)
            suit_id.append(NO_SUIT)
            continue
        value = CARD_RANK[index]
        strength.append(value + (TRUMP if card[1] == trump else 0))
        suit_id.append(SUIT_ORDER.index(card[1]))
    follow = tuple(SUIT_MASK[s] for s in SUIT_ORDER)
    return tuple(strength), tuple(suit_id), follow


SHAPING = 0.02  # per trick: breaks ties between outcomes the score alone does not tell apart


def memo(function, side, aim, me):
    """The score, memoised, plus a small nudge towards more tricks for the computer player's
    side (fewer for a misère player), so that the search still prefers safer lines when the
    points tie."""
    cache: dict = {}
    mine = [s for s in range(4) if side[s] == side[me]]
    losers = [s for s in range(4) if aim[s] == LOSE]
    if aim[me] == WIN:
        def nudge(tricks): return SHAPING * sum(tricks[s] for s in mine)
    elif aim[me] == LOSE:
        def nudge(tricks): return -SHAPING * tricks[me]
    else:
        def nudge(tricks): return SHAPING * sum(tricks[s] for s in losers)

    def score(tricks):
        value = cache.get(tricks)
        if value is None:
            value = cache[tricks] = function(tricks) + nudge(tricks)
        return value

    return score


def plain_spec(view: HandView, side, aim, total_tricks: int, score, declaring) -> PlaySpec:
    """The play spec of a hand of the 52 cards, in which the trumps named in the view, if any,
    beat the plain order (Solo and Belgian Whist), for seat ``view["seat"]``: ``score`` (the
    final tricks per seat -> the seat's points) memoised and nudged (:func:`memo`)."""
    me, trump = seat_of(view), view.get("trump")
    strength, suit_id, follow = plain_tables(trump)
    return PlaySpec(strength, suit_id, follow, side, aim, total_tricks,
                    memo(score, side, aim, me), me, declaring, trump_group(trump))


def play_spec(view: HandView, rules) -> PlaySpec:
    """The trick rules, sides, aims and score of the hand in play, for seat ``view["seat"]``."""
    return hooks(view).play_spec(view, rules)


def trump_group(trump: str | None) -> int:
    return SUIT_ORDER.index(trump) if trump else -1


# -- reading the view ----------------------------------------------------------------------------


def read(view: HandView, conventions: tuple[str, ...] = ()) -> Knowledge:
    """Everything the seat knows in the play phase (see the module docstring); with the
    ``conventions`` the seat's level keeps, what they say of the other seats' calls."""
    game, me = view["game"], seat_of(view)
    rules = rules_of(view)
    spec = play_spec(view, rules)
    hand = mask_of(view["hand"])
    # a game of three seats is read as four whose fourth holds nothing (kernel.PlaySpec.seats)
    empty = [0] * (4 - len(view["hand_sizes"]))
    sizes = [*view["hand_sizes"], *empty]
    played_by = [0, 0, 0, 0]
    game_hooks = hooks(view)
    deck = game_hooks.deck(rules)

    tricks = [t["cards"] for t in view["tricks"]] + [view["trick"]]
    forbidden = [0, 0, 0, 0]
    for cards in tricks:
        led = -1
        for position, entry in enumerate(cards):
            seat, index = entry["seat"], CARD_INDEX[entry["card"]]
            played_by[seat] |= 1 << index
            suit = spec.suit_id[index]
            if position == 0 or led < 0:
                led = suit if suit != NO_SUIT else -1
            elif not spec.follow[led] >> index & 1:
                forbidden[seat] |= spec.follow[led]  # shown void
    played = played_by[0] | played_by[1] | played_by[2] | played_by[3]

    for seat in range(len(view["hand_sizes"]), 4):
        forbidden[seat] = deck  # the empty fourth seat of a three-seat game
    hidden = Hidden(fixed=[0, 0, 0, 0], forbidden=forbidden, piles=[], checks=[],
                    conventions=conventions)
    game_hooks.read_hidden(view, rules, hidden)
    fixed, piles, checks, known_gone = hidden.fixed, hidden.piles, hidden.checks, \
        hidden.known_gone

    for seat in range(4):
        fixed[seat] &= ~played
        forbidden[seat] &= ~fixed[seat]
    unseen = deck & ~hand & ~played & ~known_gone
    for seat in range(4):
        unseen &= ~fixed[seat]

    trick = [(e["seat"], CARD_INDEX[e["card"]]) for e in view["trick"]]
    leader = view["leader"]
    assert leader is not None  # the play has begun
    return Knowledge(game=game, me=me, rules=rules, spec=spec, hand=hand, sizes=sizes,
                     unseen=unseen, fixed=fixed, forbidden=forbidden, piles=piles,
                     played_by=played_by, checks=checks, tricks_done=len(view["tricks"]),
                     trick=trick, leader=leader, won=[*view["tricks_won"], *empty],
                     not_held=_not_covered(spec, me, tricks, played_by, fixed))


def _not_covered(spec: PlaySpec, me: int, tricks: list[list[dict[str, Any]]],
                 played_by: list[int], fixed: list[int]) -> list[tuple[int, int]]:
    """Where a seat third or fourth to play, trying to win tricks, followed suit under an
    opponent's winning card: the cards of the suit led above it, which a club player holding
    one would have played (fourth hand takes the trick, third hand plays high).  An event is
    dropped when the seat is known to have held such a card (played later, or known to be in
    its hand): it ducked on purpose, and its play says nothing."""
    strength, suit_id, side = spec.strength, spec.suit_id, spec.side
    out = []
    for cards in tricks:
        if not cards:
            continue
        led = suit_id[CARD_INDEX[cards[0]["card"]]]
        if led == NO_SUIT:
            continue
        best, best_seat = -1, -1
        for place, entry in enumerate(cards):
            seat, index = entry["seat"], CARD_INDEX[entry["card"]]
            follows = spec.follow[led] >> index & 1
            if place >= 2 and seat != me and follows and spec.aim[seat] == WIN \
                    and side[best_seat] != side[seat] and strength[index] < best:
                above = 0
                for other in bits(spec.follow[led]):
                    if strength[other] > best:
                        above |= 1 << other
                if above and not above & (played_by[seat] | fixed[seat]):
                    out.append((seat, above))
            if strength[index] > best and (follows or strength[index] >= TRUMP):
                best, best_seat = strength[index], seat
    return out


def play_misfit(knowledge: Knowledge, hands: list[int]) -> int:
    """How many of the other seats' plays a sampled deal does not fit: the times a seat let an
    opponent's card stand though the sample gives it a card of the suit that beats it."""
    return sum(1 for seat, above in knowledge.not_held if hands[seat] & above)


# -- sampling ----------------------------------------------------------------------------------


def _check(knowledge: Knowledge, hands: list[int], piles: list[int]) -> bool:
    for seat, kind, arg in knowledge.checks:
        dealt = hands[seat] | knowledge.played_by[seat]
        for (name, _size, owner), cards in zip(knowledge.piles, piles, strict=True):
            if owner == seat and name == "discard":
                dealt |= cards
        if kind == "holds_suit":
            if not dealt & SUIT_MASK[arg]:
                return False
        elif kind == "holds_any":  # one of the cards of ``arg`` (a hidden pile of its own too)
            if not _held_or_piled(knowledge, seat, hands, piles) & arg:
                return False
        elif kind == "three_aces":
            if (dealt & ACE_MASK).bit_count() != 3:
                return False
        elif (dealt & ACE_MASK).bit_count() == 3:  # not_three_aces
            return False
    return True


def _held_or_piled(knowledge: Knowledge, seat: int, hands: list[int], piles: list[int]) -> int:
    """The cards of ``seat`` on a sampled deal: in hand, played, and in its hidden piles (a
    Bid Whist declarer's discards: dealt or from the kitty, which the check cannot tell)."""
    cards = hands[seat] | knowledge.played_by[seat]
    for (_name, _size, owner), pile in zip(knowledge.piles, piles, strict=True):
        if owner == seat:
            cards |= pile
    return cards


def _holds_any_checks(knowledge: Knowledge) -> tuple[list[tuple[int, str, Any]],
                                                     list[tuple[int, int, int]]]:
    """The checks left to enforce, and for each "holds_any" still open, (seat, its cards, the
    unseen ones of them its hand may take).  A "holds_any" the seat already meets (a card of it played
    or known in its hand) is dropped, and so is one no deal can meet any more (every such card
    seen elsewhere, or the seat shown void in them): the call broke the convention, and the
    other checks still hold."""
    checks, open_ = [], []
    for check in knowledge.checks:
        seat, kind, arg = check
        if kind == "holds_any":
            if (knowledge.played_by[seat] | knowledge.fixed[seat]) & arg:
                continue
            room = knowledge.sizes[seat] - knowledge.fixed[seat].bit_count()
            to_hand = knowledge.unseen & arg & ~knowledge.forbidden[seat] if room > 0 else 0
            piled = any(owner == seat and size for _name, size, owner in knowledge.piles)
            if not to_hand and not (piled and knowledge.unseen & arg):
                continue
            open_.append((seat, arg, to_hand))
        checks.append(check)
    return checks, open_


def sample(knowledge: Knowledge, rng: random.Random, tries: int = 20
           ) -> tuple[list[int], list[int]] | None:
    """A deal of the unseen cards: (four hand masks, the hidden piles' masks), or None when
    no consistent deal was found.

    A seat that must hold one of some cards ("holds_any": a partner's bid that says a joker)
    is met by rejection, which keeps the deals' odds as they are given the check; should
    ``tries`` deals all miss it (a seat with few cards left), one of those cards is put in
    its hand and the rest dealt again.  Where none can be (the voids shown and the hand sizes
    leave the other cards no room), the check is not met: the seat broke the convention."""
    checks, open_ = _holds_any_checks(knowledge)
    if len(checks) != len(knowledge.checks):
        knowledge = Knowledge(**{**knowledge.__dict__, "checks": checks})
    drawn = _sample(knowledge, rng, tries)
    if not open_ or drawn is None or _check(knowledge, drawn[0], drawn[1]):
        return drawn
    for seat, cards, to_hand in open_:
        if _held_or_piled(knowledge, seat, drawn[0], drawn[1]) & cards:
            continue
        candidates = bits(to_hand & knowledge.unseen)
        rng.shuffle(candidates)
        for card in candidates:
            fixed = knowledge.fixed[:]
            fixed[seat] |= 1 << card
            placed = Knowledge(**{**knowledge.__dict__, "fixed": fixed,
                                  "unseen": knowledge.unseen & ~(1 << card)})
            again = _sample(placed, rng, tries)
            if again is not None and _check(placed, again[0], again[1]):
                knowledge, drawn = placed, again
                break
    # where no card could be placed, the other hidden cards leave it no room (the call broke
    # the convention): the deal drawn without it
    return drawn


def _sample(knowledge: Knowledge, rng: random.Random, tries: int
            ) -> tuple[list[int], list[int]] | None:
    me = knowledge.me
    fixed, forbidden, unseen = knowledge.fixed[:], knowledge.forbidden[:], knowledge.unseen
    for seat, kind, _arg in knowledge.checks:
        if kind == "three_aces":  # a trou announcer was dealt exactly three aces: place them
            need = 3 - ((knowledge.played_by[seat] | fixed[seat]) & ACE_MASK).bit_count()
            free = bits(unseen & ACE_MASK & ~forbidden[seat])
            # An ace no other hand can take (void in its suit, or a hand whose every card is
            # known) and no hidden pile could hold is the announcer's for sure: place it first,
            # or a random choice could leave it nowhere to go.
            others = [s for s in range(4) if s not in (me, seat)
                      and knowledge.sizes[s] > fixed[s].bit_count()]
            forced = [] if knowledge.piles else [
                c for c in free if all(forbidden[s] >> c & 1 for s in others)][:max(need, 0)]
            if 0 <= need <= len(free):
                chosen = forced + rng.sample([c for c in free if c not in forced],
                                             need - len(forced))
                for card in chosen:
                    fixed[seat] |= 1 << card
                    unseen &= ~(1 << card)
                forbidden[seat] |= unseen & ACE_MASK
    knowledge = Knowledge(**{**knowledge.__dict__, "fixed": fixed, "forbidden": forbidden,
                             "unseen": unseen})
    slots = []  # (kind, seat or pile number, capacity, forbidden)
    for seat in range(4):
        if seat != me:
            need = knowledge.sizes[seat] - knowledge.fixed[seat].bit_count()
            slots.append((0, seat, need, knowledge.forbidden[seat]))
    for number, (_name, size, _owner) in enumerate(knowledge.piles):
        slots.append((1, number, size, 0))
    cards = bits(knowledge.unseen)
    # the most constrained cards first
    allowed_count = {c: sum(1 for s in slots if not s[3] >> c & 1) for c in cards}
    best = None
    for _ in range(tries):
        rng.shuffle(cards)
        cards.sort(key=allowed_count.__getitem__)
        room = [s[2] for s in slots]
        got = [0] * len(slots)
        ok = True
        for card in cards:
            total = 0
            for k, slot in enumerate(slots):
                if room[k] > 0 and not slot[3] >> card & 1:
                    total += room[k]
            if total == 0:
                ok = False
                break
            pick = rng.randrange(total)
            for k, slot in enumerate(slots):
                if room[k] > 0 and not slot[3] >> card & 1:
                    pick -= room[k]
                    if pick < 0:
                        room[k] -= 1
                        got[k] |= 1 << card
                        break
        if not ok:
            continue
        hands = [0, 0, 0, 0]
        hands[me] = knowledge.hand
        piles = [0] * len(knowledge.piles)
        for k, slot in enumerate(slots):
            if slot[0] == 0:
                hands[slot[1]] = got[k] | knowledge.fixed[slot[1]]
            else:
                piles[slot[1]] = got[k]
        if _check(knowledge, hands, piles):
            return hands, piles
        best = (hands, piles)
    return best


def position(knowledge: Knowledge, hands: list[int]) -> Position:
    """The kernel position on a sampled deal, with the current trick already on the table."""
    spec = knowledge.spec
    hands = hands[:]
    for seat, index in knowledge.trick:
        hands[seat] |= 1 << index  # put them back, play() takes them out again
    left = spec.total_tricks - knowledge.tricks_done
    pos = Position(hands, knowledge.leader, 0, -1, -1, -1, list(knowledge.won), left)
    for _seat, index in knowledge.trick:
        play(spec, pos, index)
    return pos


# -- what the auction says -----------------------------------------------------------------------


def calls_misfit(view: HandView, knowledge: Knowledge, hands: list[int],
                 piles: list[int], calls: str = "hand") -> int:
    """How many of the other seats' auction calls, made with a real choice, the computer players'
    own bidding (the game's ``CALLS`` from the thresholds ``calls`` names: the searching level's
    own) would not have made holding the sampled hands -- not the same kind of call: a pass,
    a bid, a solo, a proposal...

    A sample in which a player who passed holds a hand the computer players would bid with, or one
    who bid holds nothing, is a less likely deal: the search weights its samples by this.
    """
    hooks_by_phase = hooks(view).CALLS
    me, rules = knowledge.me, knowledge.rules
    try:
        state, actions, _pile_of = dealt_state(view, knowledge, hands, piles)
        overrides = view.get("rules")  # the table's overrides, as the caller gave them
        made = agreed = 0
        for seat, action in actions[:len(view["auction"])]:
            hook = hooks_by_phase.get(state.phase)
            if seat != me and hook is not None:
                seen = state.view(seat)
                if len(seen.get("legal") or []) > 1:
                    if overrides:
                        seen["rules"] = overrides
                    made += 1
                    agreed += hook(seen, rules, calls).split()[0] == action.split()[0]
            state.apply(action, seat)
    except WhistError:  # a sample the engine refuses says nothing either way (only the
        return 0  # engine's refusals: a hook that fails otherwise is a bug to see)
    return made - agreed


# -- back to a real engine state (tests, debugging) ----------------------------------------------


def dealt_state(view: HandView, knowledge: Knowledge, hands: list[int], piles: list[int]):
    """The engine hand as dealt on this sample, before any action: (state, the actions to
    replay up to the play -- the auction's, then those a game adds, as Bid Whist's discard and
    trumps --, the hidden piles by (name, owner))."""
    rules, game_hooks = knowledge.rules, hooks(view)
    pile_of = {(name, owner): cards for (name, _s, owner), cards in zip(knowledge.piles, piles,
                                                                       strict=True)}
    dealt = [hands[s] | knowledge.played_by[s] for s in range(4)]
    actions = [(e["seat"], e["action"]) for e in view["auction"]]
    kitty = game_hooks.rebuild_deal(view, rules, dealt, pile_of, actions)
    cards = [[ALL_CARDS[i] for i in bits(mask)] for mask in dealt]
    game_hooks.order_dealt(view, cards)
    return game_module(view["game"]).new_hand(rules, view["dealer"], cards, kitty), actions, \
        pile_of


def rebuild(view: HandView, hands: list[int], piles: list[int]):
    """The engine hand this sample stands for: dealt cards recovered, public history replayed.

    Raises the engine's IllegalAction/DealError if the sample contradicts the view.
    """
    state, actions, pile_of = dealt_state(view, read(view), hands, piles)
    for seat, action in actions:
        state.apply(action, seat)
    hooks(view).rebuild_before_play(state, view, pile_of)
    for trick in view["tricks"]:
        for entry in trick["cards"]:
            state.apply("play " + entry["card"], entry["seat"])
    for entry in view["trick"]:
        state.apply("play " + entry["card"], entry["seat"])
    return state
