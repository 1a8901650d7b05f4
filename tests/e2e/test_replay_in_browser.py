"""The replay of a finished hand in a real browser: the arrow keys step one call or card,
Shift+arrow a trick, Home and End the start and the end, the step kept in the address; the
links work the same without the script."""

import re

import pytest

from tests.live_servers import DaphneServer, ServerDatabase

pytestmark = pytest.mark.slow

# A Bid Whist table of four named players and one finished hand with a kitty, played by random
# legal moves (a hand with a contract, so there is a kitty to take and a discard).
MAKE_HAND = """
from django.contrib.auth import get_user_model
from games import tables
from games.models import Hand, Seat
from games.rules.records import random_record, replay_hand
User = get_user_model()
names = ["Ana", "Bob", "Cy", "Dee"]
users = []
for name in names:
    user, _ = User.objects.get_or_create(username=name.lower(),
                                         defaults={"email": name.lower() + "@example.org"})
    user.profile.display_name = name
    user.profile.save()
    users.append(user)
table = tables.create_table(users[0], "bid_whist", {})
for seat in Seat.objects.filter(table=table):
    seat.user = users[seat.position]
    seat.save()
for seed in range(200):
    record = random_record("bid_whist", seed)
    result = replay_hand(record).result()
    if not result.get("redeal"):
        break
Hand.objects.create(table=table, number=1, record=record, result=result)
print(table.pk)
"""


@pytest.fixture(scope="module")
def replay_url(tmp_path_factory):
    folder = tmp_path_factory.mktemp("e2e-replay")
    database = ServerDatabase.migrated(folder)
    table_id = int(database.shell(MAKE_HAND).strip().splitlines()[-1])
    server = DaphneServer(database, folder / "daphne.log").start()
    yield f"{server.url}/tables/{table_id}/hands/1/"
    server.stop()
    database.drop()


def step_of(page) -> int:
    return int(page.get_attribute("#replay-step", "data-step"))


def wait_for_step(page, step: int) -> None:
    page.wait_for_selector(f'#replay-step[data-step="{step}"]')
    page.wait_for_function("n => new URL(location.href).searchParams.get('step') === String(n)",
                           arg=step)


def cards_shown(page) -> int:
    return page.locator(".replay-hand [data-card]").count()


def test_the_keys_step_through_the_hand(new_page, replay_url):
    page = new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" else None)
    page.goto(replay_url)
    assert step_of(page) == 0
    assert page.is_visible("#replay-keys")
    last = int(page.get_attribute("#replay-step", "data-last"))
    marks = [int(m) for m in page.get_attribute("#replay-step", "data-marks").split()]
    deal = cards_shown(page)

    page.keyboard.press("ArrowRight")
    wait_for_step(page, 1)
    assert re.search(r"Ana|Bob|Cy|Dee", page.inner_text(".replay-said"))
    page.keyboard.press("ArrowLeft")
    wait_for_step(page, 0)

    page.keyboard.press("End")
    wait_for_step(page, last)
    assert page.is_visible(".result-words")
    page.keyboard.press("ArrowLeft")
    wait_for_step(page, last - 1)
    page.keyboard.press("Home")
    wait_for_step(page, 0)

    # a whole trick: to the contract set, then to the end of the first trick
    page.keyboard.press("Shift+ArrowRight")
    wait_for_step(page, marks[1])
    assert cards_shown(page) == deal  # the kitty taken, as many cards discarded
    page.keyboard.press("PageDown")
    wait_for_step(page, marks[2])
    assert cards_shown(page) == deal - 4
    assert "won by" in page.inner_text("#replay-step .replay-centre")

    # one card: the next lead leaves three cards fewer than the deal... one fewer each step
    page.keyboard.press("ArrowRight")
    wait_for_step(page, marks[2] + 1)
    assert cards_shown(page) == deal - 5
    assert page.locator(".replay-centre .trick-now [data-card]").count() == 1
    assert "plays" in page.inner_text(".replay-said")

    # a reload keeps the step: it is in the address
    page.reload()
    assert step_of(page) == marks[2] + 1
    assert not errors, errors


def test_the_links_work_without_the_script(browser, replay_url):
    context = browser.new_context(locale="en-GB", java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(replay_url)
        assert not page.is_visible("#replay-keys")
        page.click('a[data-nav="next"]')
        assert step_of(page) == 1 and page.url.endswith("?step=1")
        page.click('a[data-nav="end"]')
        assert page.is_visible(".result-words")
        page.click('a[data-nav="start"]')
        assert step_of(page) == 0
    finally:
        context.close()
