"""Tune Solo and Belgian Whist's calls still set by hand, in real auctions.

The bench is :mod:`bench.tuning.auctions` (its options: ``--help``); this file runs it as
``.venv/bin/python bench/tune_auctions.py``, as ``.venv/bin/python -m bench.tune_auctions`` does.
"""

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file: the project's root, where bench/ is a package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.tuning.auctions import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main())
