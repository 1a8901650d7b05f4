"""The computer players' pool as a service, on machines of its own (docs/deploy.md): the HTTP
side that ``manage.py serve_computer_players`` runs, and nothing else imports.

It answers ``POST /decide`` (a JSON body ``{"view": ..., "level": ...}``, the bearer token
``COMPUTER_SERVICE_TOKEN``) with ``{"action": ...}``, decided by
:func:`games.computer_runner.decide_here`: the same worker pool, the same hard time limit and the
same easy fallback as a site process that keeps its own pool.  ``GET /healthz`` says it is up.
The site's side, which asks it, is :mod:`games.computer_service`.

A site cannot hold the service: it takes ``COMPUTER_SERVICE_MAX_CONNECTIONS`` at once (one more
gets a 503 at once), closes a connection whose request has not arrived whole within
``COMPUTER_SERVICE_READ_SECONDS``, and answers a view that is no seat's view (malformed, nested
deeper than any view, of the wrong types) with a 400 before any worker sees it.
"""

from __future__ import annotations

import hmac
import json
import logging
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from django.conf import settings

from games import computer_runner
from games.computer_service import MAX_BODY_BYTES, Deadlines
from games.rules import GAME_MODULES
from games.rules.computer import ALL_LEVELS

logger = logging.getLogger(__name__)

MAX_VIEW_DEPTH = 8  # a view's lists and objects nest four or five deep

_deadlines = Deadlines()


def view_problem(view: Any) -> str | None:
    """What makes ``view`` no seat's view (the error words), or None: checked before any
    worker sees it, so nonsense costs a 400, never the workers."""
    if not isinstance(view, dict):
        return "the view must be an object"
    if _nesting(view) > MAX_VIEW_DEPTH:
        return f"the view nests deeper than {MAX_VIEW_DEPTH} levels"
    if view.get("game") not in GAME_MODULES:
        return f"the view's game must be one of {', '.join(GAME_MODULES)}"
    seat, legal = view.get("seat"), view.get("legal")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 8:
        return "the view's seat must be a seat number"
    if not isinstance(legal, list) or not all(isinstance(a, str) for a in legal):
        return "the view's legal actions must be a list of strings"
    if not isinstance(view.get("hand", []), list) or \
            not all(isinstance(card, str) for card in view.get("hand", [])):
        return "the view's hand must be a list of cards"
    for key in ("trick", "tricks", "auction"):
        if key in view and not isinstance(view[key], list):
            return f"the view's {key} must be a list"
    if not legal and not isinstance(view.get("discard_count"), int):
        return "the view offers no action"
    return None


def _nesting(value: Any) -> int:
    """How deep ``value``'s lists and objects nest (without recursing: a hostile view may be
    deep)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth)
            if deepest > MAX_VIEW_DEPTH:
                return deepest
            stack.extend((child, depth + 1) for child in item)
    return deepest


class DecisionHandler(BaseHTTPRequestHandler):
    server_version = "whistclub-computer-players"
    sys_version = ""

    def setup(self):
        super().setup()
        # No read waits longer than the whole request may take, and the whole request is cut
        # at that time however it trickles in (ComputerPlayersServer.read_seconds).
        seconds = self.server.read_seconds
        self.connection.settimeout(seconds)
        self._read_by = time.monotonic() + seconds
        _deadlines.watch(self.connection, seconds)

    def parse_request(self):
        if time.monotonic() >= self._read_by:  # cut mid-headers: nothing to answer
            self.close_connection = True
            return False
        return super().parse_request()

    def finish(self):
        _deadlines.forget(self.connection)
        try:
            super().finish()
        except OSError:
            pass  # the connection was cut

    def do_GET(self):
        _deadlines.forget(self.connection)
        if self.path == "/healthz":
            self._reply(200, {"status": "ok"})
        else:
            self._reply(404, {"error": "not found"})

    def do_POST(self):
        if self.path != "/decide":
            return self._reply(404, {"error": "not found"})
        given = self.headers.get("Authorization", "")
        expected = f"Bearer {settings.COMPUTER_SERVICE_TOKEN}"
        if not hmac.compare_digest(given.encode(), expected.encode()):
            return self._reply(403, {"error": "wrong or missing token"})
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            return self._reply(411, {"error": "a Content-Length is needed"})
        if not 0 < length <= MAX_BODY_BYTES:
            return self._reply(413, {"error": "the body is empty or too large"})
        raw = self.rfile.read(length)
        _deadlines.forget(self.connection)
        if time.monotonic() >= self._read_by or len(raw) < length:
            return  # cut at the deadline, or the peer gave up: nobody waits for an answer
        try:
            body = json.loads(raw)
            view, level = body["view"], body["level"]
        except (ValueError, KeyError, TypeError, RecursionError):
            return self._reply(400, {"error": "a JSON body with a view and a level is needed"})
        if level not in ALL_LEVELS:
            return self._reply(400, {"error": f"the level must be one of {', '.join(ALL_LEVELS)}"})
        problem = view_problem(view)
        if problem:
            return self._reply(400, {"error": problem})
        try:
            action = computer_runner.decide_here(view, level)
        except Exception as exc:  # not even the easy heuristic can read it: the view is wrong
            logger.warning("a view no computer player could read: %s", exc)
            return self._reply(400, {"error": "no computer player could read that view"})
        self._reply(200, {"action": action})

    def _reply(self, status: int, payload: dict) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):  # noqa: A002 -- the standard library's name
        logger.info("%s %s", self.address_string(), format % args)


_BUSY_BODY = json.dumps({"error": "too many connections: try again"}).encode()
BUSY = (b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: application/json\r\n"
        b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(_BUSY_BODY), _BUSY_BODY))


class ComputerPlayersServer(ThreadingHTTPServer):
    """A thread per connection, but never more than ``max_connections`` of them: one more is
    answered 503 at once, from the accepting thread, and closed."""

    daemon_threads = True
    # The kernel's queue of connections not yet accepted (socketserver's 5 dropped a burst of
    # a site's asks, each then retried a second later).
    request_queue_size = 128

    def __init__(self, address, max_connections: int, read_seconds: float):
        super().__init__(address, DecisionHandler)
        self.read_seconds = read_seconds
        self._places = threading.BoundedSemaphore(max_connections)

    def process_request(self, request, client_address):
        if not self._places.acquire(blocking=False):
            try:
                request.settimeout(0.5)
                request.sendall(BUSY)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._places.release()
            raise

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._places.release()

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], OSError):  # a peer gone, or cut at the deadline
            logger.info("connection from %s ended: %s", client_address, sys.exc_info()[1])
        else:
            logger.exception("the request from %s failed", client_address)


def serve(bind: str, port: int, *, max_connections: int | None = None,
          read_seconds: float | None = None) -> ComputerPlayersServer:
    """A server ready to ``serve_forever()`` (``manage.py serve_computer_players`` runs it)."""
    return ComputerPlayersServer(
        (bind, port),
        max_connections or settings.COMPUTER_SERVICE_MAX_CONNECTIONS,
        read_seconds or settings.COMPUTER_SERVICE_READ_SECONDS)
