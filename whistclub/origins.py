"""WebSockets from the site's own pages only: the Origin header must be this site's origin.

Browsers send a page's cookies with every WebSocket it opens, whatever site the page is from,
and nothing like CSRF tokens protects a socket; the Origin header is the one thing that says
which page opened it.  channels' ``AllowedHostsOriginValidator`` compares the host alone, so a
page on another port of the same machine (``http://127.0.0.1:9999``), or the plain-HTTP twin of
an HTTPS site, could play in a signed-in person's name.  ``SameOriginWebSockets`` compares the
scheme, host and port, like Django's CSRF origin check does for forms:

- the socket's own origin: the scheme it was opened with (``wss`` → ``https``; behind a proxy,
  ``SECURE_PROXY_SSL_HEADER``, i.e. ``X-Forwarded-Proto``) and its ``Host`` header, which must be
  one of ``ALLOWED_HOSTS``;
- or one of ``CSRF_TRUSTED_ORIGINS`` (``https://*.example.org`` entries match subdomains).

A socket without an Origin header (no browser sends one without it) is refused too.
"""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import is_same_domain, split_domain_port, validate_host

logger = logging.getLogger(__name__)
DEFAULT_PORTS = {"http": 80, "https": 443}


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            try:
                return value.decode("latin1")
            except UnicodeDecodeError:  # pragma: no cover -- latin1 decodes any byte
                return None
    return None


def _origin_parts(origin: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an http(s) origin, the default port filled in; else None."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.path or parts.query:
        return None
    return parts.scheme, parts.hostname.lower(), port or DEFAULT_PORTS[parts.scheme]


def _is_secure(scope) -> bool:
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        meta_name, secure_value = proxy
        name = meta_name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin1")
        forwarded = _header(scope, name)
        if forwarded is not None:
            return forwarded.split(",", 1)[0].strip() == secure_value
    return scope.get("scheme", "ws") in {"wss", "https"}


def _allowed_hosts() -> list[str]:
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]  # as Django's HttpRequest.get_host
    return allowed


def own_origin(scope) -> tuple[str, str, int] | None:
    """The origin of the socket itself as ``(scheme, host, port)``, or None if its Host is not
    one of ALLOWED_HOSTS (or is missing)."""
    host = None
    if settings.USE_X_FORWARDED_HOST:
        host = _header(scope, b"x-forwarded-host")
    host = host or _header(scope, b"host")
    if not host:
        return None
    domain, port = split_domain_port(host.strip())
    if not domain or not validate_host(domain, _allowed_hosts()):
        return None
    scheme = "https" if _is_secure(scope) else "http"
    try:
        number = int(port) if port else DEFAULT_PORTS[scheme]
    except ValueError:
        return None
    return scheme, domain.strip("[]").lower(), number


def _trusted(origin: tuple[str, str, int]) -> bool:
    scheme, host, port = origin
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        wildcard = "://*." in entry
        trusted = _origin_parts(entry.replace("://*.", "://", 1) if wildcard else entry)
        if trusted is None or trusted[0] != scheme or trusted[2] != port:
            continue
        if host == trusted[1] or (wildcard and is_same_domain(host, "." + trusted[1])):
            return True
    return False


def origin_allowed(scope) -> bool:
    raw = _header(scope, b"origin")
    origin = _origin_parts(raw) if raw else None
    own = own_origin(scope)
    if origin is None or own is None:
        return False
    return origin == own or _trusted(origin)


class SameOriginWebSockets:
    """ASGI middleware for the ``websocket`` protocol: refuses sockets from other origins."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            raise ValueError("SameOriginWebSockets guards WebSocket connections only")
        if origin_allowed(scope):
            return await self.application(scope, receive, send)
        logger.warning("WebSocket refused: Origin %r is not this site's (Host %r)",
                       _header(scope, b"origin"), _header(scope, b"host"))
        return await WebsocketDenier()(scope, receive, send)
