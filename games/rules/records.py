"""Hand records (``whistclub-hand/1``) and match documents (``whistclub-match/1``).

A hand record is the deal plus the action list: the storage format of finished hands, the export
format and the input of ``manage.py replay``.  See docs/hand-records.md.

Replaying refuses anything malformed with a :class:`RecordError` whose message names what is
wrong and, for actions, the action's index, seat and text:
``action 17 (seat 2, 'play AS'): seat 2 must follow hearts``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from games.rules import GAME_MODULES, game_module
from games.rules.base import Chain, GameModule, HandState
from games.rules.errors import N_, DealError, RulesError, WhistError
from games.rules.house_rules import BaseRules

HAND_FORMAT = "whistclub-hand/1"
MATCH_FORMAT = "whistclub-match/1"
HAND_KEYS = {"format", "game", "rules", "dealer", "hands", "kitty", "actions", "meta"}
MATCH_KEYS = {"format", "game", "rules", "hands", "meta"}


class RecordError(WhistError):
    """A record that cannot be replayed; the message says where and why."""


def _fail(template: str, **params: Any) -> RecordError:
    return RecordError(template, **params)


def parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(N_("not valid JSON: %(reason)s at line %(line)s column %(column)s"),
                    reason=exc.msg, line=exc.lineno, column=exc.colno) from None


def _module_for(game: object) -> GameModule:
    if game is None:
        raise _fail(N_("the record does not say which game it is (\"game\": one of %(known)s)"),
                    known=", ".join(GAME_MODULES))
    if game not in GAME_MODULES:
        raise _fail(N_("unknown game %(game)r (known: %(known)s)"),
                    game=game, known=", ".join(GAME_MODULES))
    try:
        return game_module(game)  # a name of GAME_MODULES
    except ImportError:
        raise _fail(N_("the %(game)s engine is not available yet"), game=game) from None


def _rules_for(module: GameModule, rules: object) -> BaseRules:
    try:
        return module.Rules.from_overrides(rules if rules is not None else {})  # type: ignore[arg-type]
    except RulesError as exc:
        raise _fail(N_("rules: %(reason)s"), reason=str(exc)) from None


def start_hand(document: Mapping[str, Any], *, inherited: Mapping[str, Any] | None = None
               ) -> tuple[GameModule, HandState, list[Any]]:
    """Validate a hand record's deal and return (engine module, fresh state, actions)."""
    if not isinstance(document, Mapping):
        raise _fail(N_("a hand record must be a JSON object"))
    inherited = inherited or {}
    unknown = set(document) - HAND_KEYS
    if unknown:
        raise _fail(N_("unknown key(s) in hand record: %(keys)s"), keys=", ".join(sorted(unknown)))
    fmt = document.get("format", inherited.get("format", HAND_FORMAT) if inherited else None)
    if fmt != HAND_FORMAT:
        raise _fail(N_("format must be %(expected)r; got %(got)r"), expected=HAND_FORMAT, got=fmt)
    game = document.get("game", inherited.get("game"))
    module = _module_for(game)
    rules = _rules_for(module, document.get("rules", inherited.get("rules")))
    seats = module.SEATS  # the engine contract: every game module says it
    dealer: Any = document.get("dealer")  # checked here, then by the engine
    if isinstance(dealer, bool) or dealer not in range(seats):
        raise _fail(N_("dealer must be a seat number 0 to %(last)s; got %(dealer)r"),
                    last=seats - 1, dealer=dealer)
    hands = document.get("hands")
    if (not isinstance(hands, list) or len(hands) != seats
            or not all(isinstance(h, list) and all(isinstance(c, str) for c in h) for h in hands)):
        raise _fail(N_("hands must be a list of %(count)s lists of card strings"), count=seats)
    kitty = document.get("kitty")
    if kitty is not None and (not isinstance(kitty, list)
                              or not all(isinstance(c, str) for c in kitty)):
        raise _fail(N_("kitty must be a list of card strings"))
    actions = document.get("actions", [])
    if not isinstance(actions, list):
        raise _fail(N_("actions must be a list of {\"seat\": N, \"action\": \"...\"} objects"))
    try:
        state = module.new_hand(rules, dealer, hands, kitty)
    except DealError as exc:
        raise _fail(N_("deal: %(reason)s"), reason=str(exc)) from None
    return module, state, actions


def apply_actions(state: HandState, actions: list[Any]) -> None:
    """Apply recorded actions in order; the first bad one raises a RecordError naming it."""
    seats = range(len(state.dealt_hands))  # the engine's SEATS
    for index, entry in enumerate(actions):
        if (not isinstance(entry, Mapping) or set(entry) != {"seat", "action"}
                or isinstance(entry["seat"], bool) or entry["seat"] not in seats
                or not isinstance(entry["action"], str)):
            raise _fail(N_("action %(index)s: each action must be {\"seat\": 0-%(last)s, "
                           "\"action\": \"...\"}; got %(entry)s"),
                        index=index, last=seats[-1], entry=json.dumps(entry)[:80])
        seat, action = entry["seat"], entry["action"]
        if state.complete:
            raise _fail(N_("action %(index)s (seat %(seat)s, %(action)r): the hand is already "
                           "complete"), index=index, seat=seat, action=action)
        if seat != state.to_act:
            raise _fail(N_("action %(index)s (seat %(seat)s, %(action)r): it is seat "
                           "%(to_act)s's turn, not seat %(seat)s's"),
                        index=index, seat=seat, action=action, to_act=state.to_act)
        try:
            state.apply(action)
        except WhistError as exc:
            reason = getattr(exc, "reason", str(exc))
            raise _fail(N_("action %(index)s (seat %(seat)s, %(action)r): %(reason)s"),
                        index=index, seat=seat, action=action, reason=reason) from None


def replay_hand(document: Mapping[str, Any], *, inherited: Mapping[str, Any] | None = None
                ) -> HandState:
    _module, state, actions = start_hand(document, inherited=inherited)
    apply_actions(state, actions)
    return state


def replay_match(document: Mapping[str, Any]) -> dict[str, Any]:
    """Replay hand after hand, checking the dealer rotation, and add the running scores."""
    unknown = set(document) - MATCH_KEYS
    if unknown:
        raise _fail(N_("unknown key(s) in match document: %(keys)s"),
                    keys=", ".join(sorted(unknown)))
    module = _module_for(document.get("game"))
    rules = _rules_for(module, document.get("rules"))
    hands = document.get("hands")
    if not isinstance(hands, list) or not hands:
        raise _fail(N_("a match document needs a non-empty list of hands"))
    inherited = {"format": HAND_FORMAT, "game": document["game"],
                 "rules": document.get("rules", {})}
    chain_class = module.CHAIN
    chain: Chain | None = None
    results: list[dict[str, Any]] = []
    for number, hand in enumerate(hands):
        try:
            if isinstance(hand, Mapping) and "game" in hand and hand["game"] != document["game"]:
                raise _fail(N_("the hand's game %(got)r differs from the match's %(expected)r"),
                            got=hand["game"], expected=document["game"])
            state = replay_hand(hand, inherited=inherited)
            if chain is None:
                chain = chain_class(rules, first_dealer=state.dealer)
            if chain.complete:
                raise _fail(N_("the match was already over"))
            chain.add_hand(state)
        except WhistError as exc:
            raise _fail(N_("hand %(number)s: %(reason)s"), number=number, reason=str(exc)) from None
        summary = chain.summary()
        results.append({**state.result(),
                        **{k: summary[k] for k in ("scores", "balances") if k in summary}})
    assert chain is not None  # a match document has at least one hand (checked above)
    return {"format": MATCH_FORMAT, "game": document["game"], **chain.summary(), "results": results}


def replay_document(document: Any) -> dict[str, Any]:
    """The replay output of a hand record or match document (see docs/hand-records.md)."""
    if not isinstance(document, Mapping):
        raise _fail(N_("a record must be a JSON object"))
    fmt = document.get("format")
    if fmt == MATCH_FORMAT:
        return replay_match(document)
    if fmt != HAND_FORMAT:
        raise _fail(N_("format must be %(hand)r or %(match)r; got %(got)r"),
                    hand=HAND_FORMAT, match=MATCH_FORMAT, got=fmt)
    return replay_hand(document).result()


def record_of(state: HandState) -> dict[str, Any]:
    """The ``whistclub-hand/1`` record of a hand, as far as it has been played."""
    record = {
        "format": HAND_FORMAT,
        "game": state.game,
        "rules": state.rules.overrides(),
        "dealer": state.dealer,
        "hands": [list(hand) for hand in state.dealt_hands],
    }
    if state.dealt_kitty is not None:
        record["kitty"] = list(state.dealt_kitty)
    record["actions"] = [{"seat": seat, "action": action} for seat, action in state.history]
    return record


def make_automatic_actions(state: HandState, record: dict[str, Any]) -> dict[str, Any]:
    """Apply to ``state`` the actions the rules make without asking anyone
    (``HandState.automatic_action``), and give ``record`` with them appended (a new dict when
    there are any: the record of a version may be shared)."""
    added = []
    while not state.complete:
        action = state.automatic_action()
        if action is None:
            break
        added.append({"seat": state.to_act, "action": action})
        state.apply(action)
    return {**record, "actions": [*record["actions"], *added]} if added else record


def random_record(game: str, seed: int, *, rules: Mapping[str, Any] | None = None,
                  dealer: int = 0) -> dict[str, Any]:
    """A complete record dealt and played by uniformly random legal moves (tests, benchmarks)."""
    module = _module_for(game)
    hand_rules = _rules_for(module, rules or {})
    rng = random.Random(seed)
    deal = module.deal(hand_rules, dealer, rng)
    state = module.new_hand(hand_rules, dealer, deal.hands, deal.kitty)
    while not state.complete:
        state.apply(state.random_action(rng))
    return record_of(state)
