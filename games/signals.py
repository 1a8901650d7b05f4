"""What other apps may hear from the tables (games never imports them: leagues listens).

Both are sent after the transaction that finished the hand has committed, so a listener that
fails cannot undo or block play; listeners do their own work in their own transaction.
"""

from django.dispatch import Signal

# sender=Table; kwargs: table, hand (games.models.Hand)
hand_finished = Signal()
# sender=Table; kwargs: table (its status is now FINISHED: match won, deals played, or closed)
table_finished = Signal()
