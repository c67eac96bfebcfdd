"""Env tests: make ``envcases.py`` (configs and random walks shared by these tests) importable."""
from __future__ import annotations

import pathlib
import sys

_HERE = str(pathlib.Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
