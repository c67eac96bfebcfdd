"""Training tests need torch (the ``train`` extra): without it the folder is not collected."""
from __future__ import annotations

import importlib.util

collect_ignore_glob = [] if importlib.util.find_spec("torch") is not None else ["test_*.py"]
