"""Clients through the shipped nginx configuration to two daphne processes (docs/deploy.md)."""

import asyncio
import json
import os
import random
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
import websockets

from tests.live_servers import ROOT, create_table, free_port, login_cookie

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"),
                       reason="two processes share tables through Redis: the services pass"),
]
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
LOCATIONS = ROOT / "deploy" / "nginx" / "whistclub-locations.conf"


@pytest.fixture
def nginx_front(tmp_path, server_database, start_server):
    if not Path(NGINX).exists():
        pytest.fail("nginx is not installed (apt-get install nginx-light); .ci/run installs it")
    static_root = tmp_path / "static"
    server_database.manage("collectstatic", "--noinput", "-v0", STATIC_ROOT=str(static_root))
    backends = [start_server(), start_server()]
    port = free_port()
    upstreams = "\n".join(f"    server 127.0.0.1:{b.port};" for b in backends)
    config = tmp_path / "nginx.conf"
    # Workers as the test's own user: pytest's temporary folders are private to it.
    user = "user root;" if os.geteuid() == 0 else ""
    config.write_text(f"""
{user}
worker_processes 1;
daemon off;
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    include /etc/nginx/mime.types;
    access_log {tmp_path}/access.log;
    client_body_temp_path {tmp_path}/body;
    proxy_temp_path {tmp_path}/proxy;
    fastcgi_temp_path {tmp_path}/fastcgi;
    uwsgi_temp_path {tmp_path}/uwsgi;
    scgi_temp_path {tmp_path}/scgi;
    upstream whistclub {{
        least_conn;
{upstreams}
        keepalive 8;
    }}
    server {{
        listen 127.0.0.1:{port};
        server_name localhost;
        set $whistclub_static {static_root};
        include {LOCATIONS};
    }}
}}
""")
    checked = subprocess.run([NGINX, "-t", "-c", str(config)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    process = subprocess.Popen([NGINX, "-c", str(config)], stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    for _ in range(50):
        try:
            urllib.request.urlopen(url + "/healthz", timeout=2).read()
            break
        except OSError:
            time.sleep(0.1)
    yield url, backends
    process.terminate()
    process.wait(timeout=10)


def test_the_shipped_production_config_is_valid_nginx(tmp_path):
    if not Path(NGINX).exists():
        pytest.fail("nginx is not installed")
    shipped = (ROOT / "deploy" / "nginx" / "whistclub.conf").read_text()
    shipped = shipped.replace("/etc/nginx/conf.d/whistclub-locations.conf", str(LOCATIONS))
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


async def test_players_through_nginx_reach_both_processes_and_see_every_action(
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
    # nginx spread the connections over both daphne processes
    for backend in backends:
        assert "WSCONNECT /ws/tables/" in backend.log_path.read_text()
