"""Build hook. The package metadata lives in pyproject.toml; this file only adds the optional compiled
build: with ``BEAN_ENV_COMPILE=1`` the engine's hot modules are compiled with mypyc (``mypy`` must be
installed, and the install run with ``--no-build-isolation``; ``make compiled`` does both). Without it
the package is pure Python, exactly as without this file. Never build the compiled modules in place in
a working tree: the ``.so`` files next to the sources would replace the pure modules."""
from __future__ import annotations

import os

from setuptools import setup

# The hot modules of random play and env steps (benchmarks/engine_speed.py --profile). The mafia and
# takeover rules subclass the compiled Rules and stay pure Python (see bean_env/engine/compiled.py).
COMPILED = [
    "bean_env/engine/common.py",
    "bean_env/engine/trading.py",
    "bean_env/engine/bohnanza.py",
    "bean_env/engine/duel.py",
    "bean_env/engine/game.py",
    "bean_env/engine/catalogue.py",
    "bean_env/engine/views.py",
]

if os.environ.get("BEAN_ENV_COMPILE") == "1":
    from mypyc.build import mypycify

    # follow-imports=silent: type errors are reported only in the compiled modules themselves
    setup(ext_modules=mypycify(["--follow-imports=silent", *COMPILED], opt_level="3"))
else:
    setup()
