import math

from axes.utils import reset as reset_login_failures
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import content_disposition_header, url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from leagues.edits import clubs_only_organised_by
from ratings.core import PEOPLE_TO_BE_LISTED
from ratings.read import MIN_ONLINE_HANDS
from whistclub.accounts import guests, leaving, personal_data
from whistclub.accounts import signup as signups
from whistclub.accounts import your_games as your_games_data
from whistclub.accounts.forms import DeleteAccountForm, ProfileForm, SignUpForm
from whistclub.accounts.models import profile_for


def safe_next(request) -> str:
    """The ``next`` page asked for (a table a visitor came from), if it is on this site."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return ""


def signup(request):
    """The same answer whether the address has an account or not (whistclub.accounts.signup):
    "check your e-mail"; the e-mail finishes the sign-up, or tells the owner someone tried."""
    next_url = safe_next(request)
    # A guest signs up as anyone does, and the account they play with becomes theirs.
    guest = request.user if guests.is_guest(request.user) else None
    if request.user.is_authenticated and guest is None:
        return redirect(next_url or "home")
    if request.method == "POST":
        signups.forget_waiting_sign_up(request.POST.get("username", ""),
                                       request.POST.get("email", "").strip())
    # The guest's own username is the site's ("guest-…"): they choose theirs.
    form = SignUpForm(request.POST or None, instance=guest,
                      initial={"username": ""} if guest else None)
    if request.method == "POST" and form.is_valid():
        signups.sign_up(request, form, next_url)
        return redirect("signup_sent")
    return render(request, "registration/signup.html",
                  {"form": form, "next": next_url, "guest": guest})


def signup_sent(request):
    return render(request, "registration/signup_sent.html", {
        "days": max(1, settings.PASSWORD_RESET_TIMEOUT // 86400)})


def signup_confirm(request, uidb64, token):
    """The link of the sign-up's e-mail: a page with one button (a mail program that opens the
    link to check it must not finish the sign-up), which logs the new person in."""
    user = signups.waiting_account(uidb64, token)
    next_url = safe_next(request)
    if user is not None and request.method == "POST":
        signups.finish(user)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to whistclub, %(name)s!") % {"name": user.profile.name})
        return redirect(next_url or "home")
    return render(request, "registration/signup_confirm.html",
                  {"validlink": user is not None, "next": next_url, "new_user": user})


@login_required
def your_games(request):
    """A person's own page: their games at online tables, their ratings, their tables."""
    return render(request, "accounts/your_games.html", {
        "games": your_games_data.games_played(request.user),
        "tables": your_games_data.recent_tables(request.user),
        "guest": guests.is_guest(request.user),
        "min_hands": MIN_ONLINE_HANDS, "min_people": PEOPLE_TO_BE_LISTED})


@login_required
def profile(request):
    profile = profile_for(request.user)
    form = ProfileForm(request.POST or None, instance=profile)
    if request.method == "POST" and form.is_valid():
        form.save()
        if profile.language:
            translation.activate(profile.language)
        messages.success(request, _("Your profile has been saved."))
        response = redirect("profile")
        if profile.language:
            # Keep the language after logging out too, as Django's own switcher does.
            response.set_cookie(settings.LANGUAGE_COOKIE_NAME, profile.language)
        return response
    return render(request, "accounts/profile.html", {"form": form})


@login_required
@never_cache
def my_data(request):
    """Everything the site holds on the person, as a JSON file to keep."""
    response = JsonResponse(personal_data.collect(request.user),
                            json_dumps_params={"indent": 2, "ensure_ascii": False})
    response["Content-Disposition"] = content_disposition_header(
        True, f"whistclub-{request.user.get_username()}.json")
    return response


@login_required
@never_cache
def delete_account(request):
    """The confirmation page, in plain words; the account goes once the person gives their
    password, unless a club would be left without an organiser (then: hand it over first)."""
    clubs = clubs_only_organised_by(request.user)
    form = DeleteAccountForm(request.user, request.POST or None)
    if request.method == "POST" and not clubs and form.is_valid():
        try:
            leaving.delete_account(request.user)
        except leaving.ClubsNeedAnOrganiser as refused:
            clubs = refused.clubs
        else:
            logout(request)
            messages.success(request, _("Your account has been deleted. Goodbye, and thank you "
                                        "for playing."))
            return redirect("home")
    return render(request, "accounts/delete_account.html", {"form": form, "clubs": clubs})


def locked_out(request, original_response=None, credentials=None):
    """The page of a login refused by the throttle (django-axes' AXES_LOCKOUT_CALLABLE)."""
    minutes = max(1, math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    return render(request, "registration/locked_out.html",
                  {"cooloff_minutes": minutes, "failure_limit": settings.AXES_FAILURE_LIMIT},
                  status=429)


class PasswordResetConfirm(auth_views.PasswordResetConfirmView):
    """Django's reset confirmation; choosing a new password also lifts a login lockout.

    The link in the email proves the person owns the account, so the failures counted against
    its username (from any address) no longer protect anything.
    """

    def form_valid(self, form):
        response = super().form_valid(form)
        reset_login_failures(username=form.user.get_username())
        return response
