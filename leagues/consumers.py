"""The board's socket (``leagues.board``): it only listens; each change of the evening's tables
or results sends the board's fragment again (htmx swaps it by id).  Protocol: docs/protocol.md
("An evening's board")."""

from __future__ import annotations

import json

from channels.db import database_sync_to_async

from games.consumers import PersonSocket
from games.limits import Bucket
from leagues import access
from leagues.board_feed import CLOSE_NOT_ALLOWED
from leagues.board_feed import feed as board_feed


class BoardConsumer(PersonSocket):
    async def connect(self):
        kwargs = self.scope["url_route"]["kwargs"]
        self.evening_id = int(kwargs["evening_id"])
        self.board_token = kwargs.get("token")
        self.joined = False
        user = self.scope.get("user")
        allowed, self.board_member = await database_sync_to_async(
            access.board_socket_access)(self.evening_id, self.board_token, user)
        if not allowed:
            await self.close(code=CLOSE_NOT_ALLOWED)  # as the page: nothing said of why
            return
        if not await self.admit():
            return
        self.pings = Bucket(size=5, rate=1.0)
        self.joined = True
        await board_feed.join(self, self.evening_id, self.language)

    async def disconnect(self, code):
        if getattr(self, "joined", False):
            self.joined = False
            await board_feed.leave(self, self.evening_id)
            await self.release()

    async def receive(self, text_data=None, bytes_data=None):
        """A board only listens, but answers ``{"type": "ping"}`` with ``{"type": "pong"}`` (a
        few a second at most): the round trip a client measures (bench/board.py's floor)."""
        if text_data and len(text_data) < 64 and self.pings.take():
            try:
                message = json.loads(text_data)
            except ValueError:
                return
            if isinstance(message, dict) and message.get("type") == "ping":
                await self.send(text_data=json.dumps({"type": "pong", "id": message.get("id")}))

    async def board_changed(self, event):
        board_feed.changed(self.evening_id)  # one render for every board of it in this process

    async def send_error(self, message: str, version: int | None = None):
        pass  # nothing to answer: the board only shows
