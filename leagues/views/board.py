"""An evening's board for the venue's screen (``leagues.board``): its page, public in a public
club, through the evening's secret link in a members-only one; and the organisers' buttons that
make that link, a new one, or remove it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from leagues import access as acl
from leagues import edits
from leagues.board import board_context
from leagues.models import EntryError

REFRESH_SECONDS = 30  # without JavaScript the page reloads itself this often


def board(request, slug, evening_id, token=None):
    evening = acl.get_evening_for_board(request, slug, evening_id, token)
    socket = (f"/ws/boards/{evening.pk}/{token}/" if token is not None
              else f"/ws/boards/{evening.pk}/")
    response = render(request, "leagues/board.html", {
        **board_context(evening), "club": evening.season.league.club, "socket": socket,
        "refresh_seconds": REFRESH_SECONDS})
    if token is not None:
        response["Referrer-Policy"] = "no-referrer"  # the secret stays in the address bar
    response["X-Robots-Tag"] = "noindex"
    return response


def board_address(request, evening) -> str:
    """The board's address an organiser copies: the public one of a public club, the secret
    one otherwise (empty until an organiser makes it)."""
    club = evening.season.league.club
    if evening.board_token:
        path = reverse("leagues:board_secret", args=[club.slug, evening.pk, evening.board_token])
    elif club.is_public:
        path = reverse("leagues:board", args=[club.slug, evening.pk])
    else:
        return ""
    return request.build_absolute_uri(path)


@login_required
@require_POST
def board_link(request, slug, evening_id):
    """The evening's secret board link made, replaced (the previous one stops working at once)
    or removed (``remove`` posted); a line of the club's history (``edits.set_board_link``)."""
    access, evening = acl.get_evening(request, slug, evening_id, acl.ORGANISER)
    try:
        done = edits.set_board_link(evening, request.user, remove="remove" in request.POST)
    except EntryError as error:
        messages.error(request, str(error))
        return redirect(evening.get_absolute_url() + "#board")
    messages.success(request, {
        edits.BOARD_MADE: _("The board link was made: open it on the venue's screen."),
        edits.BOARD_REPLACED: _("A new board link was made: the previous one no longer works."),
        edits.BOARD_REMOVED: _("The board link was removed: it no longer works."),
    }[done])
    return redirect(evening.get_absolute_url() + "#board")
