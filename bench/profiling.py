"""A page's profile for a bench (``BENCH_PROFILE=1``): the page asked for ``runs`` times
under cProfile, the ``top`` lines printed, sorted by ``BENCH_SORT`` (cumulative unless
told)."""

from __future__ import annotations

import cProfile
import os
import pstats


def print_page_profile(client, url: str, runs: int, top: int) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(runs):
        client.get(url)
    profiler.disable()
    pstats.Stats(profiler).sort_stats(os.environ.get("BENCH_SORT", "cumulative")).print_stats(top)
