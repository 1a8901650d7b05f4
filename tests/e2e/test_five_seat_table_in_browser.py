"""A five-seat Solo table at the venue, on a phone (390x844): the dealer sits out each deal; the
organiser taps who sits out (offered in turn), the deal, and sees the sitter's cell marked on the
sheet, in Debian's Chromium."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import signed_in
from tests.live_servers import DaphneServer, ServerDatabase

pytestmark = pytest.mark.slow
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

FIVE_SEAT_TABLE = """
import datetime
from django.utils import timezone
from leagues.models import Evening, EveningTable, League, TableSeat
league = League.objects.filter(game="solo_whist").first()
league.odd_numbers = League.OddNumbers.FIVE_SEATS
league.save()
season = next(s for s in league.seasons.all() if not s.is_closed)
evening = Evening.objects.create(season=season,
                                 date=timezone.localdate() + datetime.timedelta(days=1))
members = list(league.club.members.filter(retired=False, guest=False).order_by("pk")[:5])
table = EveningTable.objects.create(evening=evening, number=1)
for seat, member in enumerate(members):
    TableSeat.objects.create(table=table, seat=seat, member=member)
print("five_table", table.get_absolute_url())
print("names", "|".join(m.name for m in members))
"""


@pytest.fixture(scope="module")
def five_server(tmp_path_factory):
    """A server of its own with the demo club, its Solo league drawing five-seat tables and
    one such table, without a deal, on tomorrow's evening."""
    folder = tmp_path_factory.mktemp("e2e-five")
    database = ServerDatabase.migrated(folder)
    database.manage("load_demo")
    facts = {}
    for line in database.shell(FIVE_SEAT_TABLE).splitlines():
        if line.startswith(("five_table ", "names ")):
            key, value = line.split(" ", 1)
            facts[key] = value
    server = DaphneServer(database, folder / "daphne.log").start()
    yield {"url": server.url, "table": facts["five_table"], "names": facts["names"].split("|")}
    server.stop()
    database.drop()


def test_a_deal_is_entered_at_a_five_seat_table_on_a_phone(browser, five_server):
    base, names = five_server["url"], five_server["names"]
    page = signed_in(browser, base, **PHONE)
    page.goto(base + five_server["table"])
    sitter = page.locator("#id_sits_out")
    # who sits out comes first, the first seat's dealer offered, every name a thumb's target
    expect(sitter.locator("input:checked")).to_have_value("0")
    for label in sitter.locator("label").all():
        box = label.bounding_box()
        assert box and box["height"] >= 40 and box["x"] + box["width"] <= 390
    expect(page.locator("#deal-entry")).to_contain_text(
        "The dealer sits out each deal and scores nothing for it")
    loads = []
    page.on("load", lambda: loads.append(1))
    page.tap("#id_contract label:text-is('Solo')")
    page.locator("#id_declarer label").nth(1).tap()
    page.fill("#id_tricks", "6")
    page.tap("text=Enter the deal")
    page.wait_for_selector("#deal-entry [role=status]:has-text('Deal 1 entered.')")
    assert loads == []
    row = page.locator("table.sheet tbody tr").first
    expect(row).to_contain_text(f"{names[0]} sits out")
    expect(row.locator("td.sits-out")).to_have_count(1)
    cells = row.locator("td.num")
    expect(cells.nth(0)).to_have_class(re.compile("sits-out"))
    expect(cells.nth(1)).to_have_text("9")
    # the next deal's dealer is the next seat: their buttons in the declarer, partner and
    # revoke rows are dimmed and cannot be chosen; another dealer gives them back
    expect(page.locator("#id_sits_out input:checked")).to_have_value("1")
    for row in ("declarer", "partner", "revoke"):
        expect(page.locator(f"#id_{row} input[value='1']")).to_be_disabled()
        expect(page.locator(f"#id_{row} input[value='2']")).to_be_enabled()
    dimmed = page.locator("#id_declarer label").nth(1)
    assert float(dimmed.evaluate("label => getComputedStyle(label).opacity")) < 0.6
    page.locator("#id_declarer label").nth(2).tap()  # Carla declares, then deals instead
    page.locator("#id_sits_out label").nth(2).tap()
    expect(page.locator("#id_declarer input[value='2']")).to_be_disabled()
    expect(page.locator("#id_declarer input[value='2']")).not_to_be_checked()
    expect(page.locator("#id_declarer input[value='1']")).to_be_enabled()
    page.locator("#id_sits_out label").nth(1).tap()
    page.screenshot(path=str(SCREENSHOTS / "five-seat-dealer-dimmed-phone.png"))
    # a line naming the sitter anyway (a page without its script) is refused in words
    page.tap("#id_contract label:text-is('Misère')")
    page.evaluate("() => { const box = document.querySelector('#id_declarer input[value=\"1\"]');"
                  " box.disabled = false; box.checked = true; }")
    page.fill("#id_tricks", "0")
    page.tap("text=Enter the deal")
    page.wait_for_selector(
        f"#deal-entry .errorlist:has-text('{names[1]} sits out this deal: choose one of the "
        "four who play it.')")
    expect(page.locator("table.sheet tbody tr")).to_have_count(1)  # nothing entered
    assert loads == []
    page.context.close()
