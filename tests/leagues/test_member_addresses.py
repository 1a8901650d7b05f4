"""The site writes for a club only to addresses whose owner confirmed them: adding a member with
an address (one at a time, in bulk, or setting it later) sends that address one message asking
to confirm, and nothing else; a club sends at most CLUB_EMAILS_PER_DAY e-mails a day,
confirmations included, and the organiser is told in words what was not sent and when it can
be; every e-mail is From the site with Reply-To the organiser who sent it."""

import datetime
import re

import pytest
from django.core import mail, signing

from leagues import confirmations
from leagues.models import Attendance, Club, ClubEmail, Member

pytestmark = pytest.mark.django_db


def members_url(club, suffix=""):
    return f"/clubs/{club.slug}/members/{suffix}"


def email_url(evening):
    return f"/clubs/{evening.season.league.club.slug}/evenings/{evening.pk}/email/"


def link_in(message) -> str:
    return re.search(r"http://testserver(\S+)", message.body).group(1)


def a_day_passes():
    """What the daily limits count moves back a day (and a minute), as if it were tomorrow."""
    for row in ClubEmail.objects.all():
        ClubEmail.objects.filter(pk=row.pk).update(
            sent_at=row.sent_at - datetime.timedelta(days=1, minutes=1))


def bulk_add(client, club, people):
    return client.post(members_url(club, "bulk/"), {
        "confirm": "1", "name": [n for n, _e in people], "email": [e for _n, e in people]},
        follow=True)


def confirm(client, message):
    return client.post(link_in(message))


# -- adding a member asks the address's owner, and sends nothing else --------------------------


def test_adding_a_member_with_an_address_sends_one_confirmation_and_nothing_else(
        as_organiser, club, settings):
    page = as_organiser.post(members_url(club, "add/"), {
        "name": "Nell", "email": "nell@example.org", "role": "member"}, follow=True)
    assert [m.to for m in mail.outbox] == [["nell@example.org"]]
    message = mail.outbox[0]
    assert "The Crown Whist Club" in message.subject + message.body
    assert "/clubs/reminders/confirm/" in message.body
    assert message.from_email == settings.DEFAULT_FROM_EMAIL
    assert message.reply_to == ["olga@example.org"]
    said = page.content.decode()
    assert "Nell is now a member." in said
    assert "A message was sent to Nell asking them to confirm their address" in said
    nell = Member.objects.get(club=club, name="Nell")
    assert nell.email == "nell@example.org" and not nell.address_confirmed


def test_bulk_adding_sends_nothing_but_the_confirmations(as_organiser, club, solo_evening):
    bulk_add(as_organiser, club, [("Ann", "ann@example.org"), ("Bob", ""),
                                  ("Cy", "cy@example.org")])
    assert sorted(m.to[0] for m in mail.outbox) == ["ann@example.org", "cy@example.org"]
    assert all("/clubs/reminders/confirm/" in m.body for m in mail.outbox)
    mail.outbox.clear()
    page = as_organiser.post(email_url(solo_evening), {
        "who": "everyone", "subject": "Tonight", "message": "Buy now!"}, follow=True)
    # The members' login addresses count as confirmed; nobody added in bulk is written to.
    assert sorted(m.to[0] for m in mail.outbox) == ["mike@example.org", "olga@example.org"]
    assert ("2 members have not confirmed their address yet and did not receive it."
            in page.content.decode())
    page = as_organiser.get(email_url(solo_evening)).content.decode()
    assert "Ann and Cy have not confirmed their address yet" in page


def test_three_hundred_addresses_in_bulk_cannot_send_more_than_the_daily_limit(
        as_organiser, club, solo_evening, settings):
    """The outside tester's report: 300 lines of name,email, then "E-mail the members"."""
    assert settings.CLUB_EMAILS_PER_DAY == 200
    people = [(f"Person {i}", f"p{i}@example.org") for i in range(300)]
    page = bulk_add(as_organiser, club, people).content.decode()
    assert len(mail.outbox) == 200
    assert "300 members added" in page
    assert ("The club may send 200 e-mails a day and has reached that limit: 100 members were "
            "not asked to confirm their address today." in page)
    assert "from the members page tomorrow" in page
    page = as_organiser.post(email_url(solo_evening), {
        "who": "everyone", "subject": "Spam", "message": "Buy now!"}, follow=True)
    assert len(mail.outbox) == 200  # nothing more today, and never to an unconfirmed address
    assert "Nothing was sent" in page.content.decode()


def test_setting_a_members_address_asks_its_owner_and_a_change_unconfirms_it(
        as_organiser, club, client):
    nell = Member.objects.create(club=club, name="Nell")
    manage = members_url(club, f"{nell.pk}/manage/")
    as_organiser.post(manage, {"action": "email", "email": "nell@example.org"})
    assert [m.to for m in mail.outbox] == [["nell@example.org"]]
    confirm(client, mail.outbox[0])
    nell.refresh_from_db()
    assert nell.address_confirmed
    as_organiser.post(manage, {"action": "email", "email": "nell@example.org"})  # unchanged
    assert len(mail.outbox) == 1
    as_organiser.post(manage, {"action": "email", "email": "nell@pub.example"})
    nell.refresh_from_db()
    assert not nell.address_confirmed
    assert [m.to for m in mail.outbox][1:] == [["nell@pub.example"]]
    as_organiser.post(manage, {"action": "email", "email": "nell@example.org"})  # and back
    nell.refresh_from_db()
    assert not nell.address_confirmed


# -- the link ---------------------------------------------------------------------------------


def test_the_confirmation_link_says_which_club_and_confirms_on_a_button(as_organiser, club,
                                                                       client):
    as_organiser.post(members_url(club, "add/"), {"name": "Nell", "email": "nell@example.org",
                                                  "role": "member"})
    link = link_in(mail.outbox[0])
    client.logout()
    page = client.get(link).content.decode()
    assert "The Crown Whist Club" in page and "nell@example.org" in page
    nell = Member.objects.get(name="Nell")
    assert not nell.address_confirmed  # a mail scanner following the link confirms nothing
    page = client.post(link).content.decode()
    assert "The Crown Whist Club may now write to you at nell@example.org" in page
    assert "You can stop these e-mails at any time" in page
    nell.refresh_from_db()
    assert nell.address_confirmed


def test_an_expired_or_altered_confirmation_link_confirms_nothing_and_says_so(
        as_organiser, club, client, monkeypatch, settings):
    nell = Member.objects.create(club=club, name="Nell", email="nell@example.org")
    token = confirmations.token(nell)
    made = signing.time.time()
    monkeypatch.setattr(signing.time, "time", lambda: made + (
        settings.MEMBER_EMAIL_CONFIRMATION_DAYS * 86400 + 60))
    response = client.post(f"/clubs/reminders/confirm/{token}/")
    assert response.status_code == 410
    assert "This link has expired" in response.content.decode()
    monkeypatch.undo()
    response = client.post(f"/clubs/reminders/confirm/{token[:-2]}xx/")
    assert response.status_code == 404 and "This link does not work" in response.content.decode()
    nell.refresh_from_db()
    assert not nell.address_confirmed


def test_a_confirmation_link_for_an_old_address_does_not_confirm_the_new_one(club, client):
    nell = Member.objects.create(club=club, name="Nell", email="nell@example.org")
    old = confirmations.token(nell)
    nell.email = "nell@pub.example"
    nell.save()
    response = client.post(f"/clubs/reminders/confirm/{old}/")
    assert response.status_code == 410
    assert "no longer the address the club has" in response.content.decode()
    nell.refresh_from_db()
    assert not nell.address_confirmed


def test_an_address_is_confirmed_by_the_login_it_belongs_to_and_only_then(club, member,
                                                                          member_user):
    # The member signs in with mike@example.org: the club may use it without asking.
    assert member.email_address == "mike@example.org" and member.address_confirmed
    member.email = "MIKE@example.org"
    assert member.address_confirmed  # the same address, capitals aside
    member.email = "mike@elsewhere.example"
    assert not member.address_confirmed
    # An unlinked record with the address of someone's login is not theirs to confirm.
    paper = Member(club=club, name="Mike (paper)", email="mike@example.org")
    assert not paper.address_confirmed


# -- the daily limit and what the organiser is told ---------------------------------------------


@pytest.fixture
def confirmed_members(club, solo_evening):
    people = [Member.objects.create(club=club, name=name, email=f"{name.lower()}@example.org",
                                    confirmed_email=f"{name.lower()}@example.org")
              for name in ("Ann", "Bob", "Cy")]
    for person in people:
        Attendance.objects.create(evening=solo_evening, member=person, coming=True)
    return people


def test_the_daily_limit_sends_what_it_can_says_so_and_the_rest_goes_tomorrow(
        as_organiser, solo_evening, confirmed_members, settings):
    settings.CLUB_EMAILS_PER_DAY = 2
    page = as_organiser.post(email_url(solo_evening), {
        "who": "coming", "subject": "Tonight", "message": "We start at eight."}, follow=True)
    said = page.content.decode()
    assert sorted(m.to[0] for m in mail.outbox) == ["ann@example.org", "bob@example.org"]
    assert "E-mail sent to 2 members." in said
    assert ("The club may send 2 e-mails a day and has reached that limit: 1 member did not "
            "receive it (Cy)." in said)
    assert "It is kept: send it to them from this page tomorrow." in said
    page = as_organiser.get(email_url(solo_evening)).content.decode()
    assert "“Tonight” has not reached 1 member yet" in page
    mail.outbox.clear()
    as_organiser.post(email_url(solo_evening), {"rest": ClubEmail.objects.first().letter_id})
    assert mail.outbox == []  # still today
    a_day_passes()
    page = as_organiser.post(email_url(solo_evening), {
        "rest": ClubEmail.objects.first().letter_id}, follow=True)
    assert [m.to for m in mail.outbox] == [["cy@example.org"]]
    assert mail.outbox[0].subject == "Tonight" and "We start at eight." in mail.outbox[0].body
    assert "E-mail sent to 1 member." in page.content.decode()
    assert "has not reached" not in as_organiser.get(email_url(solo_evening)).content.decode()


def test_confirmations_count_towards_the_daily_limit(as_organiser, club, solo_evening,
                                                     confirmed_members, settings):
    settings.CLUB_EMAILS_PER_DAY = 3
    bulk_add(as_organiser, club, [("Dee", "dee@example.org"), ("Eve", "eve@example.org")])
    assert len(mail.outbox) == 2
    as_organiser.post(email_url(solo_evening), {"who": "coming", "subject": "s",
                                                "message": "m"})
    assert len(mail.outbox) == 3
    assert ClubEmail.objects.filter(club=club).count() == 3


def test_club_email_is_from_the_site_with_reply_to_the_organiser_who_sent_it(
        as_organiser, solo_evening, confirmed_members, settings):
    as_organiser.post(email_url(solo_evening), {"who": "coming", "subject": "s",
                                                "message": "m"})
    assert len(mail.outbox) == 3
    for message in mail.outbox:
        assert message.from_email == settings.DEFAULT_FROM_EMAIL
        assert message.reply_to == ["olga@example.org"]
        assert message.extra_headers["List-Unsubscribe"].startswith("<http://testserver/")


def test_a_subject_on_two_lines_is_refused_in_words_and_sends_nothing(
        as_organiser, solo_evening, confirmed_members):
    page = as_organiser.post(email_url(solo_evening), {
        "who": "coming", "subject": "Hello\nBcc: everyone@example.org", "message": "m"})
    assert "A subject is a single line: remove its line breaks." in page.content.decode()
    assert mail.outbox == []


# -- the organiser sees who has not confirmed and may ask again, once a day ---------------------


def test_the_organiser_sees_who_has_not_confirmed_and_asks_again_once_a_day(
        as_organiser, club, client):
    as_organiser.post(members_url(club, "add/"), {"name": "Nell", "email": "nell@example.org",
                                                  "role": "member"})
    nell = Member.objects.get(name="Nell")
    page = as_organiser.get(members_url(club)).content.decode()
    assert "Nell has not confirmed their address yet" in page
    assert "not confirmed yet (asked" in page
    page = as_organiser.post(members_url(club, f"{nell.pk}/ask/"), follow=True)
    assert len(mail.outbox) == 1
    assert ("A confirmation was sent to Nell less than a day ago; it can be sent again "
            "tomorrow." in page.content.decode())
    a_day_passes()
    as_organiser.post(members_url(club, f"{nell.pk}/ask/"))
    assert [m.to for m in mail.outbox] == [["nell@example.org"]] * 2
    confirm(client, mail.outbox[1])
    page = as_organiser.get(members_url(club)).content.decode()
    assert "has not confirmed" not in page


def test_the_confirmations_held_by_the_limit_are_sent_later_with_one_button(
        as_organiser, club, settings):
    settings.CLUB_EMAILS_PER_DAY = 2
    bulk_add(as_organiser, club, [(n, f"{n.lower()}@example.org")
                                  for n in ("Ann", "Bob", "Cy", "Dee")])
    assert len(mail.outbox) == 2
    page = as_organiser.post(members_url(club, "ask/"), follow=True).content.decode()
    assert len(mail.outbox) == 2 and "Nothing was sent" in page
    a_day_passes()
    page = as_organiser.post(members_url(club, "ask/"), follow=True).content.decode()
    assert sorted(m.to[0] for m in mail.outbox[2:]) == ["cy@example.org", "dee@example.org"]
    assert "A message was sent to 2 members asking them to confirm their address" in page


def test_an_address_is_asked_at_most_once_a_day_whichever_club_asks(as_organiser, club,
                                                                      organiser_user):
    other = Club.create_with_organiser(organiser_user, name="The Swan")
    as_organiser.post(members_url(club, "add/"), {"name": "Nell", "email": "nell@example.org",
                                                  "role": "member"})
    as_organiser.post(members_url(other, "add/"), {"name": "Nell", "email": "NELL@example.org",
                                                   "role": "member"})
    assert len(mail.outbox) == 1


def test_only_organisers_ask_for_confirmations(as_member, club):
    nell = Member.objects.create(club=club, name="Nell", email="nell@example.org")
    assert as_member.post(members_url(club, f"{nell.pk}/ask/")).status_code == 403
    assert as_member.post(members_url(club, "ask/")).status_code == 403
    assert mail.outbox == []


def test_a_member_who_stopped_the_emails_is_not_asked_to_confirm(as_organiser, club):
    nell = Member.objects.create(club=club, name="Nell", email="nell@example.org",
                                 reminders=False)
    Member.objects.create(club=club, name="Ann", email="ann@example.org")
    page = as_organiser.post(members_url(club, f"{nell.pk}/ask/"), follow=True)
    assert "Nell has nothing to confirm" in page.content.decode()
    as_organiser.post(members_url(club, "ask/"))
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]


def test_what_the_mail_server_refuses_is_said_and_not_counted(as_organiser, solo_evening,
                                                               confirmed_members, monkeypatch):
    from django.core.mail.backends import locmem

    def refuse(self, messages):
        raise ConnectionRefusedError("the mail server is down")
    monkeypatch.setattr(locmem.EmailBackend, "send_messages", refuse)
    page = as_organiser.post(email_url(solo_evening), {
        "who": "coming", "subject": "Tonight", "message": "m"}, follow=True).content.decode()
    assert "The mail server did not take the e-mails to Ann, Bob and Cy" in page
    assert "Try again later." in page
    assert ClubEmail.objects.count() == 0
    monkeypatch.undo()
    assert "“Tonight” has not reached 3 members yet" in as_organiser.get(
        email_url(solo_evening)).content.decode()


@pytest.mark.django_db(transaction=True)
def test_two_organisers_sending_at_once_stay_within_the_daily_limit(
        organiser_user, solo_evening, confirmed_members, settings):
    import threading

    from django.db import connection
    from django.test import Client
    if connection.vendor != "postgresql":
        pytest.skip("a real race needs a database with row locks")
    settings.CLUB_EMAILS_PER_DAY = 4
    start = threading.Barrier(2)
    done = []

    def send():
        try:
            client = Client()
            client.force_login(organiser_user)
            start.wait(timeout=10)
            done.append(client.post(email_url(solo_evening), {
                "who": "coming", "subject": "s", "message": "m"}).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert done == [302, 302]
    assert ClubEmail.objects.count() == 4 and len(mail.outbox) == 4


def test_a_member_is_told_when_the_address_the_club_has_is_not_confirmed(as_member, member):
    member.email = "mike@pub.example"  # set by an organiser, not the address of their login
    member.save()
    page = as_member.get(members_url(member.club, f"{member.pk}/")).content.decode()
    assert "The club writes to you at mike@pub.example, which is not confirmed yet" in page
