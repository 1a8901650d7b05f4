"""The replay of a finished hand: step by step (each call, the kitty, the discard, each card),
the hands at each step exactly what the engine says each player held, nothing in notation."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from games import registry, tables
from games.models import Hand, Seat, Table
from games.rules import NAMED_VARIANTS
from games.rules.records import random_record, replay_hand, start_hand
from tests.games.test_table_words import notation_in, visible_text

pytestmark = pytest.mark.django_db

GAMES = [each.id for each in registry.all_games()]
KITTY_SHAPES = ["6_two_jokers", "4_no_jokers", "5_one_joker", "none"]
NAMES = ["Ana", "Bob", "Cy", "Dee"]


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("pat", "pat@example.org", "pw-long-enough")


@pytest.fixture
def outsider(django_user_model):
    return django_user_model.objects.create_user("olga", "olga@example.org", "pw-long-enough")


def a_record(game: str, rules: dict | None = None, *, declared: bool = True) -> dict:
    """A finished hand played by random legal moves; with ``declared``, one with a contract
    (not everyone passed)."""
    for seed in range(200):
        record = random_record(game, seed, rules=rules or {})
        result = replay_hand(record).result()
        if not declared or not result.get("redeal"):
            return record
    raise AssertionError("no hand with a contract in 200 deals")


def finished_table(owner, django_user_model, record: dict, *, is_private=False) -> Table:
    """A table whose first hand is ``record``, its seats held by Ana, Bob, Cy (and Dee)."""
    table = tables.create_table(owner, record["game"], record.get("rules") or {},
                                is_private=is_private)
    for seat in Seat.objects.filter(table=table):
        name = NAMES[seat.position]
        user, _ = django_user_model.objects.get_or_create(
            username=name.lower(), defaults={"email": f"{name.lower()}@example.org"})
        user.profile.display_name = name
        user.profile.save()
        seat.user = user
        seat.save()
    Hand.objects.create(table=table, number=1, record=record,
                        result=replay_hand(record).result())
    return table


class ReplayPage(HTMLParser):
    """What one step of the replay page shows: each seat's cards, the sentence of the step,
    the links."""

    def __init__(self):
        super().__init__()
        self.hands: dict[int, list[str]] = {}
        self.links: dict[str, str] = {}
        self._seat: int | None = None
        self._depth = 0
        self.data: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if self._seat is not None:
            self._depth += 1
            if "data-card" in attrs:
                self.hands[self._seat].append(attrs["data-card"])
        elif "replay-hand" in classes:
            self._seat = int(attrs["data-seat"])
            self.hands[self._seat] = []
            self._depth = 1
        if "replay-step" in classes:
            self.data = {k: v for k, v in attrs.items() if k.startswith("data-")}
        if tag == "a" and attrs.get("data-nav"):
            self.links[attrs["data-nav"]] = attrs["href"]

    def handle_endtag(self, tag):
        if self._seat is not None:
            self._depth -= 1
            if self._depth == 0:
                self._seat = None


def read(client, table, step=None, **params) -> tuple[ReplayPage, str]:
    query = {"step": step} if step is not None else {}
    query.update(params)
    response = client.get(f"/tables/{table.pk}/hands/1/", query)
    assert response.status_code == 200
    html = response.content.decode()
    page = ReplayPage()
    page.feed(html)
    return page, html


def said(html: str) -> str:
    match = re.search(r'class="replay-said"[^>]*>(.*?)</p>', html, re.S)
    assert match, "each step says what happened"
    return visible_text(match.group(1))


def engine_steps(record: dict) -> list[list[list[str]]]:
    """Each seat's hand at each step, straight from the engine's views: the deal, then one
    step per action, and the kitty's pick-up as a step of its own after the last call."""
    _module, state, actions = start_hand(record)
    seats = range(len(state.dealt_hands))

    def hands():
        return [state.view(s)["hand"] for s in seats]

    steps = [hands()]
    for entry in actions:
        before_phase = state.phase
        state.apply(entry["action"])
        if before_phase == "auction" and state.phase == "discard":
            steps.append(steps[-1])  # the last call: nobody's cards move
        steps.append(hands())
    return steps


KITTY_CASES = [("bid_whist", {"kitty": shape}) for shape in KITTY_SHAPES] + [
    ("cutthroat_bid_whist", {})]


@pytest.mark.parametrize("game, rules", KITTY_CASES,
                         ids=[f"{g}-{r.get('kitty', 'kitty3')}" for g, r in KITTY_CASES])
def test_each_step_shows_the_hands_each_player_held(client, player, django_user_model,
                                                    game, rules):
    record = a_record(game, rules)
    table = finished_table(player, django_user_model, record)
    expected = engine_steps(record)
    first, _html = read(client, table, 0)
    assert int(first.data["data-last"]) == len(expected) - 1
    for step, hands in enumerate(expected):
        page, html = read(client, table, step)
        assert int(page.data["data-step"]) == step
        assert [page.hands[s] for s in range(len(hands))] == hands, (step, said(html))


@pytest.mark.parametrize("game, rules", [c for c in KITTY_CASES if c[1].get("kitty") != "none"],
                         ids=lambda v: v if isinstance(v, str) else v.get("kitty", "kitty3"))
def test_the_kitty_and_the_discard_are_steps_of_their_own(client, player, django_user_model,
                                                          game, rules):
    record = a_record(game, rules)
    table = finished_table(player, django_user_model, record)
    state = replay_hand(record)
    declarer, kitty = state.declarer, record["kitty"]
    discard = next(a["action"] for a in record["actions"] if a["action"].startswith("discard"))
    discards = discard.split()[1:]
    last_call = max(i for i, a in enumerate(record["actions"])
                    if not a["action"].startswith(("discard", "play", "trump", "direction")))
    call_step = last_call + 1  # step 0 is the deal
    before, _ = read(client, table, call_step)
    assert not set(kitty) & set(before.hands[declarer])
    picked, html = read(client, table, call_step + 1)
    name = NAMES[declarer]
    assert said(html).startswith(f"{name} takes the kitty")
    assert set(kitty) <= set(picked.hands[declarer])
    assert len(picked.hands[declarer]) == len(before.hands[declarer]) + len(kitty)
    discarded, html = read(client, table, call_step + 2)
    assert said(html).startswith(f"{name} discards")
    assert not set(discards) & set(discarded.hands[declarer])
    assert len(discarded.hands[declarer]) == len(before.hands[declarer])
    # the discards are shown as the declarer's book, face up, once the hand is over
    assert all(f'data-card="{card}"' in html for card in discards)


GAMES_AND_VARIANTS = [(game, {}) for game in GAMES] + [v for v in NAMED_VARIANTS if v[1]]


@pytest.mark.slow  # every step of every game
@pytest.mark.parametrize("game, rules", GAMES_AND_VARIANTS,
                         ids=[f"{g}-{json.dumps(r, sort_keys=True)}" for g, r in GAMES_AND_VARIANTS])
def test_every_step_of_every_game_reads_in_words(client, player, django_user_model, game, rules):
    for declared in (True, False):
        record = a_record(game, rules, declared=declared)
        Hand.objects.all().delete()
        table = finished_table(player, django_user_model, record)
        first, _html = read(client, table, 0)
        for step in range(int(first.data["data-last"]) + 1):
            _page, html = read(client, table, step)
            text = visible_text(html)
            main = text[text.index("Hand 1"):]  # the page, not the site's menu
            assert not notation_in(main), (step, notation_in(main), main)
            assert "BJ" not in main.split() and "LJ" not in main.split()
            assert " style=" not in html


HOSTILE_NAME = "<script>alert(1)</script>"


def test_a_name_that_is_a_script_is_shown_as_text_at_every_step(client, player,
                                                                 django_user_model):
    """A display name is the player's own text: on every step of the replay (the seats, the
    sentence saying who did what, the result) it is shown as written, never run."""
    record = a_record("bid_whist")
    table = finished_table(player, django_user_model, record)
    ana = Seat.objects.get(table=table, position=0).user
    ana.profile.display_name = HOSTILE_NAME
    ana.profile.save()
    first, _html = read(client, table, 0)
    for step in [*range(int(first.data["data-last"]) + 1), "end"]:
        _page, html = read(client, table, step)
        assert HOSTILE_NAME not in html, step
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, step


def test_the_end_says_the_result_in_a_sentence(client, player, django_user_model):
    record = a_record("bid_whist")
    table = finished_table(player, django_user_model, record)
    page, html = read(client, table, "end")
    last = int(page.data["data-last"])
    assert int(page.data["data-step"]) == last
    assert 'class="result-words"' in html
    assert "next" not in page.links and "end" not in page.links
    assert page.links["prev"].endswith(f"?step={last - 1}")
    first, html = read(client, table)
    assert int(first.data["data-step"]) == 0 and 'class="result-words"' not in html
    assert first.links["next"].endswith("?step=1") and "prev" not in first.links


def test_trick_by_trick_links_jump_to_the_end_of_each_trick(client, player, django_user_model):
    record = a_record("bid_whist")
    table = finished_table(player, django_user_model, record)
    page, _html = read(client, table, 0)
    step = int(page.links["next-trick"].rpartition("=")[2])
    # the first jump lands on the last step before the first card: the contract is set
    _module, state, actions = start_hand(record)
    plays_from = next(i for i, a in enumerate(actions) if a["action"].startswith("play"))
    kitty_steps = 0 if record.get("kitty") is None else 1
    assert step == plays_from + kitty_steps
    page, html = read(client, table, step)
    step = int(page.links["next-trick"].rpartition("=")[2])
    page, html = read(client, table, step)
    assert "won by" in visible_text(html)
    assert sum(len(cards) for cards in page.hands.values()) == 4 * (len(record["hands"][0]) - 1)
    # the old address of a trick still works: the hands after that many tricks
    by_trick, _ = read(client, table, None, trick=1)
    assert by_trick.data["data-step"] == page.data["data-step"]


def test_only_finished_hands_of_tables_one_may_see(client, player, outsider,
                                                   django_user_model):
    record = a_record("bid_whist")
    table = finished_table(player, django_user_model, record, is_private=True)
    client.force_login(outsider)
    assert client.get(f"/tables/{table.pk}/hands/1/").status_code == 404
    client.force_login(player)
    assert client.get(f"/tables/{table.pk}/hands/1/").status_code == 200
    assert client.get(f"/tables/{table.pk}/hands/2/").status_code == 404


def test_one_step_alone_for_the_script(client, player, django_user_model):
    record = a_record("bid_whist")
    table = finished_table(player, django_user_model, record)
    response = client.get(f"/tables/{table.pk}/hands/1/", {"step": 3, "partial": 1})
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="replay-step"') and "<html" not in html
    assert 'data-step="3"' in html


def test_the_replay_names_the_players_without_who_is_at_the_table_now(client, player,
                                                                     django_user_model):
    """A finished hand is history: a player who dropped off the live table since (a computer
    playing for them, or a countdown) is shown by name only."""
    from datetime import timedelta

    from django.utils import timezone

    table = finished_table(player, django_user_model, a_record("bid_whist"))
    Seat.objects.filter(table=table, position=1).update(
        away_since=timezone.now() - timedelta(days=1))
    Seat.objects.filter(table=table, position=2).update(away_since=timezone.now())
    for step in (0, "end"):
        _page, html = read(client, table, step)
        text = visible_text(html)
        assert "Bob" in text and "Cy" in text
        assert "Dropped off" not in text and "data-countdown-to" not in html
