"""An evening's prizes on a phone (390x844, Debian's Chromium): the organiser names them and a
sit-out's credit on the league's page, a finished evening shows who won each, and the results
are sent from there."""

import pytest

from tests.e2e.conftest import browser, demo_server, signed_in  # noqa: F401 (fixtures)

pytestmark = pytest.mark.slow
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_an_organiser_names_the_prizes_and_sends_an_evenings_results_on_a_phone(
        browser, demo_server):  # noqa: F811
    base = demo_server["url"]
    page = signed_in(browser, base, **PHONE)
    page.goto(base + demo_server["next_evening"])
    page.locator("main a[href*='/seasons/']").first.tap()
    page.wait_for_load_state()
    page.locator("main a[href*='/leagues/']").first.tap()
    page.wait_for_load_state()
    page.get_by_role("link", name="Standings options and prizes").tap()
    page.wait_for_load_state()
    page.select_option("#id_sit_out_credit", "fixed")
    with page.expect_navigation():
        page.locator("main form button[type=submit]").tap()
    # A fixed score is typed, or the page says so and saves nothing.
    assert "Type the score a sit-out is credited with" in page.locator("main").inner_text()
    page.fill("#id_sit_out_score", "2")
    page.check("#id_prize_winner")
    page.fill("#id_prize_winner_text", "a bottle of wine")
    page.check("#id_prize_booby")
    with page.expect_navigation():
        page.locator("main form button[type=submit]").tap()
    assert "Saved." in page.locator(".messages").inner_text()
    # A finished evening of the league (the others name no prize) shows who won each.
    shown = None
    for _tables, slug, evening, _season in demo_server["evenings"]:
        page.goto(f"{base}/clubs/{slug}/evenings/{evening}/")
        if page.locator("#prizes .prize-winner").count():
            shown = page.url
            break
    assert shown, "no finished evening shows its prizes"
    winner = page.locator("#prizes .prize-winner").inner_text()
    assert winner.startswith("Winner:") and "a bottle of wine" in winner
    assert page.locator("#prizes .prize-booby").inner_text().startswith("Booby prize:")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    with page.expect_navigation():
        page.get_by_role("button", name="Send the results").tap()
    assert "E-mail sent to" in page.locator(".messages").inner_text()
    assert page.get_by_role("button", name="Send the results again").is_visible()
    page.context.close()
