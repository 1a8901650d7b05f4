"""A demo club with three leagues and real standings, for a newcomer's first look.

Idempotent: if the demo club exists nothing changes.  Deals are made up with a fixed seed and
scored by the engines like any score sheet, through ``EveningTable.add_deal``.
"""

import datetime
import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from games.rules import solo_whist
from leagues import scoring
from leagues.draw import round_robin_round
from leagues.models import (
    Attendance,
    Club,
    Evening,
    EveningTable,
    League,
    Member,
    Partnership,
    Season,
    TableSeat,
)
from whistclub.management.commands.load_demo import DEMO_PLAYERS

DEMO_SLUG = "demo-whist-club"
DISPLAY_NAMES = {username: name for username, name, _language in DEMO_PLAYERS}
DEMO_USERS = ["demo", "alice", "bruno", "carla", "daan"]
OTHER_NAMES = ["Edith", "Frank", "Greta", "Hugo", "Ines", "Jules", "Kofi", "Lena", "Marek",
               "Nora", "Oscar", "Priya", "Quentin", "Rosa"]
SOLO_CONTRACTS = ["prop_and_cop"] * 5 + ["solo"] * 5 + ["misere"] * 2 + ["abundance",
                                                                         "spread_misere"]


class Command(BaseCommand):
    help = "Create the demo club (Solo, Bid and Belgian Whist leagues) if it is missing."

    @transaction.atomic
    def handle(self, *args, **options):
        if Club.objects.filter(slug=DEMO_SLUG).exists():
            self.stdout.write("Demo club already there.")
            return
        rng = random.Random(7)
        users = {u.username: u for u in get_user_model().objects.filter(username__in=DEMO_USERS)}
        club = Club.objects.create(name="Demo Whist Club", slug=DEMO_SLUG, is_public=True,
                                   description="Tuesday nights at The Crown.")
        members = []
        for username in DEMO_USERS:
            user = users.get(username)
            name = DISPLAY_NAMES.get(username, username.title())
            members.append(Member.objects.create(
                club=club, user=user, name=name,
                role=Member.Role.ORGANISER if username == "demo" else Member.Role.MEMBER))
        members += [Member.objects.create(club=club, name=n) for n in OTHER_NAMES]
        entered_by = users.get("demo")
        self._solo_league(club, members[:12], rng, entered_by)
        self._bid_league(club, members[:12], rng, entered_by)
        self._belgian_league(club, members[4:12], rng, entered_by)
        self.stdout.write(self.style.SUCCESS(f"Demo club: /clubs/{DEMO_SLUG}/"))

    def _dates(self, count):
        today = timezone.localdate()
        return [today - datetime.timedelta(weeks=count - i) for i in range(count)]

    def _solo_league(self, club, members, rng, by):
        league = League.objects.create(club=club, name="Tuesday Solo Whist", game="solo_whist",
                                       min_evenings=3)
        season = Season.objects.create(league=league, name="Winter season", draw="spread")
        for date in self._dates(8):
            evening = Evening.objects.create(season=season, date=date, venue="The Crown",
                                             start_time=datetime.time(19, 30))
            players = list(members)
            rng.shuffle(players)
            for number in range(3):
                table = self._table(evening, number + 1, players[number * 4:number * 4 + 4])
                table.add_deals([self._solo_deal(rng) for _ in range(rng.randint(12, 18))], by)
        Evening.objects.create(season=season, venue="The Crown", start_time=datetime.time(19, 30),
                               date=timezone.localdate() + datetime.timedelta(days=7))

    def _solo_deal(self, rng):
        contract = rng.choice(SOLO_CONTRACTS)
        declarer = rng.randrange(4)
        partner = (declarer + rng.randint(1, 3)) % 4 if contract == "prop_and_cop" else None
        goal = solo_whist.CONTRACTS[contract].goal
        tricks = goal + rng.choice([-2, -1, 0, 0, 1, 1, 2]) if goal else rng.choice([0, 0, 1])
        return {"contract": contract, "declarer": declarer, "partner": partner,
                "tricks": max(0, min(13, tricks))}

    def _table(self, evening, number, players):
        table = EveningTable.objects.create(evening=evening, number=number)
        TableSeat.objects.bulk_create(TableSeat(table=table, seat=s, member=m)
                                      for s, m in enumerate(players))
        for member in players:
            Attendance.objects.get_or_create(evening=evening, member=member)
        return table

    def _bid_league(self, club, members, rng, by):
        league = League.objects.create(club=club, name="Bid Whist Pairs", game="bid_whist")
        season = Season.objects.create(league=league, name="Spring season", draw="round_robin")
        names = ["Aces High", "Big Jokers", "Downtown Kings", "Kitty Cats", "No Trumps",
                 "Rising Books"]
        pairs = [Partnership.objects.create(season=season, first=members[2 * i],
                                            second=members[2 * i + 1], name=names[i])
                 for i in range(6)]
        rules = league.engine_rules()
        for round_index, date in enumerate(self._dates(5)):
            evening = Evening.objects.create(season=season, date=date, venue="The Crown")
            for number, (a, b) in enumerate(round_robin_round(pairs, round_index), start=1):
                table = EveningTable.objects.create(evening=evening, number=number, pair_0=a,
                                                    pair_1=b)
                hands = []
                # Hands until the engine's match says it is over (±7 or a Boston).
                while not scoring.replay_match(league.game, rules, hands).complete:
                    bid = rng.choice([3, 3, 4, 4, 5, 6])
                    books = max(1, min(13, 6 + bid + rng.choice([-2, -1, 0, 0, 1, 2])))
                    hands.append({"team": rng.randrange(2), "bid": bid, "books": books,
                                  "mode": rng.choice(["uptown", "downtown", "notrump"]),
                                  "revoke": None})
                table.add_deals(hands, by)

    def _belgian_league(self, club, members, rng, by):
        league = League.objects.create(club=club, name="Kleurenwiezen", game="belgian_whist")
        season = Season.objects.create(league=league, name="First season")
        for date in self._dates(3):
            evening = Evening.objects.create(season=season, date=date, venue="Café De Kroon")
            players = list(members)
            rng.shuffle(players)
            for number in range(2):
                table = self._table(evening, number + 1, players[number * 4:number * 4 + 4])
                table.add_deals([self._belgian_deal(rng) for _ in range(rng.randint(10, 14))],
                                by)

    def _belgian_deal(self, rng):
        declarer = rng.randrange(4)
        kind = rng.choice(["emballage"] * 4 + ["solo"] * 2 + ["grande_misere", "piccolo"])
        if kind == "emballage":
            level = rng.choice([8, 8, 9, 9, 10])
            return {"contract": kind, "level": level, "declarer": declarer,
                    "partner": (declarer + rng.randint(1, 3)) % 4,
                    "tricks": max(0, min(13, level + rng.choice([-2, -1, 0, 1])))}
        if kind == "solo":
            level = rng.choice([6, 7])
            return {"contract": kind, "level": level, "declarer": declarer, "partner": None,
                    "tricks": level + rng.choice([-1, 0, 1])}
        return {"contract": kind, "level": None, "declarer": declarer, "partner": None,
                "tricks": rng.choice([0, 0, 1]) if kind == "grande_misere" else rng.choice([1, 1, 2])}
