import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from games import registry, tables
from games.access import get_table_for_viewer, person_id, remember_invite
from games.forms import TableForm
from games.models import BOT_LEVELS, Hand, Table
from games.presentation import for_template, replay_words
from games.rules.records import replay_hand
from games.snapshots import table_view


def lobby_tables(user):
    """Open tables anyone may join or watch, newest first, with their seats."""
    return (Table.objects.filter(is_private=False)
            .exclude(status=Table.Status.FINISHED)
            .annotate(free_seats=Count("seats", filter=Q(seats__user__isnull=True,
                                                         seats__bot_level="")))
            .prefetch_related("seats__user__profile")
            .select_related("created_by")[:50])


def your_tables(user):
    """The tables a signed-in person sits at or opened and that have not finished (the top of
    their lobby: rendered with the page, not pushed over the lobby socket, which is the same
    for everyone)."""
    uid = person_id(user)
    if uid is None:
        return []
    return list(Table.objects.filter(Q(seats__user_id=uid) | Q(created_by_id=uid))
                .exclude(status=Table.Status.FINISHED).distinct()
                .prefetch_related("seats__user__profile")[:50])


def lobby(request):
    return render(request, "games/lobby.html", {"tables": lobby_tables(request.user),
                                                "your_tables": your_tables(request.user),
                                                "games": registry.choices()})


@login_required
def new_table(request, game):
    try:
        description = registry.game(game)
    except KeyError:
        raise Http404 from None
    form = TableForm(game, request.POST or None)
    if request.method == "POST" and form.is_valid():
        table = tables.create_table(request.user, game, form.rules.overrides(),
                                    is_private=form.cleaned_data["is_private"],
                                    deals_limit=form.cleaned_data.get("deals_limit"),
                                    grace_seconds=form.cleaned_data.get("grace_seconds") or 60)
        try:
            tables.take_seat(table.pk, request.user, 0)
        except tables.TableError as exc:
            messages.error(request, exc.message)
        return redirect(table)
    return render(request, "games/new_table.html", {"form": form, "game": game,
                                                    "game_name": description.label})


def table_page(request, table_id):
    table = get_table_for_viewer(request, table_id)
    seat = tables.seat_of(table, request.user)
    view = table_view(table, seat)
    invite_url = None
    invite_path = reverse("table_invite", args=[table.pk, table.invite_token])
    if not table.is_private:
        invite_url = request.build_absolute_uri(table.get_absolute_url())  # open to anyone
    elif seat is not None or table.created_by_id == person_id(request.user):
        invite_url = request.build_absolute_uri(invite_path)
    # A visitor who is not signed in comes back here after logging in or signing up: to the
    # invite link of a private table (they could only see it through that link).
    back_to = invite_path if table.is_private else table.get_absolute_url()
    return render(request, "games/table.html", {
        "table": table, "view": view, "ui": for_template(view), "bot_levels": BOT_LEVELS,
        "invite_url": invite_url, "back_to": back_to,
        "can_renew_invite": table.is_private and invite_url is not None
        and table.created_by_id == person_id(request.user),
    })


def table_state(request, table_id):
    """The table's current state fragment (htmx polling fallback and no-JavaScript refresh)."""
    table = get_table_for_viewer(request, table_id)
    view = table_view(table, tables.seat_of(table, request.user))
    if request.GET.get("format") == "json":
        return HttpResponse(json.dumps({"type": "state", "version": view["version"],
                                        "state": view}), content_type="application/json")
    return render(request, "games/partials/table_state.html",
                  {"view": view, "ui": for_template(view)})


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


def _bot_level(request) -> str:
    """The computer players' level posted, or normal for anything else."""
    level = request.POST.get("level", "normal")
    return level if level in dict(BOT_LEVELS) else "normal"


@login_required
@require_POST
def sit(request, table_id, position):
    return _table_post(request, table_id,
                       lambda: tables.take_seat(table_id, request.user, position))


@login_required
@require_POST
def add_bot(request, table_id, position):
    level = _bot_level(request)
    return _table_post(request, table_id,
                       lambda: tables.add_bot(table_id, request.user, position, level))


@login_required
@require_POST
def fill_seats(request, table_id):
    level = _bot_level(request)

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


def hand_list(request, table_id):
    table = get_table_for_viewer(request, table_id)
    return render(request, "games/hand_list.html", {"table": table,
                                                    "hands": table.hands.all()})


def hand_replay(request, table_id, number):
    """A finished hand, trick by trick: ``?trick=N`` shows the hands after N tricks."""
    table = get_table_for_viewer(request, table_id)
    hand = get_object_or_404(Hand, table=table, number=number)
    view = replay_hand(hand.record).view(None)
    tricks = view.get("tricks") or []
    try:
        step = min(max(int(request.GET.get("trick", 0)), 0), len(tricks))
    except ValueError:
        step = 0
    played = {play["card"] for trick in tricks[:step] for play in trick["cards"]}
    remaining = [[c for c in cards if c not in played] for cards in view.get("deal") or []]
    players = table_view(table, None)["players"]
    return render(request, "games/hand_replay.html", {
        "table": table, "hand": hand, "view": view, "remaining": remaining,
        "step": step, "trick_count": len(tricks), "trick": tricks[step - 1] if step else None,
        "players": players, **replay_words(table.game, view, players),
    })


def hand_download(request, table_id, number):
    table = get_table_for_viewer(request, table_id)
    hand = get_object_or_404(Hand, table=table, number=number)
    response = HttpResponse(json.dumps(hand.record, indent=1), content_type="application/json")
    response["Content-Disposition"] = (
        f'attachment; filename="whistclub-{table.game}-{table.pk}-hand-{hand.number}.json"')
    return response
