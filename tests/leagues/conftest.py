"""Three personas for every view, since who may do what is what a view most often gets wrong:
an organiser of the club, a plain member, and an outsider (signed in, but not in the club),
plus small builders for leagues and tables."""

import datetime

import pytest

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


@pytest.fixture
def organiser_user(django_user_model):
    return django_user_model.objects.create_user("olga", "olga@example.org", "pw-olga-123")


@pytest.fixture
def member_user(django_user_model):
    return django_user_model.objects.create_user("mike", "mike@example.org", "pw-mike-123")


@pytest.fixture
def outsider_user(django_user_model):
    return django_user_model.objects.create_user("otto", "otto@example.org", "pw-otto-123")


@pytest.fixture
def club(organiser_user, member_user):
    club = Club.create_with_organiser(organiser_user, name="The Crown Whist Club")
    Member.objects.create(club=club, user=member_user, name="Mike")
    return club


@pytest.fixture
def organiser(club, organiser_user):
    return club.members.get(user=organiser_user)


@pytest.fixture
def member(club, member_user):
    return club.members.get(user=member_user)


@pytest.fixture
def as_organiser(client, organiser_user):
    client.force_login(organiser_user)
    return client


@pytest.fixture
def as_member(client, member_user):
    client.force_login(member_user)
    return client


@pytest.fixture
def as_outsider(client, outsider_user):
    client.force_login(outsider_user)
    return client


def add_members(club, names):
    return [Member.objects.create(club=club, name=name) for name in names]


@pytest.fixture
def solo_league(club):
    return League.objects.create(club=club, name="Tuesday Solo", game="solo_whist")


@pytest.fixture
def solo_season(solo_league):
    return Season.objects.create(league=solo_league, name="Winter")


@pytest.fixture
def solo_evening(solo_season):
    return Evening.objects.create(season=solo_season, date=datetime.date(2030, 1, 7),
                                  venue="The Crown")


def make_solo_table(evening, members, number=1):
    table = EveningTable.objects.create(evening=evening, number=number)
    TableSeat.objects.bulk_create(TableSeat(table=table, seat=s, member=m)
                                  for s, m in enumerate(members))
    return table


@pytest.fixture
def solo_table(solo_evening, organiser, member):
    others = add_members(organiser.club, ["Nell", "Pat"])
    return make_solo_table(solo_evening, [organiser, member, *others])


@pytest.fixture
def bid_league(club):
    return League.objects.create(club=club, name="Bid Whist League", game="bid_whist")


@pytest.fixture
def bid_season(bid_league):
    return Season.objects.create(league=bid_league, name="Spring")


@pytest.fixture
def bid_table(bid_season, organiser, member):
    a, b = add_members(organiser.club, ["Ann", "Bob"])
    pair_0 = Partnership.objects.create(season=bid_season, first=organiser, second=a,
                                        name="Aces")
    pair_1 = Partnership.objects.create(season=bid_season, first=member, second=b, name="Kings")
    evening = Evening.objects.create(season=bid_season, date=datetime.date(2030, 2, 3))
    return EveningTable.objects.create(evening=evening, number=1, pair_0=pair_0, pair_1=pair_1)


def solo(contract, declarer, tricks, partner=None):
    return {"contract": contract, "declarer": declarer, "partner": partner, "tricks": tricks}


def bid(team, bid_books, mode, books, revoke=None):
    return {"team": team, "bid": bid_books, "mode": mode, "books": books, "revoke": revoke}


def league_form(league, **changes):
    """The league settings page's fields as they are, with ``changes`` (None: left out)."""
    data = {"name": league.name, "ranking": league.ranking,
            "best_evenings": league.best_evenings, "min_evenings": league.min_evenings,
            "points_for_win": league.points_for_win, "points_for_loss": league.points_for_loss,
            "tie_break": league.tie_break, "rounds": league.rounds,
            "deals_per_round": league.deals_per_round,
            "sit_out_credit": league.sit_out_credit, "sit_out_score": league.sit_out_score,
            "odd_numbers": league.odd_numbers}
    if league.players_enter_results:
        data["players_enter_results"] = "on"
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}
