"""notebooks/batched.ipynb runs from top to bottom: both batched envs give the same games, and one shared
policy plays every seat of the array env's games."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import run_notebook

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "batched.ipynb"


def test_batched_notebook_executes(tmp_path):
    pytest.importorskip("numba")
    _, text = run_notebook(NOTEBOOK, tmp_path)
    assert "over 500 steps of 8 games: True" in text
    assert "ArrayVectorEnv  64 games of bean_duel" in text
    assert "500 games of al_cabohne" in text
