"""Cases that take seconds: in `make test`, left out of `make test-quick` (marker ``slow``)."""

import pytest


def slow_except(values, *quick):
    """``values`` for ``parametrize``, each marked slow unless it is one of ``quick``: the quick
    suite keeps a representative case, `make test` runs them all.  A tuple is the values of
    several argument names."""
    def case(value):
        if value in quick:
            return value
        args = value if isinstance(value, tuple) else (value,)
        return pytest.param(*args, marks=pytest.mark.slow)
    return [case(value) for value in values]
