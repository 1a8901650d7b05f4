"""Who a request or a socket comes from: the one rule for the client's address, used by login
throttling (``whistclub.accounts.throttling``) and the socket limits (``games.limits``).

A connection from a trusted proxy (``TRUSTED_PROXIES``: nginx on this machine by default, which
appends the address it sees to X-Forwarded-For) is attributed to the last forwarded address that
is not itself a trusted proxy, reading from the right: entries further left were written by the
client and prove nothing.  Any other connection is attributed to the address it came from.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


def _trusted(address) -> bool:
    return any(address in network for network in settings.TRUSTED_PROXIES)


def _parse(raw: str):
    try:
        return ipaddress.ip_address(raw.strip())
    except ValueError:
        return None


def client_address(remote: str, forwarded_for: str) -> str | None:
    """The client's address from the peer's address and the X-Forwarded-For header."""
    peer = _parse(remote or "")
    if peer is None:
        return None
    client = peer
    if _trusted(peer):
        for raw in reversed((forwarded_for or "").split(",")):
            if not raw.strip():
                continue
            address = _parse(raw)
            if address is None:
                break  # junk written by the client: keep the last address a proxy vouched for
            client = address
            if not _trusted(address):
                break
    return str(client)
