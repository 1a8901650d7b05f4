"""How an evening table's results add up: one sheet per kind of score, chosen once from the
registry of games (``games.registry``: the game's ``score_kind``).

- :class:`PartnershipMatchSheet`: two pairs play hands to a target (Bid Whist to 7).  The table
  keeps the two pairs' scores, their Bostons and the winning pair.
- :class:`RunningBalanceSheet`: every deal exchanges units or points between the players (Solo,
  Belgian Whist).  The table keeps each player's balance (``TableSeat.total``), which must add
  up to zero.
- :class:`IndividualMatchSheet`: each player for themselves, hands to a target (Cutthroat Bid
  Whist to 30).  The table keeps each player's score (``TableSeat.total``) and the winning
  seat (``EveningTable.winner``).

``EveningTable``'s entry methods lock, check, write and audit; what depends on the kind of
score is asked of its sheet, so no method of the table branches on a game.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from games import registry
from leagues import scoring
from leagues.scoring import EntryError

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


class RunningBalanceSheet(Sheet):
    def result(self, table):
        return {"totals": self.seat_totals(table)}

    def set_totals(self, table, values):
        if len(values) != table.seats.count():
            raise EntryError(_("Enter one total for each player."))
        if sum(values) != 0:
            raise EntryError(_("The totals must add up to zero; they add up to %(sum)s.")
                             % {"sum": scoring.format_units(sum(values))})
        self.write_seat_totals(table, values)

    def recompute(self, table, deals):
        seats = list(table.seats.all())
        totals = [Decimal(0)] * len(seats)
        for deal in deals:
            for seat, units in enumerate(deal.points[:len(totals)]):
                totals[seat] += as_decimal(units)
        self.write_seat_totals(table, totals, seats)


class MatchSheet(Sheet):
    """Hands are played until the engine's ``Match`` says the match is over."""

    def _match(self, table, hands):
        return scoring.replay_match(table.league.game, table.league.engine_rules(), hands)

    def check_hands(self, table, hands):
        self._match(table, hands)

    def accepts_another_hand(self, table, hands):
        return not self._match(table, hands).complete


class PartnershipMatchSheet(MatchSheet):
    """Seats 0 and 2 are the first pair, seats 1 and 3 the second (the engines' teams)."""

    def seat_members(self, table):
        return [table.pair_0.first, table.pair_1.first, table.pair_0.second, table.pair_1.second]

    def sides(self, table):
        return [str(table.pair_0), str(table.pair_1)]

    def result(self, table):
        return {"scores": [str(table.score_0), str(table.score_1)], "winner": table.winner,
                "bostons": [table.bostons_0, table.bostons_1]}

    def set_totals(self, table, values):
        if len(values) != 2:
            raise EntryError(_("Enter the two pairs' final scores."))
        target = table.league.engine_rules().game_target
        if values[0] == values[1]:
            raise EntryError(_("A match between pairs cannot end level; enter the final scores."))
        if max(values) < target and min(values) > -target:
            raise EntryError(_("Neither team has reached %(target)s or fallen to -%(target)s: "
                               "the match is not over.") % {"target": target})
        table.score_0, table.score_1 = values
        # The -target rule is settled first (the game's page in docs/rules/, "Match"): a team at
        # -target loses.
        if min(values) <= -target:
            table.winner = 1 if values[0] <= -target else 0
        else:
            table.winner = 0 if values[0] > values[1] else 1
        table.bostons_0 = table.bostons_1 = 0

    def clear_totals(self, table):
        table.score_0 = table.score_1 = 0
        table.winner = None
        table.bostons_0 = table.bostons_1 = 0

    def recompute(self, table, deals):
        match = self._match(table, [d.facts for d in deals])
        table.score_0, table.score_1 = (as_decimal(s) for s in match.scores)
        table.winner = match.winner
        bostons = [0, 0]
        for result in match.results:
            if result["boston"]:
                bostons[result["declarer"] & 1] += 1
        table.bostons_0, table.bostons_1 = bostons

    def are_opponents(self, members, one, other):
        return members.index(one) % 2 != members.index(other) % 2


class IndividualMatchSheet(MatchSheet):
    def result(self, table):
        return {"scores": self.seat_totals(table), "winner": table.winner}

    def set_totals(self, table, values):
        if len(values) != table.seats.count():
            raise EntryError(_("Enter one final score for each player."))
        target = table.league.engine_rules().game_target
        top = max(values)
        if top < target:
            raise EntryError(_("Nobody has reached %(target)s: the match is not over.")
                             % {"target": target})
        if values.count(top) > 1:
            raise EntryError(_("Two players cannot share the highest score at the end of a "
                               "match; enter the final scores."))
        self.write_seat_totals(table, values)
        table.winner = values.index(top)

    def clear_totals(self, table):
        super().clear_totals(table)
        table.winner = None

    def recompute(self, table, deals):
        match = self._match(table, [d.facts for d in deals])
        self.write_seat_totals(table, [as_decimal(score) for score in match.scores])
        table.winner = match.winner


SHEETS: dict[str, Sheet] = {
    registry.PARTNERSHIP_MATCH: PartnershipMatchSheet(),
    registry.RUNNING_BALANCE: RunningBalanceSheet(),
    registry.INDIVIDUAL_MATCH: IndividualMatchSheet(),
}


def sheet_for(game_id: str) -> Sheet:
    """The sheet of a league's game, from its kind of score."""
    return SHEETS[registry.game(game_id).score_kind]
