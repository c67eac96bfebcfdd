"""Array kernels of the batched env (``vector.array_env``): per variant, its state as arrays over N games
and its rules, legal masks and observations as functions numba compiles (``common``: the layout and the
shared pieces; ``duel``: `bean_duel`; ``mafia``: `al_cabohne` and `bean_solitaire`; ``bohnanza``: the
base game with its trading; ``takeover``: `hostile_takeover` with its text cards; ``drive``: the batched
steps, dispatching to the variant's module).

numba caches compiled kernels beside their sources, and checks only a function's own file for changes:
a kernel compiled with an earlier ``common.py`` would be reused after ``common.py`` changed. So the caches
of this package are dropped whenever any of its sources differs from the last import's.
"""
from __future__ import annotations

import hashlib
from pathlib import Path


def _drop_stale_caches() -> None:
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sorted(here.glob("*.py")))).hexdigest()
    cache = here / "__pycache__"
    stamp = cache / "kernels.stamp"
    try:
        if stamp.read_text() == digest:
            return
    except OSError:
        pass
    try:  # a read-only install: numba cannot cache there either
        for path in cache.glob("*.nb[ic]"):
            path.unlink()
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass


_drop_stale_caches()
