"""The speed benchmarks run end to end (tiny budgets; speed itself is never asserted in tests)."""
from __future__ import annotations

import json

from helpers import load_benchmark


def test_throughput_benchmark_smoke(tmp_path, capsys):
    out = tmp_path / "r.json"
    argv = ["--seconds", "0.05", "--rounds", "2", "--only", "bean_duel", "bohnanza-german-3", "--json", str(out)]
    assert load_benchmark("throughput").main(argv) == 0
    results = json.loads(out.read_text())
    assert {"bean_duel", "bohnanza-german-3", "texas_holdem_v4"} <= set(results)
    for r in results.values():
        assert len(r["rounds"]) == 2 and r["steps_per_s"] > 0 and r["steps_per_game"] >= 1
        assert len(r["paired_ratios_vs_texas_holdem_v4"]) == 2
    assert results["texas_holdem_v4"]["paired_ratios_vs_texas_holdem_v4"] == [1.0, 1.0]
    assert "vs texas_holdem_v4 (rounds)" in capsys.readouterr().out


def test_paired_ratios_divide_rates_of_the_same_round():
    timing = load_benchmark("timing")
    ours, base = timing.Result("ours"), timing.Result("base")
    ours.rounds = [(300, 1, 1.0), (100, 1, 0.5), (90, 1, 1.0)]   # rates 300, 200, 90
    base.rounds = [(100, 1, 1.0), (50, 1, 1.0), (30, 1, 0.5)]    # rates 100, 50, 60
    assert timing.paired_ratios(ours, base) == [3.0, 4.0, 1.5]
    line = timing.table({"base": base, "ours": ours}, ["base"]).splitlines()[2]
    assert line.endswith("3.33x (1.50-4.00)")  # median 200 over median 60, then the paired range


def test_peers_are_built_once_and_reset(monkeypatch):
    """An AEC peer is seeded at its first reset only, then reset without a seed (as users run it)."""
    peers = load_benchmark("peers")
    seeds = []

    class Env:
        def reset(self, seed=None):
            seeds.append(seed)

        def agent_iter(self):
            return iter(())

    play = peers.aec_loop(Env(), seed=7)
    for _ in range(3):
        play()
    assert seeds == [7, None, None]


def test_engine_speed_smoke(capsys):
    assert load_benchmark("engine_speed").main(["--seconds", "0.05", "--rounds", "2", "--variants", "bean_duel"]) == 0
    out = capsys.readouterr().out
    assert "bean_duel 2p" in out and "vs rlcard uno (game)" in out and "openspiel hearts" in out


def test_train_speed_smoke(capsys):
    """The training-throughput benchmark reports env steps/s in learn() and the env's share."""
    import pytest
    pytest.importorskip("sb3_contrib")
    bench = load_benchmark("train_speed")
    r = bench.measure("single", "bean_duel", {}, steps=256)
    assert r["steps"] >= 256 and 0 < r["env_share"] < 1 and r["steps_per_s"] > 0


def test_train_speed_trainer_smoke():
    """The trainer mode times bean-env train's own env and model."""
    import pytest
    pytest.importorskip("sb3_contrib")
    bench = load_benchmark("train_speed")
    assert bench.trainer_rate(None, 2, 128, "bean_duel", warmup=64) > 0


def test_train_speed_learner_backends_smoke(capsys):
    """MaskablePPO on the batched learner env, on the engine and on the array kernels."""
    import pytest
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("numba")
    bench = load_benchmark("train_speed")
    assert bench.main(["--learner-backends", "--n-envs", "2", "--steps", "256", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "  engine" in out and "  arrays" in out and "vs engine" in out


def test_vector_speed_smoke(capsys):
    """The batched env against the AEC env, and the learner's batched face against make_vec's sync mode."""
    bench = load_benchmark("vector_speed")
    assert bench.main(["--variant", "bean_duel", "--sizes", "4", "--seconds", "0.05", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "bean_duel VectorEnv N=4" in out
    from bean_env._numba import AVAILABLE
    assert ("bean_duel ArrayVectorEnv N=4" in out) == AVAILABLE
    assert bench.main(["--learner", "--variant", "bean_duel", "--sizes", "4", "--seconds", "0.05",
                       "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "bean_duel learner_gym_vector_env N=4" in out and "make_vec sync N=4" in out
