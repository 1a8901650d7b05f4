"""What the leagues' pages share: the messages they say, a refusal said instead of a change,
the plain form page (and the one that adds a row), and the answer of an SVG chart."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from csp.decorators import csp_update
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import render

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
