"""Real server processes for end-to-end and live-table tests.

Each server is a daphne process on its own port, on a database made for the test (a fresh
SQLite file, or a fresh PostgreSQL database in the services pass) and the pass's channel layer
(in-memory, or Redis when REDIS_URL is set, which lets several processes share a table).
"""

from __future__ import annotations

import json
import os
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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ServerDatabase:
    """A database of its own for server processes, dropped afterwards."""

    def __init__(self, tmp_dir: Path):
        db = settings.DATABASES["default"]
        self._drop = None
        if db["ENGINE"] != "django.db.backends.postgresql":
            self.url = f"sqlite:///{tmp_dir / f'server-{uuid.uuid4().hex[:6]}.sqlite3'}"
            return
        import psycopg

        name = f"whistclub_live_{uuid.uuid4().hex[:8]}"
        admin = {"host": db["HOST"], "port": db["PORT"] or 5432, "user": db["USER"],
                 "password": db["PASSWORD"] or None, "dbname": "postgres", "autocommit": True}
        with psycopg.connect(**admin) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')

        def drop():
            with psycopg.connect(**admin) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

        self._drop = drop
        password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
        self.url = f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/{name}"

    def env(self, **extra) -> dict:
        env = {**os.environ, "DATABASE_URL": self.url, "DEBUG": "1", "BOT_DELAY_SECONDS": "0",
               "TRICK_PAUSE_SECONDS": "0",
               "ALLOWED_HOSTS": "127.0.0.1,localhost", "DJANGO_SETTINGS_MODULE": "whistclub.settings"}
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

    def shell(self, code: str) -> str:
        return self.manage("shell", "-c", code)

    def drop(self):
        if self._drop:
            self._drop()


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
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne exited: {self.log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("daphne did not start in 30 s")

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
                 bots: tuple[int, ...] = ()) -> int:
    """Users (password 'pw-long-enough') seated as given, bots elsewhere; the table's id."""
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
for p in {tuple(bots)!r}:
    tables.add_bot(table.pk, owner, p)
print(table.pk)
"""
    return int(database.shell(code).strip().splitlines()[-1])


async def receive_state(socket, timeout: float = 10.0) -> dict:
    """The next state message on a JSON socket (errors are returned too)."""
    import asyncio

    message = json.loads(await asyncio.wait_for(socket.recv(), timeout))
    return message
