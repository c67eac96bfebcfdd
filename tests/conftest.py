"""Test-suite set-up: make ``tests/helpers.py`` importable as ``helpers`` from every test folder."""
from __future__ import annotations

import pathlib
import sys

_HERE = str(pathlib.Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
