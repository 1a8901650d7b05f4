"""Managing a table through its pages, as a person does: filling the empty seats with computer
players, a rematch once the table has finished, the invite link, a visitor who is not signed in
brought back after logging in or signing up, closing after a confirmation, "your tables"."""

import re
import threading
from urllib.parse import quote, urlencode

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from games import seating, tables
from games.models import Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("computer_players_act_at_once")]

# Two threads writing at once need a database of separate connections (PostgreSQL, the
# services pass); SQLite's shared in-memory test database refuses the second writer outright.
needs_postgresql = pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
    reason="two concurrent writers need PostgreSQL")


def after_another_click(monkeypatch, table_id, other_click):
    """The next action of this test reads the table as it was before ``other_click`` (made
    here, first, and committed): two clicks interleaved on a database without row locks."""
    stale = Table.objects.get(pk=table_id)
    other_click()
    monkeypatch.setattr(seating, "locked", lambda pk: stale)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def said(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def waiting_table(people, game="bid_whist", **options) -> Table:
    table = tables.create_table(people["ana"], game, {}, **options)
    tables.take_seat(table.pk, people["ana"], 0)
    return Table.objects.get(pk=table.pk)


def finished_table(people, game="bid_whist") -> Table:
    """Ana and Bob with two computer players; Ana closes it during the first hand."""
    table = waiting_table(people, game)
    tables.take_seat(table.pk, people["bob"], 2)
    tables.fill_seats(table.pk, people["ana"], "easy")
    tables.close_table(table.pk, people["ana"])
    return Table.objects.get(pk=table.pk)


# -- fill every empty seat -------------------------------------------------------------------


@pytest.mark.parametrize("game", ["bid_whist", "cutthroat_bid_whist"])
def test_one_click_fills_every_empty_seat_and_the_game_starts(people, game):
    table = waiting_table(people, game)
    ana = logged_in(people["ana"])
    page = ana.get(f"/tables/{table.pk}/").content.decode()
    assert "Fill the empty seats with computer players" in page
    response = ana.post(f"/tables/{table.pk}/fill/", {"level": "strong"}, follow=True)
    seats = table.seats.count()
    assert said(response) == [f"{seats - 1} computer players sat down."]
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.current is not None
    assert [s.computer_level for s in table.seats.order_by("position")] == [""] + ["strong"] * (
        seats - 1)
    assert table.version > 0
    assert "Fill the empty seats" not in response.content.decode()


def test_filling_twice_fills_once_and_says_so_without_an_error(people):
    table = waiting_table(people)
    ana = logged_in(people["ana"])
    ana.post(f"/tables/{table.pk}/fill/", {"level": "easy"}, follow=True)
    version = Table.objects.get(pk=table.pk).version
    response = ana.post(f"/tables/{table.pk}/fill/", {"level": "strong"}, follow=True)
    assert said(response) == ["Every seat was already taken: nothing was changed."]
    after = Table.objects.get(pk=table.pk)
    assert after.version == version
    assert list(after.seats.exclude(position=0).values_list("computer_level", flat=True)) == [
        "easy"] * 3


def test_a_fill_that_read_the_table_before_another_fill_changes_nothing(people,
                                                                        monkeypatch):
    table = waiting_table(people)
    ana = logged_in(people["ana"])
    after_another_click(monkeypatch, table.pk,
                        lambda: tables.fill_seats(table.pk, people["ana"], "easy"))
    version = Table.objects.get(pk=table.pk).version
    response = ana.post(f"/tables/{table.pk}/fill/", {"level": "strong"}, follow=True)
    monkeypatch.undo()
    assert said(response) == ["Every seat was already taken: nothing was changed."]
    after = Table.objects.get(pk=table.pk)
    assert after.version == version
    assert after.seats.filter(computer_level="easy").count() == 3


@needs_postgresql
def test_two_fills_at_once_fill_each_seat_once(people):
    """Two clicks racing (two threads, two connections): one fills, the other changes nothing
    or is told the table moved on; never two computer players in one seat, never a new deal."""
    table = waiting_table(people)
    outcomes, errors = [], []

    def click():
        try:
            outcomes.append(tables.fill_seats(table.pk, people["ana"], "normal"))
        except tables.TableError as exc:
            errors.append(str(exc.message))
        finally:
            connection.close()

    threads = [threading.Thread(target=click) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes)[-1] == 3 and outcomes.count(3) == 1
    assert all(e == "The table has moved on since that click: nothing was done." for e in errors)
    after = Table.objects.get(pk=table.pk)
    assert after.status == Table.Status.PLAYING
    assert after.seats.filter(computer_level="normal").count() == 3


def test_only_the_host_fills_the_seats(people):
    table = waiting_table(people)
    response = logged_in(people["olga"]).post(f"/tables/{table.pk}/fill/", follow=True)
    assert said(response) == ["Only the host (who opened the table) can add computer players."]
    assert Table.objects.get(pk=table.pk).version == table.version
    assert "Fill the empty seats" not in logged_in(people["olga"]).get(
        f"/tables/{table.pk}/").content.decode()
    anonymous = Client().post(f"/tables/{table.pk}/fill/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]


def test_a_bad_level_fills_with_normal_players(people):
    table = waiting_table(people)
    logged_in(people["ana"]).post(f"/tables/{table.pk}/fill/", {"level": "<script>"})
    assert Table.objects.get(pk=table.pk).seats.filter(computer_level="normal").count() == 3


# -- rematch ---------------------------------------------------------------------------------


def test_a_player_of_a_finished_table_gets_a_rematch_with_the_same_people(people):
    old = tables.create_table(people["ana"], "solo_whist", {"overtricks": True},
                              is_private=True, deals_limit=3, grace_seconds=30,
                              trick_pause_ms=3000, move_seconds=120)
    tables.take_seat(old.pk, people["ana"], 0)
    tables.take_seat(old.pk, people["bob"], 2)
    tables.fill_seats(old.pk, people["ana"], "strong")
    tables.close_table(old.pk, people["ana"])
    bob = logged_in(people["bob"])
    page = bob.get(f"/tables/{old.pk}/").content.decode()
    assert f'action="/tables/{old.pk}/rematch/"' in page
    response = bob.post(f"/tables/{old.pk}/rematch/")
    old.refresh_from_db()
    new = old.rematch_table
    assert new is not None and response["Location"] == f"/tables/{new.pk}/"
    assert (new.game, new.rules, new.is_private, new.deals_limit, new.grace_seconds,
            new.trick_pause_ms, new.move_seconds) == ("solo_whist", {"overtricks": True}, True,
                                                      3, 30, 3000, 120)
    assert [(s.user_id, s.computer_level) for s in new.seats.order_by("position")] == [
        (people["ana"].pk, ""), (None, "strong"), (people["bob"].pk, ""), (None, "strong")]
    assert new.status == Table.Status.PLAYING  # every seat is filled: it deals at once
    # Everyone still on the finished table is told, in the state of its next version.
    ana = logged_in(people["ana"])
    state = ana.get(f"/tables/{old.pk}/state/?format=json").json()["state"]
    assert state["rematch_table"] == new.pk
    assert f"Rematch: join table {new.pk}" in ana.get(f"/tables/{old.pk}/").content.decode()
    assert ana.get(f"/tables/{new.pk}/").status_code == 200  # private, and Ana sits there


def test_a_rematch_keeps_the_computer_players_names_and_seats_and_again_after_that(people):
    old = tables.create_table(people["ana"], "bid_whist", {})
    tables.take_seat(old.pk, people["ana"], 0)
    tables.fill_seats(old.pk, people["ana"], "normal")
    tables.close_table(old.pk, people["ana"])
    ana = logged_in(people["ana"])

    def names(table_id):
        state = ana.get(f"/tables/{table_id}/state/?format=json").json()["state"]
        return [(p["seat"], p["name"], p["computer"]) for p in state["players"]]

    first = tables.rematch(old.pk, people["ana"])
    assert names(first.pk) == names(old.pk)
    tables.close_table(first.pk, people["ana"])
    second = tables.rematch(first.pk, people["ana"])
    assert names(second.pk) == names(old.pk)
    page = ana.get("/tables/").content.decode()  # the lobby's list of your tables says so too
    for _seat, name, _level in names(old.pk)[1:]:
        assert name in page


def test_a_second_rematch_click_never_makes_a_second_table(people):
    old = finished_table(people)
    first = logged_in(people["ana"]).post(f"/tables/{old.pk}/rematch/")
    second = logged_in(people["bob"]).post(f"/tables/{old.pk}/rematch/")
    again = logged_in(people["ana"]).post(f"/tables/{old.pk}/rematch/")
    assert first["Location"] == second["Location"] == again["Location"]
    assert Table.objects.count() == 2


def test_a_rematch_click_that_lost_the_race_joins_the_same_table(people, monkeypatch):
    old = finished_table(people)
    made = []
    after_another_click(monkeypatch, old.pk,
                        lambda: made.append(tables.rematch(old.pk, people["bob"])))
    response = logged_in(people["ana"]).post(f"/tables/{old.pk}/rematch/", follow=True)
    monkeypatch.undo()
    first = made[0]
    assert response.redirect_chain[-1][0] == f"/tables/{first.pk}/"
    assert said(response) == []
    assert Table.objects.count() == 2


@needs_postgresql
def test_two_rematch_clicks_at_once_make_one_table(people):
    old = finished_table(people)
    made, errors = [], []

    def click(user):
        try:
            made.append(tables.rematch(old.pk, user).pk)
        except tables.TableError as exc:
            errors.append(str(exc.message))
        finally:
            connection.close()

    threads = [threading.Thread(target=click, args=(people[name],)) for name in ("ana", "bob")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Table.objects.count() == 2
    assert len(set(made)) == 1
    assert Table.objects.get(pk=old.pk).rematch_table_id == made[0]


def test_only_a_player_asks_for_a_rematch_and_only_once_finished(people):
    old = finished_table(people)
    response = logged_in(people["olga"]).post(f"/tables/{old.pk}/rematch/", follow=True)
    assert said(response) == ["Only the players of this table can ask for a rematch."]
    assert "/rematch/" not in logged_in(people["olga"]).get(
        f"/tables/{old.pk}/").content.decode()
    playing = waiting_table(people)
    tables.fill_seats(playing.pk, people["ana"])
    response = logged_in(people["ana"]).post(f"/tables/{playing.pk}/rematch/", follow=True)
    assert said(response) == ["A rematch can be asked for once the table has finished."]
    assert Table.objects.count() == 2


# -- invite link -----------------------------------------------------------------------------


def test_every_table_has_an_invite_link_with_a_copy_button(people):
    public = waiting_table(people)
    page = logged_in(people["olga"]).get(f"/tables/{public.pk}/").content.decode()
    assert f'value="http://testserver/tables/{public.pk}/"' in page
    assert 'data-copy="invite-link"' in page
    private = waiting_table(people, is_private=True)
    page = logged_in(people["ana"]).get(f"/tables/{private.pk}/").content.decode()
    assert f"/tables/{private.pk}/invite/{private.invite_token}/" in page
    assert 'data-copy="invite-link"' in page


# -- a visitor who is not signed in ----------------------------------------------------------


def test_a_signed_out_visitor_is_asked_to_log_in_and_comes_back_to_the_table(people):
    table = waiting_table(people)
    visitor = Client()
    page = visitor.get(f"/tables/{table.pk}/").content.decode()
    assert f'href="/accounts/login/?next=/tables/{table.pk}/"' in page
    assert f'href="/accounts/signup/?next=/tables/{table.pk}/"' in page
    login_page = visitor.get(f"/accounts/login/?next=/tables/{table.pk}/").content.decode()
    assert f'href="/accounts/signup/?next=/tables/{table.pk}/"' in login_page
    response = visitor.post("/accounts/login/", {"username": "olga", "password": "pw-long-enough",
                                                  "next": f"/tables/{table.pk}/"})
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.pk}/"


def test_signing_up_from_an_invite_link_comes_back_to_the_private_table(people):
    table = waiting_table(people, is_private=True)
    invite = f"/tables/{table.pk}/invite/{table.invite_token}/"
    visitor = Client()
    assert visitor.get(invite).status_code == 302
    page = visitor.get(f"/tables/{table.pk}/").content.decode()
    assert f'href="/accounts/signup/?next={invite}"' in page
    signup_page = visitor.get(f"/accounts/signup/?next={invite}").content.decode()
    assert f'name="next" value="{invite}"' in signup_page
    assert f'href="/accounts/login/?next={invite}"' in signup_page
    visitor.post("/accounts/signup/", {
        "username": "newcomer", "email": "newcomer@example.org", "display_name": "Newcomer",
        "password1": "a-long-test-password", "password2": "a-long-test-password",
        "next": invite})
    # The e-mailed link that finishes the sign-up carries the way back to the table.
    link = emailed_signup_link()
    assert f"next={quote(invite, safe='')}" in link
    response = visitor.post(link, follow=True)
    assert response.redirect_chain[0] == (invite, 302)
    assert response.redirect_chain[-1] == (f"/tables/{table.pk}/", 302)
    assert "Sit here" in response.content.decode()


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x",
                                    "javascript:alert(1)"])
def test_signing_up_never_goes_to_another_site(target):
    visitor = Client()
    visitor.post("/accounts/signup/", {
        "username": "newcomer", "email": "newcomer@example.org", "display_name": "Newcomer",
        "password1": "a-long-test-password", "password2": "a-long-test-password",
        "next": target})
    link = emailed_signup_link()
    assert "next=" not in link
    response = visitor.post(link + "?" + urlencode({"next": target}))  # even if added to it
    assert response.status_code == 302 and response["Location"] == "/"


def emailed_signup_link() -> str:
    from django.core import mail

    return re.search(r"https?://[^/\s]+(/accounts/signup/confirm/\S+)",
                     mail.outbox[-1].body).group(1)


# -- closing, after a confirmation -----------------------------------------------------------


def test_closing_asks_first_and_closes_only_on_the_second_step(people):
    table = waiting_table(people)
    ana = logged_in(people["ana"])
    page = ana.get(f"/tables/{table.pk}/").content.decode()
    assert f'href="/tables/{table.pk}/close/"' in page
    question = ana.get(f"/tables/{table.pk}/close/")
    assert question.status_code == 200
    assert "Yes, close the table" in question.content.decode()
    assert Table.objects.get(pk=table.pk).status == Table.Status.WAITING
    ana.post(f"/tables/{table.pk}/close/")
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    response = ana.get(f"/tables/{table.pk}/close/", follow=True)
    assert said(response) == ["This table has finished."]


def test_nobody_else_is_even_asked_to_close(people):
    table = waiting_table(people)
    response = logged_in(people["bob"]).get(f"/tables/{table.pk}/close/", follow=True)
    assert said(response) == ["Only the person who opened the table can close it."]
    assert "Yes, close the table" not in response.content.decode()


# -- your tables -----------------------------------------------------------------------------


def test_the_lobby_lists_your_tables_first_private_ones_too(people):
    mine = waiting_table(people, is_private=True)
    opened = tables.create_table(people["bob"], "solo_whist", {})
    tables.take_seat(opened.pk, people["ana"], 1)
    closed = waiting_table(people)
    tables.close_table(closed.pk, people["ana"])
    others = tables.create_table(people["olga"], "belgian_whist", {})
    page = logged_in(people["ana"]).get("/tables/").content.decode()
    yours = page.split('class="your-tables"', 1)[1].split("</section>", 1)[0]
    yours, older = yours.split('class="older-tables"', 1)
    assert f'href="/tables/{closed.pk}/"' in older  # folded among the older tables
    assert f'href="/tables/{mine.pk}/"' in yours and f'href="/tables/{opened.pk}/"' in yours
    assert f'href="/tables/{closed.pk}/"' not in yours
    assert f'href="/tables/{others.pk}/"' not in yours
    created_only = logged_in(people["bob"]).get("/tables/").content.decode()
    assert f'href="/tables/{opened.pk}/"' in created_only.split('class="your-tables"', 1)[1]
    assert "Your tables" not in Client().get("/tables/").content.decode()
