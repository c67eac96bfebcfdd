"""notebooks/quickstart.ipynb runs from top to bottom without errors."""
from __future__ import annotations

from pathlib import Path

from helpers import run_notebook

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "quickstart.ipynb"


def test_quickstart_notebook_executes(tmp_path):
    nb, text = run_notebook(NOTEBOOK, tmp_path)
    assert "winners" in text                 # the env game and the engine game finished
    assert "submit offer" in text            # the trade was stepped through
    assert "| heuristic |" in text           # the tournament table
    images = [o for c in nb.cells for o in c.get("outputs", []) if "image/png" in o.get("data", {})]
    assert images                            # the ratings plot
