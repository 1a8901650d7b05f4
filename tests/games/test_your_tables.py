"""A person's tables: what is in play at the top of the lobby and of the home page, and what
was left (finished, or nothing happened for ``QUIET_DAYS``) folded under "Older tables"."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import tables
from games.models import QUIET_DAYS, Hand, Seat, Table, older_tables, tables_in_play

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user("ana", "ana@example.org", "pw-ana-12345")


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def left_alone(table, days):
    """Everything at ``table`` happened ``days`` ago."""
    then = timezone.now() - timedelta(days=days)
    Table.objects.filter(pk=table.pk).update(created_at=then)
    Seat.objects.filter(table=table).exclude(seen_at=None).update(seen_at=then)
    Hand.objects.filter(table=table).update(finished_at=then)


def sections(page):
    yours = page.split('class="your-tables"', 1)[1].split("</section>", 1)[0]
    if 'class="older-tables"' not in yours:
        return yours, ""
    in_play, older = yours.split('class="older-tables"', 1)
    return in_play, older


def test_a_table_nobody_moved_at_for_a_week_goes_to_the_older_tables(ana):
    lively = tables.play_now(ana, "bid_whist")
    quiet = tables.play_now(ana, "solo_whist")
    left_alone(quiet, QUIET_DAYS + 1)
    in_play, older = sections(logged_in(ana).get("/tables/").content.decode())
    assert f'href="/tables/{lively.pk}/"' in in_play
    assert f'href="/tables/{quiet.pk}/"' not in in_play
    assert f'href="/tables/{quiet.pk}/"' in older
    assert "Older tables (1)" in older and "nothing since" in older
    assert [t.pk for t in tables_in_play(ana.pk)] == [lively.pk]
    assert [t.pk for t in older_tables(ana.pk)] == [quiet.pk]


def test_a_table_quiet_for_less_than_a_week_stays_in_play(ana):
    table = tables.play_now(ana, "bid_whist")
    left_alone(table, QUIET_DAYS - 1)
    in_play, older = sections(logged_in(ana).get("/tables/").content.decode())
    assert f'href="/tables/{table.pk}/"' in in_play and older == ""


def test_coming_back_to_a_quiet_table_puts_it_back_in_play(ana):
    table = tables.play_now(ana, "bid_whist")
    left_alone(table, QUIET_DAYS + 3)
    assert tables_in_play(ana.pk) == []
    Seat.objects.filter(table=table, user=ana).update(seen_at=timezone.now())  # opened it again
    assert [t.pk for t in tables_in_play(ana.pk)] == [table.pk]
    assert older_tables(ana.pk) == []


def test_a_finished_table_is_among_the_older_tables_at_once(ana):
    table = tables.play_now(ana, "bid_whist")
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    in_play, older = sections(logged_in(ana).get("/tables/").content.decode())
    assert f'href="/tables/{table.pk}/"' not in in_play
    assert f'href="/tables/{table.pk}/"' in older and "finished" in older


def test_the_home_page_lists_only_what_is_in_play_and_links_to_the_older_tables(ana):
    lively = tables.play_now(ana, "bid_whist")
    quiet = tables.play_now(ana, "solo_whist")
    left_alone(quiet, QUIET_DAYS + 1)
    page = logged_in(ana).get("/").content.decode()
    assert f'href="/tables/{lively.pk}/"' in page
    assert f'href="/tables/{quiet.pk}/"' not in page
    assert 'href="/tables/#older-tables"' in page


def test_the_older_tables_are_in_french_on_a_french_page(ana):
    quiet = tables.play_now(ana, "solo_whist")
    left_alone(quiet, QUIET_DAYS + 1)
    client = logged_in(ana)
    client.cookies["django_language"] = "fr"
    _, older = sections(client.get("/tables/").content.decode())
    assert "Older tables" not in older and "nothing since" not in older
    assert f'href="/tables/{quiet.pk}/"' in older
