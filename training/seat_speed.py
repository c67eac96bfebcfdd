"""Learner experience per game and per second: one-seat learner (``SelfPlayEnv``, the MaskablePPO path)
against multi-seat self-play (``BeanMultiAgentEnv`` with every seat a learner seat, the RLlib path).

    python -m bean_env.training.seat_speed --variant bohnanza --num-players 4 --games 20

Both envs are driven by the same uniform random policy over the legal actions (so the measure is the env
side: what each learner decision costs and how many a game yields); opponents in the one-seat env are
``random`` too. Times are CPU seconds of this process (robust on a shared machine).
"""
from __future__ import annotations

import argparse
import json
import time

import numpy as np

from bean_env.engine.config import validate


def one_seat(variant: str, config: dict, games: int, seed: int) -> dict:
    from .opponents import OpponentPool
    from .selfplay_env import SelfPlayEnv

    env = SelfPlayEnv(variant, config, OpponentPool({"random": 1.0}, seed=seed), seed=seed)
    rng = np.random.default_rng(seed)
    decisions = 0
    start = time.process_time()
    env.reset(seed=seed)
    for _ in range(games):
        while True:
            _, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            decisions += 1
            if term or trunc:
                env.reset()
                break
    return {"decisions": decisions, "cpu_s": time.process_time() - start}


def multi_seat(variant: str, config: dict, games: int, seed: int) -> dict:
    from .rllib.env import BeanMultiAgentEnv

    env = BeanMultiAgentEnv({"variant": variant, "rules": config})
    rng = np.random.default_rng(seed)
    decisions = 0
    start = time.process_time()
    obs, _ = env.reset(seed=seed)
    for _ in range(games):
        while True:
            (agent, o), = obs.items()
            obs, _, terms, truncs, _ = env.step({agent: int(rng.choice(np.flatnonzero(o["action_mask"])))})
            decisions += 1
            if terms["__all__"] or truncs["__all__"]:
                obs, _ = env.reset()
                break
    return {"decisions": decisions, "cpu_s": time.process_time() - start}


def compare(variant: str, config: dict, games: int, seed: int = 0) -> dict:
    out = {}
    for name, fn in (("one_seat", one_seat), ("multi_seat", multi_seat)):
        r = fn(variant, config, games, seed)
        r["per_game"] = r["decisions"] / games
        r["per_cpu_s"] = r["decisions"] / r["cpu_s"]
        out[name] = r
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bean_env.training.seat_speed", description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="bohnanza")
    p.add_argument("--num-players", type=int, default=4)
    p.add_argument("--rules", default='{"trade_preset": "learning"}', help="rule options as JSON")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    if a.games < 1:
        p.error("--games must be at least 1")
    config = validate(a.variant, dict(json.loads(a.rules), num_players=a.num_players))
    res = compare(a.variant, config, a.games, a.seed)
    for name, r in res.items():
        print(f"{name}: {r['per_game']:.1f} learner decisions per game, {r['per_cpu_s']:.0f} per CPU second "
              f"({r['decisions']} decisions, {r['cpu_s']:.1f} CPU s, {a.games} games)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
