"""An organiser e-mails the members about an evening (Django's e-mail backend); every member may
stop these e-mails from a link in each of them."""

import re

import pytest
from django.core import mail

from leagues.models import Attendance, Member

pytestmark = pytest.mark.django_db


def email_url(evening):
    return f"/clubs/{evening.season.league.club.slug}/evenings/{evening.pk}/email/"


@pytest.fixture
def people(solo_evening, organiser, member):
    club = organiser.club
    organiser.email, member.email = "olga@example.org", "mike@example.org"
    organiser.save()
    member.save()
    nell = Member.objects.create(club=club, name="Nell", email="nell@example.org",
                                 confirmed_email="nell@example.org")
    Member.objects.create(club=club, name="Pat")  # no address
    Member.objects.create(club=club, name="Old", email="old@example.org", retired=True)
    for who in (organiser, member, nell):
        Attendance.objects.create(evening=solo_evening, member=who, coming=who != nell)
    return {"olga": organiser, "mike": member, "nell": nell}


def test_the_page_suggests_when_and_where(as_organiser, solo_evening, people):
    page = as_organiser.get(email_url(solo_evening)).content.decode()
    assert "Venue: The Crown." in page and "Monday 7 January 2030" in page
    assert "2 members coming can be reached by e-mail" in page


def test_an_organiser_writes_to_those_coming_each_with_a_link_to_stop(as_organiser,
                                                                    solo_evening, people):
    response = as_organiser.post(email_url(solo_evening), {
        "who": "coming", "subject": "Tonight", "message": "We start at eight."}, follow=True)
    assert sorted(m.to[0] for m in mail.outbox) == ["mike@example.org", "olga@example.org"]
    assert "E-mail sent to 2 members." in response.content.decode()
    body = mail.outbox[0].body
    assert body.startswith("We start at eight.") and "/clubs/reminders/stop/" in body


def test_everyone_means_every_member_with_an_address_not_retired(as_organiser, solo_evening,
                                                                 people):
    response = as_organiser.post(email_url(solo_evening), {
        "who": "everyone", "subject": "Venue change", "message": "The Swan this week."},
        follow=True)
    assert sorted(m.to[0] for m in mail.outbox) == ["mike@example.org", "nell@example.org",
                                                    "olga@example.org"]
    assert "1 member has no e-mail address or asked for none." in response.content.decode()


def test_a_member_stops_the_emails_from_the_link(client, as_organiser, solo_evening, people):
    as_organiser.post(email_url(solo_evening), {"who": "coming", "subject": "s", "message": "m"})
    link = re.search(r"http://testserver(\S+)", next(
        m for m in mail.outbox if m.to == ["mike@example.org"]).body).group(1)
    client.logout()
    assert "Stop the e-mails" in client.get(link).content.decode()  # asking changes nothing
    people["mike"].refresh_from_db()
    assert people["mike"].reminders is True
    assert "will receive no more" in client.post(link).content.decode()
    people["mike"].refresh_from_db()
    assert people["mike"].reminders is False
    mail.outbox.clear()
    as_organiser.force_login(people["olga"].user)
    as_organiser.post(email_url(solo_evening), {"who": "coming", "subject": "s", "message": "m"})
    assert [m.to for m in mail.outbox] == [["olga@example.org"]]


def test_an_altered_link_changes_nothing_and_says_so(client, people):
    response = client.post("/clubs/reminders/stop/not-a-real-token/")
    assert response.status_code == 404 and "This link does not work" in response.content.decode()
    assert Member.objects.filter(reminders=False).count() == 0


def test_only_organisers_write_to_the_members(client, as_member, solo_evening, people,
                                              outsider_user):
    assert as_member.get(email_url(solo_evening)).status_code == 403
    as_member.post(email_url(solo_evening), {"who": "everyone", "subject": "s", "message": "m"})
    client.force_login(outsider_user)
    assert client.post(email_url(solo_evening), {"who": "everyone", "subject": "s",
                                                 "message": "m"}).status_code in (403, 404)
    assert mail.outbox == []


def test_an_empty_message_is_refused_in_words_and_sends_nothing(as_organiser, solo_evening,
                                                                 people):
    page = as_organiser.post(email_url(solo_evening), {"who": "coming", "subject": "s",
                                                       "message": ""}).content.decode()
    assert "This field is required." in page and mail.outbox == []


def test_a_member_who_stopped_the_emails_can_take_them_back_from_the_link(client, people):
    from leagues.reminders import stop_token
    link = f"/clubs/reminders/stop/{stop_token(people['mike'])}/"
    client.post(link, {"action": "stop"})
    client.force_login(people["mike"].user)
    page = client.get(link).content.decode()
    assert "receives no e-mails" in page and "Receive them again" in page
    assert "will receive the e-mails" in client.post(link, {"action": "resume"}).content.decode()
    people["mike"].refresh_from_db()
    assert people["mike"].reminders is True


def test_a_member_turns_their_own_emails_off_and_on_from_their_page(as_member, people):
    mike = people["mike"]
    url = f"/clubs/{mike.club.slug}/members/{mike.pk}/"
    assert "Stop them" in as_member.get(url).content.decode()
    page = as_member.post(url + "reminders/", {"reminders": "off"}, follow=True)
    assert "no more e-mails about evenings" in page.content.decode()
    mike.refresh_from_db()
    assert mike.reminders is False
    as_member.post(url + "reminders/", {"reminders": "on"})
    mike.refresh_from_db()
    assert mike.reminders is True


def test_an_organiser_may_not_turn_on_what_a_member_stopped(as_organiser, people):
    mike = people["mike"]
    mike.reminders = False
    mike.save()
    url = f"/clubs/{mike.club.slug}/members/{mike.pk}/"
    assert "Stop them" not in as_organiser.get(url).content.decode()
    assert as_organiser.post(url + "reminders/", {"reminders": "on"}).status_code == 403
    mike.refresh_from_db()
    assert mike.reminders is False
    assert "only they can turn them back on" in as_organiser.get(url + "manage/").content.decode()


def test_an_organiser_sets_a_members_address_and_a_bad_one_is_refused(as_organiser, people):
    nell = people["nell"]
    url = f"/clubs/{nell.club.slug}/members/{nell.pk}/manage/"
    page = as_organiser.post(url, {"action": "email", "email": "not an address"}, follow=True)
    assert "This is not an e-mail address" in page.content.decode()
    nell.refresh_from_db()
    assert nell.email == "nell@example.org"
    as_organiser.post(url, {"action": "email", "email": "nell@pub.example"})
    nell.refresh_from_db()
    assert nell.email == "nell@pub.example"


def test_a_member_who_signs_in_is_written_to_at_their_logins_address(as_organiser, solo_evening,
                                                                    people):
    mike = people["mike"]
    mike.email = ""
    mike.save()
    mike.user.email = "mike.login@example.org"
    mike.user.save()
    as_organiser.post(email_url(solo_evening), {"who": "coming", "subject": "s", "message": "m"})
    assert sorted(m.to[0] for m in mail.outbox) == ["mike.login@example.org", "olga@example.org"]
    page = as_organiser.get(f"/clubs/{mike.club.slug}/members/{mike.pk}/manage/")
    assert "the address of their login is used" in page.content.decode()


def test_a_stop_link_for_an_old_address_does_nothing_for_the_new_one(client, people):
    from leagues.reminders import stop_token
    nell = people["nell"]
    old_link = f"/clubs/reminders/stop/{stop_token(nell)}/"
    nell.email = nell.confirmed_email = "nell@pub.example"  # a new address, confirmed
    nell.save()
    response = client.post(old_link, {"action": "stop"})
    assert response.status_code == 410
    assert "This link was made for an earlier address" in response.content.decode()
    nell.refresh_from_db()
    assert nell.reminders is True
    client.post(f"/clubs/reminders/stop/{stop_token(nell)}/", {"action": "stop"})
    nell.refresh_from_db()
    assert nell.reminders is False


def test_the_emails_are_resumed_only_by_the_member_signed_in(client, people, organiser_user):
    from leagues.reminders import stop_token
    mike = people["mike"]
    link = f"/clubs/reminders/stop/{stop_token(mike)}/"
    client.post(link, {"action": "stop"})
    page = client.get(link).content.decode()  # anyone holding the link, e.g. a forwarded mail
    assert "Receive them again" not in page
    assert "sign in as Mike and turn them on from your page" in page
    response = client.post(link, {"action": "resume"})
    assert response.status_code == 403
    client.force_login(organiser_user)  # an organiser neither
    assert client.post(link, {"action": "resume"}).status_code == 403
    mike.refresh_from_db()
    assert mike.reminders is False
    client.force_login(mike.user)
    assert "Receive them again" in client.get(link).content.decode()
    client.post(link, {"action": "resume"})
    mike.refresh_from_db()
    assert mike.reminders is True


def test_a_member_without_a_login_is_told_how_to_take_the_emails_back(client, people):
    from leagues.reminders import stop_token
    link = f"/clubs/reminders/stop/{stop_token(people['nell'])}/"
    client.post(link, {"action": "stop"})
    page = client.get(link).content.decode()
    assert "ask an organiser of The Crown Whist Club for a link to claim your record" in page
    assert client.post(link, {"action": "resume"}).status_code == 403


def test_an_old_stop_link_without_an_address_no_longer_works(client, people):
    from django.core import signing

    from leagues.reminders import SALT
    link = f"/clubs/reminders/stop/{signing.dumps(people['nell'].pk, salt=SALT)}/"
    assert client.post(link, {"action": "stop"}).status_code == 404
    people["nell"].refresh_from_db()
    assert people["nell"].reminders is True


def test_a_merge_keeps_an_opt_out_and_the_email_and_invite_history(as_organiser, client,
                                                                   solo_evening, people):
    from leagues import edits
    from leagues.models import ClubEmail, Invite
    nell, club = people["nell"], people["nell"].club
    as_organiser.post(email_url(solo_evening), {"who": "everyone", "subject": "s",
                                                "message": "m"})
    twin = Member.objects.create(club=club, name="Nell (paper)", email="nell@example.org",
                                 confirmed_email="nell@example.org", reminders=False)
    ClubEmail.objects.filter(member=nell).update(member=twin)  # the twin's history
    invite = Invite.objects.create(club=club, member=twin)
    kept = Member.objects.create(club=club, name="Nell B.")
    edits.merge_members(kept, twin, people["olga"].user)
    kept.refresh_from_db()
    assert kept.reminders is False  # a stop on either record wins
    assert kept.email == "nell@example.org" and kept.address_confirmed
    assert ClubEmail.objects.filter(member=kept).count() == 1
    invite.refresh_from_db()
    assert invite.member == kept


def test_a_merge_keeps_the_confirmation_of_the_address_it_keeps(people):
    from leagues import edits
    nell, club = people["nell"], people["nell"].club
    twin = Member.objects.create(club=club, name="Nell (paper)", email="nell@example.org")
    edits.merge_members(twin, nell, people["olga"].user)
    twin.refresh_from_db()
    assert twin.address_confirmed and twin.reminders is True


@pytest.mark.parametrize("subject", ["Tonight\r\nBcc: everyone@example.org", "Tonight\nagain",
                                     "To\rnight", "Tonight\u2028again"])
def test_a_subject_with_a_line_break_gets_a_form_error_and_no_email(as_organiser, solo_evening,
                                                                     people, subject):
    response = as_organiser.post(email_url(solo_evening), {
        "who": "everyone", "subject": subject, "message": "We start at eight."})
    assert response.status_code == 200
    assert "A subject is a single line: remove its line breaks." in response.content.decode()
    assert mail.outbox == []
