"""How an evening table's results add up: what every kind of score's sheet shares.

Each kind of score (``leagues.score_kinds``) has its sheet, a subclass of :class:`Sheet`
(a match's, of :class:`MatchSheet`), in its own module; a league's is ``League.sheet``.
``EveningTable``'s entry methods lock, check, write and audit; what depends on the kind of
score is asked of its sheet, so no method of the table branches on a game.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from leagues import scoring

if TYPE_CHECKING:
    from leagues.models import EveningTable, Member


def as_decimal(value) -> Decimal:
    """Engine units (int, or float rounded to 6 places) as an exact Decimal."""
    return Decimal(str(value))


class Sheet:
    """The part of a table's bookkeeping that depends on the kind of score."""

    def seat_members(self, table: EveningTable) -> list[Member]:
        """The members by seat, 0 first."""
        seats = sorted(table.seats.select_related("member"), key=lambda s: s.seat)
        return [s.member for s in seats]

    def sides(self, table: EveningTable) -> list[str]:
        """Column headings of the score sheet."""
        return [m.name for m in self.seat_members(table)]

    def result(self, table: EveningTable) -> dict:
        """The table's result as plain JSON (the audit trail keeps it before and after)."""
        raise NotImplementedError

    def check_seats(self, table: EveningTable, facts_list: list[dict]) -> None:
        """Raises EntryError when a deal does not fit the table's seats: at a five-seat table
        (one more player than the game's, the dealer sitting out each deal) every deal says
        who sits it out, and only there does anyone."""
        five = table.seats.count() == table.league.game_description.seats + 1
        for facts in facts_list:
            if five and facts.get("sits_out") is None:
                raise scoring.EntryError(_("At a table of five, say who sits out each deal: "
                                           "the dealer."))
            if not five and "sits_out" in facts:
                raise scoring.EntryError(_("Only at a table of five does someone sit out a "
                                           "deal."))

    def check_hands(self, table: EveningTable, hands: list[dict]) -> None:
        """Raises EntryError when the hands, in order, cannot all be kept (a match over)."""

    def accepts_another_hand(self, table: EveningTable, hands: list[dict]) -> bool:
        return True

    def set_totals(self, table: EveningTable, values: list[Decimal]) -> None:
        raise NotImplementedError

    def clear_totals(self, table: EveningTable) -> None:
        table.seats.update(total=0)

    def recompute(self, table: EveningTable, deals: list) -> None:
        """Derives the table's totals from its deals (the only writer of those totals)."""
        raise NotImplementedError

    def are_opponents(self, members: list[Member], one: Member, other: Member) -> bool:
        return True

    # The players' own totals (balances, or match scores), kept on their seats.

    @staticmethod
    def seat_totals(table: EveningTable) -> list[str]:
        return [str(s.total) for s in sorted(table.seats.all(), key=lambda s: s.seat)]

    @staticmethod
    def write_seat_totals(table: EveningTable, totals: list, seats=None) -> None:
        for seat in table.seats.all() if seats is None else seats:
            seat.total = totals[seat.seat]
            seat.save(update_fields=["total"])


class MatchSheet(Sheet):
    """Hands are played until the engine's ``Match`` says the match is over."""

    def _match(self, table, hands):
        return scoring.replay_match(table.league.game, table.league.engine_rules(), hands)

    def check_hands(self, table, hands):
        self._match(table, hands)

    def accepts_another_hand(self, table, hands):
        return not self._match(table, hands).complete
