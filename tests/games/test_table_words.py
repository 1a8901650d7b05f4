"""The table page speaks in words: no engine notation in any phase of any game, each game's
sentences (games/words/<game>.py), computer players with names of their own."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest
from django.template.loader import render_to_string

from games import registry, tables, words
from games.computer_names import NAMES, computer_name
from games.models import Table
from games.presentation import for_template
from games.rules import game_module
from games.rules.records import random_record, replay_hand
from games.snapshots import finished_hand_view, table_view
from tests.marks import slow_except

GAMES = [each.id for each in registry.all_games()]

# What a player must never read: key=value, a Python dict or None/True/False, an id with an
# underscore (a contract or rule id such as prop_and_cop or misere_etalee).
NOTATION = re.compile(r"\w=\S|\{'|\bNone\b|\bTrue\b|\bFalse\b|\b[a-z]+_[a-z_]+\b")


class VisibleText(HTMLParser):
    """The text a reader sees: no tags, no attributes."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data):
        self.parts.append(data)


def visible_text(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def page_of(view: dict) -> str:
    return visible_text(render_to_string("games/partials/table_state.html",
                                         {"view": view, "ui": for_template(view)}))


def notation_in(text: str) -> list[str]:
    return [match.group(0) for match in NOTATION.finditer(text)]


# -- the engines' hands as the page would show them, without a database ------------------------

def players_of(count: int, table_id: int = 7) -> list[dict]:
    return [{"seat": 0, "name": "Pat", "computer": None, "free": False, "away": False}] + [
        {"seat": p, "name": computer_name(table_id, p, "normal"), "computer": "normal", "free": False,
         "away": False} for p in range(1, count)]


def dealt_hand(game: str, seed: int):
    """(random source, a new hand of ``game`` dealt from it) for ``seed``."""
    module = game_module(game)
    rules = module.Rules()
    rng = random.Random(seed)
    dealt = module.deal(rules, seed % module.SEATS, rng)
    return rng, module.new_hand(rules, seed % module.SEATS, dealt.hands,
                                getattr(dealt, "kitty", None))


def hands_of(game: str, seeds: range):
    """(view of seat 0 at each step, finished state) of random hands of ``game``."""
    for seed in seeds:
        rng, state = dealt_hand(game, seed)
        steps = []
        while not state.complete:
            steps.append(state.view(0))
            state.apply(state.random_action(rng))
        yield steps, state


def table_dict(game: str, hand: dict | None, seat: int | None = 0, **more) -> dict:
    count = registry.game(game).seats
    return {"table": 7, "game": game, "version": 3, "status": "playing", "created_by": 0,
            "seat": seat, "players": players_of(count), "house_rules": {}, "hands_played": 0,
            "summary": None, "hand": hand, "last_hand": None, **more}


@pytest.mark.parametrize("game", GAMES)
def test_no_phase_of_any_game_shows_engine_notation(game):
    module = game_module(game)
    chain = module.CHAIN(module.Rules(), first_dealer=0)
    phases = set()
    for number, (steps, state) in enumerate(hands_of(game, range(12)), 1):
        for hand in steps[::3] + steps[-1:]:
            phases.add(hand["phase"])
            for seat in (0, None):
                view = table_dict(game, hand, seat=seat)
                text = page_of(view)
                assert not notation_in(text), (hand["phase"], notation_in(text), text)
        if not chain.complete and number % len(players_of(module.SEATS)) == state.dealer:
            chain.add_hand(state)
        last = finished_hand_view(number, state)
        view = table_dict(game, None, last_hand=last, summary=chain.summary(),
                          status="finished" if chain.complete else "playing")
        text = page_of(view)
        assert not notation_in(text), (notation_in(text), text)
        assert "Result of hand" in text
    assert {"auction", "play"} <= phases


@pytest.mark.parametrize("game", GAMES)
def test_every_phase_names_itself_for_whose_turn_it_is(game):
    said = words.of(game)
    for steps, _state in hands_of(game, range(6)):
        for hand in steps:
            assert hand["phase"] in said.PHASES, hand["phase"]
    first = next(hands_of(game, range(1)))[0][0]
    text = page_of(table_dict(game, first, seat=None))
    assert "to play" not in text and str(said.PHASES[first["phase"]]) in text


# -- through the tables, as people play --------------------------------------------------------

@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("pat", "pat@example.org", "pw-long-enough")


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("computer_players_act_at_once")
@pytest.mark.parametrize("game", GAMES)
def test_a_table_played_through_reads_in_words(player, game):
    table = tables.create_table(player, game, {})
    tables.take_seat(table.pk, player, 0)
    for position in range(1, registry.game(game).seats):
        tables.add_computer_player(table.pk, player, position, ("easy", "normal", "strong")[position % 3])
    rng = random.Random(5)
    seen_result = False
    for _ in range(400):
        table = Table.objects.get(pk=table.pk)
        if table.hands.count() >= 2 or table.status == Table.Status.FINISHED:
            break
        for seat in (0, None):
            view = table_view(table, seat)
            text = page_of(view)
            assert not notation_in(text), (notation_in(text), text)
            assert "computer (" not in text
            seen_result |= "Result of hand" in text
        tables.play(table.pk, player, tables.current_state(table).random_action(rng),
                    table.version)
    view = table_view(Table.objects.get(pk=table.pk), 0)
    names = [p["name"] for p in view["players"]]
    assert len(set(names)) == len(names)
    text = page_of(view)
    assert not notation_in(text) and "Team 0" not in text and "Result of hand" in text
    assert "computer, " in text  # the level, in a badge beside each computer player's name


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("computer_players_act_at_once")
@pytest.mark.parametrize("game", slow_except(GAMES, "bid_whist"))
def test_the_replay_page_reads_in_words(client, player, game, computer_players_wait):
    from games.models import Hand
    from tests.playing import play_table

    table = tables.create_table(player, game, {})
    for position in range(registry.game(game).seats):
        tables.add_computer_player(table.pk, player, position)
    # One hand played, not a thousand computer moves: the page needs one finished hand.
    play_table(table, random.Random(game), hands=1)
    hand = Hand.objects.filter(table=table).order_by("number").first()
    for step in (0, 1):
        html = client.get(f"/tables/{table.pk}/hands/{hand.number}/?trick={step}").content
        text = visible_text(html.decode())
        main = text[text.index("Hand "):]  # the page, not the site's menu
        assert not notation_in(main), (notation_in(main), main)
    assert '<table class="auction">' in html.decode() or hand.result.get("redeal")


# -- each game's sentences -----------------------------------------------------------------------

def names_for(count: int, me: int | None = 0) -> words.Names:
    return words.Names([{"seat": 0, "name": "Ana"}, {"seat": 1, "name": "Bob"},
                        {"seat": 2, "name": "Cy"}, {"seat": 3, "name": "Dee"}][:count], me)


def test_bid_whist_contract_made_set_and_boston():
    said = words.of("bid_whist")
    hand = {"contract": {"declarer": 2, "bid": 5, "mode": "uptown"}, "trump": "C",
            "direction": None, "books": [4, 2], "phase": "play"}
    assert said.contract(table_dict("bid_whist", hand), names_for(4, me=1)) == (
        "Cy bid 5 uptown, clubs trumps: Ana & Cy need 11 books, the kitty counts as one; "
        "4 so far.")
    made = {"result": {"declarer": 0, "bid": "5 uptown", "trump": "C", "books": [12, 1],
                       "points": [6, 0], "boston": False}}
    assert said.result(made, names_for(4)) == "You & Cy made 5 uptown with 12 books: you & Cy +6."
    set_ = {"result": {"declarer": 1, "bid": "4 notrump", "trump": None, "direction": "downtown",
                       "books": [5, 8], "points": [0, -8], "boston": False}}
    assert said.result(set_, names_for(4)) == (
        "Bob & Dee were set on 4 no trump with 8 books: Bob & Dee −8.")
    boston = {"result": {"declarer": 3, "bid": "7 downtown", "trump": "S", "books": [0, 13],
                         "points": [0, 14], "boston": True}}
    assert said.result(boston, names_for(4)).startswith("A Boston, every book! Bob & Dee made")
    view = table_dict("bid_whist", None, summary={"scores": [5, 0], "winner": None})
    assert said.score(view, names_for(4)) == (
        "Score: you & Cy 5 — Bob & Dee 0; 7 wins, −7 loses")
    view = table_dict("bid_whist", None, seat=1, summary={"scores": [7, -2], "winner": 0})
    assert said.score(view, names_for(4, me=1)) == (
        "Score: you & Dee −2 — Ana & Cy 7; 7 wins, −7 loses · Ana & Cy win the match.")


def test_a_notrump_bid_reads_its_direction_once_named():
    said = words.of("bid_whist")
    hand = {"contract": {"declarer": 0, "bid": 4, "mode": "notrump"}, "trump": None,
            "direction": None, "books": [1, 0]}
    assert said.contract(table_dict("bid_whist", hand), names_for(4)).startswith(
        "You bid 4 no trump, the direction still to be named: you & Cy need 10 books")
    hand["direction"] = "downtown"
    assert said.contract(table_dict("bid_whist", hand), names_for(4)).startswith(
        "You bid 4 no trump, played downtown: you & Cy need 10 books")


def test_cutthroat_sentences():
    said = words.of("cutthroat_bid_whist")
    hand = {"contract": {"declarer": 1, "bid": 12, "mode": "uptown"}, "trump": "H",
            "direction": "uptown", "books": [2, 4, 3]}
    assert said.contract(table_dict("cutthroat_bid_whist", hand), names_for(3)) == (
        "Bob bid 12 uptown, hearts trumps, alone against the others: 12 of the 18 tricks, the "
        "kitty counts as one; 4 so far.")
    made = {"result": {"declarer": 1, "bid": "12 uptown", "books": [3, 12, 3],
                       "points": [0, 12, 0], "made": True}}
    assert said.result(made, names_for(3)) == (
        "Bob made 12 uptown with 12 tricks: Bob +12, others 0.")
    view = table_dict("cutthroat_bid_whist", None, summary={"scores": [12, 31, 0], "winner": 1})
    assert said.score(view, names_for(3)) == (
        "Score: Bob 31 · you 12 · Cy 0; 30 wins · Bob wins the match.")


def test_solo_whist_sentences():
    said = words.of("solo_whist")
    prop = {"contract": {"name": "prop_and_cop", "declarer": 1, "partner": 2, "trump": "H",
                         "goal": 8, "stake": 1}, "trump": "H"}
    assert said.contract(table_dict("solo_whist", prop), names_for(4)) == (
        "Bob proposed, Cy accepted: together 8 tricks to take, hearts trumps; 1 unit a player.")
    failed = {"result": {"contract": "solo", "declarer": 1, "partner": None, "trump": "S",
                         "tricks": [3, 4, 3, 3], "made": False, "units": [3, -9, 3, 3]}}
    assert said.result(failed, names_for(4)) == (
        "Bob went down in solo with 4 tricks: Bob −9, others +3.")
    misere = {"result": {"contract": "misere", "declarer": 0, "partner": None, "trump": None,
                         "tricks": [0, 5, 4, 4], "made": True, "units": [9, -3, -3, -3]}}
    assert said.result(misere, names_for(4)) == (
        "You made misère with 0 tricks: you +9, others −3.")
    made = {"result": {"contract": "prop_and_cop", "declarer": 1, "partner": 3, "trump": "D",
                       "tricks": [2, 5, 1, 5], "made": True, "units": [-2, 2, -2, 2]}}
    assert said.result(made, names_for(4)) == (
        "Bob & Dee made prop and cop with 10 tricks: Bob +2, Dee +2, others −2.")
    assert said.result({"result": {"redeal": True, "reason": "prop_not_accepted",
                                   "units": [0] * 4}}, names_for(4)) == (
        "Nobody accepted the prop: the cards are dealt again.")
    assert said.result({"result": {"redeal": True, "reason": "all_passed", "units": [0] * 4}},
                       names_for(4)) == "Everyone passed: the cards are dealt again."
    view = table_dict("solo_whist", None, summary={"balances": [-4, 12, -4, -4]})
    assert said.score(view, names_for(4)) == "Balances in units: Bob +12, you −4, Cy −4, Dee −4"


def test_belgian_whist_sentences():
    said = words.of("belgian_whist")
    emballage = {"contract": {"contract": "emballage", "level": 8, "trump": "H",
                              "declarers": [1, 3], "together": True}}
    assert said.contract(table_dict("belgian_whist", emballage), names_for(4)) == (
        "Bob & Dee play emballage together, hearts trumps: 8 tricks to take between them.")
    miseres = {"contract": {"contract": "misere_etalee", "level": None, "trump": None,
                            "declarers": [1, 3], "together": False}}
    assert said.contract(table_dict("belgian_whist", miseres), names_for(4)) == (
        "Bob & Dee each play misère étalée, no trumps: no trick to take each.")
    several = {"result": {"contracts": [
        {"contract": "misere_etalee", "level": None, "declarers": [1], "tricks": 1,
         "made": False, "value": -24},
        {"contract": "misere_etalee", "level": None, "declarers": [3], "tricks": 0,
         "made": True, "value": 24}], "points": [0, -96, 0, 96]}}
    assert said.result(several, names_for(4)) == (
        "Bob went down in misère étalée with 1 trick; Dee made misère étalée with 0 tricks: "
        "you 0, Bob −96, Cy 0, Dee +96.")
    assert said.result({"result": {"redeal": True, "points": [0] * 4}}, names_for(4)) == (
        "Everyone passed: the cards are dealt again.")
    view = table_dict("belgian_whist", None, summary={"balances": [30, -90, 30, 30]})
    assert said.score(view, names_for(4)).startswith("Balances in points: you +30")


@pytest.mark.parametrize("game", GAMES)
def test_the_score_shows_from_the_first_deal_with_what_wins(game):
    """A newcomer sees the score during the first hand (every side at 0) and, in a match, what
    wins and what loses; a minus is a minus sign everywhere, never a hyphen."""
    said = words.of(game)
    first_hand = table_dict(game, {"phase": "auction", "hand": []})
    line = said.score(first_hand, names_for(registry.game(game).seats))
    assert line and "0" in line and "-" not in line
    if registry.game(game).is_partnership_match:
        assert "7 wins, −7 loses" in line
    elif registry.game(game).is_match:
        assert "30 wins" in line
    assert said.score(table_dict(game, None), names_for(registry.game(game).seats)) is None


def test_the_end_says_who_won_or_who_leads():
    names = names_for(4)
    match = table_dict("bid_whist", None, status="finished",
                       summary={"scores": [-7, 4], "winner": 1})
    assert words.the_end(match, names) == "Bob & Dee win the match."
    cutthroat = table_dict("cutthroat_bid_whist", None, status="finished",
                           summary={"scores": [31, 2, 0], "winner": 0})
    assert words.the_end(cutthroat, names_for(3)) == "You win the match."
    assert words.the_end(cutthroat, names_for(3, me=1)) == "Ana wins the match."
    session = table_dict("solo_whist", None, status="finished",
                         summary={"balances": [-4, 12, -4, -4], "leader": [1]})
    assert words.the_end(session, names) == "Bob ends with the best balance, +12."
    closed = table_dict("bid_whist", None, status="finished",
                        summary={"scores": [2, 0], "winner": None})
    assert words.the_end(closed, names) == "The table was closed before the match was won."


@pytest.mark.parametrize("game", GAMES)
def test_a_sentence_names_no_card(game):
    """The words never show a card (the view decides which cards a seat sees; sentences say
    contracts and counts only)."""
    card = re.compile(r"\b[AKQJT2-9][SHDC]\b|[♠♥♦♣]")
    said = words.of(game)
    for steps, state in hands_of(game, range(6)):
        for hand in steps:
            sentence = said.contract(table_dict(game, hand), names_for(registry.game(game).seats))
            assert not card.search(sentence or ""), sentence
        sentence = said.result(finished_hand_view(1, state), names_for(len(state.view(None)
                                                                            ["hand_sizes"])))
        assert not card.search(sentence or ""), sentence


@pytest.mark.parametrize("contract, marked", [
    ({"declarer": 2, "bid": 5, "mode": "uptown"}, [2]),  # Bid Whist, Cutthroat
    ({"name": "prop_and_cop", "declarer": 1, "partner": 3, "goal": 8, "stake": 1}, [1, 3]),
    ({"contract": "emballage", "declarers": [0, 2], "together": True}, [0, 2]),
    (None, []),
])
def test_the_declaring_seats_are_marked_once_the_contract_is_known(contract, marked):
    view = {"seat": 0, "players": players_of(4), "hand": {"contract": contract}}
    seats = for_template(view)["seats_in_order"]
    assert sorted(s["seat"] for s in seats if s["is_declarer"]) == marked


# -- computer players ----------------------------------------------------------------------------

@pytest.mark.parametrize("table_id", range(40))
def test_computer_players_at_one_table_have_different_names(table_id):
    for levels in (("easy",) * 5, ("normal",) * 5, ("strong",) * 5,
                   ("easy", "normal", "strong", "normal", "easy")):
        names = [computer_name(table_id, seat, level) for seat, level in enumerate(levels)]
        assert len(set(names)) == len(names)
    assert computer_name(table_id, 2, "strong") == computer_name(table_id, 2, "strong")


def test_no_name_is_in_two_levels_and_no_person_may_take_one():
    from whistclub.accounts.names import imitates_a_computer_player

    every = [str(name) for level in NAMES.values() for name in level]
    assert len(set(every)) == len(every)
    assert all(imitates_a_computer_player(name) for name in every)
    assert not imitates_a_computer_player("Ana")


def test_no_trump_reads_the_same_on_the_plates_the_auction_the_bid_box_and_the_contract():
    """One wording: "no trump", as on the bid box's column and in the contract's sentence."""
    for steps, _state in hands_of("bid_whist", range(40)):
        bid = next((h for h in steps if h["phase"] == "auction"
                    and any("notrump" in a for a in h.get("legal") or ())
                    and any("notrump" in c["action"] for c in h["auction"])), None)
        if bid:
            break
    else:
        raise AssertionError("nobody bid no trump in 40 hands")
    text = page_of(table_dict("bid_whist", bid))
    assert "notrump" not in text
    said = re.findall(r"said: bid \d no trump", text)
    assert said and re.search(r"bid \d no trump", text.split("Bidding so far")[1])
    assert "No trump" in text  # the bid box's column


@pytest.mark.parametrize("game", GAMES)
def test_what_a_result_says_of_who_declared_and_whether_it_was_made(game):
    """A person's own page counts contracts from ``declared``: its declarers are seats of the
    hand, and a lone contract is made exactly when its declarer's score for the hand is up."""
    said = words.of(game)
    seen = 0
    for seed in range(60):
        record = random_record(game, seed)
        outcome = replay_hand(record).result()
        declarations = said.declared(outcome)
        seats = len(record["hands"])
        if outcome.get("redeal"):
            assert declarations == []
            continue
        assert declarations and all(0 < len(who) <= 2 and set(who) <= set(range(seats))
                                    for who, _ in declarations)
        if len(declarations) == 1:
            (who, made), = declarations
            score = (outcome.get("points") or outcome.get("units"))
            own = score[who[0] % 2] if len(score) == 2 else score[who[0]]
            assert made == (own > 0), outcome
            seen += 1
    assert seen
