"""The token of a link sent by e-mail (an address's confirmation, a stop link): it names the
record it was made for and keeps a fingerprint of the address it was sent to.

A link sent to an address its owner no longer has must not act for the new address's owner,
and the address must not be readable in the link: a signed value is signed, not encrypted, and
links end up in logs and in forwarded mail. The clubs' members (``leagues``) and the site's
accounts (``events``) both use it, each with a salt of its own.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

from django.core import signing


def fingerprint(address: str) -> str:
    """What a link keeps of the address it was made for (capitals aside): enough to tell that
    the address has changed since, without writing the address into the link."""
    return hashlib.sha256((address or "").casefold().encode()).hexdigest()[:16]


def sign(pk: int, address: str, salt: str) -> str:
    return signing.dumps({"m": pk, "a": fingerprint(address)}, salt=salt)


def read(token: str, salt: str, max_age: timedelta | None = None) -> tuple[dict | None, bool]:
    """The signed data of ``token`` (None if it is altered or not ours) and whether it has
    expired (only with ``max_age``: an expired token's data is still read, so that the page can
    say whose link it was)."""
    try:
        data = signing.loads(token, salt=salt, max_age=max_age)
    except signing.SignatureExpired:
        data, expired = signing.loads(token, salt=salt), True
    except signing.BadSignature:
        return None, False
    else:
        expired = False
    return (data if isinstance(data, dict) else None), expired


def made_for(data: dict, address: str) -> bool:
    """Whether the link's ``data`` was made for ``address``, the record's address today."""
    return data.get("a") == fingerprint(address)
