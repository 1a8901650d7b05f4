"""A person deleting their own account: what it takes, and what it leaves.

It takes their password (``whistclub.accounts.forms.DeleteAccountForm``) and no club left without an organiser who
signs in (``leagues.edits.clubs_only_organised_by``: they hand it over first).  The account
itself is then deleted like any other, and what becomes of each app's data is decided by that
app on the user model's ``pre_delete``, so that staff deleting an account in the admin do the
same:

- ``games.seating.account_deleted``: tables they opened close, their seats show a former
  player (a computer plays on), the reviews of their seats go;
- ``leagues.edits.account_deleted``: each club keeps its record of them, name and results,
  without a login, and its history says so;
- ``ratings.signals.on_account_deleted``: their ratings go, the scopes are re-rated;
- ``games.models.ChatLine``: the lines they said at tables go with the account (a cascade);
- ``games.session_watch``: their open sockets close;
- :func:`forget_sign_ins` (below): the login throttle's records of their username.

What the site holds on a person before they go is :mod:`whistclub.accounts.personal_data`.
"""

from __future__ import annotations

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.db import transaction

from leagues.edits import clubs_only_organised_by


class ClubsNeedAnOrganiser(Exception):
    """Refused: without this person these clubs would have no organiser who signs in."""

    def __init__(self, clubs):
        self.clubs = clubs
        super().__init__(", ".join(club.name for club in clubs))


def delete_account(user) -> None:
    """Deletes ``user``'s account, or raises ClubsNeedAnOrganiser and changes nothing."""
    with transaction.atomic():
        clubs = clubs_only_organised_by(user, lock=True)
        if clubs:
            raise ClubsNeedAnOrganiser(clubs)
        user.delete()


def forget_sign_ins(sender, instance, **kwargs) -> None:
    """``post_delete`` of the user model: the login throttle's records of the username (when,
    from which address, with which browser) go with the account."""
    username = instance.get_username()
    for model in (AccessLog, AccessAttempt, AccessFailureLog):
        model.objects.filter(username=username).delete()
