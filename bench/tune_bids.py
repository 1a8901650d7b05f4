"""Tune Bid Whist's bids and kitty in real auctions: what a bid gains over a pass, measured.

The bench is :mod:`bench.tuning.bids` (its options: ``--help``); this file runs it as
``.venv/bin/python bench/tune_bids.py``, as ``.venv/bin/python -m bench.tune_bids`` does.
"""

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file: the project's root, where bench/ is a package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.tuning.bids import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main())
