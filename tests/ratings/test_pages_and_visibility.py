"""Ratings where people look, for the three personas, and each club's visibility kept: a
members-only club's results never reach the site's list, its ratings pages are invisible to
outsiders; computer players are rated, one identity per level."""

import random
import re

import pytest
from django.urls import reverse

from games import signals as game_signals
from games.models import Hand, Seat, Table
from games.rules import game_module
from games.rules.computer import choose_action
from leagues import edits
from ratings.events import SITE, scope_of
from ratings.models import Rating
from ratings.read import site_rows
from tests.leagues.conftest import solo

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated_table(solo_table, organiser_user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        for declarer in (0, 0, 1, 0):
            solo_table.add_deal(solo("solo", declarer, 9), organiser_user)
    return solo_table


def test_results_rate_the_table_in_the_clubs_own_scope(rated_table, organiser):
    club = organiser.club
    assert not club.is_public
    assert Rating.objects.filter(scope=scope_of(club), game="solo_whist").count() == 4
    # A members-only club's results stay out of the site's ratings.
    assert not Rating.objects.filter(scope=SITE).exists()
    top = Rating.objects.filter(scope=scope_of(club)).order_by("-mu").first()
    assert top.player == f"u:{organiser.user_id}"  # seat 0 made three solos


def test_a_club_made_public_keeps_its_own_ratings_and_lends_the_site_its_shared_results(
        rated_table, organiser, django_capture_on_commit_callbacks):
    club = organiser.club
    own = dict(Rating.objects.filter(scope=scope_of(club)).values_list("player", "mu"))
    with django_capture_on_commit_callbacks(execute=True):
        edits.change_club(club, {"is_public": True}, organiser.user)
    # The club's pages read the same numbers as before: switching re-rates nothing of its own.
    assert dict(Rating.objects.filter(scope=scope_of(club)).values_list("player", "mu")) == own
    # Two members with an account sat at the table (Olga and Mike): it counts site-wide.
    assert Rating.objects.filter(scope=SITE, game="solo_whist").count() == 4


def test_the_clubs_ratings_page_for_the_three_personas(rated_table, as_organiser, client,
                                                       member_user, outsider_user, organiser):
    url = reverse("ratings:club", args=[organiser.club.slug])
    page = as_organiser.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Olga" in text or organiser.name in text
    assert " ± " in text and "1," in text  # the friendly scale, never raw mu and sigma
    client.force_login(member_user)
    assert client.get(url).status_code == 200
    client.force_login(outsider_user)
    assert client.get(url).status_code == 404  # a members-only club is invisible


def test_a_public_clubs_people_stay_for_its_members(rated_table, organiser, client,
                                                    outsider_user):
    club = organiser.club
    club.is_public = True
    club.save()
    client.force_login(outsider_user)
    assert client.get(reverse("ratings:club", args=[club.slug])).status_code == 403
    member_url = reverse("ratings:member", args=[club.slug, organiser.pk])
    assert client.get(member_url).status_code == 403


def test_a_members_ratings_over_time(rated_table, as_member, organiser, client, outsider_user):
    url = reverse("ratings:member", args=[organiser.club.slug, organiser.pk])
    page = as_member.get(url)
    assert page.status_code == 200
    assert "7 January 2030" in page.content.decode()
    client.force_login(outsider_user)
    assert client.get(url).status_code == 404


def test_the_expected_outcome_of_a_table(rated_table, as_organiser, client, outsider_user,
                                         organiser):
    url = reverse("ratings:table", args=[organiser.club.slug, rated_table.pk])
    page = as_organiser.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "%" in text and organiser.name in text
    client.force_login(outsider_user)
    assert client.get(url).status_code == 404


def play_online_hand(table, number, seed):
    module = game_module(table.game)
    rules = module.Rules()
    deal = module.deal(rules, number % module.SEATS, random.Random(seed))
    state = module.new_hand(rules, number % module.SEATS, deal.hands, deal.kitty)
    rng = random.Random(seed)
    record = {"format": "whistclub-hand/1", "game": table.game, "rules": {},
              "dealer": number % module.SEATS, "hands": deal.hands, "actions": []}
    while not state.complete:
        seat = state.to_act
        action = choose_action(state.view(seat), "random", rng)
        state.apply(action, seat)
        record["actions"].append({"seat": seat, "action": action})
    return Hand.objects.create(table=table, number=number, record=record, result=state.result())


def online_table(people, computers, game="solo_whist"):
    table = Table.objects.create(game=game, created_by=people[0], status=Table.Status.PLAYING)
    for position, who in enumerate([*people, *computers]):
        if isinstance(who, str):
            Seat.objects.create(table=table, position=position, computer_level=who)
        else:
            Seat.objects.create(table=table, position=position, user=who)
    return table


def play_hands(table, count, django_capture_on_commit_callbacks, first=1):
    with django_capture_on_commit_callbacks(execute=True):
        for number in range(first, first + count):
            hand = play_online_hand(table, number, seed=number)
            game_signals.announce_after_commit("hand_finished", table, hand)


def test_one_person_with_computer_players_moves_no_site_rating(
        outsider_user, django_capture_on_commit_callbacks):
    table = online_table([outsider_user], ["easy", "easy", "strong"])
    play_hands(table, 12, django_capture_on_commit_callbacks)
    assert not Rating.objects.filter(scope=SITE).exists()


def test_people_and_computer_players_are_rated_online(django_user_model, outsider_user,
                                                      member_user,
                                                      django_capture_on_commit_callbacks):
    table = online_table([outsider_user, member_user], ["easy", "strong"])
    play_hands(table, 12, django_capture_on_commit_callbacks)
    players = set(Rating.objects.filter(scope=SITE, game="solo_whist")
                  .values_list("player", flat=True))
    assert {"computer:easy", "computer:strong", f"u:{outsider_user.pk}", f"u:{member_user.pk}"} <= players
    # The site's list waits for enough hands, then shows computer players -- and people
    # only once they have met enough different people.
    assert site_rows("solo_whist", min_hands=50) == []
    names = [row.name for row in site_rows("solo_whist", min_hands=5)]
    assert "otto" not in names and any("strong" in name for name in names)
    names = [row.name for row in site_rows("solo_whist", min_hands=5, min_people=1)]
    assert "otto" in names
    page = django_user_model.objects.get(pk=outsider_user.pk)
    from django.test import Client

    visitor = Client()
    response = visitor.get(reverse("ratings:online") + "?game=solo_whist")
    assert response.status_code == 200
    assert page.username not in response.content.decode()  # fewer than 20 hands
    assert visitor.get(reverse("ratings:online") + "?game=nothing").status_code == 404


def test_ratings_where_people_look_in_the_leagues_pages(rated_table, as_member, organiser,
                                                        solo_evening):
    club = organiser.club
    season = rated_table.evening.season
    standings = as_member.get(season.get_absolute_url()).content.decode()
    assert "Order by rating" in standings and standings.count(" ± ") == 4
    by_rating = as_member.get(season.get_absolute_url() + "?order=rating").content.decode()
    assert "Order by standings" in by_rating
    member_page = as_member.get(organiser.get_absolute_url()).content.decode()
    assert reverse("ratings:member", args=[club.slug, organiser.pk]) in member_page
    assert reverse("ratings:club", args=[club.slug]) in member_page  # the club's menu
    from tests.leagues.conftest import make_solo_table

    fresh = make_solo_table(solo_evening, [s.member for s in rated_table.seats.all()], number=2)
    table_page = as_member.get(fresh.get_absolute_url()).content.decode()
    assert "Expected outcome" in table_page and "%" in table_page
    played = as_member.get(rated_table.get_absolute_url()).content.decode()
    assert "Expected outcome" not in played  # only before a table plays


@pytest.mark.parametrize("language, grouped", [("fr", "1\u00a0"), ("nl", "1."), ("en", "1,")])
def test_ratings_are_written_as_the_readers_language_writes_numbers(
        rated_table, as_organiser, organiser, language, grouped):
    organiser.user.profile.language = language
    organiser.user.profile.save()
    text = as_organiser.get(reverse("ratings:club", args=[organiser.club.slug])).content.decode()
    ratings = re.findall(r"(\d[\d\u00a0.,]*) ± \d+", text)
    assert ratings and all(r.startswith(grouped) and len(r) == 5 for r in ratings), ratings


def test_a_members_rating_is_drawn_over_time(rated_table, as_member, organiser, outsider_user):
    slug = organiser.club.slug
    page = as_member.get(reverse("ratings:member", args=[slug, organiser.pk])).content.decode()
    chart_url = reverse("ratings:member_chart", args=[slug, organiser.pk, "solo_whist"])
    assert f'<img src="{chart_url}"' in page
    svg = as_member.get(chart_url)
    assert svg["Content-Type"].startswith("image/svg+xml")
    text = svg.content.decode()
    assert "Solo Whist" in text and "7 Jan" in text and "Rating" in text
    assert organiser.name in text and "Lowest likely" in text
    assert as_member.get(reverse("ratings:member_chart",
                                 args=[slug, organiser.pk, "chess"])).status_code == 404
    as_member.force_login(outsider_user)
    assert as_member.get(chart_url).status_code == 404  # as the ratings page
