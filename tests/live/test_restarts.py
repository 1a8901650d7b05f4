"""A restart strands no table: a computer's move pending when the server died (SIGKILL, or the
SIGTERM of a deploy) is made by the next server, with or without anyone at the table."""

import asyncio
import json
import signal
import time

import pytest
import websockets

from tests.live_servers import create_table, login_cookie

pytestmark = pytest.mark.slow
PASSWORD = "pw-long-enough"
PAUSE = {"COMPUTER_DELAY_SECONDS": "0.8"}  # the site's default pause before a computer's move


def table_facts(database, table_id) -> tuple[int, bool]:
    code = (f"from games.models import Table; t = Table.objects.get(pk={table_id}); "
            "print(t.version, t.computer_turn)")
    version, computer_turn = database.shell(code).strip().splitlines()[-1].split()
    return int(version), computer_turn == "True"


def wait_for_version_above(database, table_id, version, seconds=20.0) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        now, _ = table_facts(database, table_id)
        if now > version:
            return now
        time.sleep(0.5)
    return version


async def next_state(socket, timeout=15):
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), timeout))
        if message["type"] == "state":
            return message


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
async def test_a_computers_move_pending_at_a_restart_is_made_after_it(
        server_database, start_server, stop):
    """One person and three computer players; the person plays; the server dies during the
    computers' pause; the next server makes their moves before anyone reconnects."""
    server = start_server(**PAUSE)
    table_id = create_table(server_database, "solo_whist", {0: "ana"}, computers=(1, 2, 3))
    cookie = login_cookie(server.url, "ana", PASSWORD)
    socket = await websockets.connect(
        f"{server.ws_url}/ws/tables/{table_id}/?format=json",
        additional_headers={"Cookie": cookie, "Origin": server.url}, open_timeout=10)
    state = await next_state(socket)
    while True:
        while not state["state"]["hand"].get("legal"):  # the computers before her play first
            state = await next_state(socket)
        await socket.send(json.dumps({"type": "action", "version": state["version"],
                                      "action": state["state"]["hand"]["legal"][0]}))
        played = await next_state(socket)
        assert played["version"] == state["version"] + 1
        if played["state"]["hand"].get("to_act") != 0:
            break  # a computer's turn now (after a declaration, say, hers again)
        state = played
    server.process.send_signal(stop)  # within the computers' 0.8 s pause
    server.process.wait(timeout=20)
    stranded, computer_turn = table_facts(server_database, table_id)
    assert stranded == played["version"], "the computer moved before the server stopped"
    assert computer_turn  # the pending move is in the database
    start_server(**PAUSE)  # nobody reconnects
    assert wait_for_version_above(server_database, table_id, stranded) > stranded


async def test_an_all_computer_table_left_by_a_dead_process_plays_on(server_database,
                                                                     start_server):
    """The computers' loop of a table lived in a thread of a process that is gone (here: the
    management shell that seated them): the next server picks the table up at start."""
    table_id = int(server_database.shell(
        "from django.contrib.auth import get_user_model\n"
        "from games import tables\n"
        "owner = get_user_model().objects.create_user('owen', None, 'pw-long-enough')\n"
        "table = tables.create_table(owner, 'solo_whist', {})\n"
        "tables.fill_seats(table.pk, owner, 'easy')\n"
        "print(table.pk)\n", **PAUSE).strip().splitlines()[-1])
    stranded, computer_turn = table_facts(server_database, table_id)
    time.sleep(1.5)
    assert table_facts(server_database, table_id)[0] == stranded  # nobody plays it
    assert computer_turn
    start_server(**PAUSE)
    assert wait_for_version_above(server_database, table_id, stranded) > stranded


def test_the_work_after_a_change_is_done_by_a_process_that_ends_with_the_server(
        server_database, start_server):
    """Follow-ups left in the database are done by the server's own worker process (not a
    thread of the process that serves the sockets), which ends when the server is killed."""
    import psutil

    server_database.shell(
        "from games.models import FollowUp\n"
        "FollowUp.objects.create(kind='rate', payload={'scope': 'site', "
        "'game': 'solo_whist', 'since': None})\n")
    server = start_server(FOLLOW_UP_POLL_SECONDS="0.5")
    code = "from games.models import FollowUp; print(FollowUp.objects.count())"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and server_database.shell(code).strip().splitlines()[-1] != "0":
        time.sleep(0.5)
    assert server_database.shell(code).strip().splitlines()[-1] == "0"
    workers = psutil.Process(server.process.pid).children(recursive=True)
    assert workers, "no worker process beside the server"
    server.kill()
    gone, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive, "the worker outlived the server"
