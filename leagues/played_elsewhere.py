"""An evening played somewhere other than at its tables, without leagues importing where: an
app above leagues that plays evenings its own way (``club_events``: an evening played as an
online event) registers a place when it starts (its ``AppConfig.ready``), and leagues asks
every place:

- ``playing(evening)``: whether the evening is being played there now, in words with a link
  (its page says so instead of offering the draw, and the draw and a table added by hand are
  refused with those words: the tables are that place's), or None;
- ``moved(evening, date)``: the evening's date is changing to ``date``, in the transaction of
  the change with the evening's row locked: what is played there follows it, or the change is
  refused (``EntryError``, in words, and nothing changes); what followed it is returned as
  facts for the club's history (``{"event": its name, "starts_at": its new start}``, the
  names of the time), or None.

With no place registered (leagues alone), every evening is played at its tables."""

from __future__ import annotations

import datetime
from typing import NamedTuple, Protocol

from leagues.models import EntryError, Evening


class Elsewhere(NamedTuple):
    """What the evening's page says (``words``), and where it leads (``link``, named
    ``link_words``)."""

    words: str
    link: str = ""
    link_words: str = ""


class Place(Protocol):
    def playing(self, evening: Evening) -> Elsewhere | None: ...

    def moved(self, evening: Evening, date: datetime.date) -> dict | None: ...


_places: list[Place] = []


def register(place: Place) -> None:
    if place not in _places:
        _places.append(place)


def playing(evening: Evening) -> Elsewhere | None:
    for place in _places:
        elsewhere = place.playing(evening)
        if elsewhere is not None:
            return elsewhere
    return None


def refuse_if_playing(evening: Evening) -> None:
    """EntryError, in the place's words, while the evening is played elsewhere: no draw, no
    table added by hand."""
    elsewhere = playing(evening)
    if elsewhere is not None:
        raise EntryError(elsewhere.words)


def moved(evening: Evening, date: datetime.date) -> list[dict]:
    """Every place's own following of the evening's new date; the facts of what followed."""
    followed = [place.moved(evening, date) for place in _places]
    return [facts for facts in followed if facts is not None]
