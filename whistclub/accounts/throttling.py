"""Login throttling with django-axes: who the client is, and logins made without a request."""

from __future__ import annotations

from axes.backends import AxesStandaloneBackend

from whistclub.proxies import client_address


def client_ip(request) -> str | None:
    """The address a login attempt comes from, as axes counts it (``whistclub.proxies``)."""
    return client_address(request.META.get("REMOTE_ADDR") or "",
                          request.META.get("HTTP_X_FORWARDED_FOR", ""))


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
