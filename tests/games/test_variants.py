"""Every named variant (games.rules.NAMED_VARIANTS), end to end: dealt and replayed from the command line,
played online with computer players, entered on a league's paper sheet with the same score
the engine gave at the table."""

import datetime
import json
from decimal import Decimal

import pytest

from games import registry, tables
from games.models import Hand, Table
from games.rules import NAMED_VARIANTS
from games.rules.records import random_record, replay_hand
from leagues import paper
from leagues.models import (
    Club,
    Evening,
    EveningTable,
    League,
    Member,
    Partnership,
    Season,
    TableSeat,
)
from leagues.scoring import EntryError

from .test_commands import manage
from .test_tables import computer_table, play_until_hands

VARIANTS = NAMED_VARIANTS
IDS = [f"{game}-{json.dumps(rules, sort_keys=True)}" for game, rules in VARIANTS]


@pytest.mark.slow  # manage.py in processes of its own
@pytest.mark.parametrize("game, rules", VARIANTS, ids=IDS)
def test_deal_with_house_rules_writes_a_record_that_replay_accepts(tmp_path, game, rules):
    path = tmp_path / "hand.json"
    dealt = manage("deal", "--game", game, "--seed", "5", "--rules", json.dumps(rules),
                   "--output", str(path))
    assert dealt.returncode == 0, dealt.stderr
    record = json.loads(path.read_text())
    assert record["rules"] == rules and len(record["hands"]) == registry.game(game).seats
    replayed = manage("replay", str(path))
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["complete"] is True


@pytest.mark.slow  # manage.py in a process of its own
def test_deal_refuses_a_house_rule_value_in_words():
    result = manage("deal", "--game", "bid_whist", "--seed", "1", "--rules", '{"kitty": "7"}')
    assert result.returncode != 0
    assert "kitty" in result.stderr and "Traceback" not in result.stderr


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("vera", "vera@example.org", "pw-long-enough")


@pytest.mark.django_db(transaction=True)  # computer players act on commit, as in production
@pytest.mark.usefixtures("computer_players_act_at_once")
@pytest.mark.parametrize("game, rules", VARIANTS, ids=IDS)
def test_played_online_with_computer_players(player, game, rules, monkeypatch):
    original = tables.create_table
    monkeypatch.setattr(tables, "create_table",
                        lambda user, game, _rules, **kw: original(user, game, rules, **kw))
    table = computer_table(player, game)
    assert table.status == Table.Status.PLAYING and table.rules == rules
    play_until_hands(table, player, 1)
    hand = Hand.objects.filter(table=table).first()
    assert hand is not None and hand.result["complete"] is True
    assert replay_hand(hand.record).result() == hand.result


def league_table(game: str, rules: dict) -> EveningTable:
    club = Club.objects.create(name=f"Club {game}")
    members = [Member.objects.create(club=club, name=f"M{i}") for i in range(4)]
    league = League.objects.create(club=club, name="L", game=game, rules=rules)
    season = Season.objects.create(league=league, name="S")
    evening = Evening.objects.create(season=season, date=datetime.date(2030, 1, 1))
    if registry.game(game).is_partnership_match:
        pairs = [Partnership.objects.create(season=season, first=members[i], second=members[i + 2])
                 for i in (0, 1)]
        return EveningTable.objects.create(evening=evening, pair_0=pairs[0], pair_1=pairs[1])
    table = EveningTable.objects.create(evening=evening)
    TableSeat.objects.bulk_create(TableSeat(table=table, seat=s, member=members[s])
                                  for s in range(registry.game(game).seats))
    return table


@pytest.mark.django_db
@pytest.mark.parametrize("game, rules", VARIANTS, ids=IDS)
def test_a_hand_entered_on_paper_scores_what_the_engine_scored(game, rules):
    """Random hands of the variant played by the engine, then entered on a league table of
    that variant, line by line: each line scores exactly the engine's points."""
    table = league_table(game, rules)
    sheet = paper.of(game)
    kept = 0
    for seed in range(30):
        result = replay_hand(random_record(game, seed, rules=rules, dealer=0)).result()
        if result.get("redeal"):
            continue
        lines = sheet.sheet_lines(result)
        scored = [sheet.score(table.league.engine_rules(), facts).points for facts in lines]
        assert [sum(column) for column in zip(*scored, strict=True)] == sheet.engine_points(
            result)
        for facts in lines:
            try:
                table.add_deal(facts, None)
            except EntryError:  # a match over: the sheet takes no more hands, as on paper
                assert registry.game(game).is_match
                break
            kept += 1
    table.refresh_from_db()
    assert kept and table.deals.count() == kept
    totals = [sum(Decimal(str(d.points[i])) for d in table.deals.all())
              for i in range(len(table.deals.first().points))]
    assert table.snapshot() == {**table.sheet.result(table), "provisional": []}
    if not registry.game(game).is_partnership_match:
        assert [s.total for s in table.seats.order_by("seat")] == totals
    else:
        assert [table.score_0, table.score_1] == totals
