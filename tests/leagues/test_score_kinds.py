"""Each kind of score is one object that gives every part the leagues ask of it, and what a
partnership game keeps beside its score (Bid Whist's Bostons) is that game's own: another
partnership game keeps none, shows no such column and offers no such tie-break."""

import datetime
import sys
from types import ModuleType

import pytest

from games import registry
from games import rules as engines
from leagues import paper, score_kinds
from leagues.forms import LeagueForm
from leagues.models import Evening, EveningTable, League, Partnership, Season
from leagues.score_kinds.base import PARTS, ScoreKind

from .conftest import add_members, bid

pytestmark = pytest.mark.django_db

# A second partnership game: Bid Whist's engine and score sheet under another name, without
# Bid Whist's Bostons.
PLAIN = "plain_partners"


@pytest.fixture
def plain_game(monkeypatch):
    bid_whist = registry.game("bid_whist")
    sheet = ModuleType(f"{paper.__name__}.{PLAIN}")
    sheet.__dict__.update({name: value for name, value in vars(paper.of("bid_whist")).items()
                           if not name.startswith("__")})
    sheet.MATCH_TALLY = None  # no count beside the score
    monkeypatch.setitem(sys.modules, sheet.__name__, sheet)
    score_kinds.of.cache_clear()
    with registry.registered(registry.GameDescription(
            PLAIN, "Plain Partners", score_kind=registry.PARTNERSHIP_MATCH,
            contracts=bid_whist.contracts, words=bid_whist.words),
            engine=engines.GAME_MODULES["bid_whist"]):
        yield PLAIN
    score_kinds.of.cache_clear()


def a_match_with_a_boston(club, game: str) -> Season:
    """A season of ``game`` whose one match ends with a Boston for the second pair."""
    season = Season.objects.create(
        league=League.objects.create(club=club, name=f"{game} league", game=game),
        name="Spring")
    ann, ben, cat, dan = add_members(club, ["Ann", "Ben", "Cat", "Dan"])
    table = EveningTable.objects.create(
        evening=Evening.objects.create(season=season, date=datetime.date(2030, 1, 1)),
        pair_0=Partnership.objects.create(season=season, first=ann, second=ben, name="Aces"),
        pair_1=Partnership.objects.create(season=season, first=cat, second=dan, name="Kings"))
    table.add_deal(bid(1, 5, "uptown", 13), None)
    return season


@pytest.mark.parametrize("game", [g.id for g in registry.all_games()])
def test_every_kind_of_score_gives_every_part(game):
    kind = score_kinds.of(game)
    assert isinstance(kind, ScoreKind) and kind.id == registry.game(game).score_kind
    missing = [part for part in PARTS if not hasattr(kind, part)
               or getattr(getattr(type(kind), part, None), "__isabstractmethod__", False)]
    assert missing == []


def test_a_kind_of_score_without_a_part_is_refused():
    class Incomplete(ScoreKind):
        id = registry.RUNNING_BALANCE

    with pytest.raises(TypeError, match="standings"):
        Incomplete("solo_whist")


def test_bid_whist_keeps_its_bostons(club, as_organiser):
    season = a_match_with_a_boston(club, "bid_whist")
    assert season.evenings.get().tables.get().bostons_1 == 1
    csv_text = as_organiser.get(
        f"/clubs/{club.slug}/seasons/{season.pk}/standings.csv").content.decode()
    assert csv_text.splitlines()[0].endswith(",Bostons")
    assert "<th>Bostons</th>" in as_organiser.get(
        f"/clubs/{club.slug}/seasons/{season.pk}/").content.decode()


def test_another_partnership_game_keeps_no_bostons(club, as_organiser, plain_game):
    season = a_match_with_a_boston(club, plain_game)
    table = season.evenings.get().tables.get()
    assert (table.winner, table.bostons_0, table.bostons_1) == (1, 0, 0)
    csv_text = as_organiser.get(
        f"/clubs/{club.slug}/seasons/{season.pk}/standings.csv").content.decode()
    assert csv_text.splitlines()[0].endswith(",Difference")
    assert "Bostons" not in as_organiser.get(
        f"/clubs/{club.slug}/seasons/{season.pk}/").content.decode()
    assert tie_break_errors(plain_game, League.TieBreak.BOSTONS) == [
        "Plain Partners does not offer this tie-break."]
    assert tie_break_errors(plain_game, League.TieBreak.HEAD_TO_HEAD) == []
    assert tie_break_errors("bid_whist", League.TieBreak.BOSTONS) == []


def tie_break_errors(game: str, tie_break: str) -> list[str]:
    """What a new league of ``game`` with ``tie_break`` is told of its tie-break."""
    form = LeagueForm({"name": "Tuesdays", "game": game, "ranking": "total",
                       "best_evenings": 6, "min_evenings": 0, "points_for_win": 2,
                       "points_for_loss": 0, "tie_break": tie_break})
    form.fields["game"].choices = registry.choices()
    form.is_valid()
    return form.errors.get("tie_break", [])


@pytest.mark.parametrize("game", [g.id for g in registry.all_games()])
def test_only_a_game_played_for_a_number_of_deals_asks_for_one_online(game):
    """A match (Bid Whist, Cutthroat) is played online to its target: its form must not ask
    for a number of deals that the table would ignore."""
    from leagues.forms import OnlineTableForm

    class Table:
        league = League(game=game)
        evening = Evening(deals_per_round=None)

    asks = "deals" in OnlineTableForm(Table(), []).fields
    assert asks == registry.game(game).plays_a_number_of_deals
