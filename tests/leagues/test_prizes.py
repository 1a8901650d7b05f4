"""An evening's prizes (winner, runner-up, booby prize), shown once every table has a result,
and the organiser's "Send the results": an e-mail to the members the club may write to, with
the evening's results and prizes, in the club's history; refused in words while a table has no
result."""

import re
from decimal import Decimal

import pytest
from django.core import mail

from leagues.models import ClubChange, League, Letter, Member

from .conftest import add_members, league_form, make_solo_table

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def evening(solo_league, solo_evening, organiser, member):
    """Table 1: Ana +6, Bob +2, Carla −3, Dan −5; table 2 (Olga, Mike, Nell, Pat) no result
    yet.  Prizes: a bottle of wine for the winner, the runner-up and the booby prize."""
    solo_league.prize_winner, solo_league.prize_winner_text = True, "a bottle of wine"
    solo_league.prize_runner_up = solo_league.prize_booby = True
    solo_league.save()
    ana, bob, carla, dan = add_members(solo_league.club, ["Ana", "Bob", "Carla", "Dan"])
    make_solo_table(solo_evening, [ana, bob, carla, dan]).set_totals(
        [Decimal(6), Decimal(2), Decimal(-3), Decimal(-5)], None)
    nell = Member.objects.create(club=solo_league.club, name="Nell", email="nell@example.org",
                                 confirmed_email="nell@example.org")
    pat = Member.objects.create(club=solo_league.club, name="Pat")  # no address
    make_solo_table(solo_evening, [organiser, member, nell, pat], number=2)
    return solo_evening


def finish(evening):
    evening.tables.get(number=2).set_totals([Decimal(1), Decimal(1), Decimal(-1), Decimal(-1)],
                                            None)


def send(client, evening, seen=0):
    return client.post(f"/clubs/{evening.season.league.club.slug}/evenings/{evening.pk}/"
                       "results/send/", {"seen": seen}, follow=True)


def test_the_prizes_wait_for_every_table(as_organiser, evening):
    page = text(as_organiser.get(evening.get_absolute_url()).content.decode())
    assert ("The prizes are given once every table has a result: 1 table has none that "
            "counts yet.") in page
    assert "Send the results" not in page
    finish(evening)
    page = text(as_organiser.get(evening.get_absolute_url()).content.decode())
    assert "Winner: Ana 6 · a bottle of wine" in page
    assert "Runner-up: Bob 2" in page
    assert "Booby prize: Dan −5" in page
    assert "Send the results" in page


def test_sending_is_refused_while_a_table_has_no_result(as_organiser, evening):
    page = text(send(as_organiser, evening).content.decode())
    assert ("Table 2 has no result that counts yet: the results are sent once every table has "
            "one. Nothing was sent.") in page
    assert mail.outbox == []
    assert not Letter.objects.exists()
    assert not ClubChange.objects.filter(action="results_sent").exists()


def test_the_results_go_to_members_who_receive_emails(as_organiser, evening, organiser,
                                                      member):
    finish(evening)
    member.reminders = False  # Mike stopped the e-mails
    member.save()
    page = text(send(as_organiser, evening).content.decode())
    assert "E-mail sent to 2 members." in page
    assert sorted(m.to[0] for m in mail.outbox) == ["nell@example.org", "olga@example.org"]
    body = mail.outbox[0].body
    assert mail.outbox[0].subject.startswith("Results of Tuesday Solo")
    assert "1. Ana +6" in body and "8. Dan −5" in body
    assert "Winner: Ana (+6), a bottle of wine" in body
    assert "Booby prize: Dan (−5)" in body
    assert "To receive no more e-mails about evenings" in body
    history = text(as_organiser.get(
        f"/clubs/{evening.season.league.club.slug}/changes/").content.decode())
    assert "Results of 7 Jan 2030 (Tuesday Solo) sent by olga to 2 members" in history
    assert "Winner: Ana" in history
    # The same form sent again (a double tap, a page left open) sends nothing.
    mail.outbox.clear()
    page = text(send(as_organiser, evening).content.decode())
    assert "were sent already: the page was not up to date, nothing was sent." in page
    assert mail.outbox == []
    assert "Send the results again" in page
    assert "E-mail sent to 2 members." in text(send(as_organiser, evening, seen=1).content.decode())


def test_the_results_mark_a_guest_as_the_pages_do(as_organiser, evening):
    Member.objects.filter(name="Dan").update(guest=True)  # a walk-in guest, not a member
    finish(evening)
    send(as_organiser, evening)
    body = mail.outbox[0].body
    assert "8. Dan (guest) −5" in body and "1. Ana +6" in body


def test_the_daily_limit_holds_back_the_rest(as_organiser, evening, settings):
    settings.CLUB_EMAILS_PER_DAY = 1
    finish(evening)
    page = text(send(as_organiser, evening).content.decode())
    assert "E-mail sent to 1 member." in page
    assert "has reached that limit: 2 members did not receive it" in page
    assert len(mail.outbox) == 1


def test_members_may_not_send_the_results(as_member, evening):
    finish(evening)
    assert send(as_member, evening).status_code == 403
    assert mail.outbox == []


def test_ties_share_a_prize_and_no_prize_without_one_named(evening, organiser):
    from leagues import prizes
    evening.tables.get(number=2).set_totals([Decimal(6), Decimal(1), Decimal(-3), Decimal(-4)],
                                            None)
    won = {p.kind: p.names for p in prizes.prizes(evening)}
    assert won["winner"] == ["Ana", "olga"]
    assert won["runner_up"] == ["Bob"]
    assert won["booby"] == ["Dan"]
    league = evening.season.league
    league.prize_winner = league.prize_runner_up = league.prize_booby = False
    league.save()
    assert prizes.prizes(evening) == []


def test_the_organiser_names_the_prizes_and_the_history_says_so(as_organiser, solo_league):
    response = as_organiser.post(
        f"/clubs/{solo_league.club.slug}/leagues/{solo_league.pk}/edit/",
        league_form(solo_league, prize_booby="on", prize_booby_text="a wooden spoon"),
        follow=True)
    assert "Saved." in text(response.content.decode())
    solo_league.refresh_from_db()
    assert solo_league.prize_booby and solo_league.prize_booby_text == "a wooden spoon"
    assert solo_league.sit_out_credit == League.SitOutCredit.NOTHING
    history = text(as_organiser.get(f"/clubs/{solo_league.club.slug}/changes/").content.decode())
    assert "A booby prize for the lowest score" in history
    assert "“–” → “a wooden spoon”" in history
