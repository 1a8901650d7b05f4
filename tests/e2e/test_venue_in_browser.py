"""At the venue on a phone (390x844): attendance ticked on one screen and deals entered, each
saved in place without a page load (htmx), in Debian's Chromium."""

import pytest

from tests.e2e.conftest import signed_in

pytestmark = pytest.mark.slow
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_attendance_is_ticked_on_one_screen_and_saved_as_ticked(browser, demo_server):
    base = demo_server["url"]
    page = signed_in(browser, base, **PHONE)
    page.goto(base + demo_server["next_evening"] + "attendance/sheet/")
    loads = []
    page.on("load", lambda: loads.append(1))
    rows = page.locator(".attendance-row")
    assert rows.count() >= 4
    for i in (0, 2):
        rows.nth(i).locator("input[type=checkbox]").tap()
        page.wait_for_selector(f".attendance-row:nth-child({i + 1}) .attendance-state"
                               ":has-text('coming · saved')")
    assert loads == []  # saved in place, no page load
    page.reload()
    checked = page.locator(".attendance-row input[type=checkbox]:checked").count()
    assert checked == 2
    page.context.close()


def test_deals_are_entered_by_taps_without_a_page_load(browser, demo_server):
    base = demo_server["url"]
    page = signed_in(browser, base, **PHONE)
    page.goto(base + demo_server["solo_table"])
    first = int(page.get_attribute("input[name=number]", "value"))
    loads = []
    page.on("load", lambda: loads.append(1))
    for n, (contract, tricks) in enumerate([("Solo", "6"), ("Misère", "0")]):
        page.tap(f"#id_contract label:text-is('{contract}')")
        page.locator("#id_declarer label").nth(n).tap()
        page.fill("#id_tricks", tricks)
        page.tap("text=Enter the deal")
        page.wait_for_selector(f"#deal-entry [role=status]:has-text('Deal {first + n} entered.')")
    assert loads == []
    # a deal that cannot be: the form stays as typed, the error beside the partner
    page.tap("#id_contract label:text-is('Prop and cop')")
    page.locator("#id_declarer label").nth(2).tap()
    page.fill("#id_tricks", "8")
    page.tap("text=Enter the deal")
    page.wait_for_selector("#deal-entry .errorlist:has-text('is played by two')")
    assert page.locator("#id_contract input:checked").get_attribute("value") == "prop_and_cop"
    assert page.input_value("#id_tricks") == "8" and loads == []
    # changing an answer takes the error about the old one away (the next send checks again)
    page.tap("#id_contract label:text-is('Solo')")
    page.wait_for_selector("#deal-entry .errorlist", state="detached")
    page.context.close()
