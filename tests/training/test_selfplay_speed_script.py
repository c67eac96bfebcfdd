"""benchmarks/selfplay_speed.py runs end to end (tiny budget; speed itself is never asserted in tests)."""
from __future__ import annotations

from helpers import load_benchmark


def test_selfplay_speed_smoke(capsys):
    assert load_benchmark("selfplay_speed").main(["--seconds", "0.1", "--rounds", "2"]) == 0
    out = capsys.readouterr().out
    assert "SingleAgentEnv" in out and "SelfPlayEnv" in out and "vs SingleAgentEnv" in out
