"""Env throughput: random masked play through PettingZoo's standard ``agent_iter``/``last``/``step``
loop, for every bean_env variant and player count, side by side with PettingZoo's ``texas_holdem_v4``
and ``connect_four_v3`` (``pip install -e ".[bench]"``), in the same process and run.

    python benchmarks/throughput.py                  # 3 s per env
    python benchmarks/throughput.py --seconds 1 --only bohnanza-german-4 --json out.json

Reports steps/s (agent decisions), games/s and steps/game, and each env's steps/s as a ratio of
``texas_holdem_v4``'s. Every env is built with its standard wrappers (``env()``, or PettingZoo's
registry for the peers) and driven by the same loop and the same random masked policy. The budget is
split into interleaved rounds over all envs and each env reports its best round, so load from other
processes distorts the ratios less.
"""
from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time

import numpy as np


def bean_cases() -> list[tuple[str, str, dict]]:
    """(label, env module, options) for every bean_env variant config."""
    from bean_env.envs import available_variants
    cases = [(f"bohnanza-german-{k}", "bean_env.envs.bohnanza_v1", {"edition": "german", "num_players": k})
             for k in (3, 4, 5)]
    cases += [(f"bohnanza-english-{k}", "bean_env.envs.bohnanza_v1", {"edition": "english", "num_players": k})
              for k in range(3, 8)]
    cases += [(v, f"bean_env.envs.{v}_v1", {}) for v in available_variants()
              if v not in ("bohnanza", "hostile_takeover")]
    if "hostile_takeover" in available_variants():
        cases += [(f"hostile_takeover-{k}", "bean_env.envs.hostile_takeover_v1", {"num_players": k})
                  for k in (2, 3, 4, 5)]
    return cases


# PettingZoo peers, made through PettingZoo's registry (label, registry id)
PEERS = [("texas_holdem_v4", "classic/texas_holdem-v4"), ("connect_four_v3", "classic/connect_four-v3")]
BASELINE = "texas_holdem_v4"


def measure(env, seconds: float, seed: int = 0) -> dict:
    """Play random masked games for about ``seconds``; returns steps, games and rates."""
    rng = random.Random(seed)
    steps = games = 0
    episode = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        env.reset(seed=seed + episode)
        episode += 1
        for agent in env.agent_iter():
            obs, reward, termination, truncation, info = env.last()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
                steps += 1
            env.step(action)
        games += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {"steps": steps, "games": games, "seconds": elapsed, "steps_per_s": steps / elapsed,
            "games_per_s": games / elapsed, "steps_per_game": steps / games}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time budget per env (whole games)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="interleaved rounds; each env reports its best round")
    parser.add_argument("--only", nargs="*", help="labels to run (default: all); peers always run")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args(argv)

    cases = bean_cases()
    if args.only:
        unknown = set(args.only) - {c[0] for c in cases}
        if unknown:
            parser.error(f"unknown labels {sorted(unknown)}; allowed: {', '.join(c[0] for c in cases)}")
        cases = [c for c in cases if c[0] in args.only]
    import pettingzoo
    envs = {}
    for label, env_id in PEERS:
        try:
            envs[label] = pettingzoo.make("aec", env_id)
        except Exception as err:  # the classic extras (rlcard, pygame) are missing
            print(f"{label}: skipped ({err}); install the bench extra", file=sys.stderr)
    for label, module, options in cases:
        envs[label] = importlib.import_module(module).env(**options)
    # interleaved rounds, best round per env: robust against other load on a shared machine
    runs: dict[str, list] = {label: [] for label in envs}
    for r in range(args.rounds):
        for label, env in envs.items():
            runs[label].append(measure(env, args.seconds / args.rounds, seed=1000 * r))
    results = {label: max(rs, key=lambda x: x["steps_per_s"]) for label, rs in runs.items()}
    base = results.get(BASELINE, {}).get("steps_per_s")
    print(f"{'env':22s} {'steps/s':>10s} {'games/s':>9s} {'steps/game':>11s} {'vs ' + BASELINE:>20s}")
    for label, r in results.items():
        ratio = f"{r['steps_per_s'] / base:.2f}x" if base else "-"
        r["ratio_vs_" + BASELINE] = r["steps_per_s"] / base if base else None
        print(f"{label:22s} {r['steps_per_s']:10.0f} {r['games_per_s']:9.2f} {r['steps_per_game']:11.1f} {ratio:>20s}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
