"""Training throughput: env steps per second inside sb3-contrib's ``MaskablePPO.learn()``, and the
share of that time spent in the env (the rest is the network: rollouts' forward passes and updates).

    python benchmarks/train_speed.py                          # bean_duel, 8192 steps, both envs
    python benchmarks/train_speed.py --variant bohnanza --num-players 4 --steps 4096 --env single

*single*: ``SingleAgentEnv`` (the learner against uniform random opponents, which need no views);
*selfplay*: the training package's ``SelfPlayEnv`` (opponents drawn from the pool: baselines and
snapshots). Needs the ``train`` extra. Timings are wall-clock with torch limited to one thread, so a
run on a busy machine reads low for both parts alike; the env share is the comparable figure.
"""
from __future__ import annotations

import argparse
import sys
import time

import gymnasium


class Timed(gymnasium.Wrapper):
    """Adds up the wall time spent in ``reset``, ``step`` and ``action_masks`` of the wrapped env."""

    def __init__(self, env):
        super().__init__(env)
        self.seconds = 0.0
        self.steps = 0

    def reset(self, **kw):
        t = time.perf_counter()
        out = self.env.reset(**kw)
        self.seconds += time.perf_counter() - t
        return out

    def step(self, action):
        t = time.perf_counter()
        out = self.env.step(action)
        self.seconds += time.perf_counter() - t
        self.steps += 1
        return out

    def action_masks(self):
        t = time.perf_counter()
        out = self.env.unwrapped.action_masks()
        self.seconds += time.perf_counter() - t
        return out


def build_env(kind: str, variant: str, config: dict, seed: int):
    if kind == "single":
        from bean_env.envs.single_agent import SingleAgentEnv
        return SingleAgentEnv(variant, **config)
    from bean_env.training.opponents import OpponentPool, parse_mix
    from bean_env.training.selfplay_env import SelfPlayEnv
    pool = OpponentPool(parse_mix("random:1,heuristic:1"), seed=seed)
    return SelfPlayEnv(variant, config, pool, seed=seed)


def measure(kind: str, variant: str, config: dict, steps: int, seed: int = 0) -> dict:
    """Run ``learn(steps)`` once; env steps/s in learn and the env's share of learn's time."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    env = Timed(build_env(kind, variant, config, seed))
    model = MaskablePPO("MlpPolicy", env, n_steps=1024, batch_size=256, seed=seed, verbose=0, device="cpu")
    start = time.perf_counter()
    model.learn(total_timesteps=steps)
    elapsed = time.perf_counter() - start
    return {"env": kind, "steps": env.steps, "seconds": elapsed, "steps_per_s": env.steps / elapsed,
            "env_share": env.seconds / elapsed, "obs_size": env.observation_space.shape[0]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="bean_duel")
    ap.add_argument("--num-players", type=int, help="player count, where the variant has one")
    ap.add_argument("--steps", type=int, default=8192, help="learner steps per measurement")
    ap.add_argument("--env", choices=["single", "selfplay", "both"], default="both")
    args = ap.parse_args(argv)
    config = {"num_players": args.num_players} if args.num_players else {}
    kinds = ["single", "selfplay"] if args.env == "both" else [args.env]
    print(f"{'env':10s} {'steps':>7s} {'seconds':>8s} {'steps/s':>8s} {'env share':>10s} {'obs size':>9s}")
    for kind in kinds:
        r = measure(kind, args.variant, config, args.steps)
        print(f"{kind:10s} {r['steps']:7d} {r['seconds']:8.1f} {r['steps_per_s']:8.0f} {r['env_share']:10.0%} "
              f"{r['obs_size']:9d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
