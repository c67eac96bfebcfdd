"""notebooks/llm_agent.ipynb plays a game with a scripted model and shows the transcript."""
from __future__ import annotations

from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "llm_agent.ipynb"


def test_llm_notebook_executes(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    text = "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert "winners" in text and "The game is over." in text
    assert "model replied 'offer all give" in text and "plan: submit offer" in text   # an offer line composed
    assert "rejected: could not read" in text                                          # a retry with the error
    assert "Rules summary:" in text and "Legal actions:" in text                       # the prompt shown
