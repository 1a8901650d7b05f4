"""Signing up without telling anyone which e-mail addresses have an account.

A sign-up's answer never depends on whether its address is taken: every valid form gets the same
page ("check your e-mail"), and the address one e-mail:

- an address without an account: a link that finishes the sign-up.  The account waits until the
  link is followed, inactive (Django's ``is_active``: it cannot log in), so only the address's
  owner can finish it;
- an address with an account: a note to its owner that someone tried to sign up with it, with
  the links to log in and to choose a new password.  Nothing is created.

A waiting account is one that is inactive and has never logged in (every account signs in when
its sign-up is finished).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.mail import send_mail
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlencode, urlsafe_base64_decode, urlsafe_base64_encode

from whistclub.accounts.models import Profile


class ConfirmationTokens(PasswordResetTokenGenerator):
    """Django's password-reset tokens under a key of their own: a link works for
    PASSWORD_RESET_TIMEOUT (three days), and no more once the account has logged in (the hash
    covers its last login)."""

    key_salt = "whistclub.accounts.signup.ConfirmationTokens"


confirmation_tokens = ConfirmationTokens()


def waiting_accounts():
    """Accounts whose sign-up is not finished: inactive, never logged in."""
    return get_user_model().objects.filter(is_active=False, last_login__isnull=True)


def confirmable_accounts():
    """Accounts a sign-up link may finish: waiting ones, and guests who signed up (they play
    on as guests until the link is followed)."""
    return get_user_model().objects.filter(
        Q(is_active=False, last_login__isnull=True) | Q(profile__is_guest=True))


def account_with_address(email: str):
    """The account that holds ``email`` (any case), waiting ones aside; or None."""
    return (get_user_model().objects.filter(email__iexact=email)
            .exclude(is_active=False, last_login__isnull=True).first())


def forget_waiting_sign_up(username: str, email: str) -> None:
    """Signing up again with the same username and address replaces the sign-up that waits (its
    e-mail may have been lost): only the address's owner could have finished either."""
    if username and email:
        waiting_accounts().filter(username__iexact=username, email__iexact=email).delete()


def sign_up(request, form, next_url: str = "") -> None:
    """Act on a valid sign-up form: the address gets its one e-mail (see the module)."""
    email = form.cleaned_data["email"]
    owner = account_with_address(email)
    if owner is not None:
        # The same work as a new account's password, so that the answer takes as long.
        make_password(form.cleaned_data["password1"])
        _send(request, owner.email, "registration/signup_address_in_use", {
            "user": owner,
            "login_url": request.build_absolute_uri(reverse("login")),
            "reset_url": request.build_absolute_uri(reverse("password_reset")),
        })
        return
    if form.instance.pk is None:
        form.instance.is_active = False  # a guest's account stays active: they play on
    user = form.save()
    link = reverse("signup_confirm", kwargs={
        "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
        "token": confirmation_tokens.make_token(user)})
    if next_url:
        link += "?" + urlencode({"next": next_url})
    _send(request, user.email, "registration/signup_confirm", {
        "user": user, "confirm_url": request.build_absolute_uri(link),
        "days": max(1, settings.PASSWORD_RESET_TIMEOUT // 86400)})


def waiting_account(uidb64: str, token: str):
    """The waiting account a confirmation link names, if the link still works; else None."""
    try:
        pk = force_str(urlsafe_base64_decode(uidb64))
        user = confirmable_accounts().get(pk=pk)
    except (TypeError, ValueError, OverflowError, get_user_model().DoesNotExist):
        return None
    return user if confirmation_tokens.check_token(user, token) else None


def finish(user) -> None:
    """The owner followed the link: the account is theirs, and other sign-ups waiting with the
    same address (someone else's, or their own earlier ones) go."""
    user.is_active = True
    user.save(update_fields=["is_active"])
    Profile.objects.filter(user=user).update(is_guest=False, guest_from="")
    waiting_accounts().filter(email__iexact=user.email).exclude(pk=user.pk).delete()


def _send(request, to: str, template: str, context: dict) -> None:
    context = {**context, "site": request.get_host()}
    subject = "".join(render_to_string(f"{template}_subject.txt", context).splitlines())
    send_mail(subject, render_to_string(f"{template}_email.txt", context),
              settings.DEFAULT_FROM_EMAIL, [to])
