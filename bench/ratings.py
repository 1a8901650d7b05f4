"""Ratings accuracy and speed: seasons of computer players of known strength, per game.

    .venv/bin/python bench/ratings.py [--deals 5000] [--games bid_whist,solo_whist,...]
                                      [--workers 2] [--seed 1] [--reference-deals N] [--big]

Players of known strength: the four computer levels and mixtures of two (a mixture decides
each action at one level or the other, at random), weakest first:

    random < random/easy 3:1 < random/easy 1:1 < random/easy 1:3 < easy < normal < strong

(between random and easy the gap is large and measured, docs/computer-players.md, so the mixtures grade
it; easy, normal and strong are close in Solo and Belgian Whist: strong over easy is 0.4 units
a hand in Solo, and those pairs are where a rank order can go wrong).

Each table seats players drawn at random (changing seatings): Solo and Belgian Whist tables
play 8 deals, Bid Whist and Cutthroat tables play a match to its end.  Every hand is played
by the engines and the computer players, turned into the score sheet's lines as an online table's
hands are (``leagues.paper.<game>.sheet_lines``) and entered with ``EveningTable.add_deals`` in a
throwaway database, as results entered from paper: scored by the engines, rated by the same
signals and ``ratings.store.refresh``.  Played hands are kept under ``var/`` so a second run
only measures.

The true order is measured, not assumed: a reference season of its own (seed 1000 + ``--seed``:
other hands, other seatings; ``--reference-deals``, as many as ``--deals`` by default) gives each
player's share of the comparisons their side won, in the rating's own currency (a Bid Whist
hand won, a Solo deal ranked by units); two players whose shares differ by less than two
standard errors are tied in the true order (the reference cannot tell them apart, so neither
order of the two is wrong; Kendall's tau-b counts the tie).  Against the order above, easy,
normal and strong are that close in some games (a side's points a hand and its hands won are
not the same measure: docs/performance.md); the tau against the assumed order is printed
beside each figure.

Measures, per game, from the stream of stored results (``ratings.events.load``): every tenth
deal is held out (predicted, never rated); at 200, 1,000 and 5,000 deals the bench prints
Kendall's tau between the ratings and the true order, and the log-loss of the held-out deals'
predictions (each two sides that finished in an order: the chance the model gave the one
ahead) against two baselines: 'everyone equal' (one half) and 'win share so far' (each side's
share of the comparisons won, with one win in two as prior).  Both units of update (sides,
ranked) are measured; the game's own (``ratings/games/<game>.py``) is the last line's.
``rebuild_ms``: a full rebuild of the game's stored season; ``--big`` also builds and rebuilds
an 18,000-deal Solo Whist season (60 members, 40 evenings, 30 deals a table).

Last lines: ``ratings <game>: tau=X logloss=Y baseline_logloss=Z rebuild_ms=W deals=N``
(tau after 1,000 deals, the goal's point; the log-loss over every held-out deal of the
season; baseline: the better of the two).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import multiprocessing
import os
import random
import sys
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "whistclub.settings")

from games.rules import game_module  # noqa: E402
from games.rules.computer import choose_action  # noqa: E402

PLAYERS = [  # (name, {level: weight}), weakest first: the true order
    ("random", {"random": 1}),
    ("random-easy-3-1", {"random": 3, "easy": 1}),
    ("random-easy-1-1", {"random": 1, "easy": 1}),
    ("random-easy-1-3", {"random": 1, "easy": 3}),
    ("easy", {"easy": 1}),
    ("normal", {"normal": 1}),
    ("strong", {"strong": 1}),
]
ALL_GAMES = ("bid_whist", "solo_whist", "belgian_whist", "cutthroat_bid_whist")
DEALS_PER_TABLE, TABLES_PER_EVENING, MATCH_CAP = 8, 4, 40
CHECKPOINTS = (200, 1000, 5000)
BETAS = (1.0, 2.0, 8.0)  # besides openskill's default 25/6: the performance spread tried
CACHE = ROOT / "var" / "bench-ratings"
REFERENCE_SEED = 1000  # the reference season's hands: seed 1001 for the season of seed 1


def pick_level(mixture: dict, rng: random.Random) -> str:
    levels = list(mixture)
    return rng.choices(levels, weights=[mixture[level] for level in levels])[0]


def play_table(task) -> dict:
    """One table: its seats (player indexes) and every hand's engine result."""
    game, index, seed, is_match = task
    rng = random.Random(seed * 1_000_003 + index)
    module = game_module(game)
    rules = module.Rules()
    seats = rng.sample(range(len(PLAYERS)), module.SEATS)
    match = module.Match(rules) if is_match else None
    results = []
    while len(results) < (MATCH_CAP if is_match else DEALS_PER_TABLE):
        dealer = match.next_dealer if is_match else len(results) % module.SEATS
        deal = module.deal(rules, dealer, rng)
        state = module.new_hand(rules, dealer, deal.hands, deal.kitty)
        while not state.complete:
            seat = state.to_act
            level = pick_level(PLAYERS[seats[seat]][1], rng)
            state.apply(choose_action(state.view(seat), level, rng), seat)
        results.append(state.result())
        if is_match:
            match.add_hand(state)
            if match.complete:
                break
    return {"seats": seats, "results": results}


def count_deals(tables) -> int:
    """Hands that put something on the sheet (an all-pass deal does not)."""
    return sum(1 for t in tables for r in t["results"]
               if not r.get("redeal") and any(r.get("points") or r.get("units") or []))


def hands_for(game: str, deals: int, seed: int, workers: int, is_match: bool) -> list[dict]:
    """Tables enough for ``deals`` deals, from the cache or played now."""
    CACHE.mkdir(parents=True, exist_ok=True)
    pool = zlib.crc32(repr(PLAYERS).encode()) % 10_000  # other players: other hands
    path = CACHE / f"{game}-seed{seed}-pool{pool:04d}.jsonl"
    tables = []
    if path.exists():
        tables = [json.loads(line) for line in path.read_text().splitlines() if line]
    began, new_hands = time.perf_counter(), 0
    while (played := count_deals(tables)) < deals:
        if tables:
            needed = max(workers, math.ceil((deals - played) * 1.1 * len(tables) / max(played, 1)))
        else:  # a first few tables tell how many deals a table gives (a match: many)
            needed = 4 * workers
        tasks = [(game, len(tables) + i, seed, is_match) for i in range(needed)]
        new = []
        with path.open("a") as out, multiprocessing.get_context("fork").Pool(workers) as pool:
            for table in pool.imap(play_table, tasks, chunksize=1):  # kept as they come
                out.write(json.dumps(table) + "\n")
                out.flush()
                new.append(table)
        tables += new
        new_hands += sum(len(t["results"]) for t in new)
    if new_hands:
        print(f"{game}: played {new_hands} hands in {time.perf_counter() - began:.0f} s",
              flush=True)
    return tables


# -- entering the season through the paper path ------------------------------------------------


def enter_season(game: str, tables: list[dict], deals: int, user, club, names):
    """One league and season of ``game``; the tables entered evening by evening until
    ``deals`` lines are stored.  Returns the members by player index."""
    from games import registry
    from leagues import paper
    from leagues.models import Evening, EveningTable, League, Partnership, Season, TableSeat

    description = registry.game(game)
    sheet = paper.of(game)
    league = League.objects.create(club=club, name=f"Bench {game}", game=game)
    season = Season.objects.create(league=league, name="Bench season")
    members = names
    pairs: dict[tuple[int, int], Partnership] = {}
    stored, evening, start = 0, None, datetime.date(2030, 1, 1)
    for number, table_data in enumerate(tables):
        if stored >= deals:
            break
        if number % TABLES_PER_EVENING == 0:
            evening = Evening.objects.create(
                season=season, date=start + datetime.timedelta(days=number // TABLES_PER_EVENING))
        seats = table_data["seats"]
        if description.is_partnership_match:
            def pair(a, b):
                if (a, b) not in pairs:
                    pairs[a, b] = Partnership.objects.create(season=season, first=members[a],
                                                             second=members[b])
                return pairs[a, b]
            table = EveningTable.objects.create(
                evening=evening, number=number % TABLES_PER_EVENING + 1,
                pair_0=pair(seats[0], seats[2]), pair_1=pair(seats[1], seats[3]))
        else:
            table = EveningTable.objects.create(evening=evening,
                                                number=number % TABLES_PER_EVENING + 1)
            TableSeat.objects.bulk_create(TableSeat(table=table, seat=s, member=members[p])
                                          for s, p in enumerate(seats))
        lines = []
        for result in table_data["results"]:
            if result.get("redeal") or not any(sheet.engine_points(result)):
                continue  # an all-pass deal: nothing on the sheet
            lines += sheet.sheet_lines(result)
        lines = lines[:max(0, deals - stored)]
        if lines:
            table.add_deals(lines, user)
            stored += len(lines)
    return league


# -- measuring -----------------------------------------------------------------------------------


def measured_order(game: str, tables: list[dict], deals: int) -> tuple[list[float], list[int]]:
    """The true order measured, not assumed: each player's share of the comparisons their
    side won (the rating's own currency, ``ratings/games/<game>.py``) over a reference season
    of its own (other hands, other seatings), and a rank per player where two neighbours in
    that order share a rank unless their shares differ by more than two standard errors (the
    reference cannot tell them apart, so neither order of the two is wrong).
    Returns (win share by player index, rank by player index; higher is stronger)."""
    from leagues import paper
    from ratings import games

    sheet, module = paper.of(game), games.of(game)
    won, seen = [0] * len(PLAYERS), [0] * len(PLAYERS)
    stored = 0
    for table in tables:
        for result in table["results"]:
            points = sheet.engine_points(result)
            if result.get("redeal") or not any(points) or stored >= deals:
                continue
            stored += 1
            for ahead, behind in module.comparisons(table["seats"],
                                                    module.seat_points(points)):
                for p in ahead:
                    won[p] += 1
                    seen[p] += 1
                for p in behind:
                    seen[p] += 1
    share = [w / n if n else 0.5 for w, n in zip(won, seen, strict=True)]
    error = [math.sqrt(max(s * (1 - s), 1e-9) / max(n, 1)) for s, n in zip(share, seen,
                                                                         strict=True)]
    rank, ranks, previous = 0, [0] * len(PLAYERS), None
    for p in sorted(range(len(PLAYERS)), key=lambda p: share[p]):
        if previous is not None and (share[p] - share[previous]) > 2 * math.hypot(
                error[p], error[previous]):
            rank += 1
        ranks[p], previous = rank, p
    return share, ranks



def log_loss(p: float) -> float:
    return -math.log(min(max(p, 1e-6), 1 - 1e-6))


def measure(game: str, events, truth: dict[str, int], unit: str, model_name: str,
            beta: float | None = None, assumed: dict[str, int] | None = None) -> list[dict]:
    from ratings import games
    from ratings.core import Rater, kendall_tau

    module = games.of(game)
    rater = Rater(unit=unit, model_name=model_name, beta=beta)
    won: dict[str, float] = {}
    seen: dict[str, float] = {}
    sums = {"model": 0.0, "equal": 0.0, "share": 0.0}
    count = 0
    rows = []

    def share(side):
        return sum((won.get(p, 0) + 1) / (seen.get(p, 0) + 2) for p in side) / len(side)

    checkpoints = [c for c in CHECKPOINTS if c <= len(events)]
    if len(events) not in checkpoints:
        checkpoints.append(len(events))
    for index, event in enumerate(events, start=1):
        pairs = module.comparisons(event.players, event.points)
        if index % 10 == 0:  # held out: predicted, never rated
            for ahead, behind in pairs:
                sums["model"] += log_loss(rater.chance_ahead(ahead, behind))
                sums["equal"] += log_loss(0.5)
                a, b = share(ahead), share(behind)
                sums["share"] += log_loss(a / (a + b))
                count += 1
        else:
            rater.apply(event)
            for ahead, behind in pairs:
                for p in ahead:
                    won[p] = won.get(p, 0) + 1
                    seen[p] = seen.get(p, 0) + 1
                for p in behind:
                    seen[p] = seen.get(p, 0) + 1
        if index in checkpoints:
            players = sorted(truth)
            ratings = [rater.state[p].mu if p in rater.state else 25.0 for p in players]
            tau = kendall_tau(ratings, [truth[p] for p in players])
            order = [p for _, p in sorted(zip(ratings, players, strict=True), reverse=True)]
            rows.append({"deals": index, "tau": tau, "order": order,
                         "tau_assumed": kendall_tau(ratings, [(assumed or truth)[p]
                                                              for p in players]),
                         **{k: v / max(count, 1) for k, v in sums.items()}})
    return rows


def big_season_rebuild_ms() -> tuple[int, float]:
    """bench/standings.py's season (18,000 Solo Whist deals), rebuilt from scratch."""
    sys.path.insert(0, str(ROOT / "bench"))
    import standings as big  # noqa: E402  (its builder)

    from leagues.models import Deal
    from ratings import signals
    from ratings.events import scope_of
    from ratings.store import refresh

    with signals.paused():
        club, _, _ = big.build()
    began = time.perf_counter()
    refresh(scope_of(club), "solo_whist")
    return Deal.objects.filter(table__evening__season__league__club=club).count(), (
        time.perf_counter() - began) * 1000


def online_hand_records(game: str, count: int, seed: int = 5) -> list[tuple[dict, dict]]:
    """A few real hands of ``game``, played out at random, as (record, result)."""
    module = game_module(game)
    rules, rng = module.Rules(), random.Random(seed)
    out = []
    for dealer in range(count):
        deal = module.deal(rules, dealer % module.SEATS, rng)
        state = module.new_hand(rules, dealer % module.SEATS, deal.hands, deal.kitty)
        record = {"format": "whistclub-hand/1", "game": game, "rules": {},
                  "dealer": dealer % module.SEATS, "hands": deal.hands, "actions": []}
        if deal.kitty is not None:
            record["kitty"] = deal.kitty
        while not state.complete:
            seat = state.to_act
            action = choose_action(state.view(seat), "random", rng)
            state.apply(action, seat)
            record["actions"].append({"seat": seat, "action": action})
        out.append((record, state.result()))
    return out


def online_day(game: str, people: list, hands: int, tag: str) -> list:
    """``hands`` online hands among ``people`` (four at a table) finished today."""
    from games.models import Hand, Seat, Table

    records = online_hand_records(game, 8)
    seats = game_module(game).SEATS
    made = []
    for t in range(hands // 250 + 1):
        table = Table.objects.create(game=game, created_by=people[0],
                                     status=Table.Status.FINISHED, summary={"tag": tag})
        Seat.objects.bulk_create(Seat(table=table, position=p,
                                      user=people[(seats * t + p) % len(people)])
                                 for p in range(seats))
        made += Hand.objects.bulk_create(
            Hand(table=table, number=n, record=records[n % 8][0], result=records[n % 8][1])
            for n in range(1, min(250, hands - 250 * t) + 1))
    return made


def update_cost(game: str = "solo_whist", earlier=(0, 1000, 10000), repeats: int = 20) -> list:
    """The cost of rating one online hand with ``earlier`` hands already finished that day: the
    update the follow-up worker makes (``ratings.signals.on_hand_finished``), and beside it the
    re-rating of the whole day it replaced."""
    from django.contrib.auth import get_user_model

    from games.models import Hand, Table
    from ratings import signals
    from ratings.events import SITE
    from ratings.models import Rating, RatingPoint, RatingStream
    from ratings.store import refresh

    people = get_user_model().objects.bulk_create(
        get_user_model()(username=f"cost-{i}") for i in range(40))
    rows = []
    for count in earlier:
        Hand.objects.all().delete()
        Table.objects.all().delete()
        for model in (Rating, RatingPoint, RatingStream):
            model.objects.all().delete()
        online_day(game, people, count, "earlier")
        refresh(SITE, game)
        new = online_day(game, people, repeats, "new")
        times = []
        for hand in new:
            table = hand.table
            began = time.perf_counter()
            signals.on_hand_finished(Table, table=table, hand=hand)
            times.append((time.perf_counter() - began) * 1000)
        began = time.perf_counter()
        refresh(SITE, game, datetime.date.today())
        day_ms = (time.perf_counter() - began) * 1000
        times.sort()
        rows.append({"earlier": count, "median_ms": times[len(times) // 2],
                     "max_ms": times[-1], "day_ms": day_ms})
    return rows


def farming(game: str = "solo_whist") -> dict:
    """The two ways a tester farmed the site's list: 150 invented totals-only wins in a
    public club of one account, and two accounts throwing 40 hands to the easy computer
    players.  Returns the farmer's place on the site's list (None: not listed) and how far the
    computer level moved, in rating points."""
    from django.contrib.auth import get_user_model

    from games.models import Hand, Seat, Table
    from leagues.models import Club, Evening, EveningTable, League, Member, Season, TableSeat
    from ratings import signals
    from ratings.core import display
    from ratings.events import SITE
    from ratings.models import Rating
    from ratings.read import site_rows

    User = get_user_model()
    farmer, friend = (User.objects.create_user(n, password="bench-password-1")
                      for n in ("farmer", "friend"))
    club = Club.create_with_organiser(farmer, name="Farm")
    club.is_public = True
    club.save()
    league = League.objects.create(club=club, name="Solo", game=game)
    season = Season.objects.create(league=league, name="Always")
    me = club.members.get(user=farmer)
    invented = [Member.objects.create(club=club, name=n) for n in ("Xa", "Xb", "Xc")]
    for number in range(150):
        evening = Evening.objects.create(season=season,
                                         date=datetime.date(2026, 1, 1) + datetime.timedelta(number))
        table = EveningTable.objects.create(evening=evening, number=1)
        for seat, member in enumerate([me, *invented]):
            TableSeat.objects.create(table=table, seat=seat, member=member)
        table.set_totals([30, -10, -10, -10], farmer)
    easy_before = Rating.objects.filter(scope=SITE, game=game, player="computer:easy").first()
    table = Table.objects.create(game=game, created_by=farmer, status=Table.Status.FINISHED)
    for position, (user, level) in enumerate([(farmer, ""), (friend, ""), (None, "easy"),
                                              (None, "easy")]):
        Seat.objects.create(table=table, position=position, user=user, computer_level=level)
    records = online_hand_records(game, 40, seed=9)
    for number, (record, result) in enumerate(records, start=1):
        # Thrown: the two accounts lose everything the easy computer players win.
        hand = Hand.objects.create(table=table, number=number, record=record, result=result)
        signals.on_hand_finished(Table, table=table, hand=hand)
    easy = Rating.objects.filter(scope=SITE, game=game, player="computer:easy").first()
    start = display(easy_before.mu, easy_before.sigma)[0] if easy_before else 1500
    moved = (display(easy.mu, easy.sigma)[0] - start) if easy else 0
    names = [row.name for row in site_rows(game, min_hands=0)]
    place = names.index("farmer") + 1 if "farmer" in names else None
    return {"place": place, "listed": len(names), "easy_moved": moved,
            "farmer_site_results": Rating.objects.filter(
                scope=SITE, game=game, player=f"u:{farmer.pk}").values_list(
                    "results", flat=True).first() or 0}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--games", default=",".join(ALL_GAMES))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--big", action="store_true")
    parser.add_argument("--reference-deals", type=int, default=None,
                        help="deals of the reference season that measures the true order "
                             "(default: as many as --deals; 0: take the assumed order)")
    parser.add_argument("--play-only", action="store_true",
                        help="only play the hands (into var/), measure nothing")
    parser.add_argument("--update-cost", action="store_true",
                        help="only the cost of one online hand's update with 0, 1,000 and "
                             "10,000 hands already finished that day")
    parser.add_argument("--farming", action="store_true",
                        help="only the farming scenario (150 invented wins, 40 thrown hands)")
    args = parser.parse_args()
    if args.update_cost or args.farming:
        return main_checks(args)
    chosen = [g for g in args.games.split(",") if g]

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection

    from games import registry
    from leagues.models import Club, Member
    from ratings import events as stream
    from ratings import games as rating_games
    from ratings.models import Rating, RatingPoint
    from ratings.store import refresh

    played = {g: hands_for(g, args.deals, args.seed, args.workers, registry.game(g).is_match)
              for g in chosen}
    reference_deals = args.deals if args.reference_deals is None else args.reference_deals
    reference = {g: hands_for(g, reference_deals, REFERENCE_SEED + args.seed, args.workers,
                              registry.game(g).is_match)
                 for g in chosen} if reference_deals else {}
    if args.play_only:
        return
    settings.DEBUG = False
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    finals = []
    try:
        user = get_user_model().objects.create_user("bench-ratings", password="bench-password-1")
        for game in chosen:
            club = Club.create_with_organiser(user, name=f"Bench {game}")  # members only
            members = [Member.objects.create(club=club, name=name) for name, _ in PLAYERS]
            began = time.perf_counter()
            enter_season(game, played[game], args.deals, user, club, members)
            entered_s = time.perf_counter() - began
            scope = stream.scope_of(club)
            incremental = sorted(Rating.objects.filter(scope=scope, game=game)
                                 .values_list("player", "mu", "sigma"))
            points = RatingPoint.objects.filter(scope=scope, game=game).count()
            began = time.perf_counter()
            refresh(scope, game)
            rebuild_ms = (time.perf_counter() - began) * 1000
            rebuilt = sorted(Rating.objects.filter(scope=scope, game=game)
                             .values_list("player", "mu", "sigma"))
            same = incremental == rebuilt and points == RatingPoint.objects.filter(
                scope=scope, game=game).count()
            events = stream.load(scope, game)
            assumed = {stream.player_of_member(m): rank for rank, m in enumerate(members)}
            truth = assumed
            if game in reference:
                share, ranks = measured_order(game, reference[game], reference_deals)
                truth = {stream.player_of_member(m): ranks[i] for i, m in enumerate(members)}
                groups = {}
                for i in sorted(range(len(PLAYERS)), key=lambda i: -share[i]):
                    groups.setdefault(ranks[i], []).append(f"{PLAYERS[i][0]} {share[i]:.3f}")
                print(f"  true order measured over {reference_deals} reference deals (share "
                      "of comparisons won; '=' cannot be told apart): "
                      + " > ".join(" = ".join(g) for _, g in sorted(groups.items(),
                                                                     reverse=True)))
            print(f"\n{game}: {len(events)} deals entered in {entered_s:.1f} s (rated as they "
                  f"were entered); full rebuild {rebuild_ms:.0f} ms; incremental = rebuild: "
                  f"{'yes' if same else 'NO'}")
            module = rating_games.of(game)
            own = (module.UNIT, module.MODEL, module.BETA)
            variants = [(unit, model_name, None) for unit in ("sides", "ranked")
                        for model_name in ("plackett_luce", "thurstone_mosteller")]
            variants += [(own[0], own[1], beta) for beta in BETAS]
            if own not in variants:
                variants.append(own)
            chosen_rows = None
            for unit, model_name, beta in variants:
                rows = measure(game, events, truth, unit, model_name, beta, assumed)
                mark = " (the game's)" if (unit, model_name, beta) == own else ""
                print(f"  unit={unit} model={model_name} beta={beta or 'default'}{mark}")
                for row in rows:
                    against = (f" (assumed order: {row['tau_assumed']:.3f})"
                               if truth is not assumed else "")
                    print(f"    after {row['deals']:>5} deals: tau={row['tau']:.3f}{against} "
                          f"logloss={row['model']:.4f} equal={row['equal']:.4f} "
                          f"win_share={row['share']:.4f}")
                if mark:
                    chosen_rows = rows
                    names = {p: PLAYERS[assumed[p]][0] for p in assumed}
                    print("    ratings' order, best first: "
                          + " > ".join(names[p] for p in rows[-1]["order"]))
            at = next((r for r in chosen_rows if r["deals"] >= min(1000, len(events))),
                      chosen_rows[-1])
            last = chosen_rows[-1]
            finals.append(f"ratings {game}: tau={at['tau']:.3f} logloss={last['model']:.4f} "
                          f"baseline_logloss={min(last['equal'], last['share']):.4f} "
                          f"rebuild_ms={rebuild_ms:.0f} deals={len(events)}")
        if args.big:
            deals, ms = big_season_rebuild_ms()
            print(f"\nbig season: full rebuild of {deals} deals in {ms:.0f} ms on "
                  f"{connection.vendor}")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print()
    for line in finals:
        print(line)


def main_checks(args) -> None:
    """``--update-cost`` and ``--farming``, in a throwaway database."""
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    settings.DEBUG = False
    settings.FOLLOW_UPS_INLINE = True  # what the follow-up worker does, timed here
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    lines = []
    try:
        if args.update_cost:
            rows = update_cost()
            floor = rows[0]["median_ms"]
            for row in rows:
                lines.append(
                    f"ratings one online hand, {row['earlier']:>5} hands already today: "
                    f"median={row['median_ms']:.1f} ms max={row['max_ms']:.1f} ms "
                    f"ratio_to_empty_day={row['median_ms'] / floor:.2f} "
                    f"(re-rating the whole day instead: {row['day_ms']:.0f} ms)")
        if args.farming:
            found = farming()
            place = "not listed" if found["place"] is None else f"#{found['place']}"
            lines.append(f"ratings farming: farmer {place} on the site's list "
                         f"({found['listed']} listed, {found['farmer_site_results']} of the "
                         f"farmer's results count site-wide); computer player (easy) moved "
                         f"{found['easy_moved']:+d} points (goal: not listed, under 50)")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
