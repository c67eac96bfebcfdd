"""Batched env (``bean_env.vector.VectorEnv``) against the AEC env, random masked play, one process.

    python benchmarks/vector_speed.py                       # bean_duel and 4-player bohnanza, N = 1, 8, 64
    python benchmarks/vector_speed.py --variant bean_duel --sizes 64 --seconds 2
    python benchmarks/vector_speed.py --variant bean_solitaire --sizes 64   # with ArrayVectorEnv (numba)

    python benchmarks/vector_speed.py --learner --sizes 64      # the learner's batch vs gymnasium.make_vec

A *step* is one agent decision. The AEC env runs PettingZoo's ``agent_iter``/``last``/``step`` loop
(seeded once, then reset); the batched env steps N games per call with one batched random policy (for a
variant with array kernels also ``ArrayVectorEnv``, where numba is installed). With
``--learner`` a step is one learner decision (the random opponents' moves in between): the batched
``learner_gym_vector_env`` against ``gymnasium.make_vec(id, num_envs, vectorization_mode="sync")`` of the
single-agent env, both with uniform random opponents. All contenders run in interleaved rounds; rates
are medians in CPU time (``benchmarks/timing.py``).
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import peers  # noqa: E402
from timing import CLOCKS, interleaved, table  # noqa: E402


def vector_loop(variant: str, config: dict, n: int, steps_per_call: int = 200, arrays: bool = False):
    """Steps ``steps_per_call`` batched steps per call; returns the decisions made (n per step) and the
    games that ended. ``arrays``: ``ArrayVectorEnv`` (the array kernels) instead of ``VectorEnv``."""
    from bean_env.vector import VectorEnv, uniform_random_policy
    from bean_env.vector.array_env import ArrayVectorEnv
    vec = (ArrayVectorEnv if arrays else VectorEnv)(variant, n, **config)
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


def learner_loop(env, steps_per_call: int = 20):
    """Random legal learner play on a Gymnasium ``VectorEnv``: (learner decisions, games ended) per call."""
    import numpy as np
    rng = np.random.default_rng(0)
    state: dict = {}

    def play() -> tuple[int, int]:
        if not state:
            state["info"] = env.reset(seed=0)[1]
        info, ended = state["info"], 0
        for _ in range(steps_per_call):
            masks = info["action_mask"]
            _, _, terminated, truncated, info = env.step((rng.random(masks.shape) * masks).argmax(axis=1))
            ended += int((terminated | truncated).sum())
        state["info"] = info
        return env.num_envs * steps_per_call, ended

    return play


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", nargs="*", default=["bean_duel", "bohnanza"])
    ap.add_argument("--sizes", type=int, nargs="*", default=[1, 8, 64])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    ap.add_argument("--rules", type=json.loads, default={},
                    help='rule options (JSON) for every variant, e.g. \'{"trade_preset": "learning"}\'')
    ap.add_argument("--learner", action="store_true",
                    help="time the learner's batched Gymnasium face against gymnasium.make_vec's sync mode")
    args = ap.parse_args(argv)
    from bean_env._numba import AVAILABLE as numba_ready
    from bean_env.envs import make_env
    from bean_env.vector.array_env import array_variants
    loops = {}
    if args.learner:
        import gymnasium
        from bean_env.envs.registration import gym_id
        from bean_env.vector import learner_gym_vector_env
        for variant in args.variant:
            config = {"num_players": 4} if variant == "bohnanza" else {}
            for n in args.sizes:
                loops[f"{variant} make_vec sync N={n}"] = learner_loop(
                    gymnasium.make_vec(gym_id(variant), num_envs=n, vectorization_mode="sync", **config))
                batched = learner_gym_vector_env(variant, n, **config)
                loops[f"{variant} learner_gym_vector_env N={n}"] = learner_loop(batched)
        results = interleaved(loops, args.seconds, args.rounds, args.clock)
        print(table(results, [name for name in loops if "make_vec" in name], unit="learner steps/s"))
        return 0
    for variant in args.variant:
        config = {**({"num_players": 4} if variant == "bohnanza" else {}), **args.rules}
        loops[f"{variant} AEC env"] = peers.aec_loop(make_env(variant, **config))
        for n in args.sizes:
            loops[f"{variant} VectorEnv N={n}"] = vector_loop(variant, config, n, max(1, 400 // n))
            if variant in array_variants() and numba_ready:
                loops[f"{variant} ArrayVectorEnv N={n}"] = vector_loop(variant, config, n, max(1, 400 // n), True)
    results = interleaved(loops, args.seconds, args.rounds, args.clock)
    print(table(results, [f"{v} AEC env" for v in args.variant], unit="steps/s"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
