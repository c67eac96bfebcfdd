"""The observation micro-benchmark runs and counts the observations an env would encode (no timing is
asserted: benchmarks report, tests never time)."""
from __future__ import annotations

from bean_env.envs.obs import bench


def test_bench_counts_one_observation_per_state_along_the_games():
    finished = bench._record("bohnanza", {"num_players": 3}, 1)
    us, count = bench.measure("bohnanza", {"num_players": 3}, games=1, rounds=1)
    assert count == len(finished[0].history) + 1 > 100
    assert us >= 0.0
