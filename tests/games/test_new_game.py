"""A new game needs the files docs/architecture.md lists under "Adding a game", and nothing
else: a small game of the test's own, Trio Whist (``tests/games/new_game/``, laid out as the
repository is: one file for each new file of the list), registered for the test
(``registry.registered``, the two entries of the list) and played through the site, its
tables over HTTP, its leagues on paper, its ratings.  The real games are left as they are."""

from __future__ import annotations

import datetime
import random
import re
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

import games.rules
import games.rules.computer
import games.words
import leagues.paper
from games import registry, tables
from games.models import Hand, Table
from games.rules.records import replay_hand
from leagues.models import Club, Evening, EveningTable, League, Member, Season, TableSeat
from ratings import games as rated_games
from ratings.events import scope_of
from ratings.models import Rating
from tests.games.test_one_place_per_game import missing_parts

ROOT = Path(__file__).resolve().parents[2]
NEW_GAME = Path(__file__).resolve().parent / "new_game"
GAME = "trio_whist"
PACKAGES = (games.rules, games.rules.computer, games.words, leagues.paper)


def documented(kind: str) -> set[str]:
    """The files of one table of docs/architecture.md's "Adding a game": the table whose
    header's first cell is ``kind``."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("\n## Adding a game\n", 1)[1].split("\n## ", 1)[0]
    found, in_table = set(), False
    for line in section.splitlines():
        if line.startswith(f"| {kind} |"):
            in_table = True
        elif not line.startswith("|"):
            in_table = False
        elif in_table:
            cell = re.match(r"\| `([^`]+)`", line)
            if cell:
                found.add(cell.group(1))
    return found


def own_files() -> set[str]:
    """The test's game's files, as their places in the repository."""
    return {path.relative_to(NEW_GAME).as_posix().replace(GAME, "<game>")
            for path in NEW_GAME.rglob("*.py")}


@pytest.fixture
def trio_whist(monkeypatch):
    """Trio Whist offered for one test: its files found where the site looks for a game's
    own (each package's path), its two entries made by ``registry.registered``."""
    for package in PACKAGES:
        place = NEW_GAME.joinpath(*package.__name__.split("."))
        monkeypatch.setattr(package, "__path__", [*package.__path__, str(place)])
    description = registry.GameDescription(
        GAME, "Trio Whist", score_kind=registry.INDIVIDUAL_MATCH,
        contracts=tuple(registry.BID_WHIST_MODES), words=registry.BID_WHIST_MODES,
        summary="Three players, each for themselves.")
    try:
        with registry.registered(description, engine=f"games.rules.{GAME}"):
            yield description
    finally:
        for name in [name for name in sys.modules if name.endswith(f".{GAME}")]:
            del sys.modules[name]


def test_the_documented_list_is_exactly_the_new_games_files():
    assert own_files() == documented("new file")
    assert documented("one entry in") == {"games/rules/__init__.py", "games/registry.py"}
    assert documented("only if the default does not fit") == {"ratings/games/<game>.py"}


def test_registering_a_game_for_a_test_offers_it_with_its_modules(trio_whist):
    assert GAME in registry.game_ids() and GAME in dict(registry.choices())
    assert registry.game(GAME).seats == 3
    assert missing_parts(trio_whist) == []  # each of its modules is its kind's protocol


def test_after_the_test_the_game_is_gone():
    assert GAME not in registry.game_ids() and GAME not in games.rules.GAME_MODULES
    assert registry.game_ids() == ("bid_whist", "solo_whist", "belgian_whist",
                                   "cutthroat_bid_whist")


@pytest.mark.django_db
def test_a_new_game_needs_no_migration(trio_whist):
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)  # exits 1 on a change


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("tess", "tess@example.org", "pw-long-enough")


@pytest.mark.django_db(transaction=True)  # computer players act on commit, as in production
@pytest.mark.usefixtures("computer_players_act_at_once")
def test_a_table_of_the_new_game_is_created_dealt_shown_and_played_over_http(
        trio_whist, client, player):
    client.force_login(player)
    form = client.get(f"/tables/new/{GAME}/")
    assert form.status_code == 200 and "Trio Whist" in form.content.decode()
    # the form as offered: its game's house rules at their defaults
    offered = {name: field.initial for name, field in form.context["form"].fields.items()
               if field.initial not in (None, False)}
    created = client.post(f"/tables/new/{GAME}/", offered)
    assert created.status_code == 302, created.context["form"].errors
    table = Table.objects.get(game=GAME)
    assert created.status_code == 302 and created["Location"] == table.get_absolute_url()
    client.post(f"/tables/{table.pk}/fill/", {"level": "normal"})  # its computer players
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.seats.count() == 3
    page = client.get(table.get_absolute_url()).content.decode()
    assert "Trio Whist" in page and 'class="card' in page
    rng = random.Random(3)
    for _ in range(200):
        table.refresh_from_db()
        if table.hands.exists():
            break
        action = tables.current_state(table).random_action(rng)  # the person's turn
        answer = client.post(f"/tables/{table.pk}/act/", {"action": action,
                                                          "version": table.version})
        assert answer.status_code == 302
    hand = Hand.objects.get(table=table)
    assert hand.result["complete"] and replay_hand(hand.record).result() == hand.result
    assert client.get(f"/tables/{table.pk}/hands/1/").status_code == 200


@pytest.mark.django_db
def test_a_league_of_the_new_game_enters_a_deal_on_paper_and_rates_it(
        trio_whist, client, player, django_capture_on_commit_callbacks):
    club = Club.create_with_organiser(player, name="Trio Club")
    members = [club.members.get(user=player), *(Member.objects.create(club=club, name=name)
                                                for name in ("Uma", "Vic"))]
    league = League.objects.create(club=club, name="Threes", game=GAME)
    evening = Evening.objects.create(season=Season.objects.create(league=league, name="S"),
                                     date=datetime.date(2030, 1, 1))
    table = EveningTable.objects.create(evening=evening)
    TableSeat.objects.bulk_create(TableSeat(table=table, seat=seat, member=member)
                                  for seat, member in enumerate(members))
    client.force_login(player)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/clubs/{club.slug}/tables/{table.pk}/deals/",
                    {"declarer": "1", "bid": "9", "mode": "notrump", "tricks": "10",
                     "number": "1"})
    table.refresh_from_db()
    assert [seat.total for seat in table.seats.order_by("seat")] == [0, 20, 0]
    assert rated_games.of(GAME) is rated_games.of("solo_whist")  # the default
    rated = dict(Rating.objects.filter(scope=scope_of(club), game=GAME)
                 .values_list("player", "mu"))
    uma = f"m:{members[1].pk}"
    assert len(rated) == 3 and all(rated[uma] > mu for who, mu in rated.items() if who != uma)
