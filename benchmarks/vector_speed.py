"""Batched env (``bean_env.vector.VectorEnv``) against the AEC env, random masked play, one process.

    python benchmarks/vector_speed.py                       # bean_duel and 4-player bohnanza, N = 1, 8, 64
    python benchmarks/vector_speed.py --variant bean_duel --sizes 64 --seconds 2

A *step* is one agent decision. The AEC env runs PettingZoo's ``agent_iter``/``last``/``step`` loop
(seeded once, then reset); the batched env steps N games per call with one batched random policy. All
contenders run in interleaved rounds; rates are medians in CPU time (``benchmarks/timing.py``).
"""
from __future__ import annotations

import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import peers  # noqa: E402
from timing import CLOCKS, interleaved, table  # noqa: E402


def vector_loop(variant: str, config: dict, n: int, steps_per_call: int = 200):
    """Steps ``steps_per_call`` batched steps per call; returns the decisions made (n per step) and the
    games that ended."""
    from bean_env.vector import VectorEnv, uniform_random_policy
    vec = VectorEnv(variant, n, **config)
    policy = uniform_random_policy(0)
    state = {"obs": None}

    def play() -> tuple[int, int]:
        if state["obs"] is None:
            state["obs"], state["masks"], _ = vec.reset(seed=0)
        obs, masks = state["obs"], state["masks"]
        ended = 0
        for _ in range(steps_per_call):
            obs, masks, _, _, terminated, truncated, _ = vec.step(policy(obs, masks))
            ended += int((terminated | truncated).sum())
        state["obs"], state["masks"] = obs, masks
        return n * steps_per_call, ended

    return play


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", nargs="*", default=["bean_duel", "bohnanza"])
    ap.add_argument("--sizes", type=int, nargs="*", default=[1, 8, 64])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    args = ap.parse_args(argv)
    from bean_env.envs import make_env
    loops = {}
    for variant in args.variant:
        config = {"num_players": 4} if variant == "bohnanza" else {}
        loops[f"{variant} AEC env"] = peers.aec_loop(make_env(variant, **config))
        for n in args.sizes:
            loops[f"{variant} VectorEnv N={n}"] = vector_loop(variant, config, n, max(1, 400 // n))
    results = interleaved(loops, args.seconds, args.rounds, args.clock)
    print(table(results, [f"{v} AEC env" for v in args.variant], unit="steps/s"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
