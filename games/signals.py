"""What other apps may hear from the tables (games never imports them: leagues listens).

Both are sent after the transaction that finished the hand has committed, so a listener that
fails cannot undo or block play; listeners do their own work in their own transaction.
"""

import logging

from django.dispatch import Signal

logger = logging.getLogger(__name__)

# sender=Table; kwargs: table, hand (games.models.Hand)
hand_finished = Signal()
# sender=Table; kwargs: table (its status is now FINISHED: match won, deals played, or closed)
table_finished = Signal()


def announce(signal, table, **kwargs) -> None:
    """Send a games signal; a failing listener is logged, never allowed to disturb the table."""
    for receiver, response in signal.send_robust(sender=table.__class__, table=table, **kwargs):
        if isinstance(response, Exception):
            logger.error("%s listener %r failed for table %s", signal, receiver, table.pk,
                         exc_info=response)
