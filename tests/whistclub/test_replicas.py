"""Reads from a replica (whistclub/replicas.py), against two real databases: the primary and a
copy of it taken before a change, which is what a replica a moment behind looks like."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.live_servers import ROOT

pytestmark = pytest.mark.slow  # a replica database and manage.py processes

SCRIPT = r'''
import json
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client
from django.urls import reverse
from leagues.models import Club, Season
from whistclub.replicas import WROTE_COOKIE

club = Club.objects.get(slug="demo-whist-club")
member = club.members.exclude(user__username="demo").order_by("pk").first()
out = {"old_name": member.name}
# the standings of a season the member played in: public, like the club
page = next(url for url in (reverse("leagues:season", args=[club.slug, season.pk])
                            for season in Season.objects.filter(league__club=club))
            if member.name in Client().get(url).content.decode())


def read(client, url, label):
    counts = {"default": 0, "replica": 0}

    def counter(alias):
        def wrapper(execute, sql, params, many, context):
            counts[alias] += 1
            return execute(sql, params, many, context)
        return wrapper

    with connections["default"].execute_wrapper(counter("default")), \
            connections["replica"].execute_wrapper(counter("replica")):
        response = client.get(url)
    text = response.content.decode()
    out[label] = {"status": response.status_code, **counts,
                  "old_name_shown": out["old_name"] in text,
                  "new_name_shown": "Renamed By Organiser" in text}


visitor, organiser = Client(), Client()
organiser.force_login(get_user_model().objects.get(username="demo"))
read(visitor, page, "visitor_before")
read(visitor, reverse("leagues:club", args=[club.slug]), "visitor_club_page")
renamed = organiser.post(reverse("leagues:member_manage", args=[club.slug, member.pk]),
                         {"action": "rename", "name": "Renamed By Organiser"})
out["rename_status"] = renamed.status_code
out["wrote_cookie_seconds"] = renamed.cookies[WROTE_COOKIE]["max-age"]
read(organiser, page, "organiser_after")
read(visitor, page, "visitor_after")
organiser.cookies.pop(WROTE_COOKIE)  # as the browser drops it once its seconds are over
read(organiser, page, "organiser_later")
print("RESULT " + json.dumps(out))
'''


def manage(env, *args):
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


@pytest.fixture(scope="module")
def replica_reads(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("replica")
    primary, replica = tmp / "primary.sqlite3", tmp / "replica.sqlite3"
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "WHISTCLUB_REQUIRE_SERVICES"}}
    env.update(DATABASE_URL=f"sqlite:///{primary}", DEBUG="1", ALLOWED_HOSTS="testserver",
               DJANGO_SETTINGS_MODULE="whistclub.settings")
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "load_demo")
    shutil.copy(primary, replica)  # the replica: the primary as it was before the rename
    env["DATABASE_REPLICA_URL"] = f"sqlite:///{replica}"
    out = manage(env, "shell", "-c", SCRIPT)
    return json.loads(next(line for line in out.splitlines()
                           if line.startswith("RESULT "))[len("RESULT "):])


def test_a_page_everyone_reads_is_read_from_the_replica(replica_reads):
    visitor = replica_reads["visitor_before"]
    assert visitor["status"] == 200
    assert visitor["replica"] > 0 and visitor["default"] == 0
    assert visitor["old_name_shown"]


def test_a_page_that_is_not_marked_stays_on_the_primary(replica_reads):
    club_page = replica_reads["visitor_club_page"]
    assert club_page["status"] == 200
    assert club_page["replica"] == 0 and club_page["default"] > 0


def test_whoever_just_changed_something_reads_it_back_from_the_primary(replica_reads):
    assert replica_reads["rename_status"] == 302
    assert replica_reads["wrote_cookie_seconds"] == 10
    organiser = replica_reads["organiser_after"]
    assert organiser["status"] == 200 and organiser["new_name_shown"]
    assert organiser["replica"] == 0


def test_others_read_the_replica_and_so_does_the_writer_once_the_lag_is_over(replica_reads):
    visitor = replica_reads["visitor_after"]
    assert visitor["status"] == 200 and visitor["replica"] > 0
    assert visitor["old_name_shown"] and not visitor["new_name_shown"]  # a moment behind
    later = replica_reads["organiser_later"]
    assert later["status"] == 200 and later["replica"] > 0
    assert later["old_name_shown"] and not later["new_name_shown"]
