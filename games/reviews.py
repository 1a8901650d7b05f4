"""Hand reviews: asked for by a player of a finished hand, computed once in the computer
players' worker pool (:mod:`games.bot_runner`), kept with the hand (``HandReview``).

The review itself is :func:`games.rules.bots.review.review`: the player's own decisions only,
each from the view they had.  A review opens only once the hand is over -- the whole deal is
public then, as the replay shows -- and only to the person in the seat it reviews.
"""

from __future__ import annotations

import logging
import threading
from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from games import bot_runner
from games.models import Hand, HandReview
from games.rules.bots.review import review_or_error

logger = logging.getLogger(__name__)

# A review still "being prepared" after this long was lost (its process restarted): it may be
# asked for again.
LOST_AFTER = timedelta(minutes=2)


def is_lost(entry: HandReview) -> bool:
    """Still "being prepared" long after it started: its process went away with it."""
    return entry.status == HandReview.Status.WORKING and \
        timezone.now() - entry.started_at > LOST_AFTER


def request_review(hand: Hand, seat: int) -> HandReview:
    """The seat's review of ``hand``: started if it was never asked for (or was lost or
    failed), else as it stands.  Never computes anything in the calling process."""
    entry, created = HandReview.objects.get_or_create(hand=hand, seat=seat)
    if created or is_lost(entry) or entry.status == HandReview.Status.FAILED:
        HandReview.objects.filter(pk=entry.pk).update(
            status=HandReview.Status.WORKING, started_at=timezone.now(), result=None)
        entry.refresh_from_db()
        _start(entry.pk, hand.record, seat, known_double_dummy(hand))
    return entry


def known_double_dummy(hand: Hand) -> dict | None:
    """The contract's double-dummy result of another seat's review of the hand, where one
    settled it: the same for every seat, so it is not searched for again."""
    for result in HandReview.objects.filter(hand=hand, status=HandReview.Status.READY) \
            .values_list("result", flat=True):
        found = (result or {}).get("double_dummy")
        if found and found.get("settled"):
            return found
    return None


def _start(review_id: int, record: dict, seat: int, double_dummy: dict | None = None) -> None:
    if settings.REVIEW_WORKERS <= 0:  # tests: a thread of this process
        threading.Thread(target=_compute_here, args=(review_id, record, seat, double_dummy),
                         daemon=True).start()
        return
    try:
        future = bot_runner.submit(review_or_error, record, seat, double_dummy)
    except Exception:  # no worker could start: the player may ask again
        logger.exception("hand review %s could not be started", review_id)
        _save(review_id, None, HandReview.Status.FAILED)
        return
    future.add_done_callback(lambda done: _store(review_id, done))


def _compute_here(review_id: int, record: dict, seat: int, double_dummy: dict | None) -> None:
    _keep(review_id, review_or_error(record, seat, double_dummy))


def _store(review_id: int, future) -> None:
    try:
        result = future.result()
    except Exception:  # the worker itself went away (the review's own failures are data)
        logger.exception("hand review %s failed in the worker pool", review_id)
        _save(review_id, None, HandReview.Status.FAILED)
        return
    _keep(review_id, result)


def _keep(review_id: int, result: dict) -> None:
    """A review computed, or its failure as ``{"error": ...}`` (``review_or_error``)."""
    if "error" in result:
        logger.error("hand review %s failed: %s", review_id, result["error"])
        _save(review_id, None, HandReview.Status.FAILED)
        return
    _save(review_id, result, HandReview.Status.READY)


def _save(review_id: int, result: dict | None, status: str) -> None:
    try:
        HandReview.objects.filter(pk=review_id).update(
            status=status, result=result, finished_at=timezone.now())
    finally:
        connection.close()  # a thread of the pool's or our own: never leave a connection open
