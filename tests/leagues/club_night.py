"""A typical club night for the board (leagues/board.py): a public club's Solo Whist evening in
three rounds, 24 players at 6 tables, the first round's results entered and the second round
drawn.  Used by the board's browser test and by bench/board.py, through ``manage.py shell``
on their server's database; prints ``club_night <club slug> <evening id> <organiser id>``."""

from __future__ import annotations

import datetime
import random

NAMES = [
    "Marie-Christine Vandenbroucke", "Jean Dupont", "Anneke de Vries", "João Ferreira",
    "Hendrik Jansen", "Sophie Lambert", "Pieter Claes", "Ana Sousa", "Luc Peeters",
    "Margaret O'Brien", "Willem Bakker", "Inês Carvalho", "Françoise Martin", "Tom Maes",
    "Bart Wouters", "Rosa Mendes", "Chantal Leroy", "Koen Willems", "Eva Jacobs",
    "Paulo Gomes", "Nathalie Dubois", "Dirk Hermans", "Lotte Smets", "Miguel Santos",
]


def build(tables: int = 6, seed: int = 1, complete: bool = False) -> str:
    """``complete``: the three rounds drawn and entered, and the league gives a winner's, a
    runner-up's and a booby prize (the board shows them then)."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from leagues.models import Club, Evening, EveningTable, League, Member, Season, TableSeat

    rng = random.Random(seed)
    user = get_user_model().objects.create_user("board-organiser", None, "pw-board-organiser")
    with transaction.atomic():
        club = Club.create_with_organiser(user, name="Club Night Whist")
        Club.objects.filter(pk=club.pk).update(is_public=True)
        members = [Member.objects.create(club=club, name=name)
                   for name in NAMES[:tables * 4]]
        league = League.objects.create(
            club=club, name="Thursday Solo", game="solo_whist", prize_winner=complete,
            prize_winner_text="A bottle of wine" if complete else "",
            prize_runner_up=complete, prize_booby=complete)
        season = Season.objects.create(league=league, name="Autumn")
        evening = Evening.objects.create(season=season, date=datetime.date.today(),
                                         venue="The Crown", rounds=3)
        for round_number in (1, 2, 3) if complete else (1, 2):
            order = members[:]
            rng.shuffle(order)
            for number in range(1, tables + 1):
                table = EveningTable.objects.create(evening=evening, number=number,
                                                    round=round_number)
                TableSeat.objects.bulk_create(
                    TableSeat(table=table, seat=seat, member=member)
                    for seat, member in enumerate(order[(number - 1) * 4:number * 4]))
    for table in EveningTable.objects.filter(evening=evening, round__lt=4 if complete else 2):
        for _ in range(4):
            table.add_deal(solo_deal(rng), user)
    return f"club_night {club.slug} {evening.pk} {user.pk}"


def solo_deal(rng: random.Random) -> dict:
    """A Solo Whist deal as an organiser enters it: a solo made or not, or a misère."""
    if rng.random() < 0.3:
        return {"contract": "misere", "declarer": rng.randrange(4), "partner": None,
                "tricks": rng.choice([0, 0, 1])}
    return {"contract": "solo", "declarer": rng.randrange(4), "partner": None,
            "tricks": rng.choice([4, 5, 5, 6, 7])}
