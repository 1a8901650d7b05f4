"""Data migrations keep what was there: nothing that waited for a confirmation becomes final."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("leagues", "0002_online_fixtures")]
AFTER = [("leagues", "0003_provisional_deals")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.fixture
def back_to_latest():
    """Whatever happens, the database ends at the latest migration for the next tests."""
    yield
    executor = MigrationExecutor(connection)
    migrate(executor.loader.graph.leaf_nodes())


def test_provisional_tables_stay_provisional_deal_by_deal(back_to_latest):
    apps = migrate(BEFORE)
    User = apps.get_model("auth", "User")
    Club, Member = apps.get_model("leagues", "Club"), apps.get_model("leagues", "Member")
    League, Season = apps.get_model("leagues", "League"), apps.get_model("leagues", "Season")
    Evening = apps.get_model("leagues", "Evening")
    EveningTable, Deal = (apps.get_model("leagues", "EveningTable"),
                          apps.get_model("leagues", "Deal"))
    olga, mike = (User.objects.create(username="olga"), User.objects.create(username="mike"))
    club = Club.objects.create(name="C", slug="c")
    organiser = Member.objects.create(club=club, user=olga, name="Olga", role="organiser")
    player = Member.objects.create(club=club, user=mike, name="Mike", role="member")
    season = Season.objects.create(
        league=League.objects.create(club=club, name="L", game="solo_whist"), name="S")
    evening = Evening.objects.create(season=season, date=datetime.date(2030, 1, 1))
    deals_table = EveningTable.objects.create(evening=evening, number=1, entry="deals",
                                              provisional_by=player)
    for number, user in ((1, olga), (2, mike)):
        Deal.objects.create(table=deals_table, number=number, facts={}, points=[0, 0, 0, 0],
                            entered_by=user)
    totals_table = EveningTable.objects.create(evening=evening, number=2, entry="totals",
                                               provisional_by=player)
    final_table = EveningTable.objects.create(evening=evening, number=3, entry="deals")
    Deal.objects.create(table=final_table, number=1, facts={}, points=[0, 0, 0, 0],
                        entered_by=mike)
    apps = migrate(AFTER)
    EveningTable, Deal = (apps.get_model("leagues", "EveningTable"),
                          apps.get_model("leagues", "Deal"))
    deals_table = EveningTable.objects.get(pk=deals_table.pk)
    assert deals_table.provisional
    by_number = {d.number: d for d in Deal.objects.filter(table_id=deals_table.pk)}
    assert (by_number[1].provisional, by_number[1].entered_by_member_id) == (False, organiser.pk)
    assert (by_number[2].provisional, by_number[2].entered_by_member_id) == (True, player.pk)
    totals_table = EveningTable.objects.get(pk=totals_table.pk)
    assert totals_table.provisional and totals_table.totals_entered_by_id == player.pk
    assert not EveningTable.objects.get(pk=final_table.pk).provisional
    assert not Deal.objects.get(table_id=final_table.pk).provisional


def test_closed_seasons_keep_the_options_of_their_league_and_open_ones_follow_it(
        back_to_latest):
    before = [("leagues", "0011_member_address_confirmation")]
    after = [("leagues", "0012_season_closed_options")]
    apps = migrate(before)
    Club = apps.get_model("leagues", "Club")
    League, Season = apps.get_model("leagues", "League"), apps.get_model("leagues", "Season")
    club = Club.objects.create(name="C", slug="c")
    league = League.objects.create(club=club, name="L", game="bid_whist", min_evenings=3,
                                   points_for_win=3, rules={"game_target": 11})
    closed = Season.objects.create(league=league, name="Winter",
                                   closed_at=datetime.datetime(2030, 3, 1, tzinfo=datetime.UTC))
    open_ = Season.objects.create(league=league, name="Spring")
    apps = migrate(after)
    Season = apps.get_model("leagues", "Season")
    closed, open_ = Season.objects.get(pk=closed.pk), Season.objects.get(pk=open_.pk)
    assert closed.closed_options == {
        "ranking": "total", "best_evenings": 6, "min_evenings": 3, "points_for_win": 3,
        "points_for_loss": 0, "tie_break": "difference"}
    assert closed.closed_rules == {"game_target": 11}
    assert open_.closed_options is None and open_.closed_rules is None


def test_a_club_whose_slug_is_a_route_under_clubs_moves_to_pages_of_its_own(back_to_latest):
    apps = migrate([("leagues", "0012_season_closed_options")])
    Club = apps.get_model("leagues", "Club")
    for name, slug in (("New", "new"), ("New too", "new-2"), ("Join", "join"),
                       ("Reminders", "reminders"), ("Crown", "crown")):
        Club.objects.create(name=name, slug=slug)
    apps = migrate([("leagues", "0013_move_clubs_off_reserved_slugs")])
    Club = apps.get_model("leagues", "Club")
    assert dict(Club.objects.values_list("name", "slug")) == {
        "New": "new-3", "New too": "new-2", "Join": "join-2", "Reminders": "reminders-2",
        "Crown": "crown"}
