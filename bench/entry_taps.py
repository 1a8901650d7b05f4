"""Deal entry at the venue, measured as an organiser's thumbs meet it: a 30-deal Solo Whist sheet
and a 12-hand Bid Whist match entered in Debian's Chromium at 390x844, through the table's page
as it is served (a real daphne process, the page's own script).

Prints, per sheet, the taps per deal (each tap on a choice button or the Enter button; the
digits typed for the tricks are counted apart), the HTTP requests per deal, the full page loads
and the median seconds from the first tap of a deal to its line on the sheet, then one line
each: ``entry <game>: deals=N taps_per_deal=T digits_per_deal=D requests_per_deal=R
page_loads=L median_ms=M``.  Goal: at most 4 taps plus the trick count per deal, no page load.

    .venv/bin/python bench/entry_taps.py
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "whistclub.settings")

import django  # noqa: E402

django.setup()

from tests.live_servers import DaphneServer, ServerDatabase  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SETUP = """
import datetime
from django.contrib.auth import get_user_model
from leagues.models import Club, Evening, EveningTable, League, Member, Partnership, Season, TableSeat
user = get_user_model().objects.create_user("olga", "olga@example.org", "a-long-bench-password")
club = Club.create_with_organiser(user, name="Bench club")
names = ["Ana", "Bob", "Cy", "Di"]
me = club.members.get(user=user)
me.name = "Ana"
me.save()
members = [me, *(Member.objects.create(club=club, name=n) for n in names[1:])]
solo = Season.objects.create(league=League.objects.create(club=club, name="Solo", game="solo_whist"), name="S")
evening = Evening.objects.create(season=solo, date=datetime.date(2030, 1, 7))
table = EveningTable.objects.create(evening=evening, number=1)
TableSeat.objects.bulk_create(TableSeat(table=table, seat=s, member=m) for s, m in enumerate(members))
bid = Season.objects.create(league=League.objects.create(club=club, name="Bid", game="bid_whist"), name="B")
pairs = [Partnership.objects.create(season=bid, first=members[0], second=members[2], name="Aces"),
         Partnership.objects.create(season=bid, first=members[1], second=members[3], name="Kings")]
bid_evening = Evening.objects.create(season=bid, date=datetime.date(2030, 1, 8))
match = EveningTable.objects.create(evening=bid_evening, number=1, pair_0=pairs[0], pair_1=pairs[1])
print(table.get_absolute_url(), match.get_absolute_url())
"""


def solo_deals(n: int, rng: random.Random) -> list[list[tuple[str, str]]]:
    """Each deal as the taps that enter it: (field, choice) pairs, then the tricks typed."""
    deals = []
    for _ in range(n):
        contract = rng.choice(["Solo", "Misère", "Abundance"])
        tricks = {"Solo": rng.randint(3, 8), "Misère": rng.randint(0, 2),
                  "Abundance": rng.randint(7, 11)}[contract]
        deals.append([("contract", contract), ("declarer", rng.choice("ABCD")),
                      ("tricks", str(tricks))])
    return deals


def bid_whist_hands(rng: random.Random) -> list[list[tuple[str, str]]]:
    """Twelve hands that do not end the match before the twelfth: each pair makes a bid of 4
    (ten books) and is set on the next (nine), so no pair reaches 7."""
    hands = []
    for i in range(12):
        made = i % 2 == 0
        hands.append([("team", "Aces" if i % 4 < 2 else "Kings"),
                      ("mode", rng.choice(["Uptown", "Downtown"])), ("bid", "4"),
                      ("books", "10" if made else "9")])
    return hands


NAMES = {"A": "Ana", "B": "Bob", "C": "Cy", "D": "Di"}


def enter(page, base: str, path: str, deals, label: str) -> dict:
    requests, loads = [], []
    page.on("request", lambda r: requests.append(r) if r.resource_type in ("document", "xhr",
                                                                              "fetch") else None)
    page.on("load", lambda: loads.append(1))
    page.goto(base + path)
    requests.clear()
    loads.clear()
    taps = digits = 0
    seconds = []
    for number, deal in enumerate(deals, 1):
        start = time.perf_counter()
        for field, value in deal:
            if field in ("tricks", "books"):
                page.fill(f"#id_{field}", value)
                digits += len(value)
            else:
                page.tap(f"#id_{field} label:text-is('{NAMES.get(value, value)}')")
                taps += 1
        page.tap("text=Enter the deal")
        taps += 1
        try:
            page.wait_for_selector(
                f"#deal-entry [role=status]:has-text('Deal {number} entered')", timeout=15000)
        except Exception:
            refused = page.locator("#deal-entry .errorlist").all_inner_texts()
            raise SystemExit(f"{label}: deal {number} {deal} was not entered: {refused}") from None
        seconds.append(time.perf_counter() - start)
    n = len(deals)
    line = (f"entry {label}: deals={n} taps_per_deal={taps / n:.1f} "
            f"digits_per_deal={digits / n:.1f} requests_per_deal={len(requests) / n:.1f} "
            f"page_loads={len(loads)} median_ms={statistics.median(seconds) * 1000:.0f}")
    print(line, flush=True)
    return {"taps": taps / n, "loads": len(loads)}


def main() -> int:
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp())
    database = ServerDatabase(folder)
    database.manage("migrate", "--noinput", "-v0")
    solo_path, match_path = database.shell(SETUP).split()[-2:]
    server = DaphneServer(database, folder / "daphne.log").start()
    rng = random.Random(7)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            context = browser.new_context(locale="en-GB", **PHONE)
            page = context.new_page()
            page.goto(server.url + "/accounts/login/")
            page.fill("#id_username", "olga")
            page.fill("#id_password", "a-long-bench-password")
            page.click("main button[type=submit]")
            page.wait_for_load_state()
            results = [enter(page, server.url, solo_path, solo_deals(30, rng), "solo_whist"),
                       enter(context.new_page(), server.url, match_path, bid_whist_hands(rng),
                             "bid_whist")]
            browser.close()
    finally:
        server.stop()
        database.drop()
    met = all(r["taps"] <= 4 and r["loads"] == 0 for r in results)
    print(f"goal (at most 4 taps plus the trick count, no page load): {'met' if met else 'missed'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
