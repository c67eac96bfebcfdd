"""The optional compiled build (mypyc; ``BEAN_ENV_COMPILE=1`` at install, see ``setup.py``).

``mypyc_attr`` marks how a compiled class may be used (e.g. subclassed by uncompiled rules modules); it
is a no-op in the pure-Python build, which does not need ``mypy_extensions``. ``is_compiled()`` tells
which build is imported."""
from __future__ import annotations

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # the pure-Python build: the marks only matter to mypyc
    def mypyc_attr(*attrs, **kwattrs):  # type: ignore[misc]
        return lambda cls: cls


def is_compiled() -> bool:
    """Whether the engine's hot modules are the mypyc-compiled ones."""
    from . import common
    return not common.__file__.endswith(".py")
