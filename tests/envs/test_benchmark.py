"""The throughput benchmark runs end to end (tiny budget; speed itself is not asserted here)."""
from __future__ import annotations

import importlib.util
import json
import pathlib

BENCH = pathlib.Path(__file__).resolve().parents[2] / "benchmarks" / "throughput.py"


def test_throughput_benchmark_smoke(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("throughput", BENCH)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    out = tmp_path / "r.json"
    assert bench.main(["--seconds", "0.05", "--rounds", "2", "--only", "bean_duel", "bohnanza-german-3", "--json", str(out)]) == 0
    results = json.loads(out.read_text())
    assert {"bean_duel", "bohnanza-german-3"} <= set(results)
    for r in results.values():
        assert r["steps"] > 0 and r["games"] >= 1 and r["steps_per_game"] == r["steps"] / r["games"]
    assert "vs texas_holdem_v4" in capsys.readouterr().out
