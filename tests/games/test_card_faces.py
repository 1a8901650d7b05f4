"""Card faces in the reader's language: the letters on a court card are the ones the reader's
own cards carry (R, D, V in French; H, V, B in Dutch), the jokers say which is the big one,
and the card's code (``data-card``) never changes."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games import tables
from games.html.cards import card_face, card_faces
from games.words import action_label


def ranks_shown(markup: str) -> list[str]:
    return re.findall(r'<span class="rank">([^<]+)</span>', str(markup))


@pytest.mark.parametrize("language, letters", [
    ("en", ["K", "Q", "J", "10", "A"]), ("fr", ["R", "D", "V", "10", "A"]),
    ("nl", ["H", "V", "B", "10", "A"]), ("pt", ["R", "D", "V", "10", "A"])])
def test_court_cards_carry_the_letters_of_the_readers_language(language, letters):
    codes = ["KS", "QH", "JD", "TC", "AS"]
    with translation.override(language):
        faces = card_faces(codes)
        label = action_label("QH")
    assert ranks_shown(faces) == letters
    assert re.findall(r'data-card="(\w\w)"', str(faces)) == codes
    assert label == letters[1] + "♥"


@pytest.mark.parametrize("language, big, little", [
    ("en", "big", "little"), ("fr", "grand", "petit"), ("nl", "groot", "klein"),
    ("pt", "grande", "pequeno")])
def test_each_joker_says_on_its_face_whether_it_is_the_big_or_the_little_one(language, big,
                                                                               little):
    with translation.override(language):
        faces = str(card_face("BJ")), str(card_face("LJ"))
    assert f'<span class="joker-size">{big}</span>' in faces[0]
    assert f'<span class="joker-size">{little}</span>' in faces[1]
    assert 'data-card="BJ"' in faces[0] and 'data-card="LJ"' in faces[1]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("computer_players_act_at_once")
def test_a_french_players_hand_reads_d_v_r(client, django_user_model):
    person = django_user_model.objects.create_user("pat", "pat@example.org", "pw-long-enough")
    person.profile.language = "fr"
    person.profile.save()
    client.force_login(person)
    shown: dict[str, str] = {}
    while not {"K", "Q", "J"} & set(shown):  # a hand of 12 cards without a court card is rare
        table = tables.create_table(person, "bid_whist", {})
        tables.take_seat(table.pk, person, 0)
        tables.fill_seats(table.pk, person, "easy")
        page = client.get(f"/tables/{table.pk}/").content.decode()
        hand = page[page.index('class="cards-row hand-row'):]
        hand = hand[:hand.index("</section>")]
        shown |= dict(re.findall(r'data-card="(\w)\w"><span class="rank">([^<]+)<', hand))
    for code, letter in {"K": "R", "Q": "D", "J": "V", "T": "10"}.items():
        assert shown.get(code, letter) == letter, shown
