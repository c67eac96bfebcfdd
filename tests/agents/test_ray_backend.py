"""The Ray backend plays the same games as the local one (one test: Ray start-up is slow)."""
from __future__ import annotations

import pytest

from bean_env.agents.tournament import run_tournament


@pytest.mark.slow
def test_ray_and_local_backends_give_identical_results():
    ray = pytest.importorskip("ray")
    started = not ray.is_initialized()  # another test of this worker may have started Ray already
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        specs = ["heuristic", "random", "mcts:simulations=2"]
        remote = run_tournament("bean_duel", specs, deals=1, seed=8, backend="ray")
        local = run_tournament("bean_duel", specs, deals=1, seed=8, workers=1)
        assert remote.games == local.games
        assert remote.ratings() == local.ratings()
    finally:
        if started:
            ray.shutdown()
