#!/usr/bin/env python3
"""Learner steps per second of the training env (``SelfPlayEnv``) next to ``SingleAgentEnv``, one run.

    python benchmarks/selfplay_speed.py                       # bean_duel, random opponents
    python benchmarks/selfplay_speed.py --variant bohnanza --num-players 4 --seconds 10
    python benchmarks/selfplay_speed.py --profile             # cProfile of the SelfPlayEnv loop

Both envs play the same variant against uniformly random opponents (``SelfPlayEnv`` with the opponent
mix ``random:1``, ``SingleAgentEnv`` with its default random opponents and ``learner_seat="random"``,
so that both move the learner over every seat as ``SelfPlayEnv``'s rotation does); the learner picks a uniformly
random legal action from ``action_masks()`` each step, the loop MaskablePPO drives. A *step* is one
learner ``step()`` call (opponents' decisions and forced moves happen inside it); each episode is a
``reset()`` and its steps. The envs are built once, seeded at their first reset and reset per episode.
Rates are medians of CPU time over interleaved rounds (``benchmarks/timing.py``); the ratio column divides
medians of the same run, so machine load affects both envs alike.
"""
from __future__ import annotations

import argparse
import cProfile
import importlib.util
import io
import pathlib
import pstats
import random
import sys

if importlib.util.find_spec("bean_env") is None:  # not installed: use this checkout
    sys.path.append(str(pathlib.Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

from peers import seeded_once  # noqa: E402
from timing import CLOCKS, interleaved, play_for, table  # noqa: E402

BASELINE = "SingleAgentEnv"


def episode_loop(env, seed: int = 0):
    """One episode per call with uniformly random masked learner actions; returns the learner steps."""
    rng = random.Random(seed)
    reset = seeded_once(env, seed)

    def play() -> int:
        reset()
        steps = 0
        while True:
            legal = np.flatnonzero(env.action_masks())
            _, _, terminated, truncated, _ = env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
            if terminated or truncated:
                return steps

    return play


def contenders(variant: str, config: dict, seed: int) -> dict:
    from bean_env.envs.single_agent import SingleAgentEnv
    from bean_env.training.opponents import OpponentPool
    from bean_env.training.selfplay_env import SelfPlayEnv
    selfplay = SelfPlayEnv(variant, config, pool=OpponentPool({"random": 1.0}, seed=seed), seed=seed)
    # both envs move the learner over every seat (SelfPlayEnv rotates it), so they play the same mix of
    # games: a learner fixed at seat 0 would wait for a different share of opponent decisions
    single = SingleAgentEnv(variant, learner_seat="random", **config)
    return {BASELINE: episode_loop(single, seed), "SelfPlayEnv": episode_loop(selfplay, seed)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="bean_duel")
    ap.add_argument("--num-players", type=int, help="players (variants with a choice)")
    ap.add_argument("--seconds", type=float, default=6.0, help="time per env, all rounds (default 6)")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (median reported)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--profile", action="store_true", help="cProfile the SelfPlayEnv loop instead")
    ap.add_argument("--top", type=int, default=30, help="functions shown by --profile")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="cpu", help="cpu (default) or wall time")
    args = ap.parse_args(argv)

    config = {"num_players": args.num_players} if args.num_players else {}
    loops = contenders(args.variant, config, args.seed)
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        play_for(loops["SelfPlayEnv"], args.seconds, CLOCKS["cpu"])
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(args.top)
        print(out.getvalue())
        return 0
    results = interleaved(loops, args.seconds, args.rounds, args.clock)
    print(table(results, [BASELINE], unit="steps/s"))
    slow = results[BASELINE].rate / results["SelfPlayEnv"].rate
    print(f"\nSelfPlayEnv takes {slow:.2f}x the time of SingleAgentEnv per learner step "
          f"({args.variant}{' ' + str(args.num_players) + 'p' if args.num_players else ''}, random opponents)")
    print(f"python {sys.version.split()[0]}; {args.seconds:g} s of {args.clock} time per env in {args.rounds} "
          "interleaved rounds; rates are medians over rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
