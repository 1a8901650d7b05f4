"""Talking at the table in the browser: a player's phrase reaches the spectator at once, the
spectator's words stay among the spectators, a player's own words wait for the end of the
hand, and a muted person's lines are hidden in this browser.

Set WHISTCLUB_SCREENSHOTS to a folder to keep a screenshot of the panel at each size."""

import os
import time
import uuid
from pathlib import Path

import pytest

from tests.e2e.conftest import fill_empty_seats, make_a_move, sign_up

pytestmark = pytest.mark.slow

SIZES = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}


def person(browser, base_url, size):
    context = browser.new_context(locale="en-GB", **SIZES[size])
    context.set_default_timeout(15000)
    page = context.new_page()
    sign_up(page, base_url, "chat" + uuid.uuid4().hex[:6])
    return context, page


def lines(page) -> list[str]:
    return [" ".join(text.split()) for text in
            page.locator("#chat-lines .chat-line:visible").all_inner_texts()]


def say_words(page, words: str) -> None:
    page.fill("#chat-text", words)
    page.click(".chat-form button[type=submit]")


@pytest.mark.parametrize("size", list(SIZES))
def test_players_and_spectators_talk_each_to_their_own(browser, live_server_url, size):
    player_context, player = person(browser, live_server_url, size)
    spectator_context, spectator = person(browser, live_server_url, size)
    try:
        player.goto(live_server_url + "/tables/new/bid_whist/")
        player.click("text=Open the table")
        player.wait_for_selector("#table-state")
        table_url = player.url
        fill_empty_seats(player)
        spectator.goto(table_url)
        spectator.wait_for_selector("#table-state[data-version]")
        player.click(".chat-phrases button:text-is('Good luck')")
        for page in (player, spectator):
            page.wait_for_selector("#chat-lines .chat-line:has-text('Good luck')")
        say_words(spectator, "Nice seats, everyone")
        spectator.wait_for_selector("#chat-lines .chat-line:has-text('Nice seats')")
        # The hand begins (a move of the player's, or the computer players' first calls).
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not player.locator(".auction-history").count():
            make_a_move(player)
        say_words(player, "lead a heart, partner")
        player.wait_for_selector("#chat-error:has-text('only the phrases')")
        assert not any("Nice seats" in line for line in lines(player))
        assert not any("lead a heart" in line for line in lines(spectator))
        assert player.input_value("#chat-text") == ""  # the box empties once sent
        folder = os.environ.get("WHISTCLUB_SCREENSHOTS")
        if folder:
            spectator.locator(".chat-panel").scroll_into_view_if_needed()
            spectator.screenshot(path=str(Path(folder) / f"chat-spectator-{size}.png"))
        # The spectator mutes the player: their lines are hidden here, and come back.
        spectator.click("#chat-lines .chat-line:has-text('Good luck') .chat-mute")
        assert lines(spectator) == [line for line in lines(spectator) if "Good luck" not in line]
        assert not any("Good luck" in line for line in lines(spectator))
        spectator.reload()
        spectator.wait_for_selector("#chat-lines .chat-line:has-text('Nice seats')")
        assert not any("Good luck" in line for line in lines(spectator))
        spectator.click("[data-unmute-all]")
        assert any("Good luck" in line for line in lines(spectator))
        if folder:
            player.locator(".chat-panel").scroll_into_view_if_needed()
            player.screenshot(path=str(Path(folder) / f"chat-player-{size}.png"))
    finally:
        player_context.close()
        spectator_context.close()
