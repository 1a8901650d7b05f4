"""An evening's board for the screen at the venue: the current round, its tables (who sits
where) and the evening's running standings, in large type, pushed over a socket at each change.

What it shows: the tables, their players and their totals, who sits out the round shown, the
evening's standings and, once complete, its prizes, both from ``leagues.prizes`` (the one place
an evening is counted); never who is coming, an address or anything else of the club's
people.  Who may open it is decided in ``leagues.access`` (``board_visible``).

A change of the evening's tables or results (a deal entered, corrected, deleted or restored, a
table drawn or added by hand, a round drawn, a table deleted) calls
``board_events.evening_changed``
inside its transaction; once it commits, the evening's group hears "the board changed"
(``games.broadcasting.broadcast_board``: the id alone) and each process renders the board once
for all its sockets of that evening (``leagues.board_feed``).
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import translation

from leagues import history, prizes
from leagues.board_events import evening_changed
from leagues.models import Evening, EveningRound


def on_table_saved(sender, instance, created=True, **kwargs) -> None:
    """A table of an evening made (drawn, added by hand) or deleted (drawn again).  A change of
    an existing table's result or players is announced by ``result_events.table_changed``, once
    per change: its saves here would render the boards twice."""
    if created:
        evening_changed(instance.evening_id)


def board_context(evening: Evening) -> dict:
    """What the board shows: the round shown (the last drawn, for an evening in rounds), its
    tables, the evening's running standings and, once every table has a result, its prizes.

    The standings are the evening's lines as the evening's page and the results' e-mail count
    them (``prizes.evening_lines``: a substitute's part of a seat theirs, a sit-out's credit,
    a guest, a match's league points), never a sum of the board's own."""
    tables = history.evening_tables(evening)
    current = evening.rounds_drawn() if evening.in_rounds else None
    shown = [t for t in tables if t["table"].round == current] if current else tables
    lines = prizes.evening_lines(evening)
    return {"evening": evening, "league": evening.season.league, "round": current,
            "tables": shown, "sitting_out": _sitting_out(evening, current),
            "standings": lines, "any_result": bool(lines),
            "by_league_points": evening.season.league.score_kind.has_a_winner,
            "prizes": prizes.prizes(evening, lines)}


def _sitting_out(evening: Evening, current: int | None) -> list:
    """Who sits out the round shown, as it was drawn (members, or pairs): on the board, so that
    nobody looks for their name among the tables in vain."""
    if not current:
        return []
    drawn = EveningRound.objects.filter(evening=evening, number=current).prefetch_related(
        "sitting_out", "pairs_sitting_out").first()
    if drawn is None:
        return []
    return sorted([*drawn.sitting_out.all(), *drawn.pairs_sitting_out.all()], key=str)


def render_board(evening_id: int, languages: set[str]) -> tuple[dict[str, str], Evening] | None:
    """The board's fragment in each language (the evening read once, its context made in
    each), with the evening as read (whose club and token say which sockets may still have
    it), or None once the evening is gone."""
    evening = (Evening.objects.select_related("season__league__club")
               .filter(pk=evening_id).first())
    if evening is None:
        return None
    rendered = {}
    for language in languages:
        # The context in each language too: its prizes' labels and its scores' words ("2
        # league points") are said as it is made, not as it is rendered.
        with translation.override(language):
            rendered[language] = render_to_string("leagues/partials/board.html",
                                                  {**board_context(evening), "oob": True})
    return rendered, evening
