"""numba, where it is installed (the ``fast`` extra): ``njit`` compiles; without it ``njit`` leaves a
function as it is (plain Python, same results), and ``AVAILABLE`` is False."""
from __future__ import annotations

from typing import Any, Callable

try:
    import numba
except ImportError:  # pragma: no cover - exercised where numba is absent
    numba = None

AVAILABLE = numba is not None


def njit(*args: Any, **kwargs: Any) -> Callable:
    """``numba.njit`` (with its options), or the undecorated function without numba."""
    if numba is not None:
        return numba.njit(*args, **kwargs)
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda fn: fn
