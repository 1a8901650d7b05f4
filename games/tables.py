"""Table actions: every change to a live table goes through here (zulip-style ``do_*``).

One action = one transaction: lock the table row, check it with the engine, apply, bump the
version; broadcast after commit.  An illegal, stale or repeated action raises
:class:`TableError` and changes nothing.  The work is split by concern; this module is the
one door the views, the sockets, the leagues and the tests use:

- ``games.versions``: the row lock, the version compare-and-swap, ``TableError``;
- ``games.seating``: opening, sitting, computer players before the game, closing, invites,
  a deleted account's seats and tables;
- ``games.play``: an action applied (one path for a held version and the locked route);
- ``games.computer_players``: when a computer player acts, and how;
- ``games.presence``: who is at the table, the grace period;
- ``games.broadcasting``: telling the sockets;
- ``games.snapshots``: the versions a process holds, and each seat's view of them.
"""

from games.broadcasting import (  # noqa: F401
    broadcast,
    broadcast_lobby,
    broadcasts_deferred,
    send_broadcasts,
)
from games.computer_players import run_computer_players, schedule_computer_players  # noqa: F401
from games.play import (  # noqa: F401
    NOT_PLAYING,
    Outcome,
    action_from_message,
    parse_version,
    play,
    play_for_computer,
)
from games.seating import (  # noqa: F401
    account_deleted,
    add_computer_player,
    changed_in_admin,
    close_table,
    create_table,
    fill_seats,
    leave_seat,
    on_account_deleted,
    open_preset_table,
    play_now,
    rematch,
    renew_invite,
    take_seat,
)
from games.snapshots import current_state  # noqa: F401
from games.versions import TableError, rules_of, seat_of  # noqa: F401
