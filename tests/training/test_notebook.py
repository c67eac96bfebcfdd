"""The training notebook runs end to end (nbmake) with its tiny budget."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_training_notebook_runs():
    pytest.importorskip("nbmake")
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("matplotlib")
    proc = subprocess.run([sys.executable, "-m", "pytest", "--nbmake", "-q", "-p", "no:cacheprovider",
                           "-p", "no:xdist", str(ROOT / "notebooks" / "training.ipynb")],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-3000:]
