"""The lobby, a table's page and the forms that change its seats or play on it."""

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from games import chat, computer_conventions, registry, tables
from games.access import get_table_for_viewer, person_id, remember_invite
from games.forms import TableForm
from games.how_to_play import conventions_url
from games.how_to_play import page_context as how_to_play_context
from games.how_to_play import template_of as how_to_play_template
from games.html.chat import chat_panel
from games.models import (
    COMPUTER_LEVELS,
    QUIET_DAYS,
    Table,
    lobby_tables,
    older_tables,
    tables_in_play,
)
from games.presentation import for_template
from games.snapshots import table_view
from whistclub.accounts import guests


def lobby(request):
    person = person_id(request.user)
    return render(request, "games/lobby.html", {"tables": lobby_tables(request.user),
                                                "your_tables": tables_in_play(person),
                                                "older_tables": older_tables(person),
                                                "quiet_days": QUIET_DAYS,
                                                "games": registry.choices()})


@require_POST
def play_now(request, game):
    """The home page's "Play now": straight to a seat with computer players around it."""
    registry.game_or_404(game)
    if not request.user.is_authenticated:
        try:
            guests.start(request)  # a visitor plays at once, as a guest
        except guests.Refused as too_many:
            messages.error(request, too_many.message)
            return redirect("signup")
    if refusal := _no_room_for_a_table(request):
        return refusal
    table = tables.play_now(request.user, game)
    return redirect(table)


def _no_room_for_a_table(request):
    """A guest with as many tables in play as a guest may keep is sent home, where they are
    listed, with the reason; None for anyone else."""
    user = request.user
    if guests.has_room_for_a_table(user, len(tables_in_play(person_id(user)))):
        return None
    messages.error(request, _("As a guest you can have %(count)s tables in play: go on with "
                              "one of them, or create your account.")
                   % {"count": settings.GUEST_TABLES_IN_PLAY})
    return redirect("home")


@login_required
def new_table(request, game):
    description = registry.game_or_404(game)
    form = TableForm(game, request.POST or None)
    if request.method == "POST" and (refusal := _no_room_for_a_table(request)):
        return refusal
    if request.method == "POST" and form.is_valid():
        table = tables.create_table(request.user, game, form.rules.overrides(),
                                    is_private=form.cleaned_data["is_private"],
                                    deals_limit=form.cleaned_data.get("deals_limit"),
                                    grace_seconds=form.cleaned_data.get("grace_seconds") or 60,
                                    trick_pause_ms=form.cleaned_data.get("trick_pause_ms"),
                                    move_seconds=form.cleaned_data.get("move_seconds"),
                                    chat_during_play=form.cleaned_data["chat_during_play"])
        try:
            tables.take_seat(table.pk, request.user, 0)
        except tables.TableError as exc:
            messages.error(request, exc.message)
        return redirect(table)
    return render(request, "games/new_table.html", {"form": form, "game": game,
                                                    "game_name": description.label})


def how_to_play(request, game):
    """A game's rules for a newcomer, open to everyone: its own page in the reader's language."""
    description = registry.game_or_404(game)
    return render(request, how_to_play_template(game), how_to_play_context(
        description, [each for each in registry.all_games() if each.id != game]))


def computer_players(request, game):
    """How a game's computer players play: what their calls, leads and discards mean."""
    if game not in computer_conventions.games_with_page():
        raise Http404
    return render(request, "games/computer_players.html",
                  computer_conventions.page_context(registry.game(game)))


def table_page(request, table_id):
    table = get_table_for_viewer(request, table_id)
    seat = tables.seat_of(table, request.user)
    view = table_view(table, seat)
    invite_url = None
    invite_path = reverse("table_invite", args=[table.pk, table.invite_token])
    if table.preset_deals is not None:
        pass  # an event's table: its seats are the event's to give, nobody is invited
    elif not table.is_private:
        invite_url = request.build_absolute_uri(table.get_absolute_url())  # open to anyone
    elif ((seat is not None or table.created_by_id == person_id(request.user))
          and guests.may_invite(request.user)):  # a guest passes on no invite link
        invite_url = request.build_absolute_uri(invite_path)
    # A visitor who is not signed in comes back here after logging in or signing up: to the
    # invite link of a private table (they could only see it through that link).
    back_to = invite_path if table.is_private else table.get_absolute_url()
    return render(request, "games/table.html", {
        "table": table, "view": view, "ui": for_template(view), "computer_levels": COMPUTER_LEVELS,
        "conventions_url": conventions_url(table.game),
        "invite_url": invite_url, "back_to": back_to,
        "can_renew_invite": table.is_private and invite_url is not None
        and table.created_by_id == person_id(request.user),
        "chat_panel": chat_panel(chat.lines_for(table, seat), viewer_id=person_id(request.user),
                                 seat=seat, quiet_during_hands=not table.chat_during_play),
    })


def table_state(request, table_id):
    """The table's current state fragment (htmx polling fallback and no-JavaScript refresh)."""
    table = get_table_for_viewer(request, table_id)
    view = table_view(table, tables.seat_of(table, request.user))
    if request.GET.get("format") == "json":
        return HttpResponse(json.dumps({"type": "state", "version": view["version"],
                                        "state": view}), content_type="application/json")
    # The result beside the table is swapped in by its id, as the socket sends it.
    return render(request, "games/partials/table_state.html",
                  {"view": view, "ui": for_template(view), "result_oob": True})


def table_invite(request, table_id, token):
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not constant_time_compare(token, table.invite_token):
        # In words, and the same for a table that does not exist: a wrong link tells nobody
        # whether a private table has that number.
        return render(request, "games/invite_invalid.html", status=404)
    remember_invite(request, table)
    return redirect(table)


@login_required
@require_POST
def renew_invite(request, table_id):
    def renew():
        tables.renew_invite(table_id, request.user)
        messages.success(request, _("Here is a new invite link: the old one no longer works."))
    return _table_post(request, table_id, renew)


def _table_post(request, table_id, change):
    get_table_for_viewer(request, table_id)
    try:
        change()
    except tables.TableError as exc:
        messages.error(request, exc.message)
    return redirect("table", table_id)


def _computer_level(request) -> str:
    """The computer players' level posted, or normal for anything else."""
    level = request.POST.get("level", "normal")
    return level if level in dict(COMPUTER_LEVELS) else "normal"


@login_required
@require_POST
def sit(request, table_id, position):
    return _table_post(request, table_id,
                       lambda: tables.take_seat(table_id, request.user, position))


@login_required
@require_POST
def add_computer_player(request, table_id, position):
    level = _computer_level(request)
    return _table_post(request, table_id,
                       lambda: tables.add_computer_player(table_id, request.user, position, level))


@login_required
@require_POST
def fill_seats(request, table_id):
    level = _computer_level(request)

    def fill():
        filled = tables.fill_seats(table_id, request.user, level)
        if filled:
            messages.success(request, ngettext(
                "%(n)d computer player sat down.", "%(n)d computer players sat down.",
                filled) % {"n": filled})
        else:
            messages.info(request, _("Every seat was already taken: nothing was changed."))
    return _table_post(request, table_id, fill)


@login_required
@require_POST
def rematch(request, table_id):
    get_table_for_viewer(request, table_id)
    try:
        new = tables.rematch(table_id, request.user)
    except tables.TableError as exc:
        finished = Table.objects.filter(pk=table_id).values_list("rematch_table", flat=True)
        if finished and finished[0]:  # a click that lost a race to another: the same table
            return redirect("table", finished[0])
        messages.error(request, exc.message)
        return redirect("table", table_id)
    return redirect(new)


@login_required
@require_POST
def leave(request, table_id):
    return _table_post(request, table_id, lambda: tables.leave_seat(table_id, request.user))


@login_required
@require_http_methods(["GET", "POST"])
def close(request, table_id):
    """GET: the question (are you sure?); POST: the table closes.  A page of its own, so the
    confirmation works with the keyboard, without JavaScript and under live updates."""
    if request.method == "GET":
        table = get_table_for_viewer(request, table_id)
        if table.created_by_id != person_id(request.user):
            messages.error(request, _("Only the person who opened the table can close it."))
            return redirect(table)
        if table.status == Table.Status.FINISHED:
            messages.error(request, _("This table has finished."))
            return redirect(table)
        return render(request, "games/close_table.html", {"table": table})
    return _table_post(request, table_id, lambda: tables.close_table(table_id, request.user))


@login_required
@require_POST
def act(request, table_id):
    """The same action as over the WebSocket, for browsers without JavaScript."""
    version = request.POST.get("version", "")  # parsed, and refused in words, by play()
    action = tables.action_from_message(request.POST.get("type", "action"),
                                        request.POST.get("action"), request.POST.getlist("cards"))
    return _table_post(request, table_id, lambda: tables.play(
        table_id, request.user, action, version))
