"""A refused change to an event, in words (``events.running``, ``events.arena``)."""

from __future__ import annotations


class EventError(Exception):
    """A refused change to an event; ``message`` says why, in words."""

    def __init__(self, message):
        self.message = message
        super().__init__(str(message))
