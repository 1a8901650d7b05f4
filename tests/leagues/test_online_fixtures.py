"""Online fixtures: an evening table played at an online table, its hands recorded in the league
as they finish, through the same entry path as the paper score sheet."""

import datetime
import random
from decimal import Decimal
from types import SimpleNamespace

import pytest

from games import dealing, tables
from games.computer_runner import decide
from games.models import Hand
from games.models import Table as GameTable
from leagues import online
from leagues.models import (
    Club,
    EntryError,
    Evening,
    EveningTable,
    League,
    OnlineFixture,
    RecordedHand,
    ResultChange,
    Season,
)
from leagues.standings import season_standings

from .conftest import add_members, make_solo_table, solo

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("computer_players_at_once")]


@pytest.fixture
def computer_players_at_once(settings):
    # hand_finished is sent on commit; computer players must act in this thread, at once.
    settings.COMPUTER_DELAY_SECONDS = 0
    settings.COMPUTER_WORKERS = 0


@pytest.fixture(autouse=True)
def seeded_deals(monkeypatch):
    # Live deals come from the OS's secure source; tests deal from a seed, so each test plays
    # the same cards every run (e.g. nobody holds three aces in the Belgian test's first hand).
    rng = random.Random(2030)
    monkeypatch.setattr(dealing, "secrets", SimpleNamespace(SystemRandom=lambda: rng))


def url(table, suffix=""):
    return f"/clubs/{table.evening.season.league.club.slug}/tables/{table.pk}/{suffix}"


def give_logins(django_user_model, members):
    for member in members:
        member.user = django_user_model.objects.create_user(member.name.lower(), None, "pw-1234567")
        member.save(update_fields=["user"])
    return members


def league_table(club, game, rules=None, names=("Ann", "Bob", "Cat", "Dan")):
    """A table of four members (no login yet) in a fresh league of ``game``."""
    league = League.objects.create(club=club, name=f"{game} league", game=game, rules=rules or {})
    season = Season.objects.create(league=league, name="Winter")
    evening = Evening.objects.create(season=season, date=datetime.date(2030, 3, 4))
    members = add_members(club, names)
    if game == "bid_whist":
        pair_0 = season.partnerships.create(first=members[0], second=members[2], name="North")
        pair_1 = season.partnerships.create(first=members[1], second=members[3], name="East")
        return EveningTable.objects.create(evening=evening, number=1, pair_0=pair_0,
                                           pair_1=pair_1), members
    return make_solo_table(evening, members), members


# -- driving the online table as four people would ----------------------------------------------

SKIPPED = {"pass", "trou", "passe_trou"}


def wanted_actions(game, hand_number, bids_so_far):
    """What the people at the table mean to call: a different contract in each hand."""
    if game == "solo_whist":
        if hand_number == 1:
            return ["prop"] if bids_so_far == 0 else ["cop"]
        return ["misere"] if bids_so_far == 0 else []
    if game == "belgian_whist":
        if hand_number == 1:
            return ["petite_misere"]  # everyone who may: one settlement each
        return ["solo 6 "] if bids_so_far == 0 else []
    return ["bid "] if bids_so_far == 0 else []


def choose(game, state, hand_number):
    seat = state.to_act
    view = state.view(seat)
    if game == "cutthroat_bid_whist":  # each for themselves: they bid and play as they judge
        return decide(view, "normal", rules=state.rules.overrides())
    if view["phase"] == "auction":
        legal = list(state.legal_actions())
        bids = [a for a in view["auction"] if a["action"] not in SKIPPED]
        for wanted in wanted_actions(game, hand_number, len(bids)):
            for action in legal:
                if action == wanted or (wanted.endswith(" ") and action.startswith(wanted)):
                    return action
        if "pass" in legal:
            return "pass"
    return decide(view, "easy", rules=state.rules.overrides())


def play_out(game_table_id, users, *, hands=None, actions=None):
    """Plays the people's turns (computers play theirs by themselves) until the table ends,
    ``hands`` hands have finished, or ``actions`` actions were made."""
    for _ in range(actions or 5000):
        table = GameTable.objects.get(pk=game_table_id)
        finished = table.hands.count()
        if table.status != GameTable.Status.PLAYING or (hands is not None and finished >= hands):
            return table
        state = tables.current_state(table)
        tables.play(table.pk, users[state.to_act], choose(table.game, state, finished + 1),
                    table.version)
    return GameTable.objects.get(pk=game_table_id)


def start_and_seat_everyone(table, members, organiser_user, django_user_model, **kwargs):
    give_logins(django_user_model, members)
    fixture = online.start_online(table, organiser_user, **kwargs)
    users = [seat.user for seat in fixture.game_table.seats.order_by("position")]
    assert all(users)
    return fixture, users


def assert_deals_match_the_engine(fixture):
    """Each recorded hand's deals add up to exactly the engine's points of that hand."""
    game = fixture.table.league.game
    deals = list(fixture.table.deals.order_by("number"))
    links = {link.hand_id: link for link in fixture.hands.all()}
    for hand in Hand.objects.filter(table=fixture.game_table).order_by("number"):
        link = links[hand.pk]
        assert link.error == ""
        mine, deals = deals[:link.deals], deals[link.deals:]
        if hand.result.get("redeal"):
            assert mine == []
            continue
        assert mine, hand.result
        recorded = [sum(Decimal(str(d.points[i])) for d in mine) for i in range(len(mine[0].points))]
        assert recorded == [Decimal(str(p)) for p in online.engine_points(game, hand.result)]
    assert deals == []  # nothing recorded that no hand explains


# -- creating -----------------------------------------------------------------------------------


def test_organiser_opens_an_online_table_with_the_house_rules_and_seats(
        as_organiser, solo_table, organiser_user, member_user):
    solo_table.league.rules = {"overtricks": True}
    solo_table.league.save()
    response = as_organiser.post(url(solo_table, "online/"), {"deals": "8"}, follow=True)
    fixture = OnlineFixture.objects.get(table=solo_table)
    game_table = fixture.game_table
    assert (game_table.game, game_table.rules) == ("solo_whist", {"overtricks": True})
    assert game_table.is_private and game_table.deals_limit == 8
    assert game_table.created_by == organiser_user
    seats = list(game_table.seats.order_by("position"))
    assert [s.user for s in seats] == [organiser_user, member_user, None, None]
    assert game_table.status == GameTable.Status.WAITING
    page = response.content.decode()
    assert f"Online table #{game_table.pk}" in page
    assert f"/tables/{game_table.pk}/invite/{game_table.invite_token}/" in page
    assert page.count("seat free: waiting for a player") == 2
    assert "Play this table online</button>" not in page


def test_the_default_is_a_sensible_number_of_deals(as_organiser, solo_table):
    page = as_organiser.get(url(solo_table)).content.decode()
    assert "Play this table online" in page and 'value="16"' in page
    assert "A computer plays for Nell" in page and "A computer plays for Mike" not in page


def test_bid_whist_pairs_sit_across_and_play_to_the_league_target(
        as_organiser, bid_table, organiser_user, member_user):
    bid_table.league.rules = {"game_target": 5}
    bid_table.league.save()
    as_organiser.post(url(bid_table, "online/"), {})
    game_table = OnlineFixture.objects.get(table=bid_table).game_table
    assert game_table.rules == {"game_target": 5} and game_table.deals_limit is None
    # Pair 0 (Olga & Ann) in seats 0 and 2, pair 1 (Mike & Bob) in 1 and 3; Ann and Bob have
    # no login: their seats wait for them.
    assert [s.user for s in game_table.seats.order_by("position")] == [
        organiser_user, member_user, None, None]
    page = as_organiser.get(url(bid_table)).content.decode()
    assert f"Online table #{game_table.pk}" in page and "waiting for players" in page


def test_a_computer_takes_the_seat_of_a_member_without_login_and_the_pages_say_so(
        as_organiser, solo_table):
    as_organiser.post(url(solo_table, "online/"),
                      {"deals": "4", "computer_2": "on", "computer_level": "easy"})
    game_table = OnlineFixture.objects.get(table=solo_table).game_table
    seats = list(game_table.seats.order_by("position"))
    assert seats[2].computer_level == "easy" and seats[3].is_free
    table_page = as_organiser.get(url(solo_table)).content.decode()
    assert "a computer plays for Nell" in table_page
    evening = as_organiser.get(
        f"/clubs/{solo_table.league.club.slug}/evenings/{solo_table.evening.pk}/")
    assert "A computer played for Nell." in evening.content.decode()
    assert "A computer played for Pat." not in evening.content.decode()


def test_a_table_with_results_or_already_online_is_refused(as_organiser, solo_table,
                                                           organiser_user):
    solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    response = as_organiser.post(url(solo_table, "online/"), {"deals": "4"}, follow=True)
    assert "only a table without results can be played online" in response.content.decode()
    solo_table.change_deal(1, None, organiser_user)
    as_organiser.post(url(solo_table, "online/"), {"deals": "4"})
    response = as_organiser.post(url(solo_table, "online/"), {"deals": "4"}, follow=True)
    assert "already being played online" in response.content.decode()
    assert GameTable.objects.count() == 1


def test_paper_entry_waits_while_the_table_plays_online(as_organiser, solo_table):
    as_organiser.post(url(solo_table, "online/"), {"deals": "4"})
    response = as_organiser.post(url(solo_table, "deals/"), {
        "contract": "solo", "declarer": "0", "partner": "", "tricks": "6"}, follow=True)
    assert "being played online" in response.content.decode()
    assert not solo_table.deals.exists()
    assert "Next deal" not in response.content.decode()


def test_the_model_refuses_a_deal_or_totals_for_a_table_played_online(as_organiser, solo_table,
                                                                      organiser_user):
    # Whatever path a deal takes (a form, a script, an import), the table's own entry methods
    # refuse it while the online table plays: its hands are the table's deals.
    as_organiser.post(url(solo_table, "online/"), {"deals": "4"})
    with pytest.raises(EntryError, match="being played online"):
        solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    with pytest.raises(EntryError, match="being played online"):
        solo_table.set_totals([3, -1, -1, -1], organiser_user)
    solo_table.refresh_from_db()
    assert not solo_table.deals.exists() and not solo_table.entry
    assert not ResultChange.objects.filter(table=solo_table).exists()
    # Once the online table has ended, the paper sheet takes deals again.
    OnlineFixture.objects.filter(table=solo_table).update(completed_at=datetime.datetime.now(
        datetime.UTC))
    solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    assert solo_table.deals.count() == 1


def test_an_evening_whose_table_plays_online_cannot_be_deleted(as_organiser, solo_table):
    as_organiser.post(url(solo_table, "online/"), {"deals": "4"})
    evening = solo_table.evening
    club = evening.season.league.club
    response = as_organiser.post(f"/clubs/{club.slug}/evenings/{evening.pk}/delete/",
                                 follow=True)
    assert "being played online" in response.content.decode()
    assert Evening.objects.filter(pk=evening.pk).exists()
    assert EveningTable.objects.filter(pk=solo_table.pk).exists()


# -- recording ---------------------------------------------------------------------------------


def test_solo_whist_hands_are_recorded_as_they_finish(client, club, organiser_user,
                                                      django_user_model):
    table, members = league_table(club, "solo_whist")
    fixture, users = start_and_seat_everyone(table, members, organiser_user, django_user_model,
                                             deals_limit=2)
    play_out(fixture.game_table_id, users, hands=1)
    first = Hand.objects.get(table=fixture.game_table, number=1)
    assert first.result["contract"] == "prop_and_cop"
    deal = table.deals.get()  # recorded before the second hand was played
    assert deal.facts == {"contract": "prop_and_cop", "declarer": first.result["declarer"],
                          "partner": first.result["partner"],
                          "tricks": first.result["tricks"][first.result["declarer"]]
                          + first.result["tricks"][first.result["partner"]]}
    assert deal.points == first.result["units"] and deal.entered_by is None

    game_table = play_out(fixture.game_table_id, users)
    assert game_table.status == GameTable.Status.FINISHED
    assert table.deals.count() == 2 and table.deals.get(number=2).contract == "misere"
    assert_deals_match_the_engine(fixture)
    # The evening's totals, and so the standings, are the online table's balances.
    assert [s.total for s in table.seats.order_by("seat")] == [
        Decimal(str(b)) for b in game_table.summary["balances"]]
    rows = {row.member_id: row.total for row in season_standings(table.evening.season)}
    assert [rows[m.pk] for m in members] == [Decimal(str(b))
                                             for b in game_table.summary["balances"]]
    fixture.refresh_from_db()
    assert fixture.is_complete
    change = ResultChange.objects.filter(table=table, action="add").first()
    assert change.changed_by is None and change.note == f"online table #{game_table.pk}"
    client.force_login(organiser_user)
    page = client.get(url(table)).content.decode()
    assert "The online table has ended" in page and "Misère" in page
    changes = client.get(url(table, "changes/")).content.decode()
    assert f"Deal 1 recorded automatically from online table #{game_table.pk}" in changes


def test_belgian_whist_records_one_line_per_settlement(club, organiser_user, django_user_model):
    table, members = league_table(club, "belgian_whist")
    fixture, users = start_and_seat_everyone(table, members, organiser_user, django_user_model,
                                             deals_limit=2)
    game_table = play_out(fixture.game_table_id, users)
    assert game_table.status == GameTable.Status.FINISHED
    played = [h.result for h in Hand.objects.filter(table=game_table) if not h.result["redeal"]]
    assert sum(len(r["contracts"]) for r in played) == table.deals.count()
    assert any(len(r["contracts"]) > 1 for r in played)  # several petite misère players
    for deal in table.deals.filter(contract="petite_misere"):
        assert deal.facts["partner"] is None and deal.facts["level"] is None
    assert_deals_match_the_engine(fixture)
    assert [s.total for s in table.seats.order_by("seat")] == [
        Decimal(str(b)) for b in game_table.summary["balances"]]


def test_a_bid_whist_match_is_recorded_hand_by_hand_to_its_end(
        club, organiser_user, django_user_model):
    table, members = league_table(club, "bid_whist", rules={"game_target": 3})
    fixture, users = start_and_seat_everyone(table, members, organiser_user, django_user_model)
    game_table = play_out(fixture.game_table_id, users)
    assert game_table.status == GameTable.Status.FINISHED
    assert_deals_match_the_engine(fixture)
    table.refresh_from_db()
    summary = game_table.summary
    assert [table.score_0, table.score_1] == [Decimal(s) for s in summary["scores"]]
    assert table.winner == summary["winner"]
    hand = Hand.objects.filter(table=game_table, result__redeal__isnull=True).first()
    team = hand.result["declarer"] % 2
    bid, mode = hand.result["bid"].split()
    assert table.deals.get(number=1).facts == {"team": team, "bid": int(bid), "mode": mode,
                                               "books": hand.result["books"][team],
                                               "revoke": None}
    pairs = {row.pair.pk: row for row in season_standings(table.evening.season)}
    winner = (table.pair_0, table.pair_1)[table.winner]
    assert pairs[winner.pk].won == 1


def test_a_hand_is_never_recorded_twice(club, organiser_user, django_user_model):
    table, members = league_table(club, "solo_whist")
    fixture, users = start_and_seat_everyone(table, members, organiser_user, django_user_model,
                                             deals_limit=2)
    game_table = play_out(fixture.game_table_id, users)
    count = table.deals.count()
    hand = Hand.objects.filter(table=game_table).last()
    online.on_hand_finished(GameTable, table=game_table, hand=hand)
    online.on_table_finished(GameTable, table=game_table)
    assert online.record_finished_hands(game_table.pk) == 0
    assert table.deals.count() == count
    # An organiser's correction (here: deleting a recorded deal) is not undone by a catch-up.
    table.change_deal(1, None, organiser_user)
    assert online.record_finished_hands(game_table.pk) == 0
    assert table.deals.count() == count - 1
    assert RecordedHand.objects.filter(fixture=fixture).count() == 2


def test_a_table_closed_mid_hand_records_the_finished_hands_only(
        club, organiser_user, django_user_model):
    table, members = league_table(club, "solo_whist")
    fixture, users = start_and_seat_everyone(table, members, organiser_user, django_user_model,
                                             deals_limit=16)
    play_out(fixture.game_table_id, users, hands=1)
    game_table = GameTable.objects.get(pk=fixture.game_table_id)
    play_out(game_table.pk, users, actions=6)  # into the second hand
    tables.close_table(game_table.pk, organiser_user)
    fixture.refresh_from_db()
    assert fixture.is_complete
    assert table.deals.count() == 1 and fixture.hands.count() == 1
    assert_deals_match_the_engine(fixture)
    # The fixture is over: paper entry is open again (e.g. to finish the evening at the venue).
    table.add_deal(solo("solo", 0, 6), organiser_user)


def test_a_hand_finished_after_its_season_closed_is_not_entered(club, organiser_user,
                                                                 django_user_model):
    from leagues import edits
    table, members = league_table(club, "solo_whist")
    fixture, users = start_and_seat_everyone(table, members, organiser_user, django_user_model,
                                             deals_limit=3)
    play_out(fixture.game_table_id, users, hands=1)
    assert table.deals.count() == 1
    edits.close_season(table.evening.season, organiser_user)
    play_out(fixture.game_table_id, users, hands=2)
    assert table.deals.count() == 1  # the closed season's standings stay as they were
    late = RecordedHand.objects.filter(fixture=fixture, deals=0).get()
    assert "is closed" in late.error


# -- access ------------------------------------------------------------------------------------


def test_only_organisers_open_online_tables(client, solo_table, member_user, outsider_user):
    client.force_login(member_user)
    assert client.get(url(solo_table, "online/")).status_code == 403
    assert client.post(url(solo_table, "online/"), {"deals": "4"}).status_code == 403
    client.force_login(outsider_user)
    assert client.post(url(solo_table, "online/"), {"deals": "4"}).status_code == 404
    client.logout()
    assert client.post(url(solo_table, "online/"), {"deals": "4"}).status_code == 302
    assert not GameTable.objects.exists()


def test_organiser_gets_the_form_page(as_organiser, bid_table):
    page = as_organiser.get(url(bid_table, "online/")).content.decode()
    assert "Play table 1 online" in page and 'name="deals"' not in page
    assert 'name="computer_2"' in page  # Ann has no login


def test_members_see_the_link_outsiders_see_nothing(client, solo_table, organiser_user,
                                                    member_user, outsider_user):
    fixture = online.start_online(solo_table, organiser_user, deals_limit=4)
    link = f"/tables/{fixture.game_table_id}/invite/{fixture.game_table.invite_token}/"
    client.force_login(member_user)
    page = client.get(url(solo_table)).content.decode()
    assert link in page and "Play this table online" not in page
    client.force_login(outsider_user)
    assert client.get(url(solo_table)).status_code == 404
    evening = f"/clubs/{solo_table.league.club.slug}/evenings/{solo_table.evening.pk}/"
    assert client.get(evening).status_code == 404
    # In a public club anyone sees that the table is played online, but not the invite link.
    Club.objects.filter(pk=solo_table.league.club.pk).update(is_public=True)
    page = client.get(url(solo_table)).content.decode()
    assert f"Online table #{fixture.game_table_id}" in page and link not in page


def test_a_cutthroat_match_is_recorded_to_its_end_with_individual_scores(
        club, organiser_user, django_user_model):
    table, members = league_table(club, "cutthroat_bid_whist", rules={"game_target": 15},
                                  names=("Ann", "Bob", "Cat"))
    fixture, users = start_and_seat_everyone(table, members, organiser_user, django_user_model)
    assert len(users) == 3
    game_table = play_out(fixture.game_table_id, users)
    assert game_table.status == GameTable.Status.FINISHED
    assert_deals_match_the_engine(fixture)
    table.refresh_from_db()
    summary = game_table.summary
    assert [s.total for s in table.seats.order_by("seat")] == [
        Decimal(s) for s in summary["scores"]]
    assert table.winner == summary["winner"] is not None
    rows = {row.member_id: row for row in season_standings(table.evening.season)}
    assert rows[members[table.winner].pk].won == 1
    assert sum(row.played for row in rows.values()) == 3


# -- a process killed after the last hand's commit ----------------------------------------------


def stored_ratings(club, game):
    from ratings.events import scope_of
    from ratings.models import Rating

    return sorted(Rating.objects.filter(scope=scope_of(club), game=game)
                  .values_list("player", "mu", "sigma", "results"))


def test_a_process_killed_after_the_last_hand_leaves_nothing_undone(
        club, organiser_user, django_user_model, settings):
    """The work after a hand (its deal, the fixture's completion, the ratings) is written with
    the hand: a process killed before doing it leaves it in the database, and the next one to
    start does it."""
    from games import followups
    from games.models import FollowUp
    from ratings.events import scope_of
    from ratings.store import refresh

    table, members = league_table(club, "solo_whist")
    fixture, users = start_and_seat_everyone(table, members, organiser_user, django_user_model,
                                             deals_limit=2)
    settings.FOLLOW_UPS_INLINE = False  # the worker never gets to it: the process "dies"
    game_table = play_out(fixture.game_table_id, users)
    assert game_table.status == GameTable.Status.FINISHED
    fixture.refresh_from_db()
    assert not fixture.is_complete and table.deals.count() == 0
    assert FollowUp.objects.count() >= 3  # two hands and the table's end
    # The next process starts and catches up.
    assert followups.process_due() >= 3
    fixture.refresh_from_db()
    assert fixture.is_complete and table.deals.count() == 2
    assert_deals_match_the_engine(fixture)
    assert not FollowUp.objects.exists()
    caught_up = stored_ratings(club, "solo_whist")
    assert caught_up
    refresh(scope_of(club), "solo_whist")
    assert stored_ratings(club, "solo_whist") == caught_up


def test_work_that_fails_halfway_is_undone_and_done_again(
        club, organiser_user, django_user_model, settings, monkeypatch):
    """A crash in the middle of the follow-up (here: the fixture's completion raising after
    recording) undoes all of it; the row stays with its error and is done at the next try."""
    from django.utils import timezone

    from games import followups
    from games.models import FollowUp

    table, members = league_table(club, "solo_whist")
    fixture, users = start_and_seat_everyone(table, members, organiser_user, django_user_model,
                                             deals_limit=2)
    settings.FOLLOW_UPS_INLINE = False
    game_table = play_out(fixture.game_table_id, users)
    real = online.finish_fixture

    def dies_halfway(game_table_id):
        real(game_table_id)
        raise RuntimeError("killed")

    monkeypatch.setattr(online, "finish_fixture", dies_halfway)
    followups.process_due()
    fixture.refresh_from_db()
    assert not fixture.is_complete  # the completion was undone with the failure
    waiting = FollowUp.objects.get(kind="table_finished")
    assert waiting.attempts == 1 and "killed" in waiting.last_error
    assert table.deals.count() == 2  # the hands' own follow-ups were done
    monkeypatch.setattr(online, "finish_fixture", real)
    FollowUp.objects.filter(pk=waiting.pk).update(due_at=timezone.now())
    assert followups.process_due() == 1
    fixture.refresh_from_db()
    assert fixture.is_complete and game_table.pk == fixture.game_table_id
