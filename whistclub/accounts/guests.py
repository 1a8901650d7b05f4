"""Guests: a visitor plays at once, without signing up.

A guest is an ordinary account, logged in at once, whose profile says ``is_guest``: no
password, a name the site gives ("Guest 4821").  What sets a guest apart is decided here and
asked for by the rest of the site:

- a guest may not do what reaches other people outside a table: open or join a club, e-mail
  anyone, or see a table's invite link (:func:`may_invite`; the clubs' views refuse guests
  through :func:`accounts_only`);
- a guest is never rated: a hand with a guest at the table counts in no rating
  (``ratings.events``), so guests cannot be made by the dozen to farm the site's list;
- guests are started at most ``GUESTS_PER_ADDRESS_PER_HOUR`` from one address, keep at most
  ``GUEST_TABLES_IN_PLAY`` tables in play, and a guest who never signed up is forgotten
  ``GUEST_DAYS`` after their last visit (``manage.py forget_guests``: their account deleted
  as any other, ``whistclub.accounts.leaving``).

Signing up from a guest's session turns the same account into an ordinary one
(``whistclub.accounts.signup``), so their tables and hands stay theirs.
"""

from __future__ import annotations

import functools
import hmac
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.db import transaction
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from whistclub.accounts.models import Profile
from whistclub.proxies import client_address


class Refused(Exception):
    """No guest was started: ``message`` says why, in words."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


def is_guest(user) -> bool:
    profile = getattr(user, "profile", None) if user.is_authenticated else None
    return bool(profile is not None and profile.is_guest)


def may_invite(user) -> bool:
    """Whether ``user`` may see and pass on invite links (of tables, of clubs)."""
    return user.is_authenticated and not is_guest(user)


def sign_up_first(request):
    """A guest asked for what takes an account: to the sign-up, then back here."""
    messages.info(request, _("Create your account to do this: your tables and hands stay "
                             "yours."))
    return redirect(f"{reverse('signup')}?{urlencode({'next': request.path})}")


def accounts_only(view):
    """A view for people with an account: a guest is sent to sign up first."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        if is_guest(request.user):
            return sign_up_first(request)
        return view(request, *args, **kwargs)

    return wrapped


def _address_key(request) -> str:
    """The client's address as a keyed hash: enough to count guests, not to name anyone."""
    address = client_address(request.META.get("REMOTE_ADDR", ""),
                             request.META.get("HTTP_X_FORWARDED_FOR", "")) or ""
    return hmac.new(settings.SECRET_KEY.encode(), address.encode(), "sha256").hexdigest()


def start(request):
    """A new guest account, logged in on ``request``; raises :class:`Refused` when this address
    started too many guests in the last hour."""
    key = _address_key(request)
    since = timezone.now() - timedelta(hours=1)
    with transaction.atomic():
        recent = Profile.objects.filter(is_guest=True, guest_from=key,
                                        user__date_joined__gte=since).count()
        if recent >= settings.GUESTS_PER_ADDRESS_PER_HOUR:
            raise Refused(_("Too many guests were started from your network in the last hour. "
                            "Create an account, or try again later."))
        user = get_user_model().objects.create_user(f"guest-{secrets.token_hex(8)}")
        name = _("Guest %(number)s") % {"number": 1000 + secrets.randbelow(9000)}
        Profile.objects.update_or_create(user=user, defaults={
            "is_guest": True, "guest_from": key, "display_name": name,
            "language": translation.get_language() or ""})
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return user


def has_room_for_a_table(user, tables_in_play: int) -> bool:
    """A guest keeps at most ``GUEST_TABLES_IN_PLAY`` tables in play; others are not counted."""
    return not is_guest(user) or tables_in_play < settings.GUEST_TABLES_IN_PLAY


def forgotten_guests(now=None):
    """Guests who never signed up and have not been seen for ``GUEST_DAYS``: started before
    then, and at no table since (a seat's last sight of its person)."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.GUEST_DAYS)
    return (get_user_model().objects.filter(profile__is_guest=True, date_joined__lt=cutoff)
            .exclude(seats__seen_at__gte=cutoff).distinct())
