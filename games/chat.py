"""Talking at a table: who may say what, and who hears it.

Every line is checked here, in one place (``say``):

- a preset phrase ("Good luck", "Well played", "Thanks", "Sorry") may be said at any time: it
  carries nothing of a hand;
- a person's own words (at most ``MAX_TEXT`` characters) may be written between hands; during
  a hand (the table playing and its hand begun) only if the table allows it
  (``Table.chat_during_play``, off by default: whist is played in silence, and the rule texts
  forbid signalling to a partner);
- a player's line is for everyone at the table; a spectator's line for the spectators only,
  at any moment, so nobody watching ever talks into the players' game;
- a visitor who is not signed in only reads; a guest talks as anyone;
- each person says at most ``CHAT_BURST`` lines at once and ``CHAT_LINES_PER_MINUTE`` a
  minute (``games.limits.take_chat_token``).

A refusal is a sentence (``Refused.message``), never a server error.  The lines are kept with
the table (``ChatLine``) and shown to the people at it only (``lines_for``): the last ones
when a page opens, each new one pushed to the sockets of its audience
(``games.broadcasting.chat_line``; the consumer leaves out a spectators' line on a player's
socket).  They go with their author's account.
"""

from __future__ import annotations

import unicodedata
from dataclasses import asdict, dataclass

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games import limits
from games.access import person_id, table_for_viewer
from games.models import ChatLine, Table
from games.versions import seat_of
from whistclub.accounts.names import readable

# The phrases anyone at a table may say at any moment, by the id a client sends.
PRESETS = {
    "good_luck": _("Good luck"),
    "well_played": _("Well played"),
    "thanks": _("Thanks"),
    "sorry": _("Sorry"),
}
MAX_TEXT = 200
LINES_SHOWN = 30


class Refused(Exception):
    """Nothing was said: ``message`` says why, in words."""

    def __init__(self, message):
        self.message = message
        super().__init__(str(message))


@dataclass(frozen=True)
class Line:
    """A line as the sockets and the page show it: the same for every reader but a preset's
    words, which each reader gets in their own language (``words``)."""

    id: int
    audience: str
    author_id: int
    author: str
    seat: int | None
    phrase: str
    text: str
    at: str

    def words(self) -> str:
        return str(PRESETS[self.phrase]) if self.phrase in PRESETS else self.text

    def as_json(self) -> dict:
        """The line of a JSON socket's ``chat`` message, its words in the active language."""
        return {**asdict(self), "kind": "preset" if self.phrase else "text",
                "phrase": self.phrase or None, "text": self.words()}


def hand_in_play(table: Table) -> bool:
    """Whether a hand is being played: the table playing and its hand begun (a first call
    made).  Before it, and once the table waits or has finished, is between hands."""
    return table.status == Table.Status.PLAYING and bool((table.current or {}).get("actions"))


def cleaned_text(text) -> str:
    """A person's words as they are kept: one line, spaces collapsed, without control and
    format characters (a right-to-left override cannot turn the lines around it)."""
    if not isinstance(text, str):
        raise Refused(_("Write your words as text."))
    kept = "".join(ch for ch in readable(text)
                   if not unicodedata.category(ch).startswith("C"))
    return " ".join(kept.split())


def say(table_id: int, user, *, session=None, phrase=None, text=None) -> Line:
    """``user`` says ``phrase`` (a preset's id) or ``text`` at the table: the line kept and
    returned for its audience, or ``Refused`` and nothing kept."""
    uid = person_id(user)
    if uid is None:
        raise Refused(_("Log in, or play as a guest, to talk at the table."))
    table = table_for_viewer(table_id, user, session)
    if table is None:
        raise Refused(_("This table does not exist."))
    seat = seat_of(table, user)
    if phrase is not None and text is not None:
        raise Refused(_("Say one of the phrases or your own words, not both at once."))
    if phrase is not None:
        if not isinstance(phrase, str) or phrase not in PRESETS:
            raise Refused(_("That is not one of the phrases."))
        text = ""
    else:
        text = cleaned_text(text if text is not None else "")
        if not text:
            raise Refused(_("Write something to say."))
        if len(text) > MAX_TEXT:
            raise Refused(_("A line has at most %(most)s characters; yours has %(count)s.")
                          % {"most": MAX_TEXT, "count": len(text)})
        if seat is not None and hand_in_play(table) and not table.chat_during_play:
            raise Refused(_("During a hand only the phrases can be said: this table plays in "
                            "silence. Your own words can wait for the end of the hand."))
    if not limits.take_chat_token(uid):
        raise Refused(_("You are talking too fast: wait a few seconds."))
    audience = ChatLine.Audience.PLAYERS if seat is not None else ChatLine.Audience.SPECTATORS
    line = ChatLine.objects.create(table=table, author=user, audience=audience,
                                   phrase=phrase or "", text=text)
    return _line(line, user, seat)


def lines_for(table: Table, seat: int | None, limit: int = LINES_SHOWN) -> list[Line]:
    """The last lines a person at ``table`` may read, oldest first: a player the players'
    lines, anyone else (a spectator, a visitor) the players' and the spectators'."""
    audience = Q(audience=ChatLine.Audience.PLAYERS)
    if seat is None:
        audience |= Q(audience=ChatLine.Audience.SPECTATORS)
    rows = list(ChatLine.objects.filter(audience, table=table)
                .select_related("author__profile").order_by("-id")[:limit])
    seats = {s.user_id: s.position for s in table.seats.all() if s.user_id}
    return [_line(row, row.author, seats.get(row.author_id)) for row in reversed(rows)]


def hears(line_audience: str, seat: int | None) -> bool:
    """Whether a socket of ``seat`` (None: not a player) is sent a line for ``line_audience``."""
    return line_audience == ChatLine.Audience.PLAYERS or seat is None


def _line(row: ChatLine, author, seat: int | None) -> Line:
    profile = getattr(author, "profile", None)
    name = (getattr(profile, "display_name", "") or "") or author.get_username()
    return Line(id=row.pk, audience=row.audience, author_id=row.author_id, author=name,
                seat=seat, phrase=row.phrase, text=row.text, at=row.at.isoformat())
