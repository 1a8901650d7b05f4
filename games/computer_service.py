"""How a site process asks the computer players' service, on machines of its own, for a
decision (docs/deploy.md): :func:`ask`.

The service is ``manage.py serve_computer_players`` (:mod:`games.computer_server`): it answers
``POST /decide`` (a JSON body ``{"view": ..., "level": ...}``, the bearer token
``COMPUTER_SERVICE_TOKEN``) with ``{"action": ...}``.  A site process with ``COMPUTER_SERVICE_URL`` set asks
it (``games.computer_runner.decide``) instead of keeping a pool; whatever goes wrong there (the
service down, slow, refusing, answering nonsense) costs a log line and the easy heuristic
plays, in microseconds, as for a local worker that overran.

The view sent is the acting seat's own view, what the person in that seat would see: the
service learns nothing a seat may not know, and the token keeps others from asking it.

The service cannot hold the site: :func:`ask` gives up at its connect timeout or its deadline,
leaving no thread behind (:class:`Deadlines`, which the service uses too for its own reads).
"""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from contextlib import contextmanager
from http.client import HTTPConnection, HTTPSConnection
from urllib.parse import urlsplit

from django.conf import settings

from games.rules.base import HandView

logger = logging.getLogger(__name__)

MAX_BODY_BYTES = 1 << 20  # a view is a few kilobytes, an answer less
MAX_ACTION_CHARS = 200



class Deadlines:
    """Sockets that must be done by a given time: one thread shuts down any that is not, so a
    peer that sends nothing, or a byte at a time, holds no thread past it (a socket's own
    timeout is per read, and a byte now and then renews it)."""

    def __init__(self, tick: float = 0.05):
        self._due: dict[socket.socket, float] = {}
        self._lock = threading.Lock()
        self._tick = tick
        self._thread: threading.Thread | None = None

    def watch(self, sock: socket.socket, seconds: float) -> None:
        with self._lock:
            self._due[sock] = time.monotonic() + seconds
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._cut_overdue, daemon=True,
                                                name="socket-deadlines")
                self._thread.start()

    def forget(self, sock: socket.socket) -> bool:
        """Stop watching ``sock``; False if it was cut already."""
        with self._lock:
            return self._due.pop(sock, None) is not None

    @contextmanager
    def within(self, sock: socket.socket, seconds: float):
        """``sock`` shut down if the block is not done in ``seconds``; yields a list that
        holds True once it was."""
        cut = []
        self.watch(sock, seconds)
        try:
            yield cut
        finally:
            if not self.forget(sock):
                cut.append(True)

    def _cut_overdue(self) -> None:
        while True:
            time.sleep(self._tick)
            now = time.monotonic()
            with self._lock:
                overdue = [sock for sock, due in self._due.items() if due <= now]
                for sock in overdue:
                    del self._due[sock]
            for sock in overdue:
                try:
                    sock.shutdown(socket.SHUT_RDWR)  # wakes the thread blocked on it
                except OSError:
                    pass  # closed meanwhile


_deadlines = Deadlines()


class Overdue(Exception):
    """The service's answer did not come back within the limit."""


def ask(view: HandView, level: str) -> str | None:
    """The service's action for ``view``, or None when it gave none in time (the caller then
    plays the easy heuristic, as when the service is down).

    In the calling thread, with no thread left behind: the connection must be made within
    ``COMPUTER_SERVICE_CONNECT_SECONDS``, and the answer be back within the time limit plus
    ``COMPUTER_SERVICE_SLACK_SECONDS`` from the start, however slowly the service sends it."""
    limit = settings.COMPUTER_TIME_LIMIT_SECONDS + settings.COMPUTER_SERVICE_SLACK_SECONDS
    deadline = time.monotonic() + limit
    where = urlsplit(settings.COMPUTER_SERVICE_URL)
    kind = HTTPSConnection if where.scheme == "https" else HTTPConnection
    conn = kind(where.hostname, where.port,
                timeout=min(settings.COMPUTER_SERVICE_CONNECT_SECONDS, limit))
    body = json.dumps({"view": view, "level": level}).encode()
    try:
        conn.connect()
        left = deadline - time.monotonic()
        if left <= 0:
            raise Overdue
        conn.sock.settimeout(left)  # the read timeout: what is left of the limit
        with _deadlines.within(conn.sock, left) as cut:
            conn.request("POST", where.path.rstrip("/") + "/decide", body=body, headers={
                "Content-Type": "application/json",
                "Authorization": f"Bearer {settings.COMPUTER_SERVICE_TOKEN}"})
            response = conn.getresponse()
            status, data = response.status, response.read(MAX_BODY_BYTES)
        if cut:
            raise Overdue
    except (Overdue, TimeoutError):
        connecting = conn.sock is None
        logger.warning("the computer players' service took longer than %.2f s%s (%s, seat %s)",
                       settings.COMPUTER_SERVICE_CONNECT_SECONDS if connecting else limit,
                       " to take the connection" if connecting else "", level,
                       view.get("seat"))
        return None
    except Exception as exc:
        if time.monotonic() >= deadline:  # cut at the deadline mid-answer
            logger.warning("the computer players' service took longer than %.2f s (%s, "
                           "seat %s)", limit, level, view.get("seat"))
        else:
            logger.warning("the computer players' service failed (%s, seat %s): %s", level,
                           view.get("seat"), exc)
        return None
    finally:
        conn.close()
    try:
        answer = json.loads(data) if status == 200 else None
    except (ValueError, RecursionError):
        answer = None
    action = answer.get("action") if isinstance(answer, dict) else None
    legal = view.get("legal")
    if (not isinstance(action, str) or not action or len(action) > MAX_ACTION_CHARS
            or (legal and action not in legal)):
        logger.warning("the computer players' service failed: it answered HTTP %s %r "
                       "(%s, seat %s)", status, data[:200], level, view.get("seat"))
        return None
    return action
