"""Limits per person, not only per socket: how many sockets one person (or, for visitors who are
not signed in, one address) may hold open in this process, and one message bucket shared by all
of a person's sockets.

Per socket, a client that floods only slows itself (``games.consumers``); these limits stop one
person from opening fifty sockets that each stay under the per-socket rate.  They count within
one process; nginx's ``limit_conn`` / ``limit_req`` (deploy/nginx) cap an address across
processes.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from dataclasses import dataclass, field

from django.conf import settings

from games.access import person_id
from whistclub.proxies import client_address as client_address_of


def client_address(scope) -> str:
    """The visitor's address, by the site's one rule (``whistclub.proxies``)."""
    peer = (scope.get("client") or ("", 0))[0] or ""
    headers = dict(scope.get("headers") or [])
    forwarded = headers.get(b"x-forwarded-for", b"").decode("latin-1")
    return client_address_of(peer, forwarded) or peer


def person_key(scope) -> tuple[str, object]:
    """Who a socket belongs to for the limits: the account, or the address of a visitor."""
    uid = person_id(scope.get("user"))
    if uid is not None:
        return ("user", uid)
    return ("address", client_address(scope))


@dataclass
class Bucket:
    """A token bucket: ``size`` messages at once, refilled at ``rate`` per second."""

    size: float
    rate: float
    tokens: float = field(init=False)
    refilled_at: float = field(default_factory=time.monotonic)

    def __post_init__(self):
        self.tokens = self.size

    def full(self) -> bool:
        return self.tokens + (time.monotonic() - self.refilled_at) * self.rate >= self.size

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.size, self.tokens + (now - self.refilled_at) * self.rate)
        self.refilled_at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


MAX_IDLE_BUCKETS = 10_000
_open: Counter = Counter()
_buckets: dict[tuple[str, object], Bucket] = {}
_chat_buckets: dict[object, Bucket] = {}
_lock = threading.Lock()


def socket_cap(key: tuple[str, object]) -> int:
    return (settings.WS_MAX_SOCKETS_PER_USER if key[0] == "user"
            else settings.WS_MAX_SOCKETS_PER_ADDRESS)


def admit(key: tuple[str, object]) -> bool:
    """Count a new socket of ``key``; False (and nothing counted) past its cap."""
    with _lock:
        if _open[key] >= socket_cap(key):
            return False
        _open[key] += 1
        return True


def release(key: tuple[str, object]) -> None:
    with _lock:
        _open[key] -= 1
        if _open[key] <= 0:
            del _open[key]
        # The person's bucket stays: closing every socket and opening them again must not
        # give a fresh burst.  Buckets that have filled up again are the only ones let go.
        if len(_buckets) > MAX_IDLE_BUCKETS:
            for idle in [k for k, b in _buckets.items() if k not in _open and b.full()]:
                del _buckets[idle]


def take_person_token(key: tuple[str, object]) -> bool:
    """One message of ``key``'s, from the bucket all their sockets share."""
    return _take(_buckets, key, settings.WS_PERSON_BURST, settings.WS_PERSON_RATE_PER_SECOND)


def take_chat_token(user_id: int) -> bool:
    """One line said by ``user_id``, at any table, from a bucket far smaller than their
    messages': ``CHAT_BURST`` lines at once, ``CHAT_LINES_PER_MINUTE`` on average."""
    return _take(_chat_buckets, user_id, settings.CHAT_BURST,
                 settings.CHAT_LINES_PER_MINUTE / 60)


def _take(buckets: dict, key, size: float, rate: float) -> bool:
    with _lock:
        bucket = buckets.get(key)
        if bucket is None:
            if len(buckets) > MAX_IDLE_BUCKETS:
                for idle in [k for k, b in buckets.items() if k not in _open and b.full()]:
                    del buckets[idle]
            bucket = buckets[key] = Bucket(float(size), float(rate))
        return bucket.take()


def reset() -> None:
    """Forget every count (tests)."""
    with _lock:
        _open.clear()
        _buckets.clear()
        _chat_buckets.clear()
