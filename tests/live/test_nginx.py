"""Clients through the shipped nginx configuration to two daphne processes (docs/deploy.md): a
table's sockets and pages routed to one process by its id, the rest balanced."""

import asyncio
import http.client
import json
import os
import random
import re
import subprocess
import urllib.parse
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import websockets

from tests.live_servers import NGINX, ROOT, NginxFront, create_table, login_cookie

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"),
                       reason="two processes share tables through Redis: the services pass"),
]
LOCATIONS = ROOT / "deploy" / "nginx" / "whistclub-locations.conf"
HTTP_LEVEL = ROOT / "deploy" / "nginx" / "whistclub-http.conf"
SOCKET_CAP = 60  # limit_conn on /ws/ per client address


def nginx_version() -> tuple[int, ...]:
    banner = subprocess.run([NGINX, "-v"], capture_output=True, text=True).stderr
    return tuple(int(n) for n in re.search(r"nginx/(\d+)\.(\d+)\.(\d+)", banner).groups())


@pytest.fixture
def nginx_front(tmp_path, server_database, start_server):
    if not Path(NGINX).exists():
        pytest.fail("nginx is not installed (apt-get install nginx-light); .ci/run installs it")
    static_root = tmp_path / "static"
    server_database.manage("collectstatic", "--noinput", "-v0", STATIC_ROOT=str(static_root))
    # nginx's cap per address is what the socket test meets, not the site's own (40 for
    # visitors who are not signed in, per process).
    backends = [start_server(WS_MAX_SOCKETS_PER_ADDRESS="1000") for _ in range(2)]
    front = NginxFront(tmp_path, [b.port for b in backends], static_root).start()
    yield front.url, backends
    front.stop()


def test_the_shipped_production_config_is_valid_nginx(tmp_path):
    if not Path(NGINX).exists():
        pytest.fail("nginx is not installed")
    shipped = (ROOT / "deploy" / "nginx" / "whistclub.conf").read_text()
    shipped = shipped.replace("/etc/nginx/snippets/whistclub-locations.conf", str(LOCATIONS))
    shipped = shipped.replace("/etc/nginx/snippets/whistclub-http.conf", str(HTTP_LEVEL))
    assert re.search(r"^\s*http2 on;", shipped, re.M)
    assert not re.search(r"^\s*listen[^;]*http2", shipped, re.M)  # the deprecated form
    if nginx_version() < (1, 25, 1):
        # "http2 on;" is nginx 1.25.1's; older ones (Debian 12 has 1.22) take the flag on
        # listen, as docs/deploy.md says. Everything else is checked as shipped.
        shipped = re.sub(r"^(\s*)http2 on;", r"\1", shipped, flags=re.M)
        shipped = re.sub(r"^(\s*listen \S*443 ssl)", r"\1 http2", shipped, flags=re.M)
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=whist.example.org", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    shipped = shipped.replace("/etc/letsencrypt/live/whist.example.org/fullchain.pem", str(cert))
    shipped = shipped.replace("/etc/letsencrypt/live/whist.example.org/privkey.pem", str(key))
    (tmp_path / "whistclub.conf").write_text(shipped)
    config = tmp_path / "nginx.conf"
    config.write_text(f"pid {tmp_path}/nginx.pid; error_log {tmp_path}/error.log;\n"
                      f"events {{}}\nhttp {{ include /etc/nginx/mime.types; "
                      f"include {tmp_path}/whistclub.conf; }}\n")
    result = subprocess.run([NGINX, "-t", "-c", str(config)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    dumped = subprocess.run([NGINX, "-T", "-c", str(config)], capture_output=True,
                            text=True).stdout
    assert "server_tokens off;" in dumped
    assert re.search(r"^\s*ssl_protocols TLSv1\.2 TLSv1\.3;", dumped, re.M)
    assert re.search(r"^\s*ssl_ciphers ECDHE-[^;]*GCM[^;]*;", dumped, re.M)
    assert "limit_conn whistclub_sockets 60;" in dumped


async def test_players_through_nginx_meet_in_one_process_and_see_every_action(
        nginx_front, server_database):
    url, backends = nginx_front
    with urllib.request.urlopen(url + "/static/css/site.css") as response:
        assert response.status == 200 and response.headers["Server"].startswith("nginx")
        assert "immutable" in response.headers["Cache-Control"]
    table_id = create_table(server_database, "solo_whist",
                            {0: "ana", 1: "bob", 2: "cid", 3: "dee"})
    ws_url = url.replace("http://", "ws://")
    sockets = []
    for name in ("ana", "bob", "cid", "dee"):
        cookie = login_cookie(url, name, "pw-long-enough")
        sockets.append(await websockets.connect(
            f"{ws_url}/ws/tables/{table_id}/?format=json",
            additional_headers={"Cookie": cookie, "Origin": url}))
    states = [json.loads(await asyncio.wait_for(s.recv(), 10)) for s in sockets]
    rng = random.Random(3)
    seen = [[st["version"]] for st in states]
    for _ in range(12):
        hand = states[0]["state"]["hand"]
        seat = hand["to_act"]
        legal = states[seat]["state"]["hand"]["legal"]
        await sockets[seat].send(json.dumps({"type": "action", "action": rng.choice(legal),
                                             "version": states[seat]["version"]}))
        target = states[seat]["version"] + 1
        for i, socket in enumerate(sockets):
            while states[i]["version"] < target:
                message = json.loads(await asyncio.wait_for(socket.recv(), 10))
                if message["type"] == "state":
                    states[i] = message
                    seen[i].append(message["version"])
        if states[0]["state"]["hands_played"]:
            break
    for versions in seen:
        assert versions == sorted(versions)
    assert len({st["version"] for st in states}) == 1
    for socket in sockets:
        await socket.close()
    # the four sockets of the table met in one process
    assert sorted(bool(re.search(rf"WSCONNECT /ws/tables/{table_id}/", b.log_path.read_text()))
                  for b in backends) == [False, True]


TABLES_CODE = """
from django.contrib.auth import get_user_model
from games import tables
owner = get_user_model().objects.create(username="host", email="host@example.org")
print(" ".join(str(tables.create_table(owner, "solo_whist", {}).pk) for _ in range(16)))
"""


async def test_every_socket_and_page_of_a_table_goes_to_the_one_process_it_hashes_to(
        nginx_front, server_database):
    """nginx routes by the table's id (deploy/nginx/whistclub-http.conf): a table's sockets
    and its page meet in one process, and the tables spread over both."""
    url, backends = nginx_front
    table_ids = [int(n) for n in server_database.shell(TABLES_CODE).splitlines()[-1].split()]
    ws_url = url.replace("http://", "ws://")
    for table_id in table_ids:
        watchers = [await websockets.connect(f"{ws_url}/ws/tables/{table_id}/?format=json",
                                             additional_headers={"Origin": url})
                    for _ in range(3)]
        for watcher in watchers:
            assert json.loads(await asyncio.wait_for(watcher.recv(), 10))["type"] == "state"
            await watcher.close()
        assert fetch(url, f"/tables/{table_id}/")[0] == 200
    lobby = await websockets.connect(f"{ws_url}/ws/lobby/", additional_headers={"Origin": url})
    await lobby.close()
    logs = [b.log_path.read_text() for b in backends]
    served = []
    for table_id in table_ids:
        sockets = [len(re.findall(rf"WSCONNECT /ws/tables/{table_id}/", log)) for log in logs]
        pages = [len(re.findall(rf'"GET /tables/{table_id}/"', log)) for log in logs]
        assert sorted(sockets) == [0, 3], (table_id, sockets)
        assert pages.index(1) == [n > 0 for n in sockets].index(True), (table_id, pages)
        served.append(sockets.index(3))
    assert set(served) == {0, 1}, "the tables did not spread over both processes"


def fetch(url: str, path: str, source: str = "127.0.0.1", method: str = "GET",
          body: bytes | None = None) -> tuple[int, http.client.HTTPMessage]:
    """One request from a chosen loopback address (each 127.x.y.z is another client to nginx)."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=20,
                                            source_address=(source, 0))
    try:
        headers = {"Content-Type": "application/x-www-form-urlencoded"} if body else {}
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status, response.headers
    finally:
        connection.close()


def statuses(url, path, source, count, **kwargs) -> Counter:
    with ThreadPoolExecutor(max_workers=25) as pool:
        return Counter(status for status, _ in pool.map(
            lambda _: fetch(url, path, source, **kwargs), range(count)))


def test_nginx_hides_its_version_and_sends_the_security_headers(nginx_front):
    url, _ = nginx_front
    for path in ("/", "/static/css/site.css", "/static/no-such-file.css", "/healthz"):
        status, headers = fetch(url, path)
        assert status in {200, 404}, path
        assert headers["Server"] == "nginx", path  # no version
        assert headers.get_all("X-Content-Type-Options") == ["nosniff"], path
        hsts = headers.get_all("Strict-Transport-Security")
        assert hsts and len(hsts) == 1 and hsts[0].startswith("max-age=31536000"), path
    _, headers = fetch(url, "/static/css/site.css")
    assert "immutable" in headers["Cache-Control"]


def test_one_address_is_held_to_a_request_rate_and_logins_to_a_stricter_one(nginx_front):
    url, _ = nginx_front
    # pages: a burst of 40 at once is served, far more is refused with 429
    pages = statuses(url, "/healthz", "127.0.0.3", 100)
    assert pages[200] >= 40 and pages[429] >= 30, pages
    assert set(pages) <= {200, 429}
    # another address is not affected
    assert fetch(url, "/healthz", "127.0.0.4")[0] == 200
    # login POSTs: a much smaller burst (Django answers 403 here: no CSRF token)
    logins = statuses(url, "/accounts/login/", "127.0.0.5", 30, method="POST",
                      body=b"username=ana&password=guess")
    assert logins[429] >= 5 and logins[403] <= 25, logins
    # the same address may still read the login page
    assert fetch(url, "/accounts/login/", "127.0.0.5")[0] == 200


async def test_one_address_may_hold_sixty_sockets_and_no_more(nginx_front):
    url, _ = nginx_front
    lobby = url.replace("http://", "ws://") + "/ws/lobby/"

    async def open_from(source):
        return await websockets.connect(lobby, additional_headers={"Origin": url},
                                        local_addr=(source, 0), open_timeout=10)

    held = [await open_from("127.0.0.2") for _ in range(SOCKET_CAP)]
    try:
        with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
            await open_from("127.0.0.2")
        assert refused.value.response.status_code == 429
        # another address has sockets of its own
        other = await open_from("127.0.0.6")
        await other.close()
        # a socket closed is a place free again
        await held.pop().close()
        for _ in range(50):
            try:
                held.append(await open_from("127.0.0.2"))
                break
            except websockets.exceptions.InvalidStatus:
                await asyncio.sleep(0.1)
        assert len(held) == SOCKET_CAP
    finally:
        for socket in held:
            await socket.close()
