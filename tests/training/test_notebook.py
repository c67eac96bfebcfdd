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


def test_training_notebook_is_committed_with_its_learning_curve():
    """The notebook reads well on a code host: its outputs are committed, the curve as an inline image
    (not a non-interactive Agg backend with nothing shown)."""
    import json

    nb = json.loads((ROOT / "notebooks" / "training.ipynb").read_text())
    outputs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])]
    assert any("image/png" in o.get("data", {}) for o in outputs)
    assert not any('matplotlib.use("Agg")' in "".join(c["source"]) for c in nb["cells"])
