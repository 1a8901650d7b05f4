"""Sockets live no longer than the session that opened them: a logout, a password change
(which ends every other session of the account) or the account's deletion closes the
account's open sockets whose session is no longer valid.

Django checks the session on every HTTP request; a WebSocket is checked once, when it opens.
So each socket of a signed-in person joins its account's group (``games.consumers``) and is
told here when a session of that account may have ended; it then looks at its own session.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils.crypto import constant_time_compare
from django.utils.module_loading import import_string

from games.broadcasting import account_group

logger = logging.getLogger(__name__)


def session_still_valid(session_key: str, user_id: int | None) -> bool:
    """The session exists, belongs to ``user_id`` and carries the account's current password
    hash (what ``django.contrib.auth.get_user`` checks on every request)."""
    from django.conf import settings

    if user_id is None:
        return True  # a visitor's socket shows only what anyone may see
    store = import_string(settings.SESSION_ENGINE + ".SessionStore")(session_key)
    data = store.load()
    if str(data.get(SESSION_KEY)) != str(user_id):
        return False
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None or not user.is_active:
        return False
    return constant_time_compare(data.get(HASH_SESSION_KEY, ""), user.get_session_auth_hash())


def tell_sockets(user_id: int, ended_session: str | None = None) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(account_group(user_id),
                                        {"type": "session.check", "ended": ended_session})
    except Exception:  # the logout itself must succeed even if the layer is down
        logger.exception("could not tell the sockets of account %s", user_id)


@receiver(user_logged_out, dispatch_uid="games.session_watch.logged_out")
def _logged_out(sender, request, user, **kwargs):
    if user is not None and user.pk is not None:
        key = getattr(getattr(request, "session", None), "session_key", None)
        tell_sockets(user.pk, ended_session=key)


@receiver(post_save, sender=get_user_model(), dispatch_uid="games.session_watch.saved")
def _account_saved(sender, instance, created, update_fields=None, **kwargs):
    # A new password (or a deactivated account) ends other sessions; ``last_login`` saves at
    # every login change nothing a session depends on.
    if created or (update_fields is not None and set(update_fields) <= {"last_login"}):
        return
    tell_sockets(instance.pk)


@receiver(post_delete, sender=get_user_model(), dispatch_uid="games.session_watch.deleted")
def _account_deleted(sender, instance, **kwargs):
    # Once the deletion is committed: a socket that looked before would still find the account.
    user_id = instance.pk
    transaction.on_commit(lambda: tell_sockets(user_id))
