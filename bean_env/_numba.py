"""numba, where it is installed (the ``fast`` extra): ``njit`` compiles; without it ``njit`` leaves a
function as it is (plain Python, same results), and ``AVAILABLE`` is False. numba itself is imported only
when a function is decorated (by the array kernels), not when this module is."""
from __future__ import annotations

import importlib.util
from typing import Any, Callable

try:
    AVAILABLE = importlib.util.find_spec("numba") is not None
except (ImportError, ValueError):  # pragma: no cover - a finder that refuses it
    AVAILABLE = False


def njit(*args: Any, **kwargs: Any) -> Callable:
    """``numba.njit`` (with its options), or the undecorated function without numba."""
    if AVAILABLE:
        import numba
        return numba.njit(*args, **kwargs)
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda fn: fn
