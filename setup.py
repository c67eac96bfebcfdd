"""Build hook. The package metadata lives in pyproject.toml; this file only adds the optional compiled
build: with ``BEAN_ENV_COMPILE=1`` the engine's hot modules and the observation encoder are compiled with
mypyc (``mypy`` and ``numpy`` must be installed, and the install run with ``--no-build-isolation``;
``make compiled`` does both). Without it the package is pure Python, exactly as without this file.
Never build the compiled modules in place in a working tree: the ``.so`` files next to the sources would
replace the pure modules."""
from __future__ import annotations

import os

from setuptools import setup

# The hot modules of random play and env steps (benchmarks/engine_speed.py --profile) and the observation
# encoder (most of an env step; the variant blocks' writers are plain functions, typed loosely). game.py (the
# facade) stays pure Python: it checks its inputs itself (numpy seeds and action parts, clear errors),
# where compiled code would reject them by their annotations. The takeover rules subclass the compiled
# Rules and stay pure Python (see bean_env/engine/compiled.py); an uncompiled subclass must not override
# a class attribute of Rules with another value (compiled code would not see it), hence mafia.py is
# compiled.
COMPILED = [
    "bean_env/engine/common.py",
    "bean_env/engine/trading.py",
    "bean_env/engine/bohnanza.py",
    "bean_env/engine/duel.py",
    "bean_env/engine/mafia.py",
    "bean_env/engine/catalogue.py",
    "bean_env/engine/views.py",
    "bean_env/envs/obs/core.py",
    "bean_env/envs/obs/common.py",
    "bean_env/envs/obs/counting.py",
    "bean_env/envs/obs/memory.py",
    "bean_env/envs/obs/trading.py",
    "bean_env/envs/obs/mafia.py",
    "bean_env/envs/obs/takeover.py",
]

if os.environ.get("BEAN_ENV_COMPILE") == "1":
    from mypyc.build import mypycify

    # follow-imports=silent: type errors are reported only in the compiled modules themselves
    # a build folder of its own (make compiled empties it first), so no stale module of another build
    # (or of an earlier compiled build) is packaged
    setup(ext_modules=mypycify(["--follow-imports=silent", *COMPILED], opt_level="3",
                               target_dir="build/compiled/mypyc"),
          options={"build": {"build_base": "build/compiled"}})
else:
    setup()
