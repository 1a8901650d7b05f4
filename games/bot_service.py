"""The computer players' pool as a service, on machines of its own (docs/deploy.md).

``manage.py serve_computer_players`` answers ``POST /decide`` (a JSON body ``{"view": ...,
"level": ...}``, the bearer token ``BOT_SERVICE_TOKEN``) with ``{"action": ...}``, decided by
:func:`games.bot_runner.decide_here`: the same worker pool, the same hard time limit and the
same easy fallback as a site process that keeps its own pool.  ``GET /healthz`` says it is up.

A site process with ``BOT_SERVICE_URL`` set asks the service (:func:`ask`) instead of keeping a
pool; whatever goes wrong there (the service down, slow, refusing, answering nonsense) costs a
log line and the easy heuristic plays, in microseconds, as for a local worker that overran.

The view sent is the acting seat's own view, what the person in that seat would see: the
service learns nothing a seat may not know, and the token keeps others from asking it.
"""

from __future__ import annotations

import hmac
import json
import logging
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.request import Request, urlopen

from django.conf import settings

from games.rules.bots import ALL_LEVELS

logger = logging.getLogger(__name__)

MAX_BODY_BYTES = 1 << 20  # a view is a few kilobytes
MAX_ACTION_CHARS = 200

# The requests in flight: a decision waits for its answer with a deadline of its own, whatever
# the socket does (a service that answers byte by byte cannot hold a turn past the limit).
_requests = ThreadPoolExecutor(max_workers=8, thread_name_prefix="bot-service")


def ask(view: dict[str, Any], level: str) -> str | None:
    """The service's action for ``view``, or None when it gave none in time (the caller then
    plays the easy heuristic)."""
    limit = settings.BOT_TIME_LIMIT_SECONDS + settings.BOT_SERVICE_SLACK_SECONDS
    body = json.dumps({"view": view, "level": level}).encode()
    request = Request(settings.BOT_SERVICE_URL.rstrip("/") + "/decide", data=body, method="POST",
                      headers={"Content-Type": "application/json",
                               "Authorization": f"Bearer {settings.BOT_SERVICE_TOKEN}"})

    def post() -> Any:
        with urlopen(request, timeout=limit) as response:
            return json.loads(response.read(MAX_BODY_BYTES))

    try:
        answer = _requests.submit(post).result(timeout=limit)
    except FutureTimeout:
        logger.warning("the computer players' service took longer than %.2f s (%s, seat %s)",
                       limit, level, view.get("seat"))
        return None
    except Exception as exc:
        logger.warning("the computer players' service failed (%s, seat %s): %s", level,
                       view.get("seat"), exc)
        return None
    action = answer.get("action") if isinstance(answer, dict) else None
    legal = view.get("legal")
    if (not isinstance(action, str) or not action or len(action) > MAX_ACTION_CHARS
            or (legal and action not in legal)):
        logger.warning("the computer players' service answered %r (%s, seat %s)",
                       answer, level, view.get("seat"))
        return None
    return action


class DecisionHandler(BaseHTTPRequestHandler):
    server_version = "whistclub-computer-players"
    sys_version = ""

    def do_GET(self):
        if self.path == "/healthz":
            self._reply(200, {"status": "ok"})
        else:
            self._reply(404, {"error": "not found"})

    def do_POST(self):
        if self.path != "/decide":
            return self._reply(404, {"error": "not found"})
        given = self.headers.get("Authorization", "")
        expected = f"Bearer {settings.BOT_SERVICE_TOKEN}"
        if not hmac.compare_digest(given.encode(), expected.encode()):
            return self._reply(403, {"error": "wrong or missing token"})
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            return self._reply(411, {"error": "a Content-Length is needed"})
        if not 0 < length <= MAX_BODY_BYTES:
            return self._reply(413, {"error": "the body is empty or too large"})
        try:
            body = json.loads(self.rfile.read(length))
            view, level = body["view"], body["level"]
        except (ValueError, KeyError, TypeError):
            return self._reply(400, {"error": "a JSON body with a view and a level is needed"})
        if not isinstance(view, dict) or level not in ALL_LEVELS:
            return self._reply(400, {"error": f"the level must be one of {', '.join(ALL_LEVELS)}"})
        from games.bot_runner import decide_here

        self._reply(200, {"action": decide_here(view, level)})

    def _reply(self, status: int, payload: dict) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):  # noqa: A002 -- the standard library's name
        logger.info("%s %s", self.address_string(), format % args)


def serve(bind: str, port: int) -> ThreadingHTTPServer:
    """A server ready to ``serve_forever()`` (``manage.py serve_computer_players`` runs it)."""
    server = ThreadingHTTPServer((bind, port), DecisionHandler)
    server.daemon_threads = True
    return server
