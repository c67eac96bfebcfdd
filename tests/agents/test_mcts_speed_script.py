"""benchmarks/mcts_speed.py runs end to end (tiny budgets; speed itself is never asserted in tests)."""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "benchmarks" / "mcts_speed.py"
TINY = ["--seconds", "0.1", "--rounds", "1", "--positions", "1", "--simulations", "4", "--variants", "bean_duel"]


def _run(*args: str) -> str:
    return subprocess.run([sys.executable, str(SCRIPT), *TINY, *args], capture_output=True, text=True,
                          check=True, timeout=120).stdout


def test_mcts_speed_reports_rates_and_choices_as_json():
    results = json.loads(_run("--json"))
    assert list(results) == ["bean_duel"]
    assert results["bean_duel"]["rate"] > 0 and len(results["bean_duel"]["choices"]) == 1


def test_mcts_speed_against_a_tree_compares_choices():
    """Against itself the chosen actions agree (the search is reproducible across processes)."""
    out = _run("--against", str(SCRIPT.parents[1]))
    row = next(line for line in out.splitlines() if line.startswith("bean_duel"))
    assert row.split()[-1] == "True"
