"""Standings page speed on a big season (issue 7, "Speed").

Builds, in a throwaway test database, a Solo Whist season of 60 members, 40 evenings and 30
deals a table (15 tables an evening: 18,000 deals, each scored by the engine), then times the
season's standings page and a trivial page (/healthz) in the same run through Django's test
client, as a signed-in member.  Meant for PostgreSQL:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/whistclub .venv/bin/python bench/standings.py

``BENCH_ROUNDS=1`` plays each evening in three rounds of ten deals instead, redrawn each round,
with two more members who sit out each round, and the league credits a sit-out with the
round's average: the season a club playing in rounds has at the end of the year.

The season's rows are kept between two changes of its results (``leagues.standings.
shown_standings``), so the page is timed twice: **cold**, each request the first after a change
(the season's results version raised before it, untimed: the rows counted again, as after a
deal entered), **warmed**, the first request after a change once the follow-up worker has
counted the rows again (``settings.WARM_STANDINGS_AFTER_CHANGES``, on with Redis: what a
visitor sees a moment after an entry), and **warm**, the same page again with nothing changed
(the rows and the rendered table kept); the pages in turns, so that a shared machine's load
falls on each alike.  Last line: ``standings: queries=N/M cold_p50=X ms warmed_p50=W ms
warm_p50=Y ms trivial_p50=Z ms ratio=cold/warmed/warm over trivial`` (queries: cold/warm).  Goal: at most 8 queries cold and a
median under 30 ms (50 ms is the most we accept), in both shapes.
"""

import datetime
import os
import random
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "whistclub.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

MEMBERS, EVENINGS, DEALS_PER_TABLE, RUNS = 60, 40, 30, 60
ROUNDS = 3 if os.environ.get("BENCH_ROUNDS") else 1
SITTING_OUT = 2 if ROUNDS > 1 else 0  # members more than the tables seat, each round
CONTRACTS = ["prop_and_cop"] * 5 + ["solo"] * 5 + ["misere"] * 2 + ["abundance"]


def build():
    from leagues.models import (
        Club,
        Evening,
        EveningRound,
        EveningTable,
        League,
        Member,
        Season,
        TableSeat,
    )

    rng = random.Random(1)
    user = get_user_model().objects.create_user("bench", password="bench-password-1")
    club = Club.create_with_organiser(user, name="Bench Club")
    members = [Member.objects.create(club=club, name=f"Player {i:02d}")
               for i in range(MEMBERS + SITTING_OUT - 1)]
    members.append(club.members.get(user=user))
    league = League.objects.create(club=club, name="Bench Solo", game="solo_whist",
                                   ranking=os.environ.get("BENCH_RANKING", "best_n"),
                                   min_evenings=10,
                                   sit_out_credit="average" if SITTING_OUT else "nothing")
    season = Season.objects.create(league=league, name="Big season")
    start = datetime.date(2030, 1, 1)
    tables_a_round = MEMBERS // 4
    for day in range(EVENINGS):
        evening = Evening.objects.create(season=season, date=start + datetime.timedelta(days=7 * day),
                                         rounds=ROUNDS,
                                         deals_per_round=DEALS_PER_TABLE // ROUNDS if ROUNDS > 1 else None)
        for round_number in range(1, ROUNDS + 1):
            rng.shuffle(members)
            if ROUNDS > 1:
                drawn = EveningRound.objects.create(evening=evening, number=round_number)
                drawn.sitting_out.set(members[MEMBERS:])
            for number in range(tables_a_round):
                table = EveningTable.objects.create(
                    evening=evening, number=(round_number - 1) * tables_a_round + number + 1,
                    round=round_number)
                TableSeat.objects.bulk_create(TableSeat(table=table, seat=s, member=m) for s, m in
                                              enumerate(members[number * 4:number * 4 + 4]))
                table.add_deals(random_deals(rng, DEALS_PER_TABLE // ROUNDS), user)
    return club, season, user


def random_deals(rng, count):
    deals = []
    for _ in range(count):
        contract = rng.choice(CONTRACTS)
        declarer = rng.randrange(4)
        deals.append({"contract": contract, "declarer": declarer,
                      "partner": (declarer + 2) % 4 if contract == "prop_and_cop" else None,
                      "tricks": rng.randint(0, 2) if "misere" in contract else rng.randint(4, 10)})
    return deals


def timed(client, pages):
    """The median of each of ``pages`` ((url, what to do untimed before it)), taken in turns:
    on a shared machine each sees the same load, so their ratios hold when the ms do not."""
    times: list[list[float]] = [[] for _ in pages]
    for _ in range(RUNS):
        for each, (url, before) in zip(times, pages, strict=True):
            before()
            began = time.perf_counter()
            response = client.get(url)
            each.append((time.perf_counter() - began) * 1000)
            assert response.status_code == 200, response.status_code
    return [statistics.median(each) for each in times]


def counted(client, url, before=lambda: None):
    queries = []
    before()
    with connection.execute_wrapper(lambda execute, sql, *args: (queries.append(sql),
                                                                  execute(sql, *args))[1]):
        client.get(url)
    return queries


def main():
    from leagues import results_version
    from leagues.models import Deal, Season

    # No setup_test_environment(): its template instrumentation would be timed too.
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        began = time.perf_counter()
        club, season, user = build()
        print(f"built {Deal.objects.count()} deals in {time.perf_counter() - began:.1f} s "
              f"on {connection.vendor}")
        if connection.vendor == "postgresql":
            # A live database has planner statistics (autovacuum); a freshly filled one not yet.
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        client = Client()
        client.force_login(user)
        url = f"/clubs/{club.slug}/seasons/{season.pk}/"
        for _ in range(5):  # warm-up: templates, connections
            client.get(url)
            client.get("/healthz")

        # Counted after each change by the follow-up worker (a cache the processes share), or
        # by the first page after it: both are timed, the worker's count untimed.
        settings.WARM_STANDINGS_AFTER_CHANGES = False

        def changed():  # what a deal entered does to the kept rows
            results_version.bump(Season.objects.filter(pk=season.pk))

        def changed_and_warmed():  # ... and what the worker does next
            changed()
            results_version.warm_standings(SimpleNamespace(payload={"seasons": [season.pk]}))

        queries = counted(client, url, changed)
        warm_queries = counted(client, url)
        if os.environ.get("BENCH_PROFILE"):
            from bench.profiling import print_page_profile
            print_page_profile(client, url, runs=20, top=35)
            from leagues.standings import season_standings
            for label, fn in [("standings()", lambda: season_standings(season))]:
                began = time.perf_counter()
                for _ in range(20):
                    fn()
                print(label, (time.perf_counter() - began) / 20 * 1000, "ms")

        def nothing():
            pass

        # cold, warmed by the worker, warm (nothing changed since), the trivial page, in turns
        cold_p50, warmed_p50, warm_p50, trivial_p50 = timed(
            client, [(url, changed), (url, changed_and_warmed), (url, nothing),
                     ("/healthz", nothing)])
        if os.environ.get("BENCH_QUERIES"):
            print("\n\n".join(queries))
        print(f"standings: queries={len(queries)}/{len(warm_queries)} cold_p50={cold_p50:.1f} ms "
              f"warmed_p50={warmed_p50:.1f} ms warm_p50={warm_p50:.1f} ms "
              f"trivial_p50={trivial_p50:.1f} ms ratio={cold_p50 / trivial_p50:.1f}/"
              f"{warmed_p50 / trivial_p50:.1f}/{warm_p50 / trivial_p50:.1f}")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
