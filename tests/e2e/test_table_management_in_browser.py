"""Table management in a real browser: one click fills the empty seats and the game starts."""

import uuid

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import sign_up

pytestmark = pytest.mark.slow


def test_one_click_fills_the_empty_seats_with_computer_players_and_the_game_starts(
        new_page, live_server_url):
    page = new_page()
    sign_up(page, live_server_url, "fill" + uuid.uuid4().hex[:6])
    page.goto(live_server_url + "/tables/new/solo_whist/")
    page.click("text=Open the table")
    page.wait_for_selector("#table-state")
    assert page.locator("form.fill-seats").count() == 1 and page.locator(".my-hand").count() == 0
    # The invite link's copy button shows once the page's script runs.
    copy = page.locator("button[data-copy='invite-link']")
    copy.wait_for(state="visible")  # the script is deferred: it may run just after the swap
    copy.click()
    # Playwright's expect polls from here: wait_for_function would eval in the page, which the
    # content security policy forbids whenever the text is not there at the first look.
    expect(copy).to_have_text("Copied")
    page.select_option("#fill-level", "strong")
    page.click("text=Fill the empty seats with computer players")
    page.wait_for_selector(".my-hand")
    assert "3 computer players sat down." in page.inner_text(".messages")
    assert page.locator(".my-hand [data-card]").count() == 13
    assert page.locator("form.fill-seats").count() == 0
