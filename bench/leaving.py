"""What leaving costs a heavy player: "Download my data" and "Delete my account".

Builds, in a throwaway test database, the Solo Whist season of bench/standings.py (60 members,
40 evenings, 30 deals a table: 18,000 deals) in a members-only club, one of whose members signs
in as "leaver", who also played 200 hands at an online table against computer players; the
ratings are built once.  Then, through Django's test client as that person, times the download
(its size and queries) and the deletion (the confirmation posted: the seats and club records
changed, the ratings of "u:<pk>" deleted and both scopes re-rated from the person's first day,
which here is the season's first evening: the whole season again).

    .venv/bin/python bench/leaving.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/whistclub .venv/bin/python bench/leaving.py

Last line: ``leaving: download_ms=X bytes=N queries=Q delete_ms=Y``.
"""

import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "whistclub.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

ONLINE_HANDS = 200
PASSWORD = "bench-password-1"


def online_hands(user) -> None:
    from games.models import Hand, Seat, Table
    from games.rules import game_module
    from games.rules.computer import choose_action

    table = Table.objects.create(game="solo_whist", created_by=user, status=Table.Status.FINISHED)
    Seat.objects.create(table=table, position=0, user=user)
    for position in (1, 2, 3):
        Seat.objects.create(table=table, position=position, computer_level="easy")
    module = game_module("solo_whist")
    rules = module.Rules()
    rng = random.Random(7)
    for number in range(1, ONLINE_HANDS + 1):
        dealer = number % module.SEATS
        deal = module.deal(rules, dealer, rng)
        state = module.new_hand(rules, dealer, deal.hands, deal.kitty)
        record = {"format": "whistclub-hand/1", "game": "solo_whist", "rules": {},
                  "dealer": dealer, "hands": deal.hands, "actions": []}
        while not state.complete:
            seat = state.to_act
            action = choose_action(state.view(seat), "random", rng)
            state.apply(action, seat)
            record["actions"].append({"seat": seat, "action": action})
        Hand.objects.create(table=table, number=number, record=record, result=state.result())


def main():
    from bench.standings import build
    from ratings import signals
    from ratings.events import SITE, scope_of
    from ratings.models import Rating
    from ratings.store import refresh

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        began = time.perf_counter()
        with signals.paused():
            club, season, organiser = build()
            leaver_member = club.members.exclude(user=organiser).order_by("pk").first()
            from django.contrib.auth import get_user_model

            leaver = get_user_model().objects.create_user("leaver", "leaver@example.org",
                                                          PASSWORD)
            leaver_member.user = leaver
            leaver_member.save(update_fields=["user"])
            online_hands(leaver)
        for scope in (scope_of(club), SITE):
            refresh(scope, "solo_whist")
        player = f"u:{leaver.pk}"
        print(f"built in {time.perf_counter() - began:.1f} s on {connection.vendor}: "
              f"{leaver_member.seats.count()} tables and {ONLINE_HANDS} online hands for "
              f"the leaver, rated in {Rating.objects.filter(player=player).count()} scopes")
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        client = Client()
        client.force_login(leaver)
        client.get("/accounts/profile/my-data.json")  # warm-up
        queries = []
        with connection.execute_wrapper(lambda execute, sql, *args: (queries.append(sql),
                                                                      execute(sql, *args))[1]):
            began = time.perf_counter()
            response = client.get("/accounts/profile/my-data.json")
            download_ms = (time.perf_counter() - began) * 1000
        assert response.status_code == 200, response.status_code
        size = len(response.content)
        began = time.perf_counter()
        response = client.post("/accounts/profile/delete/", {"confirmation": PASSWORD})
        delete_ms = (time.perf_counter() - began) * 1000
        assert response.status_code == 302, response.status_code
        assert not Rating.objects.filter(player=player).exists()
        # The re-rating is a follow-up, done after the request by a server's worker: timed apart.
        from games import followups

        began = time.perf_counter()
        followups.process_due()
        rerate_ms = (time.perf_counter() - began) * 1000
        assert Rating.objects.filter(player=f"m:{leaver_member.pk}").exists()
        print(f"leaving: download_ms={download_ms:.0f} bytes={size} queries={len(queries)} "
              f"delete_ms={delete_ms:.0f} rerate_after_ms={rerate_ms:.0f} (the follow-up "
              "worker's, not the request's)")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
