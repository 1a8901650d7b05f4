"""The live table over WebSockets: the same per-seat view as JSON or as htmx HTML fragments.

Group messages carry only the version (they may travel through Redis to every process); each
consumer rebuilds its own seat's view from the database.  Protocol: docs/protocol.md.
"""

from __future__ import annotations

import json
from dataclasses import asdict

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games import chat, computer_players, limits, presence
from games.access import person_id, table_for_viewer
from games.broadcasting import account_group, send_chat_line, table_group
from games.html.chat import chat_error, chat_lines
from games.html.table import table_fragment_html
from games.lobby_feed import feed as lobby_feed
from games.models import Table
from games.presentation import for_template
from games.session_watch import session_still_valid
from games.snapshots import cached_snapshot, peek_snapshot
from games.tables import (
    TableError,
    action_from_message,
    broadcasts_deferred,
    play,
    seat_of,
    send_broadcasts,
)

MAX_MESSAGE_BYTES = 2048
# Flood control per socket: a bucket of WS_BURST messages refilled at WS_RATE_PER_SECOND, and
# one bucket per person shared by all their sockets (games.limits).  Past either a client gets
# one "slow down" error and its messages are dropped; one that keeps flooding is disconnected.
MAX_REFUSED_IN_A_ROW = 100
CLOSE_FLOODING = 4429
CLOSE_TOO_MANY_SOCKETS = 4408
CLOSE_SESSION_ENDED = 4401


class PersonSocket(AsyncWebsocketConsumer):
    """What every socket of the site does for its person: the cap on sockets per person, the
    language of the page, and closing when the session that opened it is no longer valid."""

    async def dispatch(self, message):
        """channels' own dispatch, less its ``aclose_old_connections()`` before every message.

        That call is a hop to the one database thread, so every socket's "the table changed"
        (and every lobby socket's "the lobby changed") waited behind all the database work of
        the process.  Every database call here goes through ``database_sync_to_async``, which
        closes old connections itself.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def admit(self) -> bool:
        """Accept the socket, or refuse it in words when the person has too many open."""
        self.user = self.scope.get("user")
        self.person = limits.person_key(self.scope)
        if getattr(self, "language", None) is None:  # the profile is a database read
            self.language = await database_sync_to_async(self._language)()
        self.admitted = limits.admit(self.person)
        await self.accept()
        if not self.admitted:
            with translation.override(self.language):
                await self.send_error(_("Too many open tables and lobbies: close one of your "
                                        "tabs and reload this page."))
            await self.close(code=CLOSE_TOO_MANY_SOCKETS)
            return False
        uid = person_id(self.user)
        if uid is not None:
            await self.channel_layer.group_add(account_group(uid), self.channel_name)
        return True

    async def release(self) -> None:
        if getattr(self, "admitted", False):
            self.admitted = False
            limits.release(self.person)
            uid = person_id(self.user)
            if uid is not None:
                await self.channel_layer.group_discard(account_group(uid), self.channel_name)

    def _language(self) -> str:
        """The language the page was served in: profile, then cookie, then browser."""
        known = dict(settings.LANGUAGES)
        profile = getattr(self.user, "profile", None) if person_id(self.user) else None
        if profile is not None and profile.language in known:
            return profile.language
        cookie = (self.scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME, "")
        if cookie in known:
            return cookie
        headers = dict(self.scope.get("headers") or [])
        accept = headers.get(b"accept-language", b"").decode("latin-1")
        for part in accept.split(","):
            code = part.split(";")[0].strip().lower()[:2]
            if code in known:
                return code
        return settings.LANGUAGE_CODE

    async def session_check(self, event):
        """A session of this account ended (logout) or its password changed: a socket opened
        by a session that is no longer valid stops at once, before it sees another card."""
        session = self.scope.get("session")
        key = getattr(session, "session_key", None)
        if key is None:
            return  # not opened through the session middleware (unit tests)
        if event.get("ended") == key or not await database_sync_to_async(
                session_still_valid)(key, person_id(self.user)):
            self.session_ended = True
            await self.close(code=CLOSE_SESSION_ENDED)

    async def send_error(self, message: str, version: int | None = None):
        raise NotImplementedError


class TableConsumer(PersonSocket):
    async def connect(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.json_mode = b"format=json" in self.scope.get("query_string", b"")
        self.user = self.scope.get("user")
        self.sent_version = -1
        self.sent_result_key = None  # which last hand's result this socket sent (send_state)
        self.bucket = limits.Bucket(float(settings.WS_BURST), float(settings.WS_RATE_PER_SECOND))
        self.refused_in_a_row = 0
        self.error_shown = False  # a refusal is on the page (send_error), until a move is taken
        allowed = await database_sync_to_async(self._allowed)()
        if not allowed:
            await self.close(code=4404)
            return
        if not await self.admit():
            return
        self.group = table_group(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        presence.ensure_heartbeat()
        if self.seat is not None:
            await database_sync_to_async(presence.connected)(
                self.table_id, self.user, self.channel_name)
        await self.send_state(force=True)
        if self.chat_history:  # the page shows them already; a reconnect may have missed some
            await self.send_chat(self.chat_history, swap="innerHTML")
        self.chat_history = []

    def _allowed(self) -> bool:
        table = table_for_viewer(self.table_id, self.user, self.scope.get("session"))
        if table is None:
            return False
        self.seat = seat_of(table, self.user)
        self.language = self._language()
        self.chat_history = chat.lines_for(table, self.seat)
        if table.computer_turn and table.status == Table.Status.PLAYING:
            # A computer's move this table is waiting for may have died with a process.
            computer_players.resume_stalled(table.pk)
        return True

    def _play(self, action, version):
        """Play on the database thread; the broadcasts come back to be sent from the loop."""
        with translation.override(self.language), broadcasts_deferred() as pending:
            try:
                return play(self.table_id, self.user, action, version), None, pending
            except TableError as exc:
                return None, exc, pending

    async def disconnect(self, code):
        await self.release()
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            # Always: the socket's presence row is found by its channel, whatever seat this
            # socket thinks it has now (the person may have left the seat it was opened on).
            await database_sync_to_async(presence.disconnected)(self.table_id, self.channel_name)

    def _take_token(self) -> bool:
        """A token from this socket's bucket and from its person's (never the second when the
        first is empty, so one flooding socket does not drain its person's other tabs)."""
        if self.bucket.take() and limits.take_person_token(self.person):
            self.refused_in_a_row = 0
            return True
        self.refused_in_a_row += 1
        return False

    async def receive(self, text_data=None, bytes_data=None):
        if getattr(self, "session_ended", False):
            return
        if not self._take_token():
            if self.refused_in_a_row >= MAX_REFUSED_IN_A_ROW:
                await self.close(code=CLOSE_FLOODING)
            elif self.refused_in_a_row == 1:
                await self.send_error(_("Too many messages: slow down."))
            return
        if bytes_data is not None or text_data is None or len(text_data) > MAX_MESSAGE_BYTES:
            await self.send_error(_("Message refused: send one short JSON text message."))
            return
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):  # JSONDecodeError is a ValueError; deep nesting
            await self.send_error(_("Message refused: it is not valid JSON."))
            return
        if not isinstance(message, dict):
            await self.send_error(_("Message refused: expected a JSON object."))
            return
        kind = message.get("type", "action" if "action" in message else None)
        if kind == "snapshot":
            await self.send_state(force=True)
            return
        if kind == "say":
            await self.say(message.get("phrase"), message.get("text"))
            return
        if kind not in ("action", "discard"):
            await self.send_error(_("Message refused: unknown message type."))
            return
        action = action_from_message(kind, message.get("action"), message.get("cards"))
        version = message.get("version")  # htmx sends form values as text: play() parses it
        outcome, refusal, pending = await database_sync_to_async(self._play)(action, version)
        await send_broadcasts(pending)
        if refusal is not None:
            await self.send_error(refusal.message, refusal.version)
            return
        if self.error_shown and not self.json_mode:
            # A refusal stays on screen until the player's next move is taken, never longer:
            # through the trumps, the play and the end of the match it would read as news.
            await self.send_error("")
        if outcome.repeated:
            # A recognised resend gets the current state again, as its first sending would have.
            await self.send_state(force=True)
        else:
            # Computer players may have answered within the same call (no delay configured):
            # this socket goes straight to the newest version it knows of.
            await self.send_state(version=max(
                [changed for table_id, changed in pending if table_id == self.table_id],
                default=outcome.version))

    async def say(self, phrase, text):
        """A line said at the table (``games.chat.say`` decides), sent to its audience."""
        line, refusal = await database_sync_to_async(self._say)(phrase, text)
        if refusal is not None and not self.json_mode:  # beside the box it was written in
            await self.send(text_data=chat_error(refusal, oob=True))
        elif refusal is not None:
            await self.send_error(refusal)
        else:
            await send_chat_line(self.table_id, asdict(line))

    def _say(self, phrase, text):
        with translation.override(self.language):
            try:
                return chat.say(self.table_id, self.user, session=self.scope.get("session"),
                                phrase=phrase, text=text), None
            except chat.Refused as refused:
                return None, str(refused.message)

    async def chat_line(self, event):
        line = chat.Line(**event["line"])
        if chat.hears(line.audience, self.seat):
            await self.send_chat([line], swap="beforeend")

    async def send_chat(self, lines: list[chat.Line], swap: str):
        """Lines for this socket: appended to the page's panel (``swap``: "beforeend"), or the
        panel's list again ("innerHTML"); a JSON socket gets them as a ``chat`` message."""
        with translation.override(self.language):  # a phrase in this socket's language
            if self.json_mode:
                text = json.dumps({"type": "chat", "lines": [line.as_json() for line in lines]})
            else:
                text = chat_lines(lines, person_id(self.user), swap=swap)
                if any(line.author_id == person_id(self.user) for line in lines):
                    text += chat_error("", oob=True)
        await self.send(text_data=text)

    async def access_check(self, event):
        """The table's access changed (its invite link was renewed): a socket whose person may
        no longer see the table is closed, as a new one would be refused."""
        allowed = await database_sync_to_async(table_for_viewer)(
            self.table_id, self.user, self.scope.get("session"))
        if allowed is None:
            await self.close(code=4404)

    async def table_changed(self, event):
        if event.get("version", 0) <= self.sent_version:
            return  # this socket already sent that version (its own action's reply, say)
        await self.send_state(version=event.get("version"))

    async def send_state(self, force: bool = False, version: int | None = None):
        """Send this socket's view of the table (of ``version``, or of now when None).

        A version this process already holds is rendered right here on the event loop; only a
        version it has not seen yet (or "now") is read from the database.
        """
        snapshot = peek_snapshot(self.table_id, version) if version is not None else None
        if snapshot is None:
            snapshot = await database_sync_to_async(cached_snapshot)(self.table_id, version)
            if snapshot is None:
                return  # the table is gone
        if not force and snapshot.version <= self.sent_version:
            return  # coalesced: this socket already has that version or a newer one
        self.sent_version = snapshot.version
        seat = snapshot.seat_of(self.user)
        if seat != self.seat:
            # The person sat down or left (over HTTP) while this socket was open: its presence
            # belongs to the seat they hold now, or to none.
            self.seat = seat
            await database_sync_to_async(presence.seat_changed)(
                self.table_id, self.user, self.channel_name, seat)
        with translation.override(self.language):  # computer players' names are translated
            view = snapshot.view(self.seat)
            if self.json_mode:
                text = json.dumps({"type": "state", "version": view["version"], "state": view})
            else:
                # The last hand's result is sent when it is not what this socket sent last
                # (a new hand finished, the seat or the table's status changed, a snapshot
                # asked for): it is half of a fragment and changes once a hand.
                result_key = (view["last_hand"] or {}).get("number"), view["seat"], view["status"]
                result_unchanged = not force and result_key == self.sent_result_key
                self.sent_result_key = result_key
                text = table_fragment_html(
                    view, for_template(view, with_result=not result_unchanged), user=self.user,
                    csrf_token=self._csrf_token(), oob=True, result_unchanged=result_unchanged)
        await self.send(text_data=text)

    def _csrf_token(self) -> str:
        """The browser's CSRF secret, so forms in pushed fragments still post (Django accepts
        the unmasked secret as a form token)."""
        return (self.scope.get("cookies") or {}).get(settings.CSRF_COOKIE_NAME, "")

    async def send_error(self, message: str, version: int | None = None):
        """A refusal in words (``message`` empty: the one shown is taken away)."""
        self.error_shown = bool(message)
        with translation.override(getattr(self, "language", settings.LANGUAGE_CODE)):
            message = str(message)  # lazy refusals become text in the socket's language
        if self.json_mode:
            await self.send(text_data=json.dumps(
                {"type": "error", "version": version, "message": message}))
        else:
            await self.send(text_data=render_to_string(
                "games/partials/table_error.html", {"message": message, "oob": True}))


class LobbyConsumer(PersonSocket):
    async def connect(self):
        if not await self.admit():
            return
        presence.ensure_heartbeat()  # a restarted process sweeps as soon as anyone is back
        await lobby_feed.join(self, self.language)

    async def disconnect(self, code):
        await lobby_feed.leave(self)
        await self.release()

    async def receive(self, text_data=None, bytes_data=None):
        pass  # the lobby only listens

    async def lobby_changed(self, event):
        lobby_feed.changed()  # one render for every lobby socket of this process

    async def send_error(self, message: str, version: int | None = None):
        await self.send(text_data=render_to_string(
            "games/partials/table_error.html", {"message": str(message), "oob": True}))
