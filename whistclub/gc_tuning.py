"""The garbage collector of a serving process, tuned for live tables.

A daphne process holds many long-lived objects (the versions of tables it serves, with their
engine states; Django's loaded modules and templates).  Python's full collections walk all of
them and pause the whole process; under a busy lobby (hundreds of renders a minute) they came
often enough to put the tables' p99 latency at about 280 ms (docs/performance.md).  So:

* ``gc.freeze()`` once start-up is done: what is loaded by then is never collected anyway;
* a larger first-generation threshold (``GC_THRESHOLDS``, default ``50000,20,100``): fewer
  collections, each of young objects only, most of the time.  ``GC_THRESHOLDS=default`` keeps
  Python's own.
"""

from __future__ import annotations

import gc
import os

from django.core.exceptions import ImproperlyConfigured

DEFAULT_THRESHOLDS = (50_000, 20, 100)


def thresholds_from_env() -> tuple[int, ...] | None:
    raw = os.environ.get("GC_THRESHOLDS", "").strip()
    if not raw:
        return DEFAULT_THRESHOLDS
    if raw == "default":
        return None
    try:
        values = tuple(int(part) for part in raw.split(","))
    except ValueError:
        values = ()
    if len(values) != 3 or min(values) < 1:
        raise ImproperlyConfigured(
            f"GC_THRESHOLDS must be three whole numbers of at least 1, e.g. 50000,20,100 "
            f"(or 'default'); got {raw!r}")
    return values


def tune_garbage_collector() -> None:
    thresholds = thresholds_from_env()
    if thresholds is None:
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)
