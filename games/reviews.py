"""Hand reviews: asked for by a player of a finished hand, computed once in the review workers
(:mod:`games.computer_runner`), kept with the hand (``HandReview``).

The review itself is :func:`games.rules.computer.review.review`: the player's own decisions only,
each from the view they had.  A review opens only once the hand is over -- the whole deal is
public then, as the replay shows -- and only to the person in the seat it reviews.

The queue is the ``HandReview`` rows themselves, shared by every process of the site:

- asking queues a row (``queued``), within a cap per person (``REVIEW_LIMIT_PER_PERSON``)
  and for the whole site (``REVIEW_QUEUE_LIMIT``); beyond either, :class:`Refused` says why
  in the asker's words and nothing is stored;
- a process with a free worker takes the next row in turn (:func:`waiting_in_order`: each
  person's first waiting review before anyone's second) by one conditional UPDATE, so a row
  is handed to a worker exactly once, whichever processes, pages or polls look at it;
- a review is lost (its process went away) only ``LOST_AFTER`` from a worker's start: the
  time it waited in the queue never counts.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from datetime import timedelta
from typing import NamedTuple

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import computer_runner
from games.models import Hand, HandReview
from games.rules.computer.review import review_or_error

logger = logging.getLogger(__name__)

# A review still "being prepared" this long after a worker started it was lost (its process
# restarted): it may be asked for again.  A review takes seconds (15 at most).
LOST_AFTER = timedelta(minutes=2)


class Refused(Exception):
    """A review not queued; the message says why, in the asker's language."""


class Claim(NamedTuple):
    """A review a worker of this process took: its row, and when (the row is written only
    while it still holds that start, so a review lost and asked for again is kept once)."""

    review_id: int
    started_at: object


def is_lost(entry: HandReview) -> bool:
    """Still "being prepared" long after a worker started it: its process went away with it."""
    return entry.status == HandReview.Status.WORKING and entry.started_at is not None and \
        timezone.now() - entry.started_at > LOST_AFTER


def _on_the_way() -> Q:
    """Reviews waiting for a worker or being prepared (a lost one is neither)."""
    return Q(status=HandReview.Status.QUEUED) | Q(
        status=HandReview.Status.WORKING, started_at__gte=timezone.now() - LOST_AFTER)


def request_review(hand: Hand, seat: int, person) -> HandReview:
    """The seat's review of ``hand``: queued for ``person`` if it was never asked for (or was
    lost or failed), else as it stands.  Raises :class:`Refused` when the person already has
    their share on the way, or the queue is full.  Never computes anything here."""
    with transaction.atomic():
        # One person's requests one after another (their row locked): the cap stays exact.
        list(get_user_model().objects.select_for_update().filter(pk=person.pk).values("pk"))
        entry = HandReview.objects.filter(hand=hand, seat=seat).first()
        if entry is not None and not (is_lost(entry) or entry.status == HandReview.Status.FAILED):
            return entry  # waiting, being prepared or ready: asking again changes nothing
        _check_room(person)
        now = timezone.now()
        if entry is None:
            entry, _created = HandReview.objects.get_or_create(
                hand=hand, seat=seat, defaults={"requested_by": person, "requested_at": now})
        else:  # lost or failed: queued again, by one request only if two come at once
            HandReview.objects.filter(pk=entry.pk).filter(
                Q(status=HandReview.Status.FAILED) | Q(
                    status=HandReview.Status.WORKING, started_at__lt=now - LOST_AFTER),
            ).update(status=HandReview.Status.QUEUED, requested_by=person, requested_at=now,
                     started_at=None, finished_at=None, result=None)
    dispatch()
    entry.refresh_from_db()
    return entry


def _check_room(person) -> None:
    limit = settings.REVIEW_LIMIT_PER_PERSON
    if HandReview.objects.filter(_on_the_way(), requested_by=person).count() >= limit:
        raise Refused(ngettext(
            "You already have %(count)d review on the way. Ask for this one once it is ready.",
            "You already have %(count)d reviews on the way. Ask for this one once one of them "
            "is ready.", limit) % {"count": limit})
    if HandReview.objects.filter(status=HandReview.Status.QUEUED).count() >= \
            settings.REVIEW_QUEUE_LIMIT:
        raise Refused(_("The computer players are busy with other players' reviews just now. "
                        "Please try again in a minute."))


def waiting_in_order() -> list[HandReview]:
    """The waiting reviews in the order workers take them: round robin by person.  In rounds,
    each person's first waiting review before anyone's second (a review of theirs being
    prepared counts as one this round); within a round, whoever a worker served longest ago
    (or never) first, then the oldest request.  One person asking for many never makes another
    wait behind all of them."""
    queued = list(HandReview.objects.filter(status=HandReview.Status.QUEUED)
                  .order_by("requested_at", "pk")
                  .only("pk", "hand_id", "seat", "requested_by_id", "requested_at"))
    people = {entry.requested_by_id for entry in queued}
    being_prepared = Counter(HandReview.objects.filter(
        status=HandReview.Status.WORKING, started_at__gte=timezone.now() - LOST_AFTER,
    ).values_list("requested_by_id", flat=True))
    never = timezone.now() - timedelta(days=36500)
    last_served = dict(HandReview.objects.filter(
        requested_by_id__in=people - {None}, started_at__isnull=False,
    ).values("requested_by_id").annotate(last=Max("started_at"))
        .values_list("requested_by_id", "last"))
    taken = Counter()
    rounds = []
    for entry in queued:
        person = entry.requested_by_id
        rounds.append((being_prepared[person] + taken[person], last_served.get(person, never),
                       entry.requested_at, entry.pk, entry))
        taken[person] += 1
    return [entry for *_key, entry in sorted(rounds, key=lambda r: r[:4])]


def place_in_queue(entry: HandReview) -> int:
    """How many waiting reviews a worker takes before ``entry`` (0: it is next)."""
    for place, waiting in enumerate(waiting_in_order()):
        if waiting.pk == entry.pk:
            return place
    return 0


def known_double_dummy(hand_id: int) -> dict | None:
    """The contract's double-dummy result of another seat's review of the hand, where one
    settled it: the same for every seat, so it is not searched for again."""
    for result in HandReview.objects.filter(hand_id=hand_id, status=HandReview.Status.READY) \
            .values_list("result", flat=True):
        found = (result or {}).get("double_dummy")
        if found and found.get("settled"):
            return found
    return None


# The reviews this process's workers took and have not finished: never more than its workers,
# so nothing waits inside a process (where a restart would lose it); the rest wait as rows.
_taken_here = 0
_taken_lock = threading.Lock()


def _workers_here() -> int:
    return max(settings.REVIEW_WORKERS, 1)  # 0: one thread of this process (tests)


def dispatch() -> None:
    """While this process has a free worker, take the next waiting review and start it.

    Any process may call this at any moment (a review asked for or finished, a page polling
    a waiting review): the row is claimed by a conditional UPDATE, which one caller wins."""
    global _taken_here
    while True:
        with _taken_lock:
            if _taken_here >= _workers_here():
                return
            _taken_here += 1  # the worker reserved before the claim: two threads never share it
        claim = None
        try:
            claim = _claim_next()
        finally:
            if claim is None:
                _release()
        if claim is None:
            return
        _start(claim)


def _release() -> None:
    global _taken_here
    with _taken_lock:
        _taken_here = max(_taken_here - 1, 0)


def _claim_next() -> Claim | None:
    for _attempt in range(5):  # another process took the one we chose: choose again
        order = waiting_in_order()
        if not order:
            return None
        now = timezone.now()
        if HandReview.objects.filter(pk=order[0].pk, status=HandReview.Status.QUEUED).update(
                status=HandReview.Status.WORKING, started_at=now):
            return Claim(order[0].pk, now)
    return None


def _start(claim: Claim) -> None:
    try:
        entry = HandReview.objects.select_related("hand").get(pk=claim.review_id)
        record, seat = entry.hand.record, entry.seat
        double_dummy = known_double_dummy(entry.hand_id)
    except Exception:
        logger.exception("hand review %s could not be read", claim.review_id)
        _finish(claim, None, HandReview.Status.FAILED)
        return
    if settings.REVIEW_WORKERS <= 0:  # tests: a thread of this process
        threading.Thread(target=_compute_here, args=(claim, record, seat, double_dummy),
                         daemon=True).start()
        return
    try:
        future = computer_runner.submit(review_or_error, record, seat, double_dummy)
    except Exception:  # no worker could start: the player may ask again
        logger.exception("hand review %s could not be started", claim.review_id)
        _finish(claim, None, HandReview.Status.FAILED)
        return
    future.add_done_callback(lambda done: _store(claim, done))


def _compute_here(claim: Claim, record: dict, seat: int, double_dummy: dict | None) -> None:
    try:
        result = review_or_error(record, seat, double_dummy)
    except BaseException as exc:  # never leave the worker taken
        result = {"error": f"{type(exc).__name__}: {exc}"}
    try:
        _keep(claim, result)
    finally:
        _close_connection()


def _store(claim: Claim, future) -> None:
    """The pool's callback, on the pool's own thread."""
    try:
        try:
            result = future.result()
        except BaseException:  # the worker went away (the review's own failures are data)
            logger.exception("hand review %s failed in the worker pool", claim.review_id)
            _finish(claim, None, HandReview.Status.FAILED)
            return
        _keep(claim, result)
    finally:
        _close_connection()


def _keep(claim: Claim, result: dict) -> None:
    """A review computed, or its failure as ``{"error": ...}`` (``review_or_error``)."""
    if "error" in result:
        logger.error("hand review %s failed: %s", claim.review_id, result["error"])
        _finish(claim, None, HandReview.Status.FAILED)
        return
    _finish(claim, result, HandReview.Status.READY)


def _finish(claim: Claim, result: dict | None, status: str) -> None:
    """Keep the outcome (if the row is still this worker's), free the worker, and start the
    next waiting review on a thread of its own (this may be the pool's own thread)."""
    try:
        HandReview.objects.filter(pk=claim.review_id, status=HandReview.Status.WORKING,
                                  started_at=claim.started_at).update(
            status=status, result=result, finished_at=timezone.now())
    except Exception:
        logger.exception("hand review %s could not be stored", claim.review_id)
    finally:
        _release()
    threading.Thread(target=_dispatch_on_own_thread, daemon=True).start()


def _dispatch_on_own_thread() -> None:
    try:
        dispatch()
    except Exception:
        logger.exception("the next hand review could not be started")
    finally:
        _close_connection()


def _close_connection() -> None:
    """A thread of the pool's or our own never leaves its connection open (a request's
    thread, where a callback may run at once, keeps it inside a transaction)."""
    if not connection.in_atomic_block:
        connection.close()
