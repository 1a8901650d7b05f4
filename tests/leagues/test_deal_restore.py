"""Correcting and deleting a deal on a phone: a tap on the deal's row corrects it, deleting asks
first, and a deleted deal comes back (Undo on the table's page, Restore in the club's history)
with its totals, standings and ratings as they were."""

import pytest

from leagues.models import ClubChange, ResultChange
from leagues.standings import season_standings
from ratings.events import scope_of
from ratings.models import Rating

from .conftest import solo

pytestmark = pytest.mark.django_db


def url(table, suffix=""):
    return f"/clubs/{table.evening.season.league.club.slug}/tables/{table.pk}/{suffix}"


def totals(table):
    return [s.total for s in table.seats.order_by("seat")]


def sheet_lines(table):
    return [(d.number, d.facts, d.points) for d in table.deals.order_by("number")]


def ratings(club):
    return dict(Rating.objects.filter(scope=scope_of(club), game="solo_whist")
                .values_list("player", "mu"))


@pytest.fixture
def three_deals(solo_table, organiser_user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # rated as they are entered
        for facts in (solo("solo", 0, 6), solo("misere", 1, 0), solo("solo", 2, 4)):
            solo_table.add_deal(facts, organiser_user)
    return solo_table


def test_each_deals_row_is_one_link_to_correct_it(as_organiser, three_deals,
                                                  member_user, client):
    page = as_organiser.get(url(three_deals)).content.decode()
    for n in (1, 2, 3):
        assert (f'href="{url(three_deals, f"deals/{n}/")}" class="row-link" '
                f'aria-label="Correct deal {n}">{n}<') in page
    assert ">correct<" not in page  # the old tiny link at the end of the row is gone
    assert "{#" not in page and "#}" not in page
    assert "Tap a deal to correct or delete it." in page
    client.force_login(member_user)
    assert "row-link" not in client.get(url(three_deals)).content.decode()


def test_deleting_asks_first_and_the_old_button_deletes_nothing(as_organiser, three_deals):
    before = sheet_lines(three_deals)
    response = as_organiser.post(url(three_deals, "deals/2/"), {"delete": "1"})
    assert response.status_code == 302 and response.url == url(three_deals, "deals/2/delete/")
    page = as_organiser.get(response.url).content.decode()
    assert "Delete deal 2 of table 1?" in page
    assert "Nell: Misère" in page or "Misère" in page
    assert "Keep it" in page and "You can undo it" in page
    assert sheet_lines(three_deals) == before
    edit = as_organiser.get(url(three_deals, "deals/2/")).content.decode()
    assert url(three_deals, "deals/2/delete/") in edit and 'name="delete"' not in edit


def test_a_deleted_deal_is_undone_from_the_tables_page_exactly_as_it_was(
        as_organiser, three_deals, organiser, django_capture_on_commit_callbacks):
    club = organiser.club
    before, before_totals = sheet_lines(three_deals), totals(three_deals)
    before_standings = [(r.member_id, r.total) for r in season_standings(
        three_deals.evening.season)]
    deal_2 = three_deals.deals.get(number=2)
    with django_capture_on_commit_callbacks(execute=True):
        response = as_organiser.post(url(three_deals, "deals/2/delete/"), {"deal": deal_2.pk},
                                     follow=True)
    page = response.content.decode()
    assert "Deal 2 deleted." in page and "Undo: put deal 2 back" in page
    assert [n for n, *_ in sheet_lines(three_deals)] == [1, 2]
    assert totals(three_deals) != before_totals
    rated_without = ratings(club)
    undo = response.context["undo"]
    with django_capture_on_commit_callbacks(execute=True):
        page = as_organiser.post(url(three_deals, f"restore/{undo.pk}/"),
                                 follow=True).content.decode()
    assert "Deal 2 restored." in page and "Undo: put deal 2 back" not in page
    assert sheet_lines(three_deals) == before
    assert totals(three_deals) == before_totals
    assert [(r.member_id, r.total) for r in season_standings(
        three_deals.evening.season)] == before_standings
    back = three_deals.deals.get(number=2)
    assert (back.entered_by_id, back.entered_at) == (deal_2.entered_by_id, deal_2.entered_at)
    assert ratings(club) != rated_without
    # the table's history, newest first, says both
    history = as_organiser.get(url(three_deals, "changes/")).content.decode()
    assert history.index("Deal 2 restored by") < history.index("Deal 2 deleted by")
    assert "Restored since." in history
    # the club's history in words
    headlines = [c.action for c in ClubChange.objects.filter(club=club)]
    assert headlines[:2] == ["deal_restore", "deal_delete"]
    club_page = as_organiser.get(f"/clubs/{club.slug}/changes/").content.decode()
    assert "Deal 2 of table 1, 7 Jan 2030 (Tuesday Solo), restored by" in club_page
    assert "Deal 2 of table 1, 7 Jan 2030 (Tuesday Solo), deleted by" in club_page


def test_the_ratings_follow_the_restore_as_they_followed_the_delete(
        three_deals, organiser_user, organiser, django_capture_on_commit_callbacks):
    club = organiser.club
    with_all = ratings(club)
    with django_capture_on_commit_callbacks(execute=True):
        change = three_deals.change_deal(2, None, organiser_user)
    assert ratings(club) != with_all
    with django_capture_on_commit_callbacks(execute=True):
        three_deals.restore_deal(change.pk, organiser_user)
    assert ratings(club) == pytest.approx(with_all)


def test_restore_from_the_club_history_once_for_organisers_only(
        as_organiser, three_deals, organiser_user, member_user, client):
    club = three_deals.league.club
    change = three_deals.change_deal(1, None, organiser_user)
    history_url = f"/clubs/{club.slug}/changes/"
    page = as_organiser.get(history_url).content.decode()
    assert "Restore deal 1" in page and "It reads: olga: Solo, 6 tricks" in page
    client.force_login(member_user)
    assert "Restore deal 1" not in client.get(history_url).content.decode()
    assert client.post(url(three_deals, f"restore/{change.pk}/")).status_code == 403
    assert [n for n, *_ in sheet_lines(three_deals)] == [1, 2]
    client.force_login(organiser_user)
    as_organiser.post(url(three_deals, f"restore/{change.pk}/"))
    assert three_deals.deals.get(number=1).facts == solo("solo", 0, 6)
    assert "Restore deal 1" not in as_organiser.get(history_url).content.decode()
    again = as_organiser.post(url(three_deals, f"restore/{change.pk}/"), follow=True)
    assert "Deal 1 was already restored." in again.content.decode()
    assert three_deals.deals.count() == 3


def test_a_restore_that_cannot_be_is_refused_in_words_and_changes_nothing(
        as_organiser, three_deals, organiser_user):
    change = three_deals.change_deal(3, None, organiser_user)
    for number in (2, 1):
        three_deals.change_deal(number, None, organiser_user)
    three_deals.set_totals([3, -1, -1, -1], organiser_user)
    page = as_organiser.post(url(three_deals, f"restore/{change.pk}/"),
                             follow=True).content.decode()
    assert "entered as totals: clear them to restore deal 3." in page
    assert not three_deals.deals.exists() and totals(three_deals) == [3, -1, -1, -1]
    assert ResultChange.objects.get(pk=change.pk).restored_by is None


def test_a_delete_confirmed_on_a_stale_page_deletes_nothing(as_organiser, three_deals,
                                                           organiser_user):
    deal_1 = three_deals.deals.get(number=1)
    three_deals.change_deal(1, None, organiser_user)  # someone else deleted it meanwhile
    before = sheet_lines(three_deals)
    page = as_organiser.post(url(three_deals, "deals/1/delete/"), {"deal": deal_1.pk},
                             follow=True).content.decode()
    assert "The sheet changed since you opened this deal" in page
    assert sheet_lines(three_deals) == before
