"""The largest request body the site reads, whatever its type, and the page that refuses more.

Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` counts a form's fields but not the file parts of a
multipart body, and nginx's ``client_max_body_size`` protects only a site behind nginx: a
10 MB multipart POST sent straight to daphne was answered, and 100 MB took the process from
about 0.8 to 2 GB.  Here every body is held to the same figure (``MAX_REQUEST_BODY_BYTES``,
Django's setting, which nginx's shipped figure matches), counted as it arrives, in two places:

- ``CappedRequestBodies``, the ASGI middleware around the HTTP application (whistclub/asgi.py):
  a ``Content-Length`` past the cap is refused before a byte of the body is asked for, and a
  streamed (chunked) body is counted chunk by chunk and refused as soon as it passes the cap.
  This holds under any ASGI server that streams bodies to the application.
- ``BodyCappedRequest``, the request daphne builds for each HTTP request
  (``cap_request_bodies_in_daphne``, called by whistclub/asgi.py): daphne, through Twisted,
  reads the whole body before the application is called, and Twisted parsed a multipart body
  into memory in its own right (for ``request.args``, which daphne never reads): twelve times
  the body's size at the peak, before any of the site's code ran.  This request tells Twisted
  not to parse it (Twisted's own switch, ``parsePOSTFormSubmission``), keeps nothing of a body
  past the cap (the rest is read from the connection and dropped, so the client gets the
  answer) and answers the refusal itself.

Either way the answer is a 413 page in the reader's language that says what happened
(templates/413.html), and nothing of the request reaches a view.
"""

from __future__ import annotations

from io import BytesIO

from daphne import http_protocol
from daphne.http_protocol import WebRequest
from django.conf import settings
from django.http import HttpRequest
from django.http.cookie import parse_cookie
from django.template.loader import render_to_string
from django.utils import translation

REFUSED_STATUS = 413


def max_request_body_bytes() -> int:
    """The cap: Django's own setting, the same figure as nginx's client_max_body_size."""
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def declared_length(value: bytes | str | None) -> int | None:
    """A Content-Length header's figure, or None when there is none or it is not a number."""
    if value is None:
        return None
    text = value.decode("latin1") if isinstance(value, bytes) else value
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() else None


def refusal(accept_language: str | None, cookie: str | None) -> tuple[list, bytes]:
    """The 413 page's headers and body, in the language the request asks for (its language
    cookie, else Accept-Language), rendered without the request's context: it stands alone
    and reads nothing from the database."""
    request = HttpRequest()
    if accept_language:
        request.META["HTTP_ACCEPT_LANGUAGE"] = accept_language
    request.COOKIES = parse_cookie(cookie or "")
    language = translation.get_language_from_request(request)
    with translation.override(language):
        body = render_to_string("413.html", {
            "limit_mib": max_request_body_bytes() / (1024 * 1024)}).encode()
    from csp.utils import build_policy

    headers = [
        (b"content-type", b"text/html; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"content-language", language.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"content-security-policy", build_policy().encode()),
    ]
    return headers, body


def _scope_header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


async def _send_refusal(scope, send) -> None:
    headers, body = refusal(_scope_header(scope, b"accept-language"),
                            _scope_header(scope, b"cookie"))
    await send({"type": "http.response.start", "status": REFUSED_STATUS, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class CappedRequestBodies:
    """ASGI middleware: no HTTP request body past ``max_request_body_bytes()`` reaches the
    application, whatever its type (multipart file parts included)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = max_request_body_bytes()
        declared = declared_length(_scope_header(scope, b"content-length"))
        if declared is not None and declared > limit:
            # Refused on its header alone: not a byte of the body is read.
            return await _send_refusal(scope, send)

        received = 0
        too_large = False
        response_started = False

        async def counted_receive():
            nonlocal received, too_large
            if too_large:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    # The application is told the client went away (Django then stops reading
                    # and answers nothing); the refusal is sent below instead.
                    too_large = True
                    return {"type": "http.disconnect"}
            return message

        async def watched_send(message):
            nonlocal response_started
            if message["type"] == "http.response.start":
                response_started = True
            await send(message)

        await self.app(scope, counted_receive, watched_send)
        if too_large and not response_started:
            await _send_refusal(scope, send)


class BodyCappedRequest(WebRequest):
    """daphne's request, holding the body to the cap while Twisted reads it."""

    def __init__(self, *args, **kwargs):
        # Twisted would parse a multipart or form body into memory for request.args, which
        # daphne never reads (the application gets the raw body).
        kwargs["parsePOSTFormSubmission"] = False
        super().__init__(*args, **kwargs)
        self.body_bytes_received = 0
        self.body_too_large = False

    def gotLength(self, length):
        if length is not None and length > max_request_body_bytes():
            self._drop_body()
            return
        super().gotLength(length)

    def handleContentChunk(self, data):
        if self.body_too_large:
            return  # read from the connection (so the client hears the answer), never kept
        self.body_bytes_received += len(data)
        if self.body_bytes_received > max_request_body_bytes():
            self._drop_body()
            return
        super().handleContentChunk(data)

    def _drop_body(self):
        self.body_too_large = True
        if self.content is not None:
            self.content.close()
        self.content = BytesIO()

    def process(self):
        if not self.body_too_large:
            return super().process()
        headers, body = refusal(self._header(b"accept-language"), self._header(b"cookie"))
        self.handle_reply({"type": "http.response.start", "status": REFUSED_STATUS,
                           "headers": headers})
        self.handle_reply({"type": "http.response.body", "body": body})

    def _header(self, name: bytes) -> str | None:
        values = self.requestHeaders.getRawHeaders(name)
        return values[0].decode("latin1") if values else None


def cap_request_bodies_in_daphne() -> None:
    """Make daphne build a ``BodyCappedRequest`` for each HTTP request; called by
    whistclub/asgi.py, which daphne imports before it accepts a connection."""
    # daphne's HTTPFactory.buildProtocol looks this name up for every connection it accepts.
    http_protocol.WebRequest = BodyCappedRequest
