"""An evening in rounds on a phone (390x844): the organiser makes an evening of rounds, marks who
came at the door, draws round 1, then round 2, and reads each round's tables and who sits out,
in Debian's Chromium."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import signed_in

pytestmark = pytest.mark.slow
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_the_organiser_draws_round_one_and_round_two_on_a_phone(browser, demo_server):
    base = demo_server["url"]
    page = signed_in(browser, base, **PHONE)
    page.goto(base + demo_server["next_evening"])
    season = page.get_attribute("main a[href*='/seasons/']", "href")
    page.goto(base + season + "evenings/new/")
    page.fill("#id_date", (datetime.date.today() + datetime.timedelta(days=9)).isoformat())
    page.fill("#id_rounds", "3")
    page.fill("#id_deals_per_round", "8")
    page.tap("main button[type=submit]")
    page.wait_for_selector("text=3 rounds of 8 deals")
    evening = page.url
    # at the door: ten players tap "Coming"
    page.goto(evening + "attendance/sheet/")
    rows = page.locator(".attendance-row")
    for i in range(10):
        rows.nth(i).locator("label.answer-yes").tap()
        page.wait_for_selector(f".attendance-row:nth-child({i + 1}) .attendance-state"
                               ":text-is('coming · saved')")
    page.goto(evening)
    draw = page.locator("button.draw-round")
    expect(draw).to_have_text("Draw round 1")
    box = draw.bounding_box()
    assert box and box["height"] >= 44 and box["y"] + box["height"] <= 844  # no scrolling
    draw.tap()
    page.wait_for_selector(".message:has-text('Round 1: 2 tables drawn.')")
    round_1 = page.locator("#round-1")
    expect(round_1.locator(".round-tables > li")).to_have_count(2)
    expect(round_1.locator(".round-tables > li").first).to_contain_text("Round 1 · table 1:")
    out_1 = round_1.locator(".sitting-out").inner_text()
    assert re.fullmatch(r"Sitting out: \S.*, \S.*", out_1)
    # the next round's button is the first thing of the rounds, on the first screen
    draw = page.locator("button.draw-round")
    expect(draw).to_have_text("Draw round 2")
    box = draw.bounding_box()
    assert box and box["y"] + box["height"] <= 844
    draw.tap()
    page.wait_for_selector(".message:has-text('Round 2: 2 tables drawn.')")
    round_2 = page.locator("#round-2")
    expect(round_2).to_have_attribute("open", "")
    expect(round_2.locator(".round-tables > li")).to_have_count(2)
    out_2 = round_2.locator(".sitting-out").inner_text()
    names = lambda words: set(words.split(": ", 1)[1].split(", "))  # noqa: E731
    assert not names(out_1) & names(out_2)  # nobody sits out twice before everyone once
    # round 1 is folded below, and opens with a tap
    assert page.locator("#round-1").get_attribute("open") is None
    page.tap("#round-1 summary")
    expect(page.locator("#round-1 .round-tables > li")).to_have_count(2)
    # a tap on a table of round 2 opens its sheet, named by its round
    page.tap("#round-2 .round-tables > li >> nth=0 >> a")
    expect(page.locator("h1")).to_have_text("Round 2 · table 1")
    # its eight deals entered by taps: the page says "Deal N of 8", then that the round is
    # done, in view (the form folds away under it, far above where the last tap was)
    for n in range(8):
        expect(page.locator("#next-deal")).to_have_text(f"Deal {n + 1} of 8")
        page.tap("#id_contract label:text-is('Solo')")
        page.locator("#id_declarer label").nth(n % 4).tap()
        page.fill("#id_tricks", "5")
        page.tap("text=Enter the deal")
        page.wait_for_selector(f"#deal-entry [role=status]:has-text('Deal {n + 1} entered.')")
    heading = page.locator("#next-deal")
    expect(heading).to_have_text("Round 2 done: 8 of 8 deals")
    top = heading.bounding_box()["y"]
    assert -1 <= top < 844, top  # (its top may sit a fraction of a pixel above the edge)
    page.context.close()
