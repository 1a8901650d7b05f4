"""What other apps may hear from the tables (games never imports them: leagues listens).

A signal is not sent from the transaction that finished the hand: that transaction records it
as a follow-up (``games.followups``), so it is sent after the commit by the follow-up worker,
never on the thread that played the card, and still sent when the process was killed right
after the commit.  Listeners run in the follow-up's transaction: if one fails, all the work of
that follow-up is undone and tried again later, so listeners must be idempotent (the league
records a hand once; the ratings rate a result once).
"""

import logging

from django.dispatch import Signal

from games import followups

logger = logging.getLogger(__name__)

# sender=Table; kwargs: table, hand (games.models.Hand)
hand_finished = Signal()
# sender=Table; kwargs: table (its status is now FINISHED: match won, deals played, or closed)
table_finished = Signal()

SIGNALS = {"hand_finished": hand_finished, "table_finished": table_finished}


def announce_after_commit(name: str, table, hand=None) -> None:
    """Record, in the current transaction, that ``name`` is to be sent for ``table``."""
    payload = {"table": table.pk}
    if hand is not None:
        payload["hand"] = hand.pk
    followups.add(name, **payload)


def _send(row) -> None:
    from games.models import Hand, Table

    table = Table.objects.filter(pk=row.payload["table"]).first()
    if table is None:
        return  # the table was deleted since: nothing left to tell
    kwargs = {}
    if "hand" in row.payload:
        kwargs["hand"] = Hand.objects.filter(pk=row.payload["hand"]).first()
        if kwargs["hand"] is None:
            return
    failures = [(receiver, response) for receiver, response in
                SIGNALS[row.kind].send_robust(sender=Table, table=table, **kwargs)
                if isinstance(response, Exception)]
    for receiver, response in failures:
        logger.error("%s listener %r failed for table %s", row.kind, receiver, table.pk,
                     exc_info=response)
    if failures:
        raise failures[0][1]


for _name in SIGNALS:
    followups.handler(_name)(_send)
