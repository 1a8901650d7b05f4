"""Playing a table to a point in a test: every seat plays random legal actions, a person's
through their seat and a computer player's through its own (with the computer players told to
wait: ``computer_players_wait``)."""

from games import tables
from games.models import Table


def play_table(table, rng, hands=None):
    """Every seat of ``table`` plays random legal actions (a person's through their seat, a
    computer player's through its own) until the table finishes, or ``hands`` hands more."""
    table.refresh_from_db()
    stop = None if hands is None else table.hands.count() + hands
    seats = {seat.position: seat for seat in table.seats.all()}
    for _ in range(5000):
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED or (stop is not None
                                                     and table.hands.count() >= stop):
            return
        state = tables.current_state(table)
        seat = seats[state.to_act]
        action = state.random_action(rng)
        if seat.user_id is not None and not seat.computer_level:
            tables.play(table.pk, seat.user, action, table.version)
        else:
            tables.play_for_computer(table.pk, seat.position, action, table.version)
    raise AssertionError("the table never finished")
