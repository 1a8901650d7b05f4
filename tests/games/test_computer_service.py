"""The computer players' pool as a service of its own (games/computer_server.py): the site asks it
(games/computer_service.py) over HTTP with a token, within the same hard time limit; anything wrong
there costs only a log line and the easy heuristic plays."""

from __future__ import annotations

import json
import logging
import os
import random
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import psutil
import pytest

from games import computer_runner
from games.rules import solo_whist
from games.rules.computer import choose_action
from tests.live_servers import ROOT, ComputerPlayersService, free_port

TOKEN = "a-service-token-long-enough"
SERVICE_CONNECTIONS = 8


def a_view(seed=1):
    rules = solo_whist.Rules()
    deal = solo_whist.deal(rules, 0, random.Random(seed))
    state = solo_whist.new_hand(rules, 0, deal.hands)
    return state, state.view(state.to_act)


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    """``manage.py serve_computer_players`` in a process of its own, with one worker."""
    running = ComputerPlayersService(tmp_path_factory.mktemp("computers") / "service.log", TOKEN,
                                     COMPUTER_TIME_LIMIT_SECONDS="5", COMPUTER_SERVICE_READ_SECONDS="1",
                                     COMPUTER_SERVICE_MAX_CONNECTIONS=str(SERVICE_CONNECTIONS)).start()
    yield running
    running.stop()


@pytest.fixture
def site_asks(settings):
    def point_at(url, token=TOKEN, limit=5.0):
        settings.COMPUTER_SERVICE_URL, settings.COMPUTER_SERVICE_TOKEN = url, token
        settings.COMPUTER_TIME_LIMIT_SECONDS, settings.COMPUTER_SERVICE_SLACK_SECONDS = limit, 0.2
        settings.COMPUTER_WORKERS = 0  # were it asked here, it would decide here: it must not be
    return point_at


def test_the_site_asks_the_service_and_plays_its_choice(service, site_asks, monkeypatch):
    site_asks(service.url)
    asked_here = []
    monkeypatch.setattr(computer_runner, "_target", lambda view, level: asked_here.append(1))
    before = service.decisions_served()
    state, view = a_view()
    for level in ("strong", "normal", "easy"):
        assert computer_runner.decide(view, level) in state.legal_actions()
    assert not asked_here  # nothing was decided in the site's process
    assert service.decisions_served() - before == 3


def test_a_wrong_token_is_refused_and_the_easy_heuristic_plays(service, site_asks, caplog):
    site_asks(service.url, token="not-the-service-token")
    state, view = a_view(2)
    with caplog.at_level(logging.WARNING, logger="games.computer_service"):
        assert computer_runner.decide(view, "strong") == choose_action(view, "easy")
    assert "403" in caplog.text


def test_a_service_that_is_down_costs_a_log_line(site_asks, caplog):
    site_asks(f"http://127.0.0.1:{free_port()}")
    state, view = a_view(3)
    began = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="games.computer_service"):
        assert computer_runner.decide(view, "strong") == choose_action(view, "easy")
    assert time.monotonic() - began < 1
    assert "failed" in caplog.text


def test_a_service_that_never_answers_is_cut_off_at_the_time_limit(site_asks, caplog):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    held = []
    threading.Thread(target=lambda: held.append(listener.accept()), daemon=True).start()
    site_asks(f"http://127.0.0.1:{listener.getsockname()[1]}", limit=0.3)
    _state, view = a_view(4)
    began = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="games.computer_service"):
        assert computer_runner.decide(view, "strong") == choose_action(view, "easy")
    assert 0.45 <= time.monotonic() - began < 1.0  # the limit and the slack, no more
    assert "took longer" in caplog.text
    listener.close()


def post(url, body: bytes, token=TOKEN):
    request = urllib.request.Request(url + "/decide", data=body, method="POST", headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_the_service_refuses_what_is_not_a_decision_in_plain_words(service):
    url = service.url
    _state, view = a_view(5)
    good = json.dumps({"view": view, "level": "strong"}).encode()
    assert post(url, good)[0] == 200
    assert post(url, good, token="guess") == (403, {"error": "wrong or missing token"})
    assert post(url, b"{not json")[0] == 400
    status, answer = post(url, json.dumps({"view": view, "level": "grandmaster"}).encode())
    assert status == 400 and "easy, normal, strong" in answer["error"]
    assert asked_to_take(url, (1 << 20) + 1).startswith(b"HTTP/1.0 413")


def asked_to_take(url, length: int) -> bytes:
    """The service's first answer to a request that announces ``length`` bytes and sends none:
    it refuses on the announced length, before any body arrives (sending a real megabyte raced
    the refusal and its close, which the client saw as a broken pipe)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(f"POST /decide HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                     f"Authorization: Bearer {TOKEN}\r\nContent-Length: {length}\r\n\r\n".encode())
        return conn.recv(4096)


@pytest.mark.slow  # manage.py in a process of its own
def test_the_service_will_not_start_without_a_token_or_a_worker():
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPUTER_")}
    env["DJANGO_SETTINGS_MODULE"] = "whistclub.settings"
    for extra, words in (({}, "Set COMPUTER_SERVICE_TOKEN"),
                         ({"COMPUTER_SERVICE_TOKEN": TOKEN, "COMPUTER_WORKERS": "0"}, "Set COMPUTER_WORKERS")):
        result = subprocess.run([sys.executable, "manage.py", "serve_computer_players",
                                 "--port", str(free_port())], cwd=ROOT, env={**env, **extra},
                                capture_output=True, text=True, timeout=60)
        assert result.returncode != 0 and words in result.stderr, result.stderr


@pytest.mark.slow  # manage.py in a process of its own
def test_a_site_pointed_at_a_service_needs_its_token():
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPUTER_")}
    env.update(DJANGO_SETTINGS_MODULE="whistclub.settings", COMPUTER_SERVICE_URL="http://10.0.0.9:8100")
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0 and "COMPUTER_SERVICE_TOKEN must be set" in result.stderr


# Neither side can be held by the other.

def test_connections_that_send_nothing_are_closed_and_more_than_the_cap_get_a_503(service):
    """500 connections that send nothing once held 501 threads for over a minute: now each is
    closed after the read deadline (1 s here), those beyond the cap are answered 503 at once,
    and decisions are served again as soon as they are gone."""
    process = psutil.Process(service.process.pid)
    threads_before = process.num_threads()
    idle = []
    try:
        for _ in range(SERVICE_CONNECTIONS):
            idle.append(socket.create_connection(("127.0.0.1", service.port), timeout=10))
        time.sleep(0.3)  # every one of them taken by the server
        with socket.create_connection(("127.0.0.1", service.port), timeout=5) as extra:
            assert extra.recv(4096).startswith(b"HTTP/1.0 503")
        assert process.num_threads() <= threads_before + SERVICE_CONNECTIONS
        began = time.monotonic()
        for conn in idle:
            assert conn.recv(1) == b""  # closed by the service
        assert time.monotonic() - began < 2.5
    finally:
        for conn in idle:
            conn.close()
    _state, view = a_view(6)
    assert post(service.url, json.dumps({"view": view, "level": "easy"}).encode())[0] == 200


def test_a_request_that_trickles_in_is_cut_at_the_read_deadline(service):
    began = time.monotonic()
    with socket.create_connection(("127.0.0.1", service.port), timeout=10) as conn:
        try:
            for byte in b"POST /decide HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100:
                conn.sendall(bytes([byte]))  # each byte well within a read's timeout
                time.sleep(0.1)
        except OSError:
            pass  # cut while still sending
        assert conn.recv(4096) == b""  # closed, with no answer
    assert time.monotonic() - began < 3.0  # the 1 s deadline, not the 10 s of trickling


def worker_pids(service) -> set[int]:
    """The service's decision workers (the forkserver's children)."""
    return {child.pid for child in psutil.Process(service.process.pid).children(recursive=True)
            if child.is_running() and child.status() != psutil.STATUS_ZOMBIE}


def test_a_malformed_or_deeply_nested_view_gets_a_400_and_the_workers_stay(service):
    url = service.url
    _state, view = a_view(7)
    good = json.dumps({"view": view, "level": "strong"}).encode()
    assert post(url, good)[0] == 200
    workers = worker_pids(service)
    assert workers, "the service has no worker processes"
    deep = b'{"view": ' + b"[" * 100_000 + b"]" * 100_000 + b', "level": "strong"}'
    nested_view = {**view, "hand": [[[[[[[[[["AS"]]]]]]]]]]}
    for body in (deep,
                 json.dumps({"view": nested_view, "level": "strong"}).encode(),
                 json.dumps({"view": {**view, "seat": "north"}, "level": "strong"}).encode(),
                 json.dumps({"view": {**view, "legal": 5}, "level": "strong"}).encode(),
                 json.dumps({"view": {**view, "hand": 5}, "level": "strong"}).encode(),
                 json.dumps({"view": {**view, "game": "poker"}, "level": "strong"}).encode(),
                 json.dumps({"view": [view], "level": "strong"}).encode(),
                 # the right shape, and cards no game has: the worker itself refuses it
                 json.dumps({"view": {**view, "hand": ["XX", "YY"]}, "level": "strong"}).encode()):
        status, answer = post(url, body)
        assert status == 400 and answer["error"], (status, answer)
    assert worker_pids(service) == workers  # never thrown away
    began = time.monotonic()
    assert post(url, good)[0] == 200
    assert time.monotonic() - began < 2  # no new pool to start


def test_a_slow_service_holds_no_thread_of_the_site(site_asks, caplog):
    """A service that answers a byte at a time: each decision falls back to the easy heuristic
    at the time limit, as when the service is down, and the site keeps no connection to it
    (no thread of its own left reading) once it has."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    listener.settimeout(0.2)
    opened, closed, stop = [], [], threading.Event()

    def trickle(conn):
        try:
            for byte in b"HTTP/1.0 200 OK\r\nX-Slow: " + b"a" * 400:
                if stop.is_set():
                    return
                conn.sendall(bytes([byte]))
                time.sleep(0.05)
        except OSError:
            closed.append(conn)
        finally:
            conn.close()

    def serve():
        while not stop.is_set():
            try:
                conn, _address = listener.accept()
            except OSError:
                continue
            opened.append(conn)
            threading.Thread(target=trickle, args=(conn,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    site_asks(f"http://127.0.0.1:{listener.getsockname()[1]}", limit=0.4)  # 0.6 s with slack
    state, view = a_view(8)
    answers, began = [], time.monotonic()
    with caplog.at_level(logging.WARNING, logger="games.computer_service"):
        askers = [threading.Thread(target=lambda: answers.append(
            computer_runner.decide(view, "strong"))) for _ in range(12)]
        for asker in askers:
            asker.start()
        for asker in askers:
            asker.join(10)
    try:
        assert answers == [choose_action(view, "easy")] * 12
        assert time.monotonic() - began < 1.5
        assert "took longer" in caplog.text
        time.sleep(0.3)  # a byte sent to a closed connection fails within two sends
        assert len(opened) == 12 and len(closed) == 12, (len(opened), len(closed))
    finally:
        stop.set()
        listener.close()


def test_a_service_that_does_not_take_the_connection_is_given_up_at_the_connect_timeout(
        site_asks, settings, caplog):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    port = listener.getsockname()[1]
    queued = socket.create_connection(("127.0.0.1", port))  # the one place in its queue
    site_asks(f"http://127.0.0.1:{port}", limit=3.0)
    settings.COMPUTER_SERVICE_CONNECT_SECONDS = 0.3
    _state, view = a_view(9)
    began = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="games.computer_service"):
        assert computer_runner.decide(view, "strong") == choose_action(view, "easy")
    assert time.monotonic() - began < 1.0  # not the 3 s of the time limit
    assert "to take the connection" in caplog.text
    queued.close()
    listener.close()
