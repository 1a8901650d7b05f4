"""The viewer's hand in the table fragment: why a dimmed card may not be played, and a
discard of several cards that counts them."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.utils import translation

from games.html.table import table_fragment_html
from games.presentation import for_template
from tests.games.test_table_words import GAMES, hands_of, table_dict

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def fragment(view: dict) -> str:
    return unescape(str(table_fragment_html(view, for_template(view))))


def why_shown(text: str) -> str | None:
    found = re.search(r'<p class="why-dimmed" role="status" hidden>([^<]+)</p>', text)
    return found.group(1) if found else None


def following(game: str):
    """Views of seat 0 at its turn in the play with a suit led and some cards it may not play."""
    for steps, _state in hands_of(game, range(30)):
        for hand in steps:
            plays = [a for a in hand.get("legal") or () if a.startswith("play ")]
            if hand["phase"] == "play" and hand.get("trick") and plays \
                    and len(plays) < len(hand["hand"]):
                yield hand, {a.split()[1] for a in plays}


@pytest.mark.parametrize("game", GAMES)
def test_a_dimmed_card_says_the_suit_the_player_must_follow(game):
    seen = 0
    for hand, playable in following(game):
        suits = {card[1] for card in playable if card not in ("BJ", "LJ")}
        if len(suits) != 1:
            continue
        suit = suits.pop()
        assert why_shown(fragment(table_dict(game, hand))) == \
            f"You must follow {SUIT_NAMES[suit]}.", hand
        seen += 1
    assert seen, "no position where a suit must be followed"


def test_the_reason_is_in_the_players_language():
    hand, playable = next(following("solo_whist"))
    suit = next(iter(playable))[1]
    with translation.override("fr"):
        text = fragment(table_dict("solo_whist", hand))
    assert why_shown(text) == {"S": "Vous devez fournir à pique.",
                               "H": "Vous devez fournir à cœur.",
                               "D": "Vous devez fournir à carreau.",
                               "C": "Vous devez fournir à trèfle."}[suit]


def test_cards_out_of_turn_say_to_wait_and_a_hand_that_may_play_anything_says_nothing():
    for steps, _state in hands_of("solo_whist", range(5)):
        for hand in steps:
            text = fragment(table_dict("solo_whist", hand))
            legal = hand.get("legal") or []
            if hand.get("to_act") != 0:
                assert why_shown(text) == "Wait for your turn.", hand
            elif hand["phase"] == "play" and len(legal) == len(hand["hand"]):
                assert why_shown(text) is None, hand


def test_a_discard_of_several_cards_counts_the_ticked_ones():
    for steps, _state in hands_of("bid_whist", range(40)):
        for hand in steps:
            if hand.get("discard_count", 0) > 1 and hand.get("to_act") == 0:
                n = hand["discard_count"]
                text = fragment(table_dict("bid_whist", hand))
                chosen = re.search(r'<strong class="discard-chosen" data-of="([^"]+)" '
                                   r'aria-live="polite">([^<]+)</strong>', text)
                assert chosen, text
                assert chosen.groups() == (f"{{chosen}} of {n}", f"0 of {n}")
                return
    raise AssertionError("no discard reached")
