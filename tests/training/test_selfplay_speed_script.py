"""benchmarks/selfplay_speed.py runs end to end (tiny budget; speed itself is never asserted in tests)."""
from __future__ import annotations

import importlib.util
import pathlib
import sys

BENCH = pathlib.Path(__file__).resolve().parents[2] / "benchmarks"


def test_selfplay_speed_smoke(capsys):
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location("selfplay_speed", BENCH / "selfplay_speed.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        assert module.main(["--seconds", "0.1", "--rounds", "2"]) == 0
    finally:
        sys.path.remove(str(BENCH))
    out = capsys.readouterr().out
    assert "SingleAgentEnv" in out and "SelfPlayEnv" in out and "vs SingleAgentEnv" in out
