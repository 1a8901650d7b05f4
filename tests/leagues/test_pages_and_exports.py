"""Result pages (evening, member, pair, head to head) and exports (CSV, score sheet, iCal)."""

import datetime

import pytest

from .conftest import bid, solo

pytestmark = pytest.mark.django_db


def base(club):
    return f"/clubs/{club.slug}"


@pytest.fixture
def played(solo_table, organiser_user):
    solo_table.add_deal(solo("solo", 0, 6), organiser_user)
    solo_table.add_deal(solo("misere", 1, 0), organiser_user)
    return solo_table


def test_evening_results_show_each_table(as_member, played):
    page = as_member.get(f"{base(played.league.club)}/evenings/{played.evening.pk}/")
    text = page.content.decode()
    assert "Table 1" in text and "Nell" in text
    assert page.context["tables"][0]["sides"][0]["total"] == "6"


def test_member_page_shows_history_chart_and_contracts(as_member, played, organiser):
    page = as_member.get(f"{base(played.league.club)}/members/{organiser.pk}/")
    text = page.content.decode()
    assert f"/members/{organiser.pk}/charts/{played.league.pk}.svg" in text
    assert page.context["evenings"][0]["balance"] == "6"
    assert [(c["name"], c["declared"], c["made"]) for c in page.context["contracts"]] == [
        ("Solo", 1, 1)]


def test_losses_read_with_a_minus_sign_on_every_result_page(as_organiser, played, organiser):
    """The pages write a loss as the history and the charts do: "−6", never a hyphen "-6"."""
    club = played.league.club
    loser = played.seat_members()[2]  # a defender of both contracts, both made
    pages = [f"{base(club)}/tables/{played.pk}/", f"{base(club)}/evenings/{played.evening.pk}/",
             f"{base(club)}/members/{loser.pk}/"]
    for url in pages:
        text = as_organiser.get(url).content.decode()
        assert "\u2212" in text, url
        assert not any(f">-{d}" in text or f"> -{d}" in text or f" -{d}<" in text
                       for d in range(1, 10)), url


def test_member_page_is_hidden_from_outsiders(as_outsider, played, organiser):
    assert as_outsider.get(f"{base(played.league.club)}/members/{organiser.pk}/").status_code == 404


def test_pair_page_and_head_to_head(as_member, bid_table, organiser_user):
    bid_table.add_deal(bid(1, 5, "uptown", 13), organiser_user)
    club = bid_table.league.club
    page = as_member.get(f"{base(club)}/pairs/{bid_table.pair_1.pk}/")
    assert page.context["matches"][0]["won"] is True
    assert "Aces" in page.content.decode()
    h2h = as_member.get(f"{base(club)}/seasons/{bid_table.evening.season.pk}/head-to-head/",
                        {"a": bid_table.pair_0.pk, "b": bid_table.pair_1.pk})
    assert h2h.context["meetings"][0]["winner"] == bid_table.pair_1


def test_pair_page_is_hidden_from_outsiders(as_outsider, bid_table):
    club = bid_table.league.club
    assert as_outsider.get(f"{base(club)}/pairs/{bid_table.pair_1.pk}/").status_code == 404


def test_players_head_to_head(as_organiser, played, organiser, member):
    season = played.evening.season
    page = as_organiser.get(f"{base(season.league.club)}/seasons/{season.pk}/head-to-head/",
                            {"a": organiser.pk, "b": member.pk})
    meeting = page.context["meetings"][0]
    assert (meeting["first"], meeting["second"], meeting["winner"]) == ("6", "6", None)


def test_standings_and_results_csv(as_member, played):
    season = played.evening.season
    csv_text = as_member.get(f"{base(season.league.club)}/seasons/{season.pk}/standings.csv")
    assert csv_text["Content-Type"].startswith("text/csv")
    lines = csv_text.content.decode().splitlines()
    assert lines[0].startswith("Position,Player")
    assert len(lines) == 5
    results = as_member.get(f"{base(season.league.club)}/seasons/{season.pk}/results.csv")
    assert "2030-01-07,The Crown,1,Nell,-6," in results.content.decode()


def test_exports_are_hidden_from_outsiders(as_outsider, played):
    season = played.evening.season
    assert as_outsider.get(
        f"{base(season.league.club)}/seasons/{season.pk}/standings.csv").status_code == 404


def test_printable_score_sheet_has_a_page_per_table(as_organiser, played, client,
                                                    outsider_user):
    url = f"{base(played.league.club)}/evenings/{played.evening.pk}/sheet/"
    text = as_organiser.get(url).content.decode()
    assert text.count('class="sheet-page"') == 1 and "Nell" in text
    client.force_login(outsider_user)
    assert client.get(url).status_code == 404


def test_ical_feed_lists_the_clubs_evenings(as_member, solo_evening, client, outsider_user):
    solo_evening.start_time = datetime.time(19, 30)
    solo_evening.save()
    response = as_member.get(f"{base(solo_evening.season.league.club)}/calendar.ics")
    body = response.content.decode()
    assert response["Content-Type"].startswith("text/calendar")
    assert "BEGIN:VEVENT" in body and "DTSTART:20300107T193000Z" in body
    assert "LOCATION:The Crown" in body and "\r\n" in body
    client.force_login(outsider_user)
    assert client.get(f"{base(solo_evening.season.league.club)}/calendar.ics").status_code == 404


def test_a_pairs_chart_draws_its_matches_with_axes_and_dates(as_member, bid_table,
                                                             organiser_user, outsider_user):
    bid_table.add_deal(bid(1, 5, "uptown", 13), organiser_user)
    club = bid_table.league.club
    page = as_member.get(f"{base(club)}/pairs/{bid_table.pair_1.pk}/").content.decode()
    chart_url = f"{base(club)}/pairs/{bid_table.pair_1.pk}/chart.svg"
    assert f'<img src="{chart_url}"' in page and "<polyline" not in page
    svg = as_member.get(chart_url)
    assert svg["Content-Type"].startswith("image/svg+xml")
    text = svg.content.decode()
    assert "Kings" in text and "Opponents" in text and "3 Feb" in text and "Score" in text
    as_member.force_login(outsider_user)
    assert as_member.get(chart_url).status_code == 404  # as the pair's page


def test_deals_entered_from_paper_say_they_have_no_replay_or_review(as_member, played):
    page = as_member.get(f"{base(played.league.club)}/tables/{played.pk}/").content.decode()
    assert "entered from paper" in page and "no review" in page
    assert "Review my play" not in page
