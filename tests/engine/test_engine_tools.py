"""The engine's developer tools run: the speed benchmark and the golden-trace writer (in check mode)."""
from __future__ import annotations

import importlib.util
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_engine_speed_benchmark_prints_a_table():
    """benchmarks/engine_speed.py plays a short run and prints decisions/s per variant."""
    out = _run("benchmarks/engine_speed.py", "--seconds", "0.05", "--rounds", "1", "--variants", "bean_duel",
               "bohnanza", "--no-peers")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split()[:2] == ["contender", "decisions/s"]
    assert any(line.startswith("bean_duel") for line in lines)
    assert sum(line.startswith("bohnanza") for line in lines) == 9


def test_make_golden_check_mode_agrees_with_the_engine():
    """tests/golden/make_golden.py --check finds the committed traces up to date."""
    out = _run("tests/golden/make_golden.py", "--check")
    assert out.returncode == 0, out.stdout + out.stderr


def test_instruction_count_loops_run_natively():
    """benchmarks/instructions.py's measured loops (run here without valgrind) make decisions, stubbed or not."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import instructions
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    loops = [["engine", "bean_duel", "{}", "1", "0"], ["aec", "bean_duel", "{}", "1", "1"],
             ["vector", "bohnanza", '{"num_players": 3}', "2", "0", "8"], ["vector", "bean_duel", "{}", "2", "1", "16"]]
    if importlib.util.find_spec("numba") is not None:  # the first use of the kernels may compile them
        loops.append(["arrays", "hostile_takeover", '{"num_players": 3}', "2", "0", "8"])
    for args in loops:
        out = subprocess.run([sys.executable, "-c", instructions.CHILD, *args], cwd=ROOT, capture_output=True,
                             text=True, timeout=900)
        assert out.returncode == 0, out.stderr
        decisions = int(out.stdout.split()[-1])
        assert decisions > 0
        if args[0] in ("vector", "arrays"):  # every game of the batch decides once per step
            assert decisions == int(args[3]) * int(args[5])
    bad = _run("benchmarks/instructions.py", "--variant", "nope")
    assert bad.returncode == 2 and "unknown variant 'nope'" in bad.stderr
