"""Batched rollouts run the same on local processes and on Ray (benchmarks/distributed.py)."""
from __future__ import annotations

import pytest
from helpers import load_benchmark


def _bench():
    return load_benchmark("distributed")


def test_process_workers_play_every_decision():
    r = _bench().run("process", 2, "bean_duel", num_envs=4, steps=20)
    assert r["decisions"] == 2 * 4 * 20 and r["decisions_per_s"] > 0


def test_process_workers_on_the_array_kernels():
    pytest.importorskip("numba")
    r = _bench().run("process", 2, "al_cabohne", num_envs=4, steps=20, env_backend="arrays")
    assert r["decisions"] == 2 * 4 * 20


@pytest.mark.slow
def test_ray_workers_play_every_decision():
    pytest.importorskip("ray")
    r = _bench().run("ray", 2, "bean_duel", num_envs=4, steps=20)
    assert r["decisions"] == 2 * 4 * 20
