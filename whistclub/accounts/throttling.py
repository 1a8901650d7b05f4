"""Login throttling with django-axes: who the client is, and logins made without a request."""

from __future__ import annotations

import ipaddress

from axes.backends import AxesStandaloneBackend
from django.conf import settings


def _trusted(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return any(address in network for network in settings.TRUSTED_PROXIES)


def _parse(raw: str):
    try:
        return ipaddress.ip_address(raw.strip())
    except ValueError:
        return None


def client_ip(request) -> str | None:
    """The address a login attempt comes from, as axes counts it.

    A request from a trusted proxy (nginx in deploy/nginx appends the address it sees to
    X-Forwarded-For) is attributed to the last forwarded address that is not itself a trusted
    proxy, reading from the right: entries further left were written by the client and prove
    nothing.  Any other request is attributed to the address it came from.
    """
    remote = _parse(request.META.get("REMOTE_ADDR") or "")
    if remote is None:
        return None
    client = remote
    if _trusted(remote):
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        for raw in reversed(forwarded):
            if not raw.strip():
                continue
            address = _parse(raw)
            if address is None:
                break  # junk written by the client: keep the last address a proxy vouched for
            client = address
            if not _trusted(address):
                break
    return str(client)


class LoginThrottle(AxesStandaloneBackend):
    """axes' lockout check, for logins that come with a request (every web login does).

    A call to ``authenticate()`` without a request (a management command, the test client's
    ``login()``) has no client to throttle, so it is left to the next backend instead of being
    refused as axes' own backend would.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
