"""When an evening's board (``leagues.board``) must show something new: called inside the change's
transaction by whatever changed the evening's tables or results (``leagues.result_events``'
table announcements, a table made or deleted: ``leagues.board.on_table_saved``).  Below the
models: it imports nothing of leagues."""

from __future__ import annotations

from django.db import transaction

from games.broadcasting import broadcast_board


def evening_changed(evening_id: int | None) -> None:
    """Tell the evening's boards once the change in progress commits (nothing if it is rolled
    back).  Several calls in one change cost one render each process: the feed folds them."""
    if evening_id is not None:
        transaction.on_commit(lambda: broadcast_board(evening_id))
