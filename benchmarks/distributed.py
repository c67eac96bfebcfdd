"""Batched self-play across processes: ``bean_env.vector.VectorEnv`` workers on a Ray cluster (or
local processes), against the same workers stepped in this process.

    python benchmarks/distributed.py                           # local Ray with every core, bean_duel
    python benchmarks/distributed.py --address auto --workers 32 --num-envs 64   # an existing cluster
    python benchmarks/distributed.py --backend process         # multiprocessing instead of Ray
    python benchmarks/distributed.py --backend process --env-backend arrays   # workers on the array kernels

Each *worker* holds one ``VectorEnv`` of ``--num-envs`` games and a batched random policy, plays
``--steps`` batched steps and returns its decision count; the driver adds them up per wall second
(wall time here: the point is the whole cluster's throughput). Training code uses the same pattern:
workers step their batches and ship observations to one learner (``docs/vector.md``, "Across
processes and clusters"). Tournaments run on a cluster with ``bean-env tournament ... --backend ray
--address auto``.
"""
from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from bean_env.vector import random_rollout as rollout


def run(backend: str, workers: int, variant: str, num_envs: int, steps: int,
        address: str | None = None, config: dict | None = None, env_backend: str = "engine") -> dict:
    """Run ``workers`` rollouts on ``backend`` (``inline``, ``process`` or ``ray``), each worker's games on
    ``env_backend`` (``VectorEnv``: ``engine``; ``ArrayVectorEnv``: ``arrays``): decisions/s."""
    jobs = [(variant, num_envs, steps, 1000 + w, config, env_backend) for w in range(workers)]
    start = time.perf_counter()
    if backend == "inline":
        total = sum(rollout(*job) for job in jobs)
    elif backend == "process":
        with ProcessPoolExecutor(max_workers=workers) as pool:
            total = sum(pool.map(rollout, *zip(*jobs)))
    elif backend == "ray":
        import ray
        started = not ray.is_initialized()
        if started:
            ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
        try:
            remote = ray.remote(rollout)
            total = sum(ray.get([remote.remote(*job) for job in jobs]))
        finally:
            if started:
                ray.shutdown()
    else:
        raise ValueError(f"bad backend {backend!r}; allowed: inline, process, ray")
    elapsed = time.perf_counter() - start
    return {"backend": backend, "workers": workers, "decisions": total, "seconds": elapsed,
            "decisions_per_s": total / elapsed}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="bean_duel")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--num-envs", type=int, default=64)
    ap.add_argument("--steps", type=int, default=100, help="batched steps per worker")
    ap.add_argument("--backend", choices=["ray", "process"], default="ray")
    ap.add_argument("--address", help="Ray cluster address (default: start a local Ray)")
    ap.add_argument("--env-backend", choices=["engine", "arrays", "auto"], default="engine",
                    help="what each worker steps: VectorEnv (engine) or ArrayVectorEnv (arrays)")
    args = ap.parse_args(argv)
    rows = [run("inline", args.workers, args.variant, args.num_envs, args.steps, env_backend=args.env_backend),
            run(args.backend, args.workers, args.variant, args.num_envs, args.steps, args.address,
                env_backend=args.env_backend)]
    base = rows[0]["decisions_per_s"]
    print(f"{'backend':8s} {'workers':>7s} {'decisions':>10s} {'seconds':>8s} {'decisions/s':>12s} {'speed-up':>9s}")
    for r in rows:
        print(f"{r['backend']:8s} {r['workers']:7d} {r['decisions']:10d} {r['seconds']:8.1f} "
              f"{r['decisions_per_s']:12,.0f} {r['decisions_per_s'] / base:8.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
