"""A finished trick stays in the middle of the table, whole and with its winner, for the pause,
in every browser watching the table, and is then gathered."""

import time
import uuid

import pytest

from tests.e2e.conftest import make_a_move, open_bid_whist_to, sign_up
from tests.live_servers import DaphneServer, ServerDatabase

pytestmark = pytest.mark.slow

PAUSE = 1.0

# Samples what the middle of the table shows, every 25 ms (run through the browser's
# DevTools, which the page's Content-Security-Policy does not govern).
SAMPLER = """() => {
  window.__centre = [];
  setInterval(() => {
    const centre = document.getElementById('trick-centre');
    if (!centre) { window.__centre.push({t: Date.now(), finished: false, cards: 0}); return; }
    const finished = centre.querySelector('.trick-finished');
    const shown = !!finished && finished.offsetParent !== null;
    const visible = [...centre.querySelectorAll('[data-card]')].filter(c => c.offsetParent !== null);
    window.__centre.push({t: Date.now(), finished: shown,
      key: finished ? finished.dataset.trickKey : null, cards: visible.length,
      winner: shown ? (finished.querySelector('.trick-winner') || {}).textContent : null,
      marked: shown ? finished.querySelectorAll('.spot.winner [data-card]').length : 0});
  }, 25);
}"""


@pytest.fixture(scope="module")
def paused_server_url(tmp_path_factory):
    folder = tmp_path_factory.mktemp("e2e-pause")
    database = ServerDatabase.migrated(folder)
    server = DaphneServer(database, folder / "daphne.log",
                          TRICK_PAUSE_SECONDS=str(PAUSE)).start()
    yield server.url
    server.stop()
    database.drop()


def pauses_seen(samples: list[dict]) -> list[dict]:
    """Each finished trick shown: its key, how long it stayed whole, its winner, and whether
    it was gathered afterwards."""
    runs: list[dict] = []
    for sample in samples:
        if sample["finished"] and sample["cards"] == 4:
            if runs and runs[-1]["key"] == sample["key"] and runs[-1]["open"]:
                runs[-1]["end"] = sample["t"]
            else:
                runs.append({"key": sample["key"], "start": sample["t"], "end": sample["t"],
                             "winner": sample["winner"], "marked": sample["marked"],
                             "open": True, "gathered": False})
        elif runs and runs[-1]["open"]:
            runs[-1]["open"] = False
            runs[-1]["gathered"] = not sample["finished"]
    return [run | {"seconds": (run["end"] - run["start"]) / 1000} for run in runs]


def test_every_browser_sees_a_finished_trick_whole_with_its_winner_then_gathered(
        new_page, paused_server_url):
    player = new_page()
    sign_up(player, paused_server_url, "pause" + uuid.uuid4().hex[:6])
    player.goto(paused_server_url + "/tables/new/bid_whist/")
    player.click("text=Open the table")
    player.wait_for_selector("#table-state")
    table_url = player.url
    watcher = new_page()
    sign_up(watcher, paused_server_url, "watch" + uuid.uuid4().hex[:6])
    second_watcher = new_page()
    sign_up(second_watcher, paused_server_url, "look" + uuid.uuid4().hex[:6])
    visitor = new_page()  # not signed in: a spectator
    for page in (watcher, second_watcher, visitor):
        page.goto(table_url)
        page.wait_for_selector("#table-state")
    player.click("text=Fill the empty seats with computer players")
    player.wait_for_selector(".my-hand")
    pages = [player, watcher, second_watcher, visitor]  # four browsers at one table
    for page in pages:
        page.wait_for_selector("#trick-centre")
        page.evaluate(SAMPLER)
    deadline = time.monotonic() + 180

    def shown_whole(page_runs):
        """The finished tricks this page showed for about the pause, then gathered (a trick
        the viewer must follow ends the pause early in their own browser: not those)."""
        return [r for r in page_runs if r["gathered"] and PAUSE * 0.8 <= r["seconds"] <= PAUSE * 2]

    looked_at = None
    while True:
        for page in pages:  # a page that loaded again (a form posted before its socket was
            if page.evaluate("typeof window.__centre") == "undefined":  # up) samples anew
                page.evaluate(SAMPLER)
        # The watchers' browsers: the player's own pause ends as soon as they must follow a
        # trick already led to (the computer players lead at once on this server), which
        # test_the_final_trick_pauses_like_the_others_then_the_result_and_a_trick_to_follow_shows
        # checks.
        runs = [pauses_seen(page.evaluate("window.__centre")) for page in pages[1:]]
        if all(shown_whole(page_runs) for page_runs in runs):
            break
        if time.monotonic() > deadline:
            pytest.fail(f"no finished trick was shown and gathered in every browser: {runs}")
        # a person looks at a finished trick for the pause before playing on (the computer
        # players lead at once on this server: without this, the next trick would finish
        # and replace it in the watchers' browsers before the pause is over)
        finished = player.locator("#trick-centre .trick-finished")
        key = finished.first.get_attribute("data-trick-key") if finished.count() else None
        if key and key != looked_at:
            looked_at = key
            player.wait_for_timeout(PAUSE * 1000 + 300)
        elif not make_a_move(player):
            player.wait_for_timeout(100)
    for page_runs in runs:
        run = shown_whole(page_runs)[0]
        # whole (four cards), its winner named and marked, for about the pause, then gathered
        assert run["winner"] and run["winner"].startswith("won by "), run
        assert run["marked"] == 1, run
    # the same trick in every browser
    assert len({shown_whole(page_runs)[0]["key"] for page_runs in runs}) >= 1
    # the last trick, one key away, and still open after the table changes
    watcher.focus("#last-trick-toggle")
    watcher.keyboard.press("Space")
    assert watcher.locator("#last-trick-panel").is_visible()
    before = watcher.get_attribute("#table-state", "data-version")
    while watcher.get_attribute("#table-state", "data-version") == before:
        assert time.monotonic() < deadline + 60, "the table stopped changing"
        if not make_a_move(player):
            player.wait_for_timeout(100)
    assert watcher.locator("#last-trick-panel").is_visible()


# Also samples whether the hand's result in words shows in the middle of the table, and
# whether it is this player's turn to follow a trick already led to, with what of it shows.
END_SAMPLER = """() => {
  window.__end = [];
  setInterval(() => {
    const centre = document.getElementById('trick-centre');
    const finished = centre && centre.querySelector('.trick-finished');
    const shown = !!finished && finished.offsetParent !== null;
    const words = document.querySelector('.last-hand-words');
    const led = centre ? centre.querySelectorAll('.trick-now [data-card]') : [];
    window.__end.push({t: Date.now(), finished: shown, winner: null, marked: 0,
      key: finished ? finished.dataset.trickKey : null,
      cards: shown ? finished.querySelectorAll('[data-card]').length : 0,
      words: !!words && words.offsetParent !== null,
      follow: led.length > 0 && !!document.querySelector('.my-hand .card-button'),
      led: [...led].filter(c => c.offsetParent !== null).length, ledInPage: led.length});
  }, 25);
}"""


def test_the_final_trick_pauses_like_the_others_then_the_result_and_a_trick_to_follow_shows(
        new_page, paused_server_url):
    player = new_page()
    sign_up(player, paused_server_url, "end" + uuid.uuid4().hex[:6])
    # a match to 50 goes on: the next deal follows the hand
    open_bid_whist_to(player, paused_server_url, 50, {"id_rule_boston": "normal"})
    player.wait_for_selector(".my-hand")
    player.evaluate(END_SAMPLER)
    deadline = time.monotonic() + 300
    while not player.locator(".last-hand-words:visible").count():
        if time.monotonic() > deadline:
            pytest.fail("the hand's result never showed in the middle of the table")
        # the player looks at each finished trick (their own next card would end its pause)
        if player.locator("#trick-centre.pausing").count() or not make_a_move(player,
                                                                              prefer="pass"):
            player.wait_for_timeout(100)
    # the sampler looks every 25 ms: let it see the words the loop above saw (the page's
    # policy allows no wait_for_function, which evaluates a string)
    for _ in range(50):
        samples = player.evaluate("window.__end")
        if any(s["words"] for s in samples):
            break
        player.wait_for_timeout(100)
    first_words = next(i for i, s in enumerate(samples) if s["words"])
    # never the result over the trick: while a finished trick shows, no result
    assert not [s for s in samples if s["words"] and s["finished"]]
    # the final trick, whole, for the table's pause (as the others), then the result
    runs = pauses_seen(samples[:first_words])
    final = runs[-1]
    assert PAUSE * 0.8 <= final["seconds"], runs
    assert samples[first_words]["t"] - final["end"] < 1000, (final, samples[first_words])
    # at the player's turn to follow, the cards led to the trick are on screen, every time
    hidden = [s for s in samples if s["follow"] and s["led"] < s["ledInPage"]]
    assert not hidden, hidden[:3]
    assert any(s["follow"] for s in samples), "the player never had a trick to follow"
