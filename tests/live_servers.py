"""Real server processes for end-to-end and live-table tests.

Each server is a daphne process on its own port, on a database made for the test (a fresh
SQLite file, or a fresh PostgreSQL database in the services pass) and the pass's channel layer
(in-memory, or Redis when REDIS_URL is set, which lets several processes share a table).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import uuid
from http.cookiejar import CookieJar
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[1]


NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def wait_until_answers(url: str, process: subprocess.Popen, what: str,
                       log_path: Path | None = None, seconds: float = 30.0) -> None:
    """Wait until ``url`` answers 200, or fail with the end of ``log_path`` if the server
    process exits first (or after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            tail = log_path.read_text()[-2000:] if log_path and log_path.exists() else ""
            raise RuntimeError(f"{what} exited: {tail}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{what} did not answer in {seconds:g} s")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ServerDatabase:
    """A database of its own for server processes, dropped afterwards.

    ``ServerDatabase.migrated(folder)`` gives one with every migration applied, copied from a
    database this test process migrated once (SQLite's backup of a file; PostgreSQL's
    ``CREATE DATABASE ... TEMPLATE``): ``manage.py migrate`` takes seconds, a copy a moment,
    and a pass makes a few dozen of these."""

    _template: ServerDatabase | None = None  # this test process's migrated database

    def __init__(self, tmp_dir: Path, template: ServerDatabase | None = None):
        db = settings.DATABASES["default"]
        self._drop = None
        # The servers of this database share its tables through Redis, and no other's:
        # every database's first table is number 1.
        self.channel_prefix = f"asgi-{uuid.uuid4().hex[:8]}"
        if db["ENGINE"] != "django.db.backends.postgresql":
            self.path = tmp_dir / f"server-{uuid.uuid4().hex[:6]}.sqlite3"
            self.url = f"sqlite:///{self.path}"
            if template is not None:
                import sqlite3

                # the backup API: a whole copy, also of what is still in the write-ahead log
                with sqlite3.connect(template.path) as source, \
                        sqlite3.connect(self.path) as copy:
                    source.backup(copy)
            return
        import psycopg

        self.name = f"whistclub_live_{uuid.uuid4().hex[:8]}"
        admin = {"host": db["HOST"], "port": db["PORT"] or 5432, "user": db["USER"],
                 "password": db["PASSWORD"] or None, "dbname": "postgres", "autocommit": True}
        with psycopg.connect(**admin) as conn:
            copied = f' TEMPLATE "{template.name}"' if template is not None else ""
            conn.execute(f'CREATE DATABASE "{self.name}"{copied}')

        def drop():
            with psycopg.connect(**admin) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

        self._drop = drop
        password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
        self.url = (f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/"
                    f"{self.name}")

    @classmethod
    def migrated(cls, tmp_dir: Path) -> ServerDatabase:
        """A new database with every migration applied (no server may use the template)."""
        if cls._template is None:
            import atexit
            import tempfile

            folder = tempfile.mkdtemp(prefix="whistclub-template-")
            template = cls(Path(folder))
            template.manage("migrate", "--noinput", "-v0")
            atexit.register(template.drop)
            atexit.register(shutil.rmtree, folder, ignore_errors=True)
            cls._template = template
        return cls(tmp_dir, template=cls._template)

    def env(self, **extra) -> dict:
        env = {**os.environ, "DATABASE_URL": self.url, "DEBUG": "1", "COMPUTER_DELAY_SECONDS": "0",
               "TRICK_PAUSE_SECONDS": "0",
               "ALLOWED_HOSTS": "127.0.0.1,localhost", "DJANGO_SETTINGS_MODULE": "whistclub.settings",
               "CHANNEL_LAYER_PREFIX": self.channel_prefix}
        env.pop("WHISTCLUB_REQUIRE_SERVICES", None)
        env.update(extra)
        return env

    def manage(self, *args, **extra) -> str:
        result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT,
                                env=self.env(**extra), capture_output=True, text=True,
                                timeout=300)
        if result.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed: {result.stderr[-2000:]}")
        return result.stdout

    def shell(self, code: str, **extra) -> str:
        return self.manage("shell", "-c", code, **extra)

    def drop(self):
        if self._drop:
            self._drop()


# Each started server's log, by its URL: the console e-mail backend writes the e-mails there.
SERVER_LOGS: dict[str, Path] = {}


def emailed_link(base_url: str, to: str, path: str, seconds: float = 10.0) -> str:
    """The path (and query) of the last link to ``path`` in an e-mail the server at
    ``base_url`` sent to ``to`` (as a person would find it in their mailbox)."""
    log_path = SERVER_LOGS[base_url]
    deadline = time.monotonic() + seconds
    while True:
        text = log_path.read_text(errors="replace")
        start = text.rfind(f"\nTo: {to}\n")
        found = start >= 0 and re.search(rf"https?://[^/\s]+({re.escape(path)}\S*)",
                                         text[start:])
        if found:
            return found.group(1)
        if time.monotonic() > deadline:
            raise AssertionError(f"no e-mail to {to} with a link to {path} in {log_path}")
        time.sleep(0.1)


class DaphneServer:
    def __init__(self, database: ServerDatabase, log_path: Path, port: int | None = None,
                 **env):
        self.database = database
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.env = env
        self.process = None

    def start(self) -> DaphneServer:
        log = self.log_path.open("a")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
             "whistclub.asgi:application"], cwd=ROOT, env=self.database.env(**self.env),
            stdout=log, stderr=subprocess.STDOUT)
        log.close()
        wait_until_answers(self.url + "/healthz", self.process, "daphne", self.log_path)
        SERVER_LOGS[self.url] = self.log_path
        return self

    def kill(self):
        """SIGKILL: no clean shutdown, as when a machine or a process dies."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=20)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


def login_cookie(base_url: str, username: str, password: str) -> str:
    """Log in over HTTP like a browser and return the Cookie header for a WebSocket."""
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(base_url + "/accounts/login/", timeout=10).read()
    csrf = next(c.value for c in jar if c.name == "csrftoken")
    data = urllib.parse.urlencode({"username": username, "password": password,
                                   "csrfmiddlewaretoken": csrf}).encode()
    request = urllib.request.Request(base_url + "/accounts/login/", data=data,
                                     headers={"Referer": base_url + "/accounts/login/"})
    opener.open(request, timeout=10).read()
    cookies = {c.name: c.value for c in jar}
    if "sessionid" not in cookies:
        raise RuntimeError(f"login failed for {username}")
    return "; ".join(f"{k}={v}" for k, v in cookies.items())


def create_table(database: ServerDatabase, game: str, humans: dict[int, str],
                 computers: tuple[int, ...] = (), **env) -> int:
    """Users (password 'pw-long-enough') seated as given, computer players elsewhere; the table's
    id.

    The last seat taken starts the table, and computer players who act first play at once in
    this process: ``env`` gives it the server's settings for them (a service to ask)."""
    code = f"""
from django.contrib.auth import get_user_model
from games import tables
User = get_user_model()
humans = {humans!r}
users = {{p: User.objects.get_or_create(username=n, defaults={{"email": n + "@example.org"}})[0]
         for p, n in humans.items()}}
for u in users.values():
    u.set_password("pw-long-enough"); u.save()
owner = next(iter(users.values()))
table = tables.create_table(owner, {game!r}, {{}})
for p, u in users.items():
    tables.take_seat(table.pk, u, p)
for p in {tuple(computers)!r}:
    tables.add_computer_player(table.pk, owner, p)
print(table.pk)
"""
    return int(database.shell(code, **env).strip().splitlines()[-1])


async def receive_state(socket, timeout: float = 10.0) -> dict:
    """The next state message on a JSON socket (errors are returned too)."""
    import asyncio

    message = json.loads(await asyncio.wait_for(socket.recv(), timeout))
    return message


NGINX_DIR = ROOT / "deploy" / "nginx"


def shipped_upstreams(ports: list[int], keepalive: int = 8) -> str:
    """The upstream blocks of the shipped deploy/nginx/whistclub.conf, its example servers
    replaced by these daphne ports: what is run here balances and routes as shipped."""
    shipped = (NGINX_DIR / "whistclub.conf").read_text()
    blocks = re.findall(r"^upstream \w+ \{\n.*?^\}", shipped, re.M | re.S)
    assert blocks, "no upstream block in deploy/nginx/whistclub.conf"
    servers = "".join(f"    server 127.0.0.1:{port};\n" for port in ports)
    out = []
    for block in blocks:
        lines = [line for line in block.splitlines(keepends=True)
                 if not line.strip().startswith(("server ", "keepalive "))]
        head, tail = "".join(lines[:-1]), lines[-1]
        out.append(f"{head}{servers}    keepalive {keepalive};\n{tail}")
    return "\n".join(out)


class NginxFront:
    """nginx with the shipped http-level and location files and upstreams in front of daphne
    processes (ports), serving static files from ``static_root``."""

    def __init__(self, tmp_dir: Path, ports: list[int], static_root: Path,
                 worker_connections: int = 1024):
        self.tmp_dir, self.ports, self.static_root = tmp_dir, ports, static_root
        self.worker_connections = worker_connections
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.process = None

    def config(self) -> str:
        tmp = self.tmp_dir
        # Workers as the caller's own user: temporary folders are private to it.
        user = "user root;" if os.geteuid() == 0 else ""
        return f"""
{user}
worker_processes 1;
worker_rlimit_nofile {self.worker_connections * 3};
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/nginx-error.log warn;
events {{ worker_connections {self.worker_connections}; }}
http {{
    include /etc/nginx/mime.types;
    access_log {tmp}/nginx-access.log;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    include {NGINX_DIR / "whistclub-http.conf"};
{shipped_upstreams(self.ports)}
    server {{
        listen 127.0.0.1:{self.port};
        server_name localhost;
        set $whistclub_static {self.static_root};
        include {NGINX_DIR / "whistclub-locations.conf"};
    }}
}}
"""

    def start(self) -> NginxFront:
        if not Path(NGINX).exists():
            raise RuntimeError("nginx is not installed (apt-get install nginx-light); "
                               ".ci/run installs it")
        path = self.tmp_dir / "nginx.conf"
        path.write_text(self.config())
        checked = subprocess.run([NGINX, "-t", "-c", str(path)], capture_output=True, text=True)
        if checked.returncode != 0:
            raise RuntimeError(checked.stderr)
        self.process = subprocess.Popen([NGINX, "-c", str(path)], stderr=subprocess.DEVNULL)
        wait_until_answers(self.url + "/healthz", self.process, "nginx",
                           self.tmp_dir / "nginx-error.log")
        return self

    def pids(self) -> list[int]:
        """The master and its worker (for CPU figures)."""
        if not self.process:
            return []
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        try:
            workers = [int(p) for p in children.read_text().split()]
        except OSError:
            workers = []
        return [self.process.pid, *workers]

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


class ComputerPlayersService:
    """``manage.py serve_computer_players`` in a process of its own (games/computer_server.py)."""

    def __init__(self, log_path: Path, token: str, **env):
        self.log_path, self.token, self.env = log_path, token, env
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None

    def start(self) -> ComputerPlayersService:
        env = {k: v for k, v in os.environ.items() if not k.startswith("COMPUTER_")}
        env.update(COMPUTER_SERVICE_TOKEN=self.token, COMPUTER_WORKERS="1", LOG_LEVEL="INFO",
                   DJANGO_SETTINGS_MODULE="whistclub.settings", **self.env)
        with self.log_path.open("w") as out:
            self.process = subprocess.Popen(
                [sys.executable, "manage.py", "serve_computer_players", "--port", str(self.port)],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        wait_until_answers(self.url + "/healthz", self.process, "the computer players' service",
                           self.log_path)
        return self

    def decisions_served(self) -> int:
        return self.log_path.read_text().count("POST /decide")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)


def group_channel_name(group: str, prefix: str) -> str:
    """The Redis channel of ``group``, as channels_redis's pub/sub layer names it (its
    per-loop layer needs no running loop)."""
    from channels_redis.pubsub import RedisPubSubLoopLayer

    return RedisPubSubLoopLayer(prefix=prefix)._get_group_channel_name(group)


def group_subscribers(redis_urls: list[str], group: str, prefix: str) -> list[int]:
    """For each Redis server, how many server processes listen there to ``group``: the copies
    of each message sent to the group (``PUBSUB NUMSUB``)."""
    import redis

    name = group_channel_name(group, prefix)
    counts = []
    for url in redis_urls:
        client = redis.Redis.from_url(url)
        try:
            counts.append(dict(client.pubsub_numsub(name)).get(name.encode(), 0))
        finally:
            client.close()
    return counts
