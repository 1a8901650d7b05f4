"""What the table's live region says at each update: the latest call, card or trick, in words
a screen reader reads well, from the seat's own view."""

import random

import pytest
from django.utils import translation

from games import registry, words
from games.rules import game_module
from games.rules.records import random_record


def names(me=0, count=4):
    players = [{"seat": p, "name": f"P{p}"} for p in range(count)]
    return words.Names(players, me)


def test_cards_are_said_in_words_with_their_article():
    assert words.spoken_card("QS") == "the queen of spades"
    assert words.spoken_card("TH") == "the 10 of hearts"
    assert words.spoken_card("2C") == "the 2 of clubs"
    assert words.spoken_card("BJ") == "the big joker"
    with translation.override("fr"):
        assert words.spoken_card("QS") == "la dame de pique"
        assert words.spoken_card("AH") == "l’as de cœur"


def test_the_latest_call_card_and_trick_are_announced():
    auction = {"hand": {"auction": [{"seat": 1, "action": "bid 4 uptown"}], "trick": [],
                        "tricks": []}}
    assert words.announcement(auction, names()) == "P1 calls bid 4 uptown."
    playing = {"hand": {"auction": [], "tricks": [],
                        "trick": [{"seat": 2, "card": "KD"}, {"seat": 0, "card": "AD"}]}}
    assert words.announcement(playing, names()) == "You play the ace of diamonds."
    won = {"hand": {"auction": [], "trick": [], "tricks": [{"winner": 3, "cards": [
        {"seat": 0, "card": "2S"}, {"seat": 1, "card": "3S"}, {"seat": 2, "card": "4S"},
        {"seat": 3, "card": "5S"}]}]}}
    assert words.announcement(won, names()) == "P3 plays the 5 of spades. P3 wins the trick."
    assert words.announcement({"hand": None}, names()) == ""


@pytest.mark.parametrize("game", registry.game_ids())
def test_every_moment_of_a_hand_has_a_sentence_without_notation(game):
    """Through a whole random hand, from one seat: never a card code, a rule id or None."""
    module = game_module(game)
    record = random_record(game, 5)
    state = module.new_hand(module.Rules.from_overrides({}), record["dealer"], record["hands"],
                            record.get("kitty"))
    rng = random.Random(5)
    said = set()
    while not state.complete:
        state.apply(state.random_action(rng))
        sentence = words.announcement({"hand": state.view(0)}, names(0, module.SEATS))
        assert "None" not in sentence and "_" not in sentence
        assert not any(f" {code}" in sentence for code in ("QS", "AH", "TD", "2C"))
        said.add(sentence)
    assert len(said) > 10
