"""Test-suite set-up: make ``tests/helpers.py`` importable as ``helpers`` from every test folder."""
from __future__ import annotations

import pathlib
import sys

_HERE = str(pathlib.Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

# Hypothesis: fixed examples (derandomized) so a CI run is reproducible; set HYPOTHESIS_PROFILE=explore
# locally to search new examples on every run.
try:
    import os

    from hypothesis import settings

    settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
    settings.register_profile("explore", deadline=None, print_blob=True)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
except ImportError:  # pragma: no cover - hypothesis is in the dev extra
    pass
