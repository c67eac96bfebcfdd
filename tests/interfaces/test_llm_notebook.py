"""notebooks/llm_agent.ipynb plays a game with a scripted model and shows the transcript."""
from __future__ import annotations

from pathlib import Path

from helpers import run_notebook

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "llm_agent.ipynb"


def test_llm_notebook_executes(tmp_path):
    nb, text = run_notebook(NOTEBOOK, tmp_path, timeout=300)
    assert "winners" in text and "The game is over." in text
    assert "model replied 'offer all give" in text and "plan: submit offer" in text   # an offer line composed
    assert "rejected: could not read" in text                                          # a retry with the error
    assert "Rules summary:" in text and "Legal actions:" in text                       # the prompt shown
