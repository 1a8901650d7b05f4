"""Events online: duplicate deals, Swiss and arena tournaments (docs/events.md).

The foundation is pure and needs no Django: ``pairing`` (who sits with whom), ``scoring``
(duplicate scores of a deal played at several tables) and ``deals`` (an event's deal set,
replayed alike at every table through the engine contract)."""
