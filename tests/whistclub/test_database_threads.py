"""The site writes from several threads of one process (a table's actions, the presence checks,
the computer players): a write that meets another thread's open transaction waits for it, as it
does on PostgreSQL, instead of failing."""

import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction


@pytest.mark.django_db(transaction=True)
def test_a_write_on_another_thread_waits_for_an_open_transaction_instead_of_failing():
    User = get_user_model()
    member = User.objects.create(username="member", first_name="Ana")
    failures, written = [], threading.Event()

    def write_elsewhere():
        try:
            User.objects.filter(pk=member.pk).update(last_name="Silva")
            written.set()
        except Exception as exc:  # what the test reports, whatever the database raised
            failures.append(exc)
        finally:
            connection.close()

    with transaction.atomic():
        User.objects.filter(pk=member.pk).update(first_name="Ana Maria")
        other = threading.Thread(target=write_elsewhere)
        other.start()
        time.sleep(0.5)  # the other thread meets the open transaction meanwhile
        assert not written.is_set(), "the other write did not wait for the open transaction"
    other.join(timeout=20)
    assert failures == []
    member.refresh_from_db()
    assert (member.first_name, member.last_name) == ("Ana Maria", "Silva")
