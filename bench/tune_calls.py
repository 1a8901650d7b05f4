"""Tune the computer players' calls by self-play: the evaluation a call needs, measured.

The bench is :mod:`bench.tuning.calls` (its options: ``--help``); this file runs it as
``.venv/bin/python bench/tune_calls.py``, as ``.venv/bin/python -m bench.tune_calls`` does.
"""

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file: the project's root, where bench/ is a package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.tuning.calls import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main())
