"""What leagues announce of their results, once per change, inside the change's transaction.

Whoever keeps something computed from the league results (the ratings) listens to these two
signals, not to the saves of the models: a save says neither what changed nor from which day
(the old date of a moved evening is gone by then), and a queryset's ``update`` sends none (a
merge moves seats that way).  The code that changes results announces them:

- a table's result entered, corrected, confirmed or cleared (``EveningTable``'s entry methods,
  each ending in ``_record``), its players changed (``edits.edit_table``):
  :func:`table_changed`; the table deleted, or its evening (``edits.delete_table``,
  ``edits.delete_evening``): :func:`tables_changed`.  The admin deletes no table;
- an evening moved to another day (``edits.edit_evening``, also from the admin):
  :func:`evening_moved`;
- a member's record given to a login (an invite link claimed: ``Invite.accept``) or two records
  merged (``edits.merge_members``): :func:`records_claimed`, :func:`tables_changed`;
- a club made public or members-only (``edits.change_club``, also from the admin):
  :func:`visibility_switched`;
- a finished online table made an evening table's (``online.take_finished_table``): its hands,
  rated as online hands while it was played, are now the league's: :func:`online_table_taken`.

The kept standings listen too (``leagues.results_version``: an announcement raises the results
version of the seasons of the club's leagues of that game).  Each of the first three also tells the boards of the evenings concerned (``leagues.board``,
through ``leagues.board_events``), and a club's visibility switched tells the boards of its evenings from yesterday on (a public
board of a club now members-only closes).

A signal is sent before the transaction commits: a listener whose work must wait for the commit
records it in that same transaction (an outbox row, ``games.followups``), so the work is lost
neither by a crash after the commit nor done for a change that was rolled back.
"""

from __future__ import annotations

from datetime import date, timedelta

from django.apps import apps
from django.dispatch import Signal
from django.utils import timezone

from leagues import board_events

# The results of ``club``'s leagues of ``game`` (a string, the registry's id) changed
# from the day ``since`` on; nothing before that day changed.
results_changed = Signal()
# The finished hands of the online table ``game_table`` (a games.Table), rated site-wide as
# online hands while it was played, became an evening table's deals: they are the league's
# results from now on, and no longer online hands (``ratings.events.online_events``), from the
# day ``since`` (the first of them).
online_hands_taken = Signal()
# ``club`` became public or members-only: its results of ``game`` from the day ``since`` on (its
# first) now are, or no longer are, shown to everyone.  Nothing in the results changed.
visibility_changed = Signal()


def _announce_results(club, game: str, since: date) -> None:
    results_changed.send(sender=type(club), club=club, game=game, since=since)


def table_changed(table) -> None:
    """The result of ``table``, or who holds it, changed."""
    league = table.evening.season.league
    _announce_results(league.club, league.game, table.evening.date)
    board_events.evening_changed(table.evening_id)


def tables_changed(tables) -> None:
    """The results of the tables of the queryset ``tables`` changed hands (members merged), or
    are about to be deleted in this transaction (the tables, or their evening).  One
    announcement per club and game, from the earliest day; tables without a result have
    nothing to announce."""
    for evening_id in set(tables.values_list("evening_id", flat=True)):
        board_events.evening_changed(evening_id)
    earliest: dict[tuple, tuple] = {}
    for table in (tables.exclude(entry="").select_related("evening__season__league__club")
                  .order_by("evening__date")):
        league = table.evening.season.league
        earliest.setdefault((league.club_id, league.game), (league.club, table.evening.date))
    for (_club_id, game), (club, since) in earliest.items():
        _announce_results(club, game, since)


def online_table_taken(game_table, since: date) -> None:
    """The finished online table ``game_table`` became an evening table's (an event played as
    an evening: ``leagues.online.take_finished_table``); its hands from the day ``since`` on."""
    online_hands_taken.send(sender=type(game_table), game_table=game_table, since=since)


def evening_moved(evening, old_date: date) -> None:
    """``evening`` was moved from ``old_date`` to its date: its results now stand between other
    days' results (nothing to announce when it has none)."""
    board_events.evening_changed(evening.pk)
    if old_date == evening.date or not evening.tables.exclude(entry="").exists():
        return
    league = evening.season.league
    _announce_results(league.club, league.game, min(old_date, evening.date))


def records_claimed(club) -> None:
    """A member's record of ``club`` is now held by another person (a login claimed it, or
    left it in a merge): every result of theirs is someone else's, from the first day."""
    for game, since in club.first_result_days().items():
        _announce_results(club, game, since)


def visibility_switched(club) -> None:
    """``club`` was made public or members-only (``club.is_public`` says which)."""
    evenings = apps.get_model("leagues", "Evening").objects  # the models import this module
    recent = evenings.filter(season__league__club=club,
                             date__gte=timezone.localdate() - timedelta(days=1))
    for evening_id in recent.values_list("pk", flat=True):
        board_events.evening_changed(evening_id)
    for game, since in club.first_result_days().items():
        visibility_changed.send(sender=type(club), club=club, game=game, since=since)
