"""Live tables against real server processes: restarts, races, several processes, fuzzing."""

import asyncio
import json
import os
import random
import subprocess
import time

import pytest
import websockets

from games.broadcasting import table_group
from games.rules.records import replay_hand
from tests.live_servers import (
    ComputerPlayersService,
    create_table,
    free_port,
    group_channel_name,
    group_subscribers,
    login_cookie,
)

pytestmark = pytest.mark.slow
PASSWORD = "pw-long-enough"


async def open_socket(server, table_id, cookie, origin=True):
    headers = {"Cookie": cookie}
    if origin:
        headers["Origin"] = server.url
    return await websockets.connect(f"{server.ws_url}/ws/tables/{table_id}/?format=json",
                                    additional_headers=headers, open_timeout=10)


async def next_message(socket, timeout=10):
    return json.loads(await asyncio.wait_for(socket.recv(), timeout))


async def next_state(socket, timeout=10):
    while True:
        message = await next_message(socket, timeout)
        if message["type"] == "state":
            return message


def table_record(database, table_id) -> dict:
    code = f"from games.models import Table; import json; print(json.dumps(Table.objects.get(pk={table_id}).current))"
    return json.loads(database.shell(code).strip().splitlines()[-1])


def table_version(database, table_id) -> int:
    code = f"from games.models import Table; print(Table.objects.get(pk={table_id}).version)"
    return int(database.shell(code).strip().splitlines()[-1])


async def test_killing_the_server_mid_hand_loses_nothing(server_database, start_server):
    server = start_server()
    table_id = create_table(server_database, "solo_whist", {0: "ana"}, computers=(1, 2, 3))
    cookie = login_cookie(server.url, "ana", PASSWORD)
    socket = await open_socket(server, table_id, cookie)
    state = await next_state(socket)
    rng = random.Random(1)
    for _ in range(3):  # play a few of our own turns
        if state["state"]["hand"].get("legal"):
            await socket.send(json.dumps({"type": "action", "version": state["version"],
                                          "action": rng.choice(state["state"]["hand"]["legal"])}))
        state = await next_state(socket)
    before = table_record(server_database, table_id)
    server.kill()  # SIGKILL mid-hand: no clean shutdown
    restarted = start_server()
    socket = await open_socket(restarted, table_id, login_cookie(restarted.url, "ana", PASSWORD))
    after = await next_state(socket)
    assert after["version"] == state["version"]
    assert table_record(server_database, table_id) == before
    assert after["state"]["hand"] == state["state"]["hand"]
    legal = after["state"]["hand"].get("legal")
    if legal:  # and the hand goes on from exactly there
        await socket.send(json.dumps({"type": "action", "version": after["version"],
                                      "action": legal[0]}))
        assert (await next_state(socket))["version"] > after["version"]
    await socket.close()


async def test_after_a_crash_a_computer_plays_for_whoever_never_came_back(server_database,
                                                                          start_server):
    """Ana and Bob play; the server is killed; only Ana comes back.  Bob's presence row of the
    dead process expires (its lease is not renewed), his seat goes away, and once the grace
    period has run out a computer plays his turns."""
    quick = {"PRESENCE_HEARTBEAT_SECONDS": "0.5", "PRESENCE_LEASE_SECONDS": "2",
             "PRESENCE_AWAY_AFTER_SECONDS": "0.5"}
    server = start_server(**quick)
    table_id = create_table(server_database, "solo_whist", {0: "ana", 1: "bob"}, computers=(2, 3))
    ana = await open_socket(server, table_id, login_cookie(server.url, "ana", PASSWORD))
    bob = await open_socket(server, table_id, login_cookie(server.url, "bob", PASSWORD))
    await next_state(ana)
    await next_state(bob)
    # A short grace only once both are at the table: the seats were taken seconds before the
    # sockets opened, and with 3 s from the start the sweep would rightly hand Bob's first turn
    # to a computer before his socket even connected.
    server_database.shell(
        f"from games.models import Table; Table.objects.filter(pk={table_id})"
        ".update(grace_seconds=3)")
    assert not any(a["seat"] == 1 for a in table_record(server_database, table_id)["actions"])
    server.kill()
    restarted = start_server(**quick)
    ana = await open_socket(restarted, table_id, login_cookie(restarted.url, "ana", PASSWORD))
    rng = random.Random(2)
    bob_acted = computer_shown = False
    for _ in range(200):
        state = await next_state(ana, timeout=15)
        hand = state["state"]["hand"] or {}
        bob_seat = state["state"]["players"][1]
        computer_shown = computer_shown or bool(bob_seat["away"] and bob_seat.get("computer_playing"))
        if not bob_acted:  # the record may be ahead of the states still queued on the socket
            record = table_record(server_database, table_id) or {"actions": []}
            bob_acted = (any(a["seat"] == 1 for a in record["actions"])
                         or bool(state["state"]["hands_played"]))
        if bob_acted and computer_shown:
            break
        if hand.get("to_act") == 0 and hand.get("legal"):
            await ana.send(json.dumps({"type": "action", "version": state["version"],
                                       "action": rng.choice(hand["legal"])}))
    bob_played = bob_acted and computer_shown
    assert bob_played, "nobody played for the player who never came back"
    await ana.close()


async def test_two_clicks_racing_for_one_turn_apply_exactly_once(server_database, start_server):
    server = start_server()
    table_id = create_table(server_database, "bid_whist", {0: "ana"}, computers=(1, 2, 3))
    cookie = login_cookie(server.url, "ana", PASSWORD)
    tab_one = await open_socket(server, table_id, cookie)
    tab_two = await open_socket(server, table_id, cookie)
    state = await next_state(tab_one)
    await next_state(tab_two)
    while state["state"]["hand"]["to_act"] != 0:
        state = await next_state(tab_one)
    legal = state["state"]["hand"]["legal"]
    assert len(legal) >= 2
    version = state["version"]
    await asyncio.gather(
        tab_one.send(json.dumps({"type": "action", "action": legal[0], "version": version})),
        tab_two.send(json.dumps({"type": "action", "action": legal[-1], "version": version})))
    replies = [await next_message(tab_one), await next_message(tab_two)]
    errors = [r for r in replies if r["type"] == "error"]
    assert len(errors) == 1 and "moved on" in errors[0]["message"]
    record = table_record(server_database, table_id)
    applied = [a for a in record["actions"] if a["seat"] == 0]
    assert len(applied) == 1 and applied[0]["action"] in (legal[0], legal[-1])
    await tab_one.close()
    await tab_two.close()


@pytest.fixture
def second_redis(tmp_path):
    """A Redis server of the test's own beside the pass's one: a second shard."""
    import redis

    port = free_port()
    process = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                                "--save", "", "--appendonly", "no", "--dir", str(tmp_path)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + 10
    while True:
        try:
            redis.Redis.from_url(url, socket_connect_timeout=1).ping()
            break
        except redis.ConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
    yield url
    process.terminate()
    process.wait(timeout=10)


@pytest.mark.skipif(not os.environ.get("REDIS_URL"),
                    reason="several processes share a table through Redis: the services pass")
@pytest.mark.parametrize("shards", [1, 2])
async def test_players_on_two_server_processes_see_every_action_in_order(
        server_database, start_server, request, shards):
    urls = os.environ["REDIS_URL"].split(",")
    if shards == 2:  # the channel layer sharded over two Redis servers (REDIS_URL, a list)
        urls = [urls[0], request.getfixturevalue("second_redis")]
    first, second = (start_server(REDIS_URL=",".join(urls)) for _ in range(2))
    table_id = create_table(server_database, "solo_whist", {0: "ana", 2: "bea"}, computers=(1, 3))
    ana = await open_socket(first, table_id, login_cookie(first.url, "ana", PASSWORD))
    bea = await open_socket(second, table_id, login_cookie(second.url, "bea", PASSWORD))
    states = {"ana": [await next_state(ana)], "bea": [await next_state(bea)]}
    # The table's group lives on the one Redis server its name hashes to, and both processes
    # listen to it there (a socket joins the group as it opens: it may take a moment).
    from channels_redis.utils import _consistent_hash

    prefix = server_database.channel_prefix
    shard = _consistent_hash(group_channel_name(table_group(table_id), prefix), shards)
    deadline = time.monotonic() + 5
    while (counts := group_subscribers(urls, table_group(table_id), prefix))[shard] < 2 and (
            time.monotonic() < deadline):
        await asyncio.sleep(0.1)
    assert counts[shard] == 2 and sum(counts) == 2, counts
    rng = random.Random(4)
    sockets = {"ana": (ana, 0), "bea": (bea, 2)}
    for _ in range(40):
        moved = False
        for name, (socket, seat) in sockets.items():
            state = states[name][-1]["state"]
            if state["hand"] and state["hand"].get("to_act") == seat and state["hand"].get("legal"):
                await socket.send(json.dumps({"type": "action", "version": state["version"],
                                              "action": rng.choice(state["hand"]["legal"])}))
                moved = True
                break
        if not moved and states["ana"][-1]["state"]["hands_played"] >= 1:
            break
        for name, (socket, _seat) in sockets.items():
            try:
                states[name].append(await next_state(socket, timeout=3))
            except TimeoutError:
                pass
        await asyncio.sleep(0)
    final = table_version(server_database, table_id)
    for name, (socket, _seat) in sockets.items():
        while states[name][-1]["version"] < final:
            states[name].append(await next_state(socket))
        versions = [s["version"] for s in states[name]]
        assert versions == sorted(versions), f"{name} saw versions out of order: {versions}"
        assert versions[-1] == final
    await ana.close()
    await bea.close()


async def test_a_socket_from_another_origin_is_refused(server_database, start_server):
    server = start_server()
    table_id = create_table(server_database, "bid_whist", {0: "ana"}, computers=(1, 2, 3))
    cookie = login_cookie(server.url, "ana", PASSWORD)
    with pytest.raises(websockets.exceptions.InvalidStatus):
        await websockets.connect(f"{server.ws_url}/ws/tables/{table_id}/?format=json",
                                 additional_headers={"Cookie": cookie,
                                                     "Origin": "http://evil.example"})


JUNK = [
    "", " ", "null", "[]", "{}", "42", '"play AS"', "{", "}{", "\x00\x01", "é" * 300,
    '{"type": "action"}', '{"type": "action", "action": null, "version": 1}',
    '{"type": "action", "action": ["play AS"], "version": 1}',
    '{"type": "action", "action": "play AS", "version": "one"}',
    '{"type": "action", "action": "play AS", "version": -1}',
    '{"type": "action", "action": "play AS", "version": 1e308}',
    '{"type": "discard", "cards": "AS", "version": 1}',
    '{"type": "discard", "cards": [1, 2, 3], "version": 1}',
    '{"type": "snapshot", "extra": {"deep": [[[[]]]]}}',
    '{"type": "action", "action": "' + "x" * 200 + '", "version": 1}',
    '{"type": "action", "table": 999, "seat": 3, "action": "pass", "version": 1}',
]


async def test_fuzzing_a_live_table_changes_nothing_but_legal_actions(server_database,
                                                                      start_server):
    # no flood control, neither the socket's nor the person's (a refused message is not
    # answered, and each would cost the test its three-second wait)
    server = start_server(WS_RATE_PER_SECOND="100000", WS_BURST="100000",
                          WS_PERSON_RATE_PER_SECOND="100000", WS_PERSON_BURST="100000")
    table_id = create_table(server_database, "bid_whist", {0: "ana"}, computers=(1, 2, 3))
    socket = await open_socket(server, table_id, login_cookie(server.url, "ana", PASSWORD))
    state = await next_state(socket)
    rng = random.Random(7)
    sent = 0
    while sent < 2000:
        choice = rng.random()
        hand = state["state"]["hand"] or {}
        if choice < 0.6:
            payload = rng.choice(JUNK)
        elif choice < 0.8:
            payload = json.dumps({"type": "action", "version": rng.randrange(-2, 500),
                                  "action": rng.choice(["pass", "play AS", "bid 4 uptown",
                                                        "trump H", "discard 2C", "play"])})
        elif choice < 0.95 and hand.get("legal"):
            payload = json.dumps({"type": "action", "version": state["version"],
                                  "action": rng.choice(hand["legal"])})
        else:
            payload = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 50)))
        try:
            await socket.send(payload)
            sent += 1
            message = await next_message(socket, timeout=3)  # every message is answered
            while True:
                if message["type"] == "state":
                    state = message
                message = await next_message(socket, timeout=0.002)  # pushed states
        except TimeoutError:
            pass
        except websockets.exceptions.ConnectionClosed:
            socket = await open_socket(server, table_id,
                                       login_cookie(server.url, "ana", PASSWORD))
            state = await next_state(socket)
    await socket.close()
    record = table_record(server_database, table_id)
    if record:  # the hand in play replays, action by action, to a legal state
        replayed = replay_hand(record)
        assert replayed.result()["complete"] in (True, False)
    hands = json.loads(server_database.shell(
        f"from games.models import Hand; import json; print(json.dumps([[h.record, h.result] "
        f"for h in Hand.objects.filter(table_id={table_id})]))").strip().splitlines()[-1])
    for hand_record, result in hands:
        assert replay_hand(hand_record).result() == result


async def test_a_flooding_client_is_slowed_then_closed_and_never_stalls_others(server_database,
                                                                             start_server):
    server = start_server()
    table_id = create_table(server_database, "solo_whist", {0: "ana", 1: "bob"}, computers=(2, 3))
    flooder = await open_socket(server, table_id, login_cookie(server.url, "bob", PASSWORD))
    player = await open_socket(server, table_id, login_cookie(server.url, "ana", PASSWORD))
    await next_state(flooder)
    state = await next_state(player)
    before = table_record(server_database, table_id)
    junk = json.dumps({"type": "action", "action": "pass", "version": 0})
    for _ in range(400):
        await flooder.send(junk)
    # meanwhile the other player is answered at once
    loop = asyncio.get_running_loop()
    started = loop.time()
    await player.send(json.dumps({"type": "snapshot"}))
    assert (await next_state(player, timeout=5))["version"] == state["version"]
    assert loop.time() - started < 2
    messages = []
    with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
        while True:
            messages.append(await next_message(flooder, timeout=10))
    assert closed.value.rcvd.code == 4429
    assert any("slow down" in m.get("message", "") for m in messages)
    assert len(messages) < 100  # most of the flood was dropped, not answered
    # nothing of the flood was played (the version itself moves: the flooder has dropped off)
    assert table_record(server_database, table_id)["actions"] == before["actions"]
    await player.close()


async def test_computer_players_think_in_a_service_of_their_own(server_database, start_server,
                                                                 tmp_path):
    """A site pointed at the computer players' service (COMPUTER_SERVICE_URL) plays whole hands
    with them: every computer turn is decided there, none falls back to the easy heuristic."""
    token = "live-service-token-long-enough"
    service = ComputerPlayersService(tmp_path / "computers.log", token,
                                     COMPUTER_TIME_LIMIT_SECONDS="2").start()
    try:
        via_service = {"COMPUTER_SERVICE_URL": service.url, "COMPUTER_SERVICE_TOKEN": token}
        server = start_server(**via_service)
        # the computer players who speak before ana do so as the table starts, where it is made
        table_id = create_table(server_database, "solo_whist", {0: "ana"}, computers=(1, 2, 3),
                                **via_service)
        ana = await open_socket(server, table_id, login_cookie(server.url, "ana", PASSWORD))
        rng = random.Random(5)
        for _ in range(400):
            state = await next_state(ana, timeout=15)
            if state["state"]["hands_played"] >= 1:
                break
            hand = state["state"]["hand"] or {}
            if hand.get("to_act") == 0 and hand.get("legal"):
                await ana.send(json.dumps({"type": "action", "version": state["version"],
                                           "action": rng.choice(hand["legal"])}))
        assert state["state"]["hands_played"] >= 1
        await ana.close()
        site_log = server.log_path.read_text()
        assert "computer players' service" not in site_log  # no decision failed or overran
        assert "easy heuristic plays instead" not in site_log
        served = service.decisions_served()
        assert served >= 3, served  # each computer seat speaks at least once in the auction
    finally:
        service.stop()
