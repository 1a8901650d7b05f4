"""At the venue on a phone (390x844): attendance answered on one screen (one tap each) and deals
entered, each saved in place without a page load (htmx); a deal corrected, deleted and undone by
taps, in Debian's Chromium."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import signed_in

pytestmark = pytest.mark.slow
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_attendance_is_one_tap_each_on_one_screen_and_saved_as_tapped(browser, demo_server):
    base = demo_server["url"]
    page = signed_in(browser, base, **PHONE)
    page.goto(base + demo_server["next_evening"] + "attendance/sheet/")
    loads = []
    page.on("load", lambda: loads.append(1))
    rows = page.locator(".attendance-row")
    count = rows.count()
    assert count >= 4
    assert page.inner_text("#head-count") == f"0 coming · 0 not coming · {count} no answer"

    def tap(i, words, state):
        label = rows.nth(i).locator(f"label.answer:has(span:text-is('{words}'))")
        box = label.bounding_box()
        assert box and box["height"] >= 44  # a thumb's target
        label.tap()
        page.wait_for_selector(f".attendance-row:nth-child({i + 1}) .attendance-state"
                               f":text-is('{state}')")

    tap(0, "Not coming", "not coming · saved")  # one tap, from no answer
    tap(1, "Coming", "coming · saved")
    tap(2, "Coming", "coming · saved")
    expect(page.locator("#head-count")).to_have_text(
        f"2 coming · 1 not coming · {count - 3} no answer")
    tap(2, "No answer", "no answer · saved")
    expect(page.locator("#head-count")).to_have_text(
        f"1 coming · 1 not coming · {count - 2} no answer")
    assert loads == []  # saved in place, no page load
    page.reload()
    checked = [rows.nth(i).locator("input:checked").get_attribute("value") for i in range(3)]
    assert checked == ["no", "yes", "none"]
    # the organiser's own answer, from the evening's page: one tap, the head count follows
    page.goto(base + demo_server["next_evening"])
    page.tap(".my-answer button:text-is('Coming')")
    page.wait_for_selector(".my-answer button[aria-pressed=true]:text-is('Coming')")
    expect(page.locator("#head-count")).to_have_text(
        f"2 coming · 1 not coming · {count - 3} no answer")
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


def words_of(row) -> str:
    """A row's words, whatever the layout does with its white space (the number and its pencil
    wrap onto lines of their own when the row is narrow)."""
    return "".join(row.inner_text().split())


def test_a_deal_is_corrected_deleted_and_undone_by_taps(browser, demo_server):
    base = demo_server["url"]
    page = signed_in(browser, base, **PHONE)
    table = base + demo_server["solo_table"]
    page.goto(table)
    if page.locator("tr.correctable").count() < 3:  # a table of the demo without deals yet
        for contract, tricks in [("Solo", "6"), ("Misère", "0"), ("Solo", "5")]:
            page.tap(f"#id_contract label:text-is('{contract}')")
            page.locator("#id_declarer label").first.tap()
            page.fill("#id_tricks", tricks)
            page.tap("text=Enter the deal")
            page.wait_for_selector("#deal-entry [role=status]")
        page.goto(table)
    rows = page.locator("table.sheet tbody tr.correctable")
    count = rows.count()
    second = words_of(rows.nth(1))
    box = rows.nth(1).bounding_box()
    assert box and box["height"] >= 44
    # the number stays in view, and one link per deal for the keyboard
    assert rows.nth(1).locator("a.row-link").inner_text().startswith("2")
    assert page.locator("a.row-link").count() == count
    # a tap on the deal's words, not on a small link, opens the correction
    rows.nth(1).scroll_into_view_if_needed()
    words = rows.nth(1).locator("td").nth(1).bounding_box()  # the link lies over them
    page.touchscreen.tap(words["x"] + words["width"] / 2, words["y"] + words["height"] / 2)
    page.wait_for_url("**/deals/2/")
    page.tap("text=Delete this deal…")
    page.wait_for_url("**/deals/2/delete/")
    assert page.locator("h1").inner_text().startswith("Delete deal 2 of table")
    page.tap("button:has-text('Delete deal 2')")
    page.wait_for_selector(".message.undo:has-text('Deal 2 deleted.')")
    assert rows.count() == count - 1
    page.tap("text=Undo: put deal 2 back")
    page.wait_for_selector(".message:has-text('Deal 2 restored.')")
    assert rows.count() == count and words_of(rows.nth(1)) == second
    # deleted again, and restored from the club's history this time
    page.goto(table + "deals/2/delete/")
    page.tap("button:has-text('Delete deal 2')")
    page.wait_for_selector(".message.undo")
    slug = demo_server["solo_table"].split("/")[2]
    page.goto(f"{base}/clubs/{slug}/changes/")
    page.tap("button:has-text('Restore deal 2')")
    page.wait_for_selector(".message:has-text('Deal 2 restored.')")
    assert rows.count() == count and words_of(rows.nth(1)) == second
    page.context.close()
