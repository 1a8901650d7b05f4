"""The e-mail an hour before an event: once, to those registered with a confirmed address who
have not stopped it, in their language, with a link that stops it after asking."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from events import reminders, running
from events.models import Registration
from tests.events.conftest import new_event
from whistclub.accounts.models import Profile

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_people):
    """Four people who finished their sign-up (their address confirmed by its link)."""
    users = make_people("ana", "ben", "cas", "dora")
    for user in users:
        user.last_login = timezone.now() - timedelta(days=3)
        user.save(update_fields=["last_login"])
    return users


@pytest.fixture
def soon(people):
    """An event starting in 50 minutes, all four registered a day before."""
    event = new_event(people[0], starts_at=timezone.now() + timedelta(minutes=50))
    for user in people:
        running.register(event, user)
    Registration.objects.filter(event=event).update(
        registered_at=timezone.now() - timedelta(days=1))
    return event


def stop_link(message) -> str:
    return re.search(r"http://\S+/events/reminders/stop/\S+/", message.body).group(0)


def test_each_person_registered_is_reminded_once(soon, people):
    assert reminders.send_due() == 4
    assert sorted(m.to[0] for m in mail.outbox) == sorted(u.email for u in people)
    message = mail.outbox[0]
    assert soon.name in message.subject
    assert soon.get_absolute_url() in message.body
    assert message.extra_headers["List-Unsubscribe"]
    assert reminders.send_due() == 0  # the next minute's run
    assert len(mail.outbox) == 4


def test_the_periodic_command_sends_them(soon, capsys):
    call_command("start_events")
    assert len(mail.outbox) == 4
    assert "4 reminder(s) sent" in capsys.readouterr().out


def test_nobody_is_reminded_too_early_or_after_withdrawing(people):
    later = new_event(people[0], starts_at=timezone.now() + timedelta(hours=3))
    running.register(later, people[0])
    Registration.objects.update(registered_at=timezone.now() - timedelta(days=1))
    soon = new_event(people[0], starts_at=timezone.now() + timedelta(minutes=30))
    running.register(soon, people[1])
    running.register(soon, people[2])
    Registration.objects.update(registered_at=timezone.now() - timedelta(days=1))
    running.withdraw(soon, people[2])
    assert reminders.send_due() == 1
    assert mail.outbox[0].to == [people[1].email]


def test_who_registered_in_the_last_hour_needs_no_reminder(people):
    event = new_event(people[0], starts_at=timezone.now() + timedelta(minutes=40))
    running.register(event, people[1])
    assert reminders.send_due() == 0


def test_no_reminder_to_an_unconfirmed_address_or_a_guest(soon, people):
    people[1].last_login = None  # a sign-up never finished
    people[1].save(update_fields=["last_login"])
    Profile.objects.update_or_create(user=people[2], defaults={"is_guest": True})
    assert reminders.send_due() == 2
    assert {m.to[0] for m in mail.outbox} == {people[0].email, people[3].email}


def test_the_reminder_is_in_the_persons_language(soon, people):
    Profile.objects.update_or_create(user=people[1], defaults={"language": "fr"})
    reminders.send_due()
    french = next(m for m in mail.outbox if m.to == [people[1].email])
    assert "commence dans une heure" in french.subject
    english = next(m for m in mail.outbox if m.to == [people[0].email])
    assert "starts in an hour" in english.subject


def test_the_stop_link_asks_then_stops(soon, people, client):
    reminders.send_due()
    link = stop_link(next(m for m in mail.outbox if m.to == [people[1].email]))
    path = link.split("://", 1)[1].split("/", 1)[1]
    page = client.get("/" + path)  # a mail scanner following the link
    assert page.status_code == 200
    assert "Stop the e-mail an hour before each event" in page.content.decode()
    assert reminders.wanted(people[1])
    page = client.post("/" + path)
    assert "you will receive no more e-mails before the events" in page.content.decode()
    assert not reminders.wanted(people[1])
    later = new_event(people[0], starts_at=timezone.now() + timedelta(minutes=20))
    running.register(later, people[1])
    Registration.objects.filter(event=later).update(
        registered_at=timezone.now() - timedelta(days=1))
    mail.outbox.clear()
    assert reminders.send_due() == 0


def test_an_altered_stop_link_changes_nothing(people, client):
    token = reminders.stop_token(people[1])
    page = client.post(reverse("event_reminders_stop", args=[token[:-3] + "abc"]))
    assert page.status_code == 404
    assert "This link does not work" in page.content.decode()
    assert reminders.wanted(people[1])


def test_a_link_for_an_earlier_address_changes_nothing(people, client):
    token = reminders.stop_token(people[1])
    people[1].email = "ben.new@example.org"
    people[1].save(update_fields=["email"])
    page = client.post(reverse("event_reminders_stop", args=[token]))
    assert page.status_code == 410
    assert reminders.wanted(people[1])


def test_the_profile_turns_them_on_again(people, client):
    reminders.set_wanted(people[1], False)
    client.force_login(people[1])
    page = client.get(reverse("profile"))
    assert "E-mail before my events" in page.content.decode()
    client.post(reverse("profile"), {"display_name": "", "language": "",
                                     "event_reminders": "on"})
    assert reminders.wanted(people[1])


def test_the_stop_link_does_not_carry_the_address(people):
    """A signed value is readable by anyone who holds the link (links end up in logs and
    forwarded mail): it names the account and a fingerprint of the address, never the address."""
    import base64
    token = reminders.stop_token(people[1])
    payload = token.split(":")[0]
    readable = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)).decode()
    assert people[1].email not in readable
    assert reminders.person_of_stop_token(token) == (people[1], None)


def test_a_link_of_the_first_kind_still_stops_them(people, client):
    from django.core import signing
    token = signing.dumps({"user": people[1].pk, "address": people[1].email},
                          salt=reminders.SALT)
    client.post(reverse("event_reminders_stop", args=[token]))
    assert not reminders.wanted(people[1])
