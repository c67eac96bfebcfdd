"""Training tests need torch (the ``train`` extra); skip the folder cleanly where it is missing."""
from __future__ import annotations

import pytest

pytest.importorskip("torch")
