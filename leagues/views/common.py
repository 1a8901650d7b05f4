"""What the leagues' pages share: the messages they say, a refusal said instead of a change,
the views that change a row of a season (a closed one refused), the plain form page (and the one
that adds a row), and the answer of an SVG chart."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial, wraps
from operator import attrgetter
from typing import Any

from csp.decorators import csp_update
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render

from leagues import access as acl
from leagues.models import EntryError
from whistclub.replicas import reads_from_replica


def say(request, said: list[tuple[str, str]]) -> None:
    """Shows ``said``, (level, sentence) pairs as ``leagues.confirmations`` and
    ``leagues.reminders`` word an outcome, as the page's messages."""
    for level, text in said:
        getattr(messages, level)(request, text)


def refused(request, *checks: Callable[[], None]) -> bool:
    """Runs the model's checks in turn (each raises EntryError to refuse); says the first
    refusal and returns True, or returns False when none refuses."""
    for check in checks:
        try:
            check()
        except EntryError as exc:
            messages.error(request, exc.message)
            return True
    return False


def _refusing_closed(get_row: Callable[..., tuple[Any, Any]], row_id: str,
                     season_of: Callable[[Any], Any]):
    """The decorator of the views that change a row of a season (the season itself, an evening,
    a table): ``get_row`` says who may, and a row of a closed season is refused in words, back to
    the row's page.  The view is called with the access and the row in place of the club's slug
    and the row's id (the URL's keyword ``row_id``)."""
    def decorate(view):
        @wraps(view)
        def changing(request, slug, **kwargs):
            access, row = get_row(request, slug, kwargs.pop(row_id))
            if closed(request, season_of(row)):
                return redirect(row)
            return view(request, access, row, **kwargs)
        return changing
    return decorate


def changes_a_table(get_table: Callable[..., tuple[Any, Any]], *need: str):
    """A view that changes an evening's table: ``get_table`` (one of ``access``'s, with
    ``need`` when it takes one) says who may; a table of a closed season is refused."""
    def get(request, slug, table_id):
        return get_table(request, slug, table_id, *need)
    return _refusing_closed(get, "table_id", lambda table: table.evening.season)


# Views of the organisers that change an evening, or add to a season; closed seasons refused.
changes_an_evening = _refusing_closed(partial(acl.get_evening, need=acl.ORGANISER),
                                      "evening_id", attrgetter("season"))
changes_a_season = _refusing_closed(partial(acl.get_season, need=acl.ORGANISER),
                                    "season_id", lambda season: season)


def made(request, change: Callable[[], Any], said: str | Callable[[Any], str]) -> bool:
    """Makes ``change`` (a write through ``edits`` or a model, which raises EntryError to
    refuse and then changes nothing) and says what came of it: the refusal, or ``said`` (a
    sentence, or one made from what the change returned).  True when the change was made."""
    try:
        result = change()
    except EntryError as exc:
        messages.error(request, exc.message)
        return False
    messages.success(request, said(result) if callable(said) else said)
    return True


def form_page(request, form, heading: str, club=None, **more) -> HttpResponse:
    """The plain form page (``leagues/form.html``): ``heading``, a link back to ``club`` when
    there is one, the form; ``more`` is the page's other words (``intro``, ``submit``)."""
    return render(request, "leagues/form.html",
                  {"form": form, "heading": heading, "club": club, **more})


def closed(request, season) -> bool:
    """Says so and returns True when the season is closed (nothing in it changes any more)."""
    return refused(request, season.refuse_if_closed)


# An SVG shown as an image runs no script; pygal styles it with its own <style>, allowed on
# these responses only.
SVG_POLICY = {"style-src": ["'unsafe-inline'"]}


def svg_response(text: str) -> HttpResponse:
    response = HttpResponse(text, content_type="image/svg+xml; charset=utf-8")
    response["Cache-Control"] = "private, no-cache"
    return response


def chart_view(view: Callable[..., str]) -> Callable[..., HttpResponse]:
    """A chart's view: ``view`` returns the chart's SVG text, answered as an SVG under
    ``SVG_POLICY``; its reads may go to the replica (whistclub.replicas)."""
    @csp_update(SVG_POLICY)
    @reads_from_replica
    @wraps(view)
    def answer(request, *args, **kwargs) -> HttpResponse:
        return svg_response(view(request, *args, **kwargs))

    return answer


def chart_of(get_object: Callable[..., tuple], draw: Callable[[Any], str]):
    """The view of one thing's chart: ``get_object(request, **url_kwargs)`` finds the thing and
    refuses whoever may not see its page (``leagues.access``), ``draw(thing)`` draws it."""
    @chart_view
    def view(request, **kwargs) -> str:
        _access, thing = get_object(request, **kwargs)
        return draw(thing)

    return view
