"""Two people at once, for real: threads with their own database connections (PostgreSQL only:
SQLite serialises writers by locking the whole file, so there is no race to see)."""

import threading

import pytest
from django.db import connection
from django.test import Client

from leagues.models import Deal

from .test_security import next_deal, table_url

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="a real race needs a database with row locks"),
]


def test_two_simultaneous_posts_of_one_deal_enter_it_once(solo_table, organiser_user):
    data = next_deal(solo_table)
    start = threading.Barrier(2)
    pages = []

    def post():
        try:
            client = Client()
            client.force_login(organiser_user)
            start.wait(timeout=10)
            pages.append(client.post(table_url(solo_table, "deals/"), data,
                                     follow=True).content.decode())
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=post) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(pages) == 2
    assert Deal.objects.filter(table=solo_table).count() == 1
    assert sorted("Deal 1 entered." in page for page in pages) == [False, True]
    assert any("Deal 1 was already entered" in page for page in pages)
